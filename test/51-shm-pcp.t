#!/bin/bash
# shm-pcp: bogo-ops for churn none, spin and stack and for every shm method;
# thread-stack areas appear in vmallocinfo during a stack run, and the runs
# of none and spin create no churn tasks (counted for the run alone); a
# path's proof is said once however many companions set it up;
# placement as requested (affinity of worker and
# companions, every companion a child of a live worker); placement same
# round-robin over the allowed CPUs with 1 worker, one per CPU and two per
# CPU (the CPUs the stats files record); no companion left after a normal
# run, not even a zombie; stats files agree with stress-ng's bogo-ops within
# one per worker, and the pages they count with the kernel's own count of
# the worker's page faults, a cycle cut by the end of the run included; no
# /dev/shm name or SysV segment of ours after normal runs, before any
# sweep; after SIGKILL of the process group (20 trials) no plugin process
# and no companion; then the sweep leaves nothing.
#
# Every stress-ng runs in a session of its own (setsid): processes are
# looked for by session, so other runs on the machine do not count, and
# orphans of ours (PPid 1, or zombies) are never overlooked. Once the
# session's leader has returned, any process still in it is left over. A
# worker is the pid its stats file names (STRESS_MM_STATS_DIR), its
# companions are its children: they keep stress-ng's name.
. "$(dirname "$0")/lib.sh"
isolate
need_stress_ng
[ -r /proc/vmallocinfo ] || skip_all "/proc/vmallocinfo unreadable (needs uid 0)"
command -v setsid > /dev/null || skip_all "setsid missing (util-linux)"
command -v perf > /dev/null || skip_all "perf missing (linux-perf, scripts/deps)"

STACK=kernel_clone,copy_process,dup_task_struct,_do_fork
SWEEP=$BUILD/test/shm-sweep
# The POSIX names as the stressor makes them (/PREFIX<pid>-<seq>): the
# sweep (shm.h, with the stressor's STRESS_SHM_PCP_PREFIX) must find
# exactly these.
PREFIX=$(sed -n 's/^#define[[:space:]]*STRESS_SHM_PCP_PREFIX[[:space:]]*"\(.*\)"$/\1/p' \
	"$TOP/core-shm-pcp.h")
[ -n "$PREFIX" ] || { echo "Bail out! no STRESS_SHM_PCP_PREFIX in core-shm-pcp.h"; exit 1; }
NCPU=$(nproc)
plan 26

"$SWEEP" > /dev/null # a clean start: earlier crashes are not ours

# names_ours: the /dev/shm names with the stressor's prefix, one a line.
names_ours() { ls /dev/shm | awk -v p="$PREFIX" 'index($0, p) == 1'; }

# session_procs SID: "pid ppid state comm" of every process in session SID.
session_procs() {
	ps -eo pid=,ppid=,sid=,stat=,comm= |
		awk -v s="$1" '$3 == s { print $1, $2, $4, $5 }'
}
# left_in SID: every process still in session SID, zombies included: after
# the run (its leader returned) a companion, or anything else, left over.
left_in() { session_procs "$1"; }
# children_of PID: the live (not zombie) children of PID.
children_of() { ps -eo pid=,ppid=,stat= | awk -v p="$1" '$2 == p && $3 !~ /^Z/ { print $1 }'; }
# orphans_in SID: "pid ppid" of each process of session SID, its leader
# aside, whose parent is not in the session (PPid 1 or a subreaper's).
orphans_in() {
	session_procs "$1" | awk -v s="$1" '
		{ in_s[$1] = 1; pp[$1] = $2 }
		END { for (p in pp) if (p != s && !(pp[p] in in_s)) print p, pp[p] }'
}

# run NAME SECONDS [VAR=VALUE...]: one shm_pcp worker (STRESS_MM_PLUGINS
# workers) in a session of its own, YAML in $TMPD/NAME.yaml, and the tasks
# the run itself created (processes and threads: sched_process_fork counted
# by perf stat over stress-ng and every descendant, never the machine's) in
# $TMPD/NAME.forks; afterwards every process of that session still
# there, zombies included, goes to $TMPD/left.
run() {
	local name=$1 t=$2 sid rc
	shift 2
	(cd "$TMPD" && exec env STRESS_MM_SHM_PCP_BYTES=1M "$@" setsid \
		perf stat -x, -o "$TMPD/$name.perf" -e sched:sched_process_fork -- \
		timeout 60 stress-ng --plugin "${STRESS_MM_PLUGINS:-1}" \
		--plugin-so "$SO" --plugin-method shm_pcp -t "$t" --metrics \
		--yaml "$TMPD/$name.yaml" > "$TMPD/$name.log" 2>&1) &
	sid=$!
	wait $sid
	rc=$?
	grep -v '^#' "$TMPD/$name.perf" | grep -m1 sched_process_fork |
		cut -d, -f1 > "$TMPD/$name.forks"
	left_in $sid | sed "s/^/$name: /" >> "$TMPD/left"
	return $rc
}
: > "$TMPD/left"
declare -A forks

for churn in none spin stack; do
	watch_start "$TMPD/$churn.watch" 20480 "$STACK"
	run "$churn" 2 STRESS_MM_SHM_PCP_MODE=$churn
	rc=$?
	watch_stop "$TMPD/$churn.watch"
	forks[$churn]=$(cat "$TMPD/$churn.forks")
	ops=$(yaml_bogo_ops "$TMPD/$churn.yaml")
	[ $rc -eq 0 ] && [ "${ops:-0}" -gt 0 ] && ! grep -q "FAIL:\|SKIP:" "$TMPD/$churn.log"
	ok $? "churn $churn: bogo-ops ${ops:-none}, no FAIL or SKIP"
	grep "shm-pcp:" "$TMPD/$churn.log" | while read -r l; do diag "$l"; done
done
new_stack=$(sed -n 's/^new: //p' "$TMPD/stack.watch")
# The run's own count is its tasks; the areas sampled every 100 ms show
# that they are vmalloc'ed stacks (the per-CPU stack cache and a busy
# machine hide many from the samples: 30-stack-proof.t proves the path).
[ "${forks[stack]:-0}" -ge 64 ] && [ "${new_stack:-0}" -ge 16 ]
ok $? "churn stack: the run created ${forks[stack]:-?} tasks, thread-stack areas appear in vmallocinfo ($new_stack new)"
# A new task is a new thread stack: the run's own task creations are its
# stack areas. stress-ng starts a few tasks of its own (the stressor
# process, the worker, spin's companions); stack churn makes thousands.
[ -n "${forks[none]}" ] && [ "${forks[none]}" -le 16 ] &&
	[ -n "${forks[spin]}" ] && [ "${forks[spin]}" -le 16 ]
ok $? "churn none and spin: no churn tasks, so no churn areas (the runs created ${forks[none]:-?} and ${forks[spin]:-?} tasks)"

for m in posix memfd sysv; do
	run "m-$m" 1 STRESS_MM_SHM_PCP_METHOD=$m STRESS_MM_SHM_PCP_MODE=none
	ops=$(yaml_bogo_ops "$TMPD/m-$m.yaml")
	[ "${ops:-0}" -gt 0 ] && ! grep -q "FAIL:" "$TMPD/m-$m.log"
	ok $? "method $m: bogo-ops ${ops:-none}"
done

# A path's proof is said once, not once per companion: 3 stack companions.
run procs3 2 STRESS_MM_SHM_PCP_MODE=stack STRESS_MM_SHM_PCP_CHURN_PROCS=3 STRESS_MM_SHM_PCP_BYTES=1M
n=$(grep -c "shm-pcp: stack: .* probe: " "$TMPD/procs3.log")
[ "$n" -eq 1 ]
ok $? "3 stack companions: the path's proof is said once ($n)"

# Placement: read the affinity of the worker and its companions mid-run.
allowed() { sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$1/status"; }
for cpu in same spread any; do
	rm -rf "$TMPD/cpu-$cpu" && mkdir -p "$TMPD/cpu-$cpu"
	(cd "$TMPD" && exec env STRESS_MM_SHM_PCP_CPU=$cpu STRESS_MM_SHM_PCP_MODE=spin \
		STRESS_MM_SHM_PCP_CHURN_PROCS=2 STRESS_MM_SHM_PCP_BYTES=1M \
		STRESS_MM_STATS_DIR="$TMPD/cpu-$cpu" \
		setsid timeout 60 stress-ng --plugin 1 --plugin-so "$SO" \
		--plugin-method shm_pcp -t 3 > "$TMPD/cpu-$cpu.log" 2>&1) &
	sid=$!
	# until the worker (its stats file) has both companions, or the run
	# has ended without them
	both() {
		local f
		f=$(ls "$TMPD/cpu-$cpu"/shm-pcp.*.stats 2> /dev/null | head -1)
		wpid=${f##*shm-pcp.}
		wpid=${wpid%.stats}
		comps=$([ -n "$wpid" ] && children_of "$wpid" | tr '\n' ' ')
		[ "$(echo $comps | wc -w)" -ge 2 ] || [ -z "$(session_procs $sid)" ]
	}
	within 30 both
	good=1
	desc="no companions found while the run lasted"
	if [ -n "$comps" ]; then
		wcpu=$(allowed "$wpid")
		desc="worker $wpid on $wcpu, companions"
		for c in $comps; do
			ccpu=$(allowed "$c")
			desc="$desc $c on $ccpu"
			case $cpu in
			same) [ "$ccpu" = "$wcpu" ] && [ "${wcpu//[-,]/}" = "$wcpu" ] || good=0 ;;
			spread)
				if [ "$NCPU" -gt 1 ]; then
					[ "$ccpu" != "$wcpu" ] && [ "${ccpu//[-,]/}" = "$ccpu" ] || good=0
				fi ;;
			any) [ "$ccpu" = "$(allowed $$)" ] && [ "$wcpu" = "$(allowed $$)" ] || good=0 ;;
			esac
		done
		# Every companion is a child of the worker, none an orphan.
		orphans=$(orphans_in $sid | tr '\n' ',')
		[ -z "$orphans" ] || { good=0; desc="$desc, orphans (pid ppid): $orphans"; }
	else
		good=0
	fi
	wait $sid
	left_in $sid | sed "s/^/cpu-$cpu: /" >> "$TMPD/left"
	[ $good -eq 1 ]
	ok $? "placement $cpu: $desc"
	# with one usable CPU spread is carried out as same, and says why
	said="placement $cpu"
	[ "$cpu" = spread ] && [ "$NCPU" -eq 1 ] &&
		said="placement same (spread needs a second usable CPU)"
	grep -qF "$said" "$TMPD/cpu-$cpu.log"
	ok $? "placement $cpu is reported as carried out: $said"
done

# Round-robin: with N workers, worker i of the run (its slot) is on the
# i-th allowed CPU modulo their number, its companion on the same CPU, and
# no CPU has more than one worker more than another.
mapfile -t cpus < <(allowed $$ | tr ',' '\n' |
	awk -F- '{ for (c = $1; c <= ($2 == "" ? $1 : $2); c++) print c }')
for n in 1 ${#cpus[@]} $((2 * ${#cpus[@]})); do
	rm -rf "$TMPD/rr" && mkdir -p "$TMPD/rr"
	STRESS_MM_PLUGINS=$n run "rr-$n" 2 STRESS_MM_STATS_DIR="$TMPD/rr" \
		STRESS_MM_SHM_PCP_MODE=spin STRESS_MM_SHM_PCP_CPU=same
	"$BUILD/test/stats-dump" "$TMPD"/rr/shm-pcp.*.stats > "$TMPD/rr.dump"
	res=$(awk -v list="${cpus[*]}" -v n="$n" '
		BEGIN { na = split(list, a, " ") }
		/^slot: / { slot = $2 }
		/^cpu: / { cpu = $2 }
		/^companion_cpus: / { comp = $2 }
		/^skip_reason:/ {
			files++
			if (slot < 0 || slot >= n || seen[slot]++) bad = bad " slot " slot
			if (cpu != a[slot % na + 1]) bad = bad " slot " slot " on CPU " cpu
			if (comp != cpu) bad = bad " companion on " comp " not " cpu
			per[cpu]++
		}
		END {
			lo = -1; hi = 0
			for (i = 1; i <= na; i++) {
				c = per[a[i]] + 0
				if (lo < 0 || c < lo) lo = c
				if (c > hi) hi = c
				dist = dist (i > 1 ? "," : "") " CPU " a[i] ": " c
			}
			if (files != n) bad = bad " " files " files"
			if (hi - lo > 1) bad = bad " uneven"
			print (bad == "" ? "ok" : "bad:" bad) ";" dist
		}' "$TMPD/rr.dump")
	[ "${res%%;*}" = ok ]
	ok $? "round-robin, $n workers on ${#cpus[@]} CPUs:${res#*;}"
	[ "${res%%;*}" = ok ] || diag "${res%%;*}"
done

left=$(cat "$TMPD/left")
[ -z "$left" ]
ok $? "no companion (no process) of a normal run is left when stress-ng returns, not even a zombie"
[ -n "$left" ] && diag "$left"

# Stats files: the sum of calls equals stress-ng's bogo-ops within one per
# worker.
mkdir -p "$TMPD/stats"
STRESS_MM_PLUGINS=2 run stats 2 STRESS_MM_STATS_DIR="$TMPD/stats" \
	STRESS_MM_SHM_PCP_MODE=stack
ops=$(yaml_bogo_ops "$TMPD/stats.yaml")
"$BUILD/test/stats-dump" "$TMPD"/stats/shm-pcp.*.stats > "$TMPD/stats.dump"
sum=$(sed -n 's/^sum_calls: //p' "$TMPD/stats.dump")
files=$(sed -n 's/^files: //p' "$TMPD/stats.dump")
churn=$(sed -n 's/^sum_churn_allocs: //p' "$TMPD/stats.dump")
diff=$((${sum:-0} - ${ops:-0}))
[ "${files:-0}" -ge 2 ] && [ "${diff#-}" -le "${files:-0}" ] && [ "${ops:-0}" -gt 0 ] &&
	[ "${churn:-0}" -gt 0 ]
ok $? "stats: sum of calls $sum vs bogo-ops $ops, $files workers, churn allocations $churn"

# Pages faulted against the kernel's count: 1 GiB objects, so that the run
# ends inside a cycle. The kernel counts every fault of the worker (minflt
# in /proc/PID/stat, sampled until it ends); the stats file must hold all
# of the last sample but the last 256-page chunk and the worker's own
# faults outside the record (start-up: the first sample's faults less the
# pages recorded then), and never more than the machine's pgfault delta
# over the run.
mkdir -p "$TMPD/pf"
pf0=$(awk '$1 == "pgfault" { print $2 }' /proc/vmstat)
(cd "$TMPD" && exec env STRESS_MM_STATS_DIR="$TMPD/pf" STRESS_MM_SHM_PCP_BYTES=1G \
	STRESS_MM_SHM_PCP_MODE=none setsid timeout 60 stress-ng --plugin 1 \
	--plugin-so "$SO" --plugin-method shm_pcp -t 3 > "$TMPD/pf.log" 2>&1) &
sid=$!
minflt=0
outside=
while kill -0 $sid 2> /dev/null; do
	f=$(ls "$TMPD"/pf/shm-pcp.*.stats 2> /dev/null | head -1)
	wpid=${f##*shm-pcp.}
	wpid=${wpid%.stats}
	if [ -n "$wpid" ]; then
		# the first time, the record before the count: the pages
		# faulted in between count as outside, never the reverse
		[ -z "$outside" ] &&
			p0=$("$BUILD/test/stats-dump" "$f" | sed -n 's/^sum_pages: //p')
		m=$(awk '{ print $10 }' "/proc/$wpid/stat" 2> /dev/null)
		[ -n "$m" ] && minflt=$m
		[ -n "$m" ] && [ -z "$outside" ] && outside=$((m - ${p0:-0}))
	fi
	sleep 0.02
done
wait $sid
pf1=$(awk '$1 == "pgfault" { print $2 }' /proc/vmstat)
pages=$("$BUILD/test/stats-dump" "$TMPD"/pf/shm-pcp.*.stats | sed -n 's/^sum_pages: //p')
cycles=$("$BUILD/test/stats-dump" "$TMPD"/pf/shm-pcp.*.stats | sed -n 's/^sum_calls: //p')
awk -v p="${pages:-0}" -v m="$minflt" -v o="${outside:-0}" -v d=$((pf1 - pf0)) \
	'BEGIN { exit !(m > 0 && p >= m - o - 256 && p <= d) }'
ok $? "stats: pages $pages (cycles done: $cycles) vs the worker's faults $minflt (last sample; ${outside:-?} outside the record) and the pgfault delta $((pf1 - pf0))"

left=$("$SWEEP" --count)
names=$(names_ours | wc -l)
[ "$left" = "leftovers: 0" ] && [ "$names" -eq 0 ]
ok $? "no /dev/shm name and no SysV segment of ours after normal runs, before any sweep ($left, $names /dev/shm/$PREFIX*)"

# SIGKILL of the process group mid-run, 10 trials per method.
sids=""
for m in posix sysv; do
	for t in $(seq 10); do
		(cd "$TMPD" && STRESS_MM_SHM_PCP_METHOD=$m STRESS_MM_SHM_PCP_BYTES=64K \
			exec setsid stress-ng --plugin 2 --plugin-so "$SO" \
			--plugin-method shm_pcp -t 30 > /dev/null 2>&1) &
		pid=$!
		sids="$sids $pid"
		sleep "0.$((2 + RANDOM % 8))"
		kill -9 -- "-$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
done
wait_no_plugin 10
ok $? "SIGKILL x 20: no plugin process left"
# Zombies wait for their reaper (init here) a moment; nothing may stay.
for i in $(seq 40); do
	rest=$(for s in $sids; do left_in "$s"; done)
	[ -z "$rest" ] && break
	sleep 0.25
done
[ -z "$rest" ]
ok $? "SIGKILL x 20: no churn companion left in their sessions, zombie or orphan, after 10 s"
[ -n "$rest" ] && diag "$rest"
left=$("$SWEEP" --count | sed -n 's/^leftovers: //p')
names=$(names_ours | wc -l)
diag "leftovers before the sweep: $left, $names /dev/shm/$PREFIX* (only a SIGKILL inside the create-unlink window leaves one)"
"$SWEEP" > "$TMPD/sweep"
diag "$(tr '\n' ' ' < "$TMPD/sweep")"
names=$(names_ours)
[ "$("$SWEEP" --count)" = "leftovers: 0" ] && [ -z "$names" ]
ok $? "after the sweep: no /dev/shm name and no SysV segment of ours"
[ -n "$names" ] && diag "$names"

# The helper's plant uses the sweep's own prefix; the name the stressor
# would leave is planted here, for a pid that has exited.
"$SWEEP" --plant
( : ) &
dead=$!
wait $dead
: > "/dev/shm/$PREFIX$dead-0"
"$SWEEP" > "$TMPD/sweep2"
[ "$(sed -n 's/^posix: //p' "$TMPD/sweep2")" -ge 2 ] &&
	[ "$(sed -n 's/^sysv: //p' "$TMPD/sweep2")" -ge 1 ] &&
	[ ! -e "/dev/shm/$PREFIX$dead-0" ] &&
	[ "$("$SWEEP" --count)" = "leftovers: 0" ]
ok $? "the sweep removes a dead worker's POSIX names (/dev/shm/$PREFIX$dead-0 too) and SysV segment"
rm -f "/dev/shm/$PREFIX$dead-0"
done_testing
