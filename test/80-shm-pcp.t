#!/bin/bash
# shm-pcp: bogo-ops for churn none, spin and stack and for every shm method;
# thread-stack areas appear in vmallocinfo during a stack run and not during
# none and spin; placement as requested (affinity of worker and
# companions); stats files agree with stress-ng's bogo-ops within one per
# worker; after normal runs and SIGKILL of the process group (10 trials)
# and after the sweep, no /dev/shm name, SysV segment or companion is left.
. "$(dirname "$0")/lib.sh"
need_stress_ng
[ -r /proc/vmallocinfo ] || skip_all "/proc/vmallocinfo unreadable (needs uid 0)"

STACK=kernel_clone,copy_process,dup_task_struct,_do_fork
SWEEP=$BUILD/test/shm-sweep
NCPU=$(nproc)
plan 21

"$SWEEP" > /dev/null # a clean start: earlier crashes are not ours

# run NAME SECONDS [VAR=VALUE...]: one shm_pcp worker, YAML in $TMPD/NAME.yaml
run() {
	local name=$1 t=$2
	shift 2
	(cd "$TMPD" && env STRESS_MM_SHM_PCP_BYTES=1M "$@" timeout 60 stress-ng \
		--plugin 1 --plugin-so "$SO" --plugin-method shm_pcp -t "$t" \
		--metrics --yaml "$TMPD/$name.yaml" > "$TMPD/$name.log" 2>&1)
}

for churn in none spin stack; do
	"$BUILD/test/vmallocinfo-watch" 3000 100 20480 "$STACK" > "$TMPD/$churn.watch" &
	w=$!
	sleep 0.2
	run "$churn" 2 STRESS_MM_SHM_PCP_CHURN=$churn
	rc=$?
	wait $w
	ops=$(yaml_bogo_ops "$TMPD/$churn.yaml")
	[ $rc -eq 0 ] && [ "${ops:-0}" -gt 0 ] && ! grep -q "FAIL:\|SKIP:" "$TMPD/$churn.log"
	ok $? "churn $churn: bogo-ops ${ops:-none}, no FAIL or SKIP"
	grep "shm-pcp:" "$TMPD/$churn.log" | while read -r l; do diag "$l"; done
done
new_stack=$(sed -n 's/^new: //p' "$TMPD/stack.watch")
new_none=$(sed -n 's/^new: //p' "$TMPD/none.watch")
new_spin=$(sed -n 's/^new: //p' "$TMPD/spin.watch")
[ "${new_stack:-0}" -ge 64 ]
ok $? "churn stack: thread-stack areas appear in vmallocinfo ($new_stack new)"
# stress-ng's own processes and other tasks of the machine start a few
# tasks meanwhile; stack churn makes thousands.
[ "${new_none:-0}" -le 16 ] && [ "${new_spin:-0}" -le 16 ]
ok $? "churn none and spin: no churn areas (none $new_none, spin $new_spin new stack areas)"

for m in posix memfd sysv; do
	run "m-$m" 1 STRESS_MM_SHM_PCP_METHOD=$m STRESS_MM_SHM_PCP_CHURN=none
	ops=$(yaml_bogo_ops "$TMPD/m-$m.yaml")
	[ "${ops:-0}" -gt 0 ] && ! grep -q "FAIL:" "$TMPD/m-$m.log"
	ok $? "method $m: bogo-ops ${ops:-none}"
done

# Placement: read the affinity of the worker and its companions mid-run.
# Companions of earlier runs may linger as zombies adopted by init.
live_companions() {
	for c in $(pgrep -x smm-churn); do
		awk '/^State:/ { s = $2 } /^PPid:/ { p = $2 }
			END { exit !(s != "Z" && p != 1) }' "/proc/$c/status" 2>/dev/null &&
			printf '%s ' "$c"
	done
}
allowed() { sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$1/status"; }
for cpu in same spread any; do
	(cd "$TMPD" && STRESS_MM_SHM_PCP_CPU=$cpu STRESS_MM_SHM_PCP_CHURN=spin \
		STRESS_MM_SHM_PCP_CHURN_PROCS=2 STRESS_MM_SHM_PCP_BYTES=1M \
		timeout 60 stress-ng --plugin 1 --plugin-so "$SO" \
		--plugin-method shm_pcp -t 3 > "$TMPD/cpu-$cpu.log" 2>&1) &
	sp=$!
	comps=""
	for i in $(seq 30); do
		sleep 0.1
		comps=$(live_companions)
		[ "$(echo $comps | wc -w)" -ge 2 ] && break
	done
	good=1
	desc="no companions found"
	if [ -n "$comps" ]; then
		c1=${comps%% *}
		wpid=$(awk '/^PPid:/ { print $2 }' "/proc/$c1/status")
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
	else
		good=0
	fi
	wait $sp
	[ $good -eq 1 ]
	ok $? "placement $cpu: $desc"
	grep -q "placement $cpu" "$TMPD/cpu-$cpu.log"
	ok $? "placement $cpu is reported"
done

# Stats files: the sum of calls equals stress-ng's bogo-ops within one per
# worker.
mkdir -p "$TMPD/stats"
(cd "$TMPD" && STRESS_MM_STATS_DIR=$TMPD/stats STRESS_MM_SHM_PCP_BYTES=1M \
	STRESS_MM_SHM_PCP_CHURN=stack timeout 60 stress-ng --plugin 2 \
	--plugin-so "$SO" --plugin-method shm_pcp -t 2 --metrics \
	--yaml "$TMPD/stats.yaml" > "$TMPD/stats.log" 2>&1)
ops=$(yaml_bogo_ops "$TMPD/stats.yaml")
"$BUILD/test/stats-dump" "$TMPD"/stats/shm-pcp.*.stats > "$TMPD/stats.dump"
sum=$(sed -n 's/^sum_calls: //p' "$TMPD/stats.dump")
files=$(sed -n 's/^files: //p' "$TMPD/stats.dump")
pages=$(sed -n 's/^sum_pages: //p' "$TMPD/stats.dump")
churn=$(sed -n 's/^sum_churn_allocs: //p' "$TMPD/stats.dump")
diff=$((${sum:-0} - ${ops:-0}))
[ "${files:-0}" -ge 2 ] && [ "${diff#-}" -le "${files:-0}" ] && [ "${ops:-0}" -gt 0 ]
ok $? "stats: sum of calls $sum vs bogo-ops $ops, $files workers"
[ "${pages:-0}" -eq $((sum * 256)) ] && [ "${churn:-0}" -gt 0 ]
ok $? "stats: pages faulted $pages = calls x 256 (1M objects), churn allocations $churn"

# SIGKILL of the process group mid-run, 10 trials per method.
for m in posix sysv; do
	for t in $(seq 10); do
		(cd "$TMPD" && STRESS_MM_SHM_PCP_METHOD=$m STRESS_MM_SHM_PCP_BYTES=64K \
			exec setsid stress-ng --plugin 2 --plugin-so "$SO" \
			--plugin-method shm_pcp -t 30 > /dev/null 2>&1) &
		pid=$!
		sleep "0.$((2 + RANDOM % 8))"
		kill -9 -- "-$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
done
wait_no_plugin 10
ok $? "SIGKILL x 20: no plugin process left"
for i in $(seq 20); do
	[ -z "$(live_companions)" ] && break
	sleep 0.25
done
[ -z "$(live_companions)" ]
ok $? "SIGKILL x 20: no churn companion left (zombies aside, which init reaps)"
left=$("$SWEEP" --count | sed -n 's/^leftovers: //p')
diag "leftovers before the sweep: $left (only a SIGKILL inside the create-unlink window leaves one)"
"$SWEEP" > "$TMPD/sweep"
diag "$(tr '\n' ' ' < "$TMPD/sweep")"
[ "$("$SWEEP" --count)" = "leftovers: 0" ]
ok $? "after the sweep: no /dev/shm name and no SysV segment of ours"

"$SWEEP" --plant
"$SWEEP" > "$TMPD/sweep2"
[ "$(sed -n 's/^posix: //p' "$TMPD/sweep2")" -ge 1 ] &&
	[ "$(sed -n 's/^sysv: //p' "$TMPD/sweep2")" -ge 1 ] &&
	[ "$("$SWEEP" --count)" = "leftovers: 0" ]
ok $? "the sweep removes a dead worker's POSIX name and SysV segment"

ls /dev/shm | grep -q "^stress-mm-shm-pcp-"
[ $? -ne 0 ]
ok $? "no /dev/shm entry of ours after normal runs and the sweep"
done_testing
