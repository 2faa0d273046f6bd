#!/bin/bash
# stress-mm owns its run (owner.h): SIGKILL of stress-mm mid-run, 10 times
# (POSIX and SysV objects, perf counters on, tracefs unmounted first so that
# stress-mm mounts it), leaves soon after (about 2 s; polled for up to 30 s
# on a busy machine) no process of the run, no shm
# object or SysV segment of ours, no tracefs mount it made and no
# temporary directory. The test runs in mount and IPC namespaces of its
# own (isolate, lib.sh): the tracefs it unmounts, the mounts it counts,
# /dev/shm, the SysV segments and TMPDIR are the test's alone. A closed pipe
# (SIGPIPE) and a closed terminal (SIGHUP) end the whole run within
# seconds; what a run killed together with its watchdog left is cleaned,
# and named, by the next start. The runs are the plugin's (--integration
# plugin): the processes of a run are found by a parameter variable in
# their environment, which a native run does not have, and the native
# stress-ng may appear in build/ midway (make check builds it meanwhile).
. "$(dirname "$0")/lib.sh"
need_stress_ng
SMM=$BUILD/stress-mm
[ "$(id -u)" = 0 ] || skip_all "needs root (tracefs mount, SysV sweep of other users' segments)"
isolate
[ -n "${SMM_TEST_ISOLATED:-}" ] || skip_all "needs unshare (util-linux): it unmounts tracefs, in namespaces of its own only"
TRIALS=10
plan $((TRIALS * 2 + 6))

run_procs() { # live members of the process groups listed in $1, by name
	[ -s "$1" ] || { echo 0; return; }
	ps -eo pgid=,stat=,comm= | awk -v gs="$(tr '\n' ' ' < "$1")" '
		BEGIN { n = split(gs, g, " "); for (i = 1; i <= n; i++) want[g[i]] = 1 }
		($1 in want) && $2 !~ /^Z/ && ($3 ~ /^(stress-ng|smm-)/) { c++ }
		END { print c + 0 }'
}
# tracefs mounts in this test's own mount namespace (isolate)
mounted_by_us() { grep -c " /sys/kernel/tracing tracefs " /proc/self/mounts; }
# Processes that carry a marker value in their environment (a parameter
# value no other run uses): stress-ng and everything under it.
marked() {
	grep -lsa "STRESS_MM_SHM_PCP_BYTES=$1" /proc/[0-9]*/environ | wc -l
}

for t in $(seq $TRIALS); do
	method=posix
	[ $((t % 2)) -eq 0 ] && method=sysv
	# in this test's own mount namespace; debugfs too, or its automount
	# of tracing would serve the run
	umount /sys/kernel/tracing 2> /dev/null
	umount /sys/kernel/debug/tracing 2> /dev/null
	umount /sys/kernel/debug 2> /dev/null
	(cd "$TMPD" && exec "$SMM" --integration plugin --shm-pcp 1 --shm-pcp-method $method --counters-engine perf \
		--shm-pcp-bytes 1M -t 60 > "$TMPD/k$t.log" 2>&1) &
	pid=$!
	# mid-run: stress-ng is running when the kill comes
	dir=""
	for i in $(seq 100); do
		dir=$(grep -l "^$pid$" "$TMPDIR"/stress-mm.*/owner 2> /dev/null | xargs -r -n1 dirname)
		[ -n "$dir" ] && [ -s "$dir/pgids" ] && [ "$(run_procs "$dir/pgids")" -ge 3 ] && break
		sleep 0.1
	done
	cp "$dir/pgids" "$TMPD/pgids.$t" 2> /dev/null
	midrun=$(run_procs "$TMPD/pgids.$t")
	mnt=0
	[ -s "$dir/mounted" ] && mnt=1
	sleep "0.$((RANDOM % 9 + 1))"
	kill -9 $pid
	wait $pid 2> /dev/null
	[ "$midrun" -ge 3 ]
	ok $? "trial $t ($method): killed mid-run ($midrun processes of the run were up)"
	# the watchdog's clean-up takes up to about 2 s (owner.h); a busy
	# machine may take longer: 30 s is the bound, the time is reported
	cleaned() {
		left=$(run_procs "$TMPD/pgids.$t")
		shm=$("$BUILD/test/shm-sweep" --count)
		[ "$left" -eq 0 ] && [ "$shm" = "leftovers: 0" ] &&
			{ [ $mnt -eq 0 ] || [ "$(mounted_by_us)" -eq 0 ]; } && [ ! -e "$dir" ]
	}
	within 30 cleaned
	ok $? "trial $t: $WITHIN_MS ms later: $left processes, $shm, tracefs $([ $mnt -eq 1 ] && echo "mounted by the run, now $(mounted_by_us) mounts" || echo "not mounted by the run"), directory ${dir:-?} $([ -e "$dir" ] && echo left || echo gone)"
done

# A closed pipe and a closed terminal end the whole run.
start=$(date +%s)
(cd "$TMPD" && "$SMM" --integration plugin --shm-pcp 1 --shm-pcp-bytes 1028K -t 60 --counters none 2>&1 |
	grep -m1 -q "dispatching hogs")
none_marked() { [ "$(marked "$1")" -eq 0 ]; }
within 20 none_marked 1028K && [ $(($(date +%s) - start)) -lt 30 ]
ok $? "SIGPIPE (| grep -m1): the run ends at once, nothing left ($(marked 1028K) processes, $WITHIN_MS ms after the pipe closed)"
(cd "$TMPD" && exec setsid "$SMM" --integration plugin --shm-pcp 1 --shm-pcp-bytes 1032K -t 60 \
	--counters none --yaml "$TMPD/hup.yaml" > "$TMPD/hup.log" 2>&1) &
pid=$!
hup_pid=$pid
# mid-run: once stress-ng has dispatched its workers
within 30 grep -q "dispatching hogs" "$TMPD/hup.log"
sleep 1
kill -HUP $pid
wait $pid
rc=$?
within 20 none_marked 1032K
[ $rc -eq 129 ] && grep -q "interrupted: true" "$TMPD/hup.yaml" && [ "$(marked 1032K)" -eq 0 ]
ok $? "SIGHUP: exit $rc (128 + 1), report marked interrupted, nothing left ($(marked 1032K) processes)"
grep -q "^  - exit-status: 129" "$TMPD/hup.yaml"
ok $? "SIGHUP: the run's own entry says 129 too"

# Killed with its watchdog: the next start cleans up and says so.
(cd "$TMPD" && exec "$SMM" --integration plugin --shm-pcp 1 --shm-pcp-bytes 1M -t 60 --counters none \
	> "$TMPD/w.log" 2>&1) &
pid=$!
for i in $(seq 100); do
	dir=$(grep -l "^$pid$" "$TMPDIR"/stress-mm.*/owner 2> /dev/null | xargs -r -n1 dirname)
	[ -n "$dir" ] && [ -s "$dir/pgids" ] && [ "$(run_procs "$dir/pgids")" -ge 3 ] && break
	sleep 0.1
done
# A member of a recorded group that outlives stress-ng (PR_SET_PDEATHSIG
# does not reach it): named like the run's companions, in a group of its
# own, recorded as the run's.
cp /bin/sleep "$TMPD/smm-linger"
setsid "$TMPD/smm-linger" 120 &
linger=$!
sleep 0.2
echo "$linger" >> "$dir/pgids"
cp "$dir/pgids" "$TMPD/pgids.w"
kill -9 "$(cat "$dir/watchdog")" $pid
wait $pid 2> /dev/null
sleep 0.5
[ -d "$dir" ]
ok $? "without its watchdog, a killed run leaves ${dir##*/} ($(run_procs "$TMPD/pgids.w") processes left; PR_SET_PDEATHSIG ends stress-ng)"
(cd "$TMPD" && "$SMM" --integration plugin --shm-pcp 1 --shm-pcp-bytes 1M -t 1 --counters none > "$TMPD/next.log" 2>&1)
grep -q "stress-mm: info: cleaned what a killed run (pid $pid) left: [1-9][0-9]* process\(es\)\? of its process groups killed, .*the directory $dir$" "$TMPD/next.log" &&
	[ ! -e "$dir" ] && [ "$(run_procs "$TMPD/pgids.w")" -eq 0 ] &&
	case $(ps -o stat= -p "$linger") in "" | Z*) true ;; *) false ;; esac
ok $? "the next start kills the lingering member, cleans the rest and names it: $(grep "cleaned what" "$TMPD/next.log")"
kill -9 "$linger" 2> /dev/null
wait "$linger" 2> /dev/null

left=""
for p in $hup_pid $pid; do
	left="$left$(grep -l "^$p\$" "$TMPDIR"/stress-mm.*/owner 2> /dev/null)"
done
[ -z "$left" ]
ok $? "no temporary directory of the SIGHUP run or the cleaned run is left${left:+: $left}"
done_testing
