#!/bin/bash
# The stressors built into stress-ng (build/stress-ng/stress-ng), run the
# way its users run any stressor: bogo-ops and metrics for the stack path
# and for shm-pcp with stack churn; --verify proving the areas again and
# reading every faulted page back; bad option values refused by
# stress-ng's parser in one line naming the option, the value and the
# range or choices; no STRESS_MM_* variable read (the stressor files are
# stress-ng's, options only); --help and --class listing them (and the
# "[...all" that makes lkp-tests add --TEST-method all); a path that
# cannot run skipping with the reason and its errno; a failure exiting 2;
# stress-ng's own -t 1 --NAME 4 line exiting 0 or 3 every time; limits
# (descriptors, processes, address space) reached before or during the
# run giving a proof that still runs, the batch that ran, or no resource
# (exit 3); and, as root, workers that keep stress-ng's privileges.
. "$(dirname "$0")/lib.sh"
need_native

plan 33

# run NAME ARGS...: the native stress-ng in its own session, in $TMPD,
# output in $TMPD/NAME.log, YAML in $TMPD/NAME.yaml; returns its status.
run() {
	local name=$1
	shift
	(cd "$TMPD" && timeout 120 setsid "$NATIVE" "$@" --metrics \
		--yaml "$TMPD/$name.yaml" > "$TMPD/$name.log" 2>&1)
}
# metric NAME STRESSOR WORDS: the value of that metrics line, or empty.
metric() {
	awk -v s="$2" -v w="$3" '$1 == "stress-ng:" && $4 == s &&
		index($0, " " w " (") { print $5; exit }' "$TMPD/$1.log"
}
positive() { awk -v v="${1:-0}" 'BEGIN { exit !(v > 0) }'; }
fails() { grep -c "fail:\|FAIL" "$TMPD/$1.log"; }

run stack --vmalloc-order 2 --vmalloc-order-method stack -t 5
rc=$?
ops=$(yaml_bogo_ops "$TMPD/stack.yaml")
[ $rc -eq 0 ] && [ "$(yaml_stressor "$TMPD/stack.yaml" 1)" = vmalloc-order ] &&
	[ "${ops:-0}" -gt 0 ] && [ "$(fails stack)" -eq 0 ]
ok $? "vmalloc-order stack: exit $rc, bogo-ops ${ops:-none}, no failure"
grep -q "metrc: .* vmalloc-order  *$ops " "$TMPD/stack.log"
ok $? "its metrics line is named vmalloc-order"
a=$(metric stack vmalloc-order "allocations per sec")
positive "$a" && grep -q "^ *allocations-per-sec: " "$TMPD/stack.yaml"
ok $? "allocations per sec as a metric, in --metrics ($a) and --yaml"
grep -q "vmalloc-order: stack: kernel thread stacks are vmalloc areas" "$TMPD/stack.log"
ok $? "the stack path proved its areas (stress-ng's log)"
diag "$(grep "vmalloc-order:" "$TMPD/stack.log" | sed 's/^stress-ng: [a-z]*: *\[[0-9]*\] //')"

(cd "$TMPD" && exec setsid timeout 120 "$NATIVE" --shm-pcp 1 --shm-pcp-mode stack \
	--shm-pcp-bytes 1M -t 5 --verify --metrics --yaml "$TMPD/shm.yaml" \
	> "$TMPD/shm.log" 2>&1) &
sid=$!
wait $sid
rc=$?
ops=$(yaml_bogo_ops "$TMPD/shm.yaml")
[ $rc -eq 0 ] && [ "$(yaml_stressor "$TMPD/shm.yaml" 1)" = shm-pcp ] &&
	[ "${ops:-0}" -gt 0 ] && [ "$(fails shm)" -eq 0 ]
ok $? "shm-pcp churn stack --verify: exit $rc, bogo-ops ${ops:-none}, no failure"
p=$(metric shm shm-pcp "pages faulted per sec")
c=$(metric shm shm-pcp "churn allocations per sec")
positive "$p" && positive "$c" && grep -q "^ *pages-faulted-per-sec: " "$TMPD/shm.yaml" &&
	grep -q "churn stack x 1" "$TMPD/shm.log"
ok $? "pages faulted per sec ($p) and the companion's churn allocations per sec ($c) as metrics"
grep -q "shm-pcp: verify: every page read back held the word written to it (256 pages" "$TMPD/shm.log"
ok $? "--verify read every faulted page back"
left=$(pgrep -s "$sid" | tr '\n' ' ')
[ -z "$left" ]
ok $? "nothing of the run is left when stress-ng returns (${left:-none})"
diag "$(grep "shm-pcp:" "$TMPD/shm.log" | sed 's/^stress-ng: [a-z]*: *\[[0-9]*\] //')"

run verify --vmalloc-order 1 --vmalloc-order-method stack -t 4 --verify
rc=$?
[ $rc -eq 0 ] && grep -q "vmalloc-order: verify: stack: its areas show in /proc/vmallocinfo again" "$TMPD/verify.log"
ok $? "vmalloc-order --verify proves the stack areas again while running (exit $rc)"

# --verify at stress-ng's -t 1: a path is proved again right after its
# first bogo-op, and the run says what it proved (one worker: its own
# list; stack is the first path all takes)
run verify1 --vmalloc-order 1 -t 1 --verify
rc=$?
list=$(sed -n 's/.*vmalloc-order: verify: proved again while running: //p' "$TMPD/verify1.log" | head -1)
[ $rc -eq 0 ] && case ", $list" in *", stack x "*) true ;; *) false ;; esac
ok $? "--verify -t 1 proves again: ${list:-nothing said} (exit $rc)"

# Not root (/proc/vmallocinfo unreadable): the kinds are decided from
# VmallocUsed or by rule, and all leaves out what a root run leaves out,
# so that the two runs' figures cover the same paths; each kind says how
# it was decided, never only "not verified". (Under --verify a run that
# cannot read /proc/vmallocinfo also leaves out what it cannot verify:
# test/71-native-stop.t.)
if [ "$(id -u)" -eq 0 ] && command -v setpriv > /dev/null; then
	run allroot --vmalloc-order 1 -t 2
	chmod 1777 "$TMPD"
	(cd "$TMPD" && exec timeout 60 setpriv --reuid 54323 --regid 54323 --clear-groups -- \
		"$NATIVE" --vmalloc-order 1 -t 2 > "$TMPD/allnr.log" 2>&1)
	rc=$?
	outs() { sed -n 's/.*\(all\|io-uring\): leaving out \([a-z-]* *[a-z]*\):.*/\2/p' "$1" | sort | tr '\n' ' '; }
	[ $rc -eq 0 ] && [ "$(outs "$TMPD/allroot.log")" = "$(outs "$TMPD/allnr.log")" ] &&
		! grep -q "kind not verified" "$TMPD/allnr.log" &&
		grep -q "vmalloc-order: stack: .*vmalloc by VmallocUsed" "$TMPD/allnr.log"
	ok $? "not root: all leaves out what root's does (root: $(outs "$TMPD/allroot.log"); not root: $(outs "$TMPD/allnr.log")), kinds decided, exit $rc"
	diag "$(grep -o "vmalloc-order: [a-z -]*: .*\(by VmallocUsed\|by rule\)[^)]*)" "$TMPD/allnr.log")"
else
	skip "not root: all leaves out what root's does" "needs root and setpriv to run both"
fi

# Bad values: stress-ng's parser, one line naming the option, the value
# and what is allowed (the kernel-module path and churn, and the front
# end's test-vmalloc, are stress-mm's: no built-in stressor offers them).
while read -r stressor opt val allowed; do
	run "bad-$opt-$val" --"$stressor" 1 --"$opt" "$val" -t 1
	rc=$?
	[ $rc -eq 1 ] && [ "$(wc -l < "$TMPD/bad-$opt-$val.log")" -eq 1 ] &&
		grep -qF -- "$opt" "$TMPD/bad-$opt-$val.log" &&
		grep -qF -- "$val" "$TMPD/bad-$opt-$val.log" &&
		grep -qF -- "$allowed" "$TMPD/bad-$opt-$val.log"
	ok $? "--$opt $val: exit $rc, $(head -n 1 "$TMPD/bad-$opt-$val.log")"
done <<'EOF2'
vmalloc-order vmalloc-order-bytes 1 4096 .. 1073741824
vmalloc-order vmalloc-order-batch 5000 1 .. 4096
vmalloc-order vmalloc-order-method stak all stack io-uring bpf ldt pty fdtable
vmalloc-order vmalloc-order-method test-vmalloc all stack io-uring bpf ldt pty fdtable
vmalloc-order vmalloc-order-method module all stack io-uring bpf ldt pty fdtable
shm-pcp shm-pcp-mode spinn stack io-uring bpf ldt pty spin none
shm-pcp shm-pcp-mode module stack io-uring bpf ldt pty spin none
shm-pcp shm-pcp-churn-procs 65 0 .. 64
EOF2

# The plugin's variables are not the built-in stressors' settings.
(cd "$TMPD" && STRESS_MM_SHM_PCP_MODE=spinn STRESS_MM_SHM_PCP_BYTES=64KK \
	timeout 60 "$NATIVE" --shm-pcp 1 --shm-pcp-bytes 1M -t 1) > "$TMPD/env.log" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "object of 1048576 bytes per bogo-op, churn stack x 1" "$TMPD/env.log"
ok $? "STRESS_MM_* variables, bad ones included, change nothing: churn stack, the default (exit $rc)"
(cd "$TMPD" && timeout 60 "$NATIVE" --shm-pcp 1 --shm-pcp-mode spin \
	--shm-pcp-bytes 1M -t 1) > "$TMPD/env3.log" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "churn spin x 1" "$TMPD/env3.log"
ok $? "--shm-pcp-mode spin sets the churn (exit $rc)"

"$NATIVE" --help > "$TMPD/help" 2>&1
missing=
for o in vmalloc-order vmalloc-order-ops vmalloc-order-bytes vmalloc-order-batch \
	vmalloc-order-method vmalloc-order-io-uring shm-pcp shm-pcp-ops shm-pcp-bytes \
	shm-pcp-method shm-pcp-mode shm-pcp-churn-bytes shm-pcp-churn-batch \
	shm-pcp-churn-procs shm-pcp-cpu; do
	grep -qE "^ +--$o " "$TMPD/help" || missing="$missing $o"
done
[ -z "$missing" ]
ok $? "--help lists every option of both stressors (missing:${missing:- none})"
# lkp-tests' programs/stress-ng/run adds --TEST-method all on this match.
grep -qE "^ +--vmalloc-order-method .*(\[.*all|all,)" "$TMPD/help" &&
	grep -qE "^ +--shm-pcp-method .*(\[.*all|all,)" "$TMPD/help"
ok $? "both method options offer all the way lkp-tests looks for it"
in_class() { "$NATIVE" --class "$1?" 2>&1 | tr ' ' '\n' | grep -qx "$2"; }
in_class vm vmalloc-order && in_class os vmalloc-order && in_class vm shm-pcp &&
	in_class os shm-pcp
ok $? "classes: vmalloc-order and shm-pcp in vm and os"

# A failure: SysV segments larger than shmmax, in an IPC namespace of
# this test's own (the machine's shmmax is left alone).
if [ "$(id -u)" -eq 0 ] && command -v unshare > /dev/null; then
	(cd "$TMPD" && timeout 60 unshare --ipc sh -c 'echo 65536 > /proc/sys/kernel/shmmax &&
		exec "$0" --shm-pcp 1 --shm-pcp-method sysv --shm-pcp-bytes 1M \
		--shm-pcp-mode none -t 2' "$NATIVE") > "$TMPD/fail.log" 2>&1
	rc=$?
	[ $rc -eq 2 ] && grep -q "fail: .*shm-pcp: shmget of 1048576 bytes failed, errno=22" "$TMPD/fail.log"
	ok $? "a failing cycle is a failure: exit $rc, $(grep "fail:" "$TMPD/fail.log" | head -n 1)"
else
	skip "a failing cycle is a failure" "needs root and unshare(1)"
fi

# stress-ng's own autopkgtest line (debian/tests/fast-test-all), which
# ends most runs while the companions set up: exit 0 or 3, never a
# failure (a stop during set-up ends as a timeout).
bad=
for i in $(seq 10); do
	run apt-$i -v -t 1 --shm-pcp 4 --verify --timestamp
	rc=$?
	case $rc in 0 | 3) [ "$(fails "apt-$i")" -eq 0 ] || bad="$bad $i:fail-line" ;;
	*) bad="$bad $i:exit-$rc" ;;
	esac
done
[ -z "$bad" ]
ok $? "-t 1 --shm-pcp 4 --verify, 10 runs: each exit 0 or 3 (bad:${bad:- none})"
[ -z "$bad" ] || diag "$(grep -h "fail" "$TMPD"/apt-*.log | head -5)"

# Few descriptors (RLIMIT_NOFILE 64): the pty path and the pty churn
# leave room for their proof, and the placement note gives the batch the
# companions run, not the one asked.
(ulimit -n 64 && run ptyfd --vmalloc-order 1 --vmalloc-order-method pty \
	--vmalloc-order-batch 64 -t 2)
rc=$?
[ $rc -eq 0 ] && grep -q "vmalloc-order: pty: .* are vmalloc areas of" "$TMPD/ptyfd.log" &&
	! grep -q "not verified" "$TMPD/ptyfd.log"
ok $? "pty under RLIMIT_NOFILE 64: proven, not unverified (exit $rc, $(grep -o "batch clamped.*" "$TMPD/ptyfd.log"))"
(ulimit -n 64 && run ptychurn --shm-pcp 1 --shm-pcp-mode pty --shm-pcp-bytes 1M -t 2)
rc=$?
n=$(sed -n 's/.*churn pty x 1 (batch \([0-9]*\) of 128 asked).*/\1/p' "$TMPD/ptychurn.log")
[ $rc -eq 0 ] && [ -n "$n" ] && [ "$n" -lt 128 ] &&
	grep -q "shm-pcp: pty: .* are vmalloc areas of" "$TMPD/ptychurn.log" &&
	! grep -q "not verified" "$TMPD/ptychurn.log"
ok $? "churn pty under RLIMIT_NOFILE 64: proven, placement says batch ${n:-?} of 128 asked (exit $rc)"

# A SKIP names its errno: no address space for the object (RLIMIT_AS)
(ulimit -v 400000 && run novm --shm-pcp 1 --shm-pcp-bytes 1G -t 2)
rc=$?
[ $rc -eq 3 ] && grep -q "shm-pcp: mmap MAP_SHARED of 1073741824 bytes, errno=12 (Cannot allocate memory), skipping stressor" "$TMPD/novm.log"
ok $? "a 1G object under RLIMIT_AS 400000K: exit $rc, $(grep -o "shm-pcp: mmap.*" "$TMPD/novm.log")"

# A process limit reached mid-run is no resource (exit 3), not a
# failure: a user of its own, and the companion's RLIMIT_NPROC lowered to
# 1 once it churns, so that its next clone() finds none.
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null && command -v prlimit > /dev/null; then
	uid=$((40000 + RANDOM % 20000))
	chmod 1777 "$TMPD"
	(cd "$TMPD" && exec timeout 60 setpriv --reuid "$uid" --regid "$uid" \
		--clear-groups -- "$NATIVE" --shm-pcp 1 --shm-pcp-mode stack \
		--shm-pcp-churn-batch 16 --shm-pcp-bytes 1M -t 20 > "$TMPD/nproc.log" 2>&1) &
	pid=$!
	# the companion: the user's process whose parent's parent is the
	# user's too (stress-ng, its worker, the companion)
	churner() {
		grep -q "churn stack x 1" "$TMPD/nproc.log" &&
			comp=$(ps -u "$uid" -o pid=,ppid= | awk '
				{ par[$1] = $2 }
				END { for (p in par) if (par[p] in par && par[par[p]] in par) { print p; exit } }') &&
			[ -n "$comp" ]
	}
	# as the user itself: root lacks CAP_SYS_RESOURCE for another user's
	within 30 churner > /dev/null && setpriv --reuid "$uid" --regid "$uid" \
		--clear-groups -- prlimit --pid "$comp" --nproc=1:1
	wait $pid
	rc=$?
	[ $rc -eq 3 ] && grep -q "errno=11" "$TMPD/nproc.log" && [ "$(fails nproc)" -eq 0 ]
	ok $? "RLIMIT_NPROC reached mid-run: exit $rc, $(grep -o "shm-pcp: churn companion.*" "$TMPD/nproc.log" | head -1)"
else
	skip "RLIMIT_NPROC reached mid-run: exit 3" "needs root, setpriv and prlimit (util-linux)"
fi

# As root the workers have CAP_IPC_LOCK: io_uring accounts no pinned page
# against RLIMIT_MEMLOCK, so the buffers are sized by the bytes asked
# alone (a 1G buffer for a 4M table), and no message advises the limit.
if [ "$(id -u)" -eq 0 ]; then
	run iou --vmalloc-order 1 --vmalloc-order-method io-uring \
		--vmalloc-order-io-uring buffers --vmalloc-order-bytes 4M -t 2
	rc=$?
	[ $rc -eq 0 ] && grep -q "io-uring buffers: page tables of a 1G registered buffer are vmalloc areas" "$TMPD/iou.log" &&
		! grep -q "RLIMIT_MEMLOCK above\|or CAP_IPC_LOCK" "$TMPD/iou.log"
	ok $? "as root io-uring buffers are not bound by RLIMIT_MEMLOCK $(ulimit -l)K (exit $rc): $(grep -o "io-uring buffers: page tables.*caller [a-z_]*" "$TMPD/iou.log")"
else
	skip "as root io-uring buffers are not bound by RLIMIT_MEMLOCK" "not root"
fi

# As root the workers keep stress-ng's privileges (the plugin's drop
# every capability and set no_new_privs).
if [ "$(id -u)" -eq 0 ]; then
	(cd "$TMPD" && exec setsid "$NATIVE" --vmalloc-order 1 --vmalloc-order-method stack \
		-t 4 > "$TMPD/caps.log" 2>&1) &
	sid=$!
	caps=
	# a worker's, while the run lasts (not a guess of when it starts)
	worker_caps() {
		local w
		for w in $(pgrep -P "$sid"); do
			caps=$(awk '/^CapEff:/ { c = $2 } /^NoNewPrivs:/ { n = $2 }
				END { print c " " n }' "/proc/$w/status" 2> /dev/null)
		done
		[ -n "$caps" ] || ! kill -0 "$sid" 2> /dev/null
	}
	within 60 worker_caps
	wait
	[ -n "$caps" ] && [ "${caps% *}" != 0000000000000000 ] && [ "${caps#* }" = 0 ]
	ok $? "as root a worker keeps stress-ng's capabilities (CapEff NoNewPrivs: ${caps:-none found})"
else
	skip "as root a worker keeps stress-ng's capabilities" "not root"
fi

# The same stress-ng running the plugin: its workers have no capability
# and no_new_privs, as under Debian's stress-ng (stress_drop_capabilities()
# needs the <sys/capability.h> its configuration found: native/build.sh).
if [ "$(id -u)" -eq 0 ]; then
	(cd "$TMPD" && exec setsid "$NATIVE" --plugin 1 --plugin-so "$SO" \
		--plugin-method vmalloc_order_stack -t 4 > "$TMPD/pcaps.log" 2>&1) &
	sid=$!
	dropped=
	# a process of the run with no capability and no_new_privs: a worker
	plugin_caps() {
		local w c
		for w in $(pgrep -s "$sid"); do
			c=$(awk '/^CapEff:/ { c = $2 } /^NoNewPrivs:/ { n = $2 }
				END { print c " " n }' "/proc/$w/status" 2> /dev/null)
			[ "$c" = "0000000000000000 1" ] && dropped=$w
		done
		[ -n "$dropped" ] || ! kill -0 "$sid" 2> /dev/null
	}
	within 60 plugin_caps
	wait
	why="worker $dropped"
	[ -n "$dropped" ] || why="none found; $(grep -c '^#define HAVE_SYS_CAPABILITY_H' "$BUILD/stress-ng/src/config.h" 2> /dev/null) HAVE_SYS_CAPABILITY_H in its config.h"
	[ -n "$dropped" ]
	ok $? "as root the plugin's workers in this stress-ng drop every capability and set no_new_privs ($why)"
else
	skip "as root the plugin's workers in this stress-ng drop every capability" "not root"
fi

done_testing
