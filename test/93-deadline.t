#!/bin/bash
# A run is done by -t plus its grace (deadline.h: 10 s + -t/10), or it is
# ended and reported: a SIGSTOPped worker ends the run at the deadline with
# exit 2 and "interrupted: true" naming the stopped process; a SIGTERM to
# stress-ng (which stress-ng calls a successful run) is exit 2 and
# interrupted, never a success, and so is a SIGKILL of its stressor
# process, whose worker ends with it; as a user with RLIMIT_NPROC 3 no worker can
# start, and the run ends at the deadline with exit 3, naming the limit;
# a churn companion killed by SIGSEGV is a failure named by its signal,
# one SIGKILLed (the OOM killer's signal) is restarted; a stop
# (SIGINT) whose stress-ng cannot end (a worker SIGSTOPped) is killed 10 s
# after its one SIGINT, exit 130. A run left alone is none of these.
. "$(dirname "$0")/lib.sh"
need_stress_ng
SMM=$BUILD/stress-mm
[ -x "$SMM" ] || skip_all "$SMM not built"
plan 15

# start NAME T: stress-mm with one stack worker for T s in the background
# ($pid), its log $TMPD/NAME.log, its report $TMPD/NAME.yaml; SIGKILL
# after 60 s (its watchdog then ends the run) if nothing else ends it
start() {
	(cd "$TMPD" && exec timeout -s KILL 60 "$SMM" --vmalloc-order 1 --vmalloc-order-method stack \
		-t "$2" --counters none --vmallocinfo-interval 0 \
		--yaml "$TMPD/$1.yaml" > "$TMPD/$1.log" 2>&1) &
	pid=$!
}
# ng_of NAME: the stress-ng parent's pid once it dispatched its workers
ng_of() {
	local i ng
	for i in $(seq 300); do
		ng=$(sed -n 's/.*\[\([0-9]*\)\] dispatching hogs.*/\1/p' "$TMPD/$1.log")
		[ -n "$ng" ] && { echo "$ng"; return 0; }
		sleep 0.1
	done
	return 1
}
cause() { sed -n 's/^    interrupted-by: //p' "$TMPD/$1.yaml"; }

# 1. a worker stopped: the run ends at its deadline, 2 + 10.2 s after
# stress-ng started
start stop 2
ng=$(ng_of stop)
t0=$(date +%s)
w=""
for i in $(seq 50); do
	w=$(ps -eo pid=,pgid=,comm= | awk -v g="$ng" -v p="$ng" \
		'$2 == g && $1 != p && $3 ~ /^stress-ng/ { print $1 }' | tail -1)
	[ -n "$w" ] && break
	sleep 0.1
done
kill -STOP "$w"
wait $pid
rc=$?
took=$(($(date +%s) - t0))
[ $rc -eq 2 ] && [ $took -le 30 ]
ok $? "a SIGSTOPped worker: exit $rc after $took s (deadline 12.2 s)"
grep -q "^  interrupted: true" "$TMPD/stop.yaml" &&
	case $(cause stop) in *"stopped (pid $w, state T"*) true ;; *) false ;; esac
ok $? "a SIGSTOPped worker: interrupted, by: $(cause stop)"
for i in $(seq 50); do # a zombie until init reaps it
	kill -0 "$w" 2> /dev/null || break
	sleep 0.1
done
! kill -0 "$w" 2> /dev/null
ok $? "a SIGSTOPped worker: it is gone"

# 2. SIGTERM to stress-ng 1 s into a 6 s run
start term 6
ng=$(ng_of term)
sleep 1
kill -TERM "$ng"
wait $pid
rc=$?
[ $rc -eq 2 ]
ok $? "SIGTERM to stress-ng: exit $rc, never a success"
grep -q "^  interrupted: true" "$TMPD/term.yaml" &&
	case $(cause term) in *"ended after "*" of -t 6 s"*) true ;; *) false ;; esac
ok $? "SIGTERM to stress-ng: interrupted, by: $(cause term)"

# 2b. SIGKILL of stress-ng's stressor process (the OOM killer's signal)
# 1 s into a 6 s run: stress-ng ends at once and calls it a success; its
# worker (the plugin's: PR_SET_PDEATHSIG) ends with it, not at the
# deadline, and the run is cut, never a success
start skill 6
ng=$(ng_of skill)
sleep 1
sp=$(pgrep -P "$ng" | head -1)
t0=$(date +%s)
[ -n "$sp" ] && w=$(pgrep -P "$sp" | head -1)
kill -KILL "$sp"
wait $pid
rc=$?
took=$(($(date +%s) - t0))
gone=1
for i in $(seq 30); do
	ps -o stat= -p "$w" 2> /dev/null | grep -qv Z || { gone=0; break; }
	sleep 0.1
done
[ $rc -eq 2 ] && [ $took -le 5 ] && [ $gone -eq 0 ] &&
	grep -q "^  interrupted: true" "$TMPD/skill.yaml" &&
	case $(cause skill) in *"ended after "*" of -t 6 s"*) true ;; *) false ;; esac
ok $? "SIGKILL of stress-ng's stressor process: its worker ($w) gone with it, exit $rc after $took s, by: $(cause skill)"

# 3. RLIMIT_NPROC 3 for a user of its own (the kernel does not apply it to
# root; lowering a limit needs no privilege): stress-ng cannot fork
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null && command -v prlimit > /dev/null; then
	uid=$((40000 + RANDOM % 20000))
	chmod 1777 "$TMPD"
	t0=$(date +%s)
	(cd "$TMPD" && exec timeout -s KILL 60 setpriv --reuid "$uid" --regid "$uid" \
		--clear-groups -- prlimit --nproc=3:3 -- "$SMM" --vmalloc-order 1 --vmalloc-order-method stack \
		-t 2 --counters none --vmallocinfo-interval 0 \
		--yaml "$TMPD/nproc.yaml" > "$TMPD/nproc.log" 2>&1)
	rc=$?
	took=$(($(date +%s) - t0))
	if [ $rc -eq 126 ] || [ $rc -eq 127 ]; then
		# setpriv or prlimit could not exec the next program as that
		# user: stress-mm never ran, there is nothing of it to judge
		why="stress-mm never started as uid $uid under RLIMIT_NPROC 3 (exit $rc): $(head -1 "$TMPD/nproc.log")"
		skip "RLIMIT_NPROC 3: exit 3" "$why"
		skip "RLIMIT_NPROC 3: interrupted" "$why"
	else
		[ $rc -eq 3 ] && [ $took -le 40 ]
		ok $? "RLIMIT_NPROC 3: exit $rc after $took s"
		[ $rc -eq 3 ] || diag "$(head -5 "$TMPD/nproc.log")"
		grep -q "^  interrupted: true" "$TMPD/nproc.yaml" &&
			case $(cause nproc) in *"no worker could start"*"RLIMIT_NPROC is 3"*) true ;; *) false ;; esac
		ok $? "RLIMIT_NPROC 3: interrupted, by: $(cause nproc)"
	fi
else
	skip "RLIMIT_NPROC 3: exit 3" "needs root, setpriv and prlimit (util-linux) to become a user of its own"
	skip "RLIMIT_NPROC 3: interrupted" "as above"
fi

# 4. a churn companion killed: by SIGSEGV, a failure the worker's record
# names by its signal; by SIGKILL (the OOM killer's), restarted and said,
# no failure. The worker is the pid its record names (the run directory
# is under TMPDIR, here $TMPD/NAME), a companion one of its children.
# companion_kill NAME SIGNAL: a shm-pcp run whose companion gets SIGNAL;
# its status in $rc, the companion's pid in $comp
companion_kill() {
	local pid f wpid
	mkdir -p "$TMPD/$1"
	(cd "$TMPD" && TMPDIR="$TMPD/$1" exec setsid timeout -s KILL 60 "$SMM" --shm-pcp 1 \
		--shm-pcp-bytes 1M --shm-pcp-mode spin -t 6 --counters none \
		--vmallocinfo-interval 0 --yaml "$TMPD/$1.yaml" > "$TMPD/$1.log" 2>&1) &
	pid=$!
	ng_of "$1" > /dev/null
	comp=""
	for _ in $(seq 50); do
		f=$(ls "$TMPD/$1"/stress-mm.*/stats/shm-pcp.*.stats 2> /dev/null | head -1)
		wpid=${f##*shm-pcp.}
		wpid=${wpid%.stats}
		[ -n "$wpid" ] && comp=$(ps -eo pid=,ppid=,stat= |
			awk -v w="$wpid" '$2 == w && $3 !~ /^Z/ { print $1; exit }')
		[ -n "$comp" ] && break
		sleep 0.1
	done
	[ -n "$comp" ] || diag "no companion found (worker ${wpid:-not found})"
	kill "-$2" "$comp"
	wait $pid
	rc=$?
}
companion_kill comp SEGV
[ $rc -eq 2 ]
ok $? "a churn companion killed by SIGSEGV: exit $rc"
line=$(grep "^stress-mm: shm-pcp failed: " "$TMPD/comp.log" | paste -sd'|')
# the record's crash signal, or the stressor's line naming the signal as
# stress-ng does (stress_signal_name())
case $line in
*"a worker crashed with signal 11"* | *"churn companion $comp was killed by signal 11 (SIGSEGV)"*) true ;;
*) false ;;
esac
ok $? "a churn companion killed: named by its signal, from the record: $line"
companion_kill oom KILL
[ $rc -eq 0 ] && ! grep -q "^stress-mm: shm-pcp failed: " "$TMPD/oom.log" &&
	grep -q "shm-pcp: churn companion 0 (pid $comp) was killed by SIGKILL, possibly by the OOM killer: restarting it (1 so far)" "$TMPD/oom.log"
ok $? "a churn companion SIGKILLed: restarted and said, no failure (exit $rc)"

# 5. a stop that stress-ng cannot carry out: a worker SIGSTOPped, then
# SIGINT to stress-mm 1 s into a 60 s run; its grace is 10 s, where the
# deadline is 76 s away
start stuck 60
ng=$(ng_of stuck)
w=$(ps -eo pid=,pgid=,comm= | awk -v g="$ng" -v p="$ng" \
	'$2 == g && $1 != p && $3 ~ /^stress-ng/ { print $1 }' | tail -1)
[ -n "$w" ] && kill -STOP "$w"
sleep 1
t0=$(date +%s)
kill -INT $pid
wait $pid
rc=$?
took=$(($(date +%s) - t0))
[ -n "$w" ] && [ $rc -eq 130 ] && [ $took -ge 9 ] && [ $took -le 30 ]
ok $? "a stop stress-ng cannot carry out: exit $rc after $took s (grace 10 s)"
grep -q "^stress-mm: 1 stress-ng still running 10 s after its SIGINT: killed" "$TMPD/stuck.log" &&
	grep -q "^  interrupted: true" "$TMPD/stuck.yaml"
ok $? "a stop stress-ng cannot carry out: said, and the report marked interrupted"

# 6. left alone
start alone 2
wait $pid
rc=$?
[ $rc -eq 0 ]
ok $? "a run left alone: exit $rc"
grep -q "^  interrupted: false" "$TMPD/alone.yaml" && [ -z "$(cause alone)" ]
ok $? "a run left alone: not interrupted"
done_testing
