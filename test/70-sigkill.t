#!/bin/bash
# Leak-proofing: SIGKILL of the whole stress-ng process group mid-run (a
# worker running its method), 10 times per method, all 10 counted, then a
# normal run: no plugin process or thread is left,
# no pty stays allocated, and the vmalloc areas of every path's callers
# return to their baseline (rings, sockets, filters, LDTs and stacks are all
# kernel-owned and die with their processes).
. "$(dirname "$0")/lib.sh"
need_stress_ng
[ -r /proc/vmallocinfo ] || skip_all "/proc/vmallocinfo unreadable (needs uid 0)"
command -v setsid >/dev/null || skip_all "setsid missing (util-linux)"

TRIALS=10
CALLERS=kernel_clone,copy_process,io_create_region,bpf_prog_alloc_no_stats,bpf_prog_realloc,alloc_ldt_struct,n_tty_open,alloc_fdtable,dup_fd
mapfile -t syms < <("$BUILD/test/tables" paths | cut -f1)
plan $((${#syms[@]} + 4))

areas() { "$BUILD/test/vmallocinfo-watch" 0 0 0 "$CALLERS" | sed -n 's/^baseline: //p'; }
base_areas=$(areas)
base_pty=$(cat /proc/sys/kernel/pty/nr)

# A trial counts only when it was killed mid-run: a worker had started its
# method (its stats file exists) and the kill found the group alive. A path
# that must run here (test/required-paths) must be killed mid-run in every
# trial; another one may SKIP instead, which ends its group at once.
for sym in "${syms[@]}"; do
	killed=0
	skipped=0
	for t in $(seq $TRIALS); do
		st=$TMPD/st.$sym.$t
		mkdir -p "$st"
		(cd "$TMPD" && STRESS_MM_VMALLOC_ORDER_BATCH=32 \
			STRESS_MM_STATS_DIR=$st exec setsid \
			stress-ng --plugin 2 --plugin-so "$SO" \
			--plugin-method "vmalloc_order_$sym" -t 30 \
			> "$TMPD/$sym.$t.log" 2>&1) &
		pid=$!
		for i in $(seq 100); do
			ls "$st"/*.stats > /dev/null 2>&1 && break
			sleep 0.05
		done
		started=$(ls "$st" | wc -l)
		sleep "0.$((1 + RANDOM % 4))"
		if kill -9 -- "-$pid" 2>/dev/null && [ "$started" -gt 0 ]; then
			killed=$((killed + 1))
		elif grep -q "SKIP:" "$TMPD/$sym.$t.log"; then
			skipped=$((skipped + 1))
		fi
		wait "$pid" 2>/dev/null
	done
	wait_no_plugin 10
	gone=$?
	desc="$sym: no plugin process after SIGKILL of the process group ($killed of $TRIALS runs killed mid-run"
	if need=$(path_required "${sym//_/-}"); then
		[ $gone -eq 0 ] && [ $killed -eq $TRIALS ]
		ok $? "$desc; must run here)"
	elif [ $killed -eq 0 ] && [ $skipped -eq $TRIALS ]; then
		skip "$desc)" "it SKIPs here at once ($need)"
	else
		[ $gone -eq 0 ] && [ $((killed + skipped)) -eq $TRIALS ]
		ok $? "$desc, $skipped skipped: $need)"
	fi
done

# A normal run of every method after the kills.
(cd "$TMPD" && timeout 60 stress-ng --plugin 1 --plugin-so "$SO" \
	--plugin-method vmalloc_order -t 3 --metrics > "$TMPD/normal.log" 2>&1)
ok $? "a normal run of vmalloc_order (all paths) exits 0"
wait_no_plugin 10
ok $? "no plugin process after the normal run"

for i in $(seq 40); do
	now_pty=$(cat /proc/sys/kernel/pty/nr)
	now_areas=$(areas)
	[ "$now_pty" -le "$base_pty" ] && [ "$now_areas" -le $((base_areas + 16)) ] && break
	sleep 0.25
done
[ "$now_pty" -le "$base_pty" ]
ok $? "ptys back to baseline (kernel.pty.nr $base_pty -> $now_pty)"
[ "$now_areas" -le $((base_areas + 16)) ]
ok $? "vmalloc areas of the paths' callers back to baseline ($base_areas -> $now_areas)"
done_testing
