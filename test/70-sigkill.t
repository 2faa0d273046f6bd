#!/bin/bash
# Leak-proofing: SIGKILL of the whole stress-ng process group mid-run (a
# worker running its method), 10 times per method, all 10 counted, then a
# normal run: no process of the run is left (each run has a session of its
# own: none of those sessions may keep a member; that covers thread stacks
# and ptys, which die with their processes), no process maps this build's
# plugin, and no vmalloc area of the paths' callers (stacks aside) that the
# run made is left: areas that appeared around each kill (sampled just
# before and just after it, against a sample taken just before that trial
# started) must be gone after a settle. Rings, sockets, filters, LDTs and
# fd tables are kernel-owned and die with their processes. Only the run's
# own processes and areas count: the machine may be busy. vmallocinfo
# names no process, so a control window without a run comes first: where
# the machine itself keeps areas of these callers, the areas check skips
# with what it kept.
. "$(dirname "$0")/lib.sh"
need_stress_ng
[ -r /proc/vmallocinfo ] || skip_all "/proc/vmallocinfo unreadable (needs uid 0)"
command -v setsid >/dev/null || skip_all "setsid missing (util-linux)"

TRIALS=10
# callers of the paths' areas, thread stacks aside (doc/plugin.md, Methods)
CALLERS='^(io_create_region|io_region_init_ptr|io_pin_pbuf_ring|bpf_prog_alloc_no_stats|bpf_prog_realloc|alloc_ldt_struct|n_tty_open|alloc_fdtable|dup_fd|expand_fdtable)$'
mapfile -t syms < <("$BUILD/test/tables" paths | cut -f1)
plan $((${#syms[@]} + 4))

# areas: "range size caller" of every area of CALLERS now, sorted
areas() {
	awk -v re="$CALLERS" '{ c = $3; sub(/\+.*/, "", c); if (c ~ re) print $1, $2, c }' \
		/proc/vmallocinfo | sort
}
# made_since FILE: areas present now that FILE (an earlier areas) lacks
made_since() { areas | comm -13 "$1" -; }
sids=""
: > "$TMPD/made"

# The rest of the machine, without a run: areas of these callers that it
# makes in 3 s and keeps 10 s later (a login's pty, a service's socket
# filter). Where it keeps any, what a run leaves cannot be told from it.
areas > "$TMPD/ctl.before"
sleep 3
made_since "$TMPD/ctl.before" > "$TMPD/ctl.made"
sleep 10
areas | comm -12 "$TMPD/ctl.made" - > "$TMPD/ctl.kept"

# A trial counts only when it was killed mid-run: a worker had started its
# method (its stats file exists) and the kill found the group alive. A path
# that must run here (test/required-paths) must be killed mid-run in every
# trial; another one may SKIP instead, which ends its group at once.
for sym in "${syms[@]}"; do
	killed=0
	skipped=0
	started_or_ended() {
		ls "$1"/*.stats > /dev/null 2>&1 ||
			! ps -o stat= -p "$2" | grep -qv '^Z'
	}
	for t in $(seq $TRIALS); do
		st=$TMPD/st.$sym.$t
		mkdir -p "$st"
		areas > "$TMPD/before"
		(cd "$TMPD" && STRESS_MM_VMALLOC_ORDER_BATCH=32 \
			STRESS_MM_STATS_DIR=$st exec setsid \
			stress-ng --plugin 2 --plugin-so "$SO" \
			--plugin-method "vmalloc_order_$sym" -t 30 \
			> "$TMPD/$sym.$t.log" 2>&1) &
		pid=$!
		sids="$sids $pid"
		# its first record, or its end (a SKIP); a busy machine may take a
		# while to start it: up to 20 s
		within 20 started_or_ended "$st" "$pid"
		started=$(ls "$st" | wc -l)
		sleep "0.$((1 + RANDOM % 4))"
		made_since "$TMPD/before" >> "$TMPD/made"
		kill -9 -- "-$pid" 2>/dev/null
		alive=$?
		made_since "$TMPD/before" >> "$TMPD/made"
		if [ $alive -eq 0 ] && [ "$started" -gt 0 ]; then
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

# A normal run of every method after the kills, in a session of its own.
(cd "$TMPD" && exec setsid timeout 60 stress-ng --plugin 1 --plugin-so "$SO" \
	--plugin-method vmalloc_order -t 3 --metrics > "$TMPD/normal.log" 2>&1) &
pid=$!
sids="$sids $pid"
wait $pid
ok $? "a normal run of vmalloc_order (all paths) exits 0"
wait_no_plugin 10
ok $? "no process maps this build's plugin after the normal run"

sort -u "$TMPD/made" > "$TMPD/made.u"
for _ in $(seq 40); do
	session_left $sids > "$TMPD/left"
	areas | comm -12 "$TMPD/made.u" - > "$TMPD/kept"
	[ ! -s "$TMPD/left" ] && [ ! -s "$TMPD/kept" ] && break
	sleep 0.25
done
[ ! -s "$TMPD/left" ]
ok $? "no process of the run's $(echo $sids | wc -w) sessions is left ($(wc -l < "$TMPD/left") left)"
[ -s "$TMPD/left" ] && diag "$(head -5 "$TMPD/left")"
# callers of what was kept; a leftover of a caller the machine itself did
# not keep in the control window is the run's
callers_of() { awk '{ print $3 }' "$1" | sort -u; }
unexplained=$(comm -23 <(callers_of "$TMPD/kept") <(callers_of "$TMPD/ctl.kept"))
if [ -s "$TMPD/kept" ] && [ -z "$unexplained" ]; then
	skip "no area the run made is left" "$(wc -l < "$TMPD/kept") left, but the machine itself kept $(wc -l < "$TMPD/ctl.kept") area(s) of these callers made in 3 s without a run ($(head -1 "$TMPD/ctl.kept")): not the run's to tell"
else
	[ ! -s "$TMPD/kept" ]
	ok $? "no area the run made is left ($(wc -l < "$TMPD/made.u") seen around the kills, $(wc -l < "$TMPD/kept") left)"
fi
[ -s "$TMPD/kept" ] && diag "$(head -5 "$TMPD/kept")"
done_testing
