#!/bin/bash
# The built-in stressors stop as stress-ng's own do, whatever the path
# and size: -t 1 with batches of 4096, 1G buffers and 1G objects ends
# (its wall time said, a hang bound of 10 s failed); a SIGKILL of
# stress-ng's main process leaves orphaned workers that never fork on
# (the run's live processes only fall) and are all gone within 5 s; one
# worker SIGKILLed (the OOM killer's signal) neither ends the run early
# nor fails it; a churn companion SIGKILLed is restarted and said, not a
# failure; --verify as a user who cannot see /proc/vmallocinfo skips the
# paths it cannot verify rather than passing; --maximize and --minimize
# size what is left unset; a batch or buffer beyond the instance's share
# of free memory is clamped and said; size options are read whole or
# refused naming the option; --help keeps long options apart from their
# text.
. "$(dirname "$0")/lib.sh"
need_native

plan 21

# live SID: the run's processes in session SID that are not zombies
live() { session_left "$1" | awk '$3 !~ /^Z/' | wc -l; }
# took CMD...: run CMD in $TMPD, its output in $TMPD/took.log; TOOK is
# its wall time in ms, and the status is CMD's
took() {
	local t0 rc
	t0=$(date +%s%N)
	(cd "$TMPD" && timeout -s KILL 60 "$@") > "$TMPD/took.log" 2>&1
	rc=$?
	TOOK=$((($(date +%s%N) - t0) / 1000000))
	return $rc
}

# sweep DESC OPTION WORDS -- ARGS...: stress-ng -t 1 ARGS --OPTION W for
# each of WORDS, one test: each exits 0 within the hang bound of 11 s
sweep() {
	local desc=$1 opt=$2 words=() w rc slow="" times=""
	shift 2
	while [ "$1" != -- ]; do words+=("$1"); shift; done
	shift
	for w in "${words[@]}"; do
		took "$NATIVE" "$@" "--$opt" "$w" -t 1
		rc=$?
		times="$times $w:${TOOK}ms"
		{ [ $rc -eq 0 ] && [ "$TOOK" -le 11000 ]; } || slow="$slow $w(rc $rc, ${TOOK}ms)"
	done
	[ -z "$slow" ]
	ok $? "$desc -t 1 ends for each:$times${slow:+; not:$slow}"
}

# 1-3. -t 1 ends: each method at batch 4096, the io-uring buffer of a
# 16M table (a 1G buffer, or the memory share), shm-pcp with 1G objects.
sweep "vmalloc-order --vmalloc-order-batch 4096" vmalloc-order-method \
	all stack io-uring bpf ldt pty fdtable -- --vmalloc-order 2 --vmalloc-order-batch 4096
sweep "vmalloc-order io-uring --vmalloc-order-bytes 16M" vmalloc-order-io-uring \
	both buffers -- --vmalloc-order 2 --vmalloc-order-method io-uring --vmalloc-order-bytes 16M
sweep "shm-pcp --shm-pcp-bytes 1G" shm-pcp-method \
	posix memfd sysv -- --shm-pcp 2 --shm-pcp-bytes 1G

# 4-5. Where one item is slow (4 workers on one CPU, taskset), a stop
# cuts the batch or the cycle: judged by what the run did, not by the
# clock (a busy host slows every item alike). ldt, batch 4096: once the
# workers fork, SIGINT to stress-ng; from 0.5 s later on the run's live
# processes only fall (the workers fork no more), and it ends. shm-pcp,
# objects of 1G (a cycle takes seconds on a shared CPU): -t 1 counts no
# bogo-op, as no cycle was whole, and faulted pages all the same.
(cd "$TMPD" && exec setsid taskset -c 0 "$NATIVE" -t 60 --vmalloc-order 4 \
	--vmalloc-order-method ldt --vmalloc-order-batch 4096) > "$TMPD/ldtstop.log" 2>&1 &
sid=$!
forking() { [ "$(live "$sid")" -ge 200 ]; }
if within 30 forking; then
	kill -INT "$sid"
	sleep 0.5
	n1=$(live "$sid")
	sleep 1
	n2=$(live "$sid")
	t0=$(date +%s)
	wait "$sid"
	rc=$?
	[ "$n2" -le "$n1" ] && [ $(($(date +%s) - t0)) -le 30 ]
	ok $? "4 ldt workers on one CPU, batch 4096, SIGINT mid-batch: $n1 live processes 0.5 s later, $n2 at 1.5 s, exit $rc"
else
	kill -KILL "$sid" 2> /dev/null
	wait "$sid" 2> /dev/null
	ok 1 "4 ldt workers on one CPU, batch 4096: the workers never had 200 processes in 30 s ($(live "$sid") now)"
fi
took taskset -c 0 "$NATIVE" --shm-pcp 4 --shm-pcp-bytes 1G -t 1 --metrics --yaml "$TMPD/big.yaml"
rc=$?
ops=$(yaml_bogo_ops "$TMPD/big.yaml")
pages=$(awk '/^ *pages-faulted-per-sec:/ { print $2; exit }' "$TMPD/big.yaml")
if grep -q "objects of 1073741824 bytes clamped" "$TMPD/took.log"; then
	skip "4 shm-pcp workers on one CPU, 1G objects" "the memory share clamps 4 x 1G here: $(grep -o 'clamped to [0-9]*' "$TMPD/took.log")"
else
	[ $rc -eq 0 ] && [ "${ops:-x}" = 0 ] && awk -v p="${pages:-0}" 'BEGIN { exit !(p > 0) }'
	ok $? "4 shm-pcp workers on one CPU, 1G objects, -t 1: exit $rc, ${ops:-no} bogo-ops (no cycle whole), ${pages:-no} pages faulted per sec, ${TOOK} ms"
fi

# 6-8. stress-ng's main process SIGKILLed mid-batch (4 workers on one
# CPU, so that a batch or a cycle takes seconds): its workers (and what
# they forked) stop making items at once, their number only falls, and
# none is alive 5 s later.
orphans() { # orphans NAME ARGS...: SIGKILL the main process at 1 s
	local name=$1 sid n1 n2
	shift
	(cd "$TMPD" && exec setsid taskset -c 0 "$NATIVE" -t 30 "$@") > "$TMPD/$name.log" 2>&1 &
	sid=$!
	sleep 1
	kill -KILL "$sid"
	sleep 0.3
	n1=$(live "$sid")
	sleep 1
	n2=$(live "$sid")
	for _ in $(seq 37); do
		[ "$(live "$sid")" -eq 0 ] && break
		sleep 0.1
	done
	wait "$sid" 2> /dev/null
	[ "$n2" -le "$n1" ] && [ "$(live "$sid")" -eq 0 ]
	ok $? "$name: main process SIGKILLed at 1 s: $n1 live processes 0.3 s later, $n2 at 1.3 s, $(live "$sid") after 5 s"
}
orphans "ldt batch 4096" --vmalloc-order 4 --vmalloc-order-method ldt --vmalloc-order-batch 4096
orphans "shm-pcp 1G, ldt churn" --shm-pcp 4 --shm-pcp-bytes 1G --shm-pcp-mode ldt --shm-pcp-churn-batch 4096
orphans "all batch 4096" --vmalloc-order 4 --vmalloc-order-batch 4096

# 9-10. One worker SIGKILLed at 1 s (what the OOM killer sends): the run
# lasts its -t with the other worker, and is no failure.
for s in shm-pcp vmalloc-order; do
	args="--$s 2"
	[ "$s" = vmalloc-order ] && args="$args --vmalloc-order-method ldt"
	# shellcheck disable=SC2086
	(cd "$TMPD" && exec setsid "$NATIVE" -t 4 $args --metrics) > "$TMPD/kill-$s.log" 2>&1 &
	ng=$!
	sleep 1
	w=$(ps -o pid= --ppid "$ng" | awk 'NR == 1 { print $1 }')
	# killed while it has children of its own (companions, parked
	# items), whose parent's death is what must not end the run
	for _ in $(seq 50); do
		[ -n "$w" ] || break
		kill -STOP "$w"
		[ -n "$(ps -o pid= --ppid "$w")" ] && break
		kill -CONT "$w"
		sleep 0.05
	done
	[ -n "$w" ] && kill -KILL "$w"
	wait "$ng"
	rc=$?
	secs=$(sed -n 's/.*successful run completed in \([0-9.]*\) sec.*/\1/p' "$TMPD/kill-$s.log")
	[ $rc -eq 0 ] && [ -n "$w" ] && awk -v t="${secs:-0}" 'BEGIN { exit !(t >= 3.5) }'
	ok $? "$s: one of 2 workers SIGKILLed at 1 s: exit $rc, the run lasted ${secs:-?} s of its 4"
done

# 11-12. A churn companion SIGKILLed is restarted, said, and no failure,
# also where a cycle takes long (1G objects: the worker looks at its
# companions once a cycle); one that crashes (SIGSEGV) is a failure that
# names the signal, not an early end of the whole run as a success.
# companion NAME SIGNAL ARGS...: the companion of a shm-pcp worker gets
# SIGNAL once it runs; the run's status in $rc, the companion in $c
companion() {
	local name=$1 sig=$2 ng w
	shift 2
	(cd "$TMPD" && exec setsid "$NATIVE" -t 6 --shm-pcp 1 "$@" --metrics) > "$TMPD/$name.log" 2>&1 &
	ng=$!
	# once the companion is running: the worker says so after its set-up
	within 30 grep -q "shm-pcp: posix object of" "$TMPD/$name.log"
	sleep 0.5
	w=$(ps -o pid= --ppid "$ng" | awk 'NR == 1 { print $1 }')
	c=$(ps -o pid= --ppid "${w:-1}" 2> /dev/null | awk 'NR == 1 { print $1 }')
	[ -n "$c" ] && kill "-$sig" "$c"
	wait "$ng"
	rc=$?
}
restarted() {
	[ $rc -eq 0 ] && [ -n "$c" ] &&
		grep -q "shm-pcp: churn companion 0 (pid $c) was killed by SIGKILL, possibly by the OOM killer: restarting it (1 so far)" "$TMPD/$1.log" &&
		! grep -q "fail: " "$TMPD/$1.log"
}
companion comp KILL
restarted comp
r1=$?
rc1=$rc
companion big KILL --shm-pcp-bytes 1G
restarted big && [ $r1 -eq 0 ]
ok $? "a churn companion SIGKILLed: restarted and said, exit $rc1 and $rc (8M and 1G objects)"
companion segv SEGV
secs=$(sed -n 's/.*run completed in \([0-9.]*\) sec.*/\1/p' "$TMPD/segv.log")
[ $rc -eq 2 ] && [ -n "$c" ] &&
	grep -q "shm-pcp: churn companion $c was killed by signal 11 (SIGSEGV)" "$TMPD/segv.log" &&
	! grep -qw "successful run completed" "$TMPD/segv.log"
ok $? "a churn companion SIGSEGVed: a failure naming the signal, exit $rc, not a success${secs:+ after $secs s}"

# 13-14. --verify where /proc/vmallocinfo cannot be read: a path decided
# by the kernel's rule cannot be verified, so it is not run: alone it
# skips (stress-ng counts it skipped, not passed); all leaves it out.
if [ "$(id -u)" -eq 0 ] && command -v setpriv > /dev/null; then
	chmod 1777 "$TMPD"
	nr() { (cd "$TMPD" && exec timeout 60 setpriv --reuid 54323 --regid 54323 --clear-groups -- "$NATIVE" "$@"); }
	nr --vmalloc-order 2 --vmalloc-order-method ldt -t 2 --verify > "$TMPD/vnr.log" 2>&1
	rc=$?
	grep -q "vmalloc-order: ldt: cannot be verified here (--verify): ldt: by rule" "$TMPD/vnr.log" &&
		grep -q "skipped: 2: vmalloc-order (2)" "$TMPD/vnr.log" && grep -q "passed: 0" "$TMPD/vnr.log"
	ok $? "not root, ldt --verify: skipped, not passed (exit $rc): $(grep -o 'skipped: [0-9]*' "$TMPD/vnr.log")"
	nr --vmalloc-order 1 -t 2 --verify > "$TMPD/vall.log" 2>&1
	rc=$?
	grep -q "all: leaving out ldt: cannot be verified here" "$TMPD/vall.log" &&
		grep -q "verify: stack: its vmalloc pages show in /proc/meminfo VmallocUsed again" "$TMPD/vall.log" &&
		grep -q "passed: 1" "$TMPD/vall.log"
	ok $? "not root, all --verify: ldt left out, stack verified by VmallocUsed, passed (exit $rc)"
else
	skip "not root, ldt --verify: skipped" "needs root and setpriv to run as another user"
	skip "not root, all --verify: ldt left out" "needs root and setpriv to run as another user"
fi

# 15-16. --maximize and --minimize take the range's ends for what is unset.
took "$NATIVE" --shm-pcp 1 -t 1 --maximize
grep -q "object of 1073741824 bytes per bogo-op, churn stack x 1 (batch 4096" "$TMPD/took.log" ||
	grep -q "objects of 1073741824 bytes clamped to" "$TMPD/took.log"
ok $? "--maximize: shm-pcp objects of 1G and churn batch 4096: $(grep -o 'object of [0-9]* bytes.*(batch [0-9]*' "$TMPD/took.log")"
took "$NATIVE" --shm-pcp 1 -t 1 --minimize --shm-pcp-bytes 1M
grep -q "object of 1048576 bytes per bogo-op, churn stack x 1 (batch 1)" "$TMPD/took.log"
ok $? "--minimize with --shm-pcp-bytes set: that size kept, churn batch 1: $(grep -o 'object of [0-9]* bytes.*(batch [0-9]*' "$TMPD/took.log")"

# 17. The memory share: 16 workers' 1G io-uring buffers exceed half of
# the free memory here (root: CAP_IPC_LOCK, no RLIMIT_MEMLOCK bound).
free_kb=$(awk '/^MemFree:/ { print $2 }' /proc/meminfo)
if [ "$(id -u)" -ne 0 ]; then
	skip "memory share clamps a 1G buffer" "not root: RLIMIT_MEMLOCK bounds the buffer first"
elif [ "$free_kb" -ge $((16 * 2 * 1048576)) ]; then
	skip "memory share clamps a 1G buffer" "$free_kb KiB free: 16 x 1G is within half of it"
else
	took "$NATIVE" --vmalloc-order 16 --vmalloc-order-method io-uring --vmalloc-order-bytes 16M --vmalloc-order-io-uring buffers -t 1
	rc=$?
	grep -q "io-uring buffers: the registered buffer clamped from 1G to [0-9]*M: half the free memory shared by 16 instances" "$TMPD/took.log"
	ok $? "16 workers of 1G buffers, $free_kb KiB free: clamped and said (exit $rc, ${TOOK} ms)"
fi

# 18-20. Values are read whole, or refused naming the option and range.
# refused STRESSOR OPTION RANGE VALUE...: each VALUE of --OPTION refused
# in one line (exit 1) that names the value, the option and RANGE; the
# values that were not, with what they gave
refused() {
	local st=$1 opt=$2 range=$3 v rc bad=""
	shift 3
	for v in "$@"; do
		took "$NATIVE" --"$st" 1 --"$opt" "$v" -t 1
		rc=$?
		{ [ $rc -eq 1 ] && [ "$(wc -l < "$TMPD/took.log")" -eq 1 ] &&
			grep -qF "invalid value '$v' for $opt" "$TMPD/took.log" &&
			grep -qF "allowed: $range" "$TMPD/took.log"; } ||
			bad="$bad [$v](rc $rc: $(head -c 80 "$TMPD/took.log"))"
	done
	echo "$bad"
}
bad=$(refused vmalloc-order vmalloc-order-bytes "4096 .. 1073741824" 16KK 1.5M 16KB -1 '' 18446744073709551616)
[ -z "$bad" ]
ok $? "--vmalloc-order-bytes 16KK, 1.5M, 16KB, -1, '' and 2^64 refused in one line naming the option and range${bad:+; not:$bad}"
bad=$(refused shm-pcp shm-pcp-churn-batch "1 .. 4096" abc 1.5 -1 '' 99999999999999999999)
[ -z "$bad" ]
ok $? "--shm-pcp-churn-batch abc, 1.5, -1, '' and 10^20 refused in one line naming the option and range${bad:+; not:$bad}"
took "$NATIVE" --shm-pcp 1 --shm-pcp-bytes 1m -t 1 --dry-run
rc=$?
[ $rc -eq 0 ]
ok $? "--shm-pcp-bytes 1m (a lower-case suffix, read whole) is taken: exit $rc"

# 21. --help: each option of ours stands apart from its text (one of 22
# characters or more by a space, its text on its line: lkp-tests looks
# for "all" on the method's line).
"$NATIVE" --help > "$TMPD/help.log" 2>&1
runin=""
opts=$(sed -n 's/^	{ NULL,	*"\([a-z-]* *[A-Z]*\)",.*/\1/p' "$TOP/stress-vmalloc-order.c" "$TOP/stress-shm-pcp.c")
while read -r opt; do
	[ -n "$opt" ] || continue
	line=$(grep -F -- "--$opt" "$TMPD/help.log" | head -n 1)
	rest=${line#*--"$opt"}
	{ [ -n "$line" ] && { [ -z "$rest" ] || [ "${rest:0:1}" = " " ]; }; } || runin="$runin [$line]"
done <<< "$opts"
[ -n "$opts" ] && [ -z "$runin" ]
ok $? "--help: our $(echo "$opts" | wc -l) options stand apart from their text${runin:+; not:$runin}"

done_testing
