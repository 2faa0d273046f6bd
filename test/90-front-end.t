#!/bin/bash
# The stress-mm front end: --help, the man page and the bash completion
# carry every option of the tables; every option with a bad value gives
# exit 1 and one line and starts nothing; both stressors in one command give
# named metrics lines and a YAML with bogo-ops and every counter; the
# counters lie between perf's count of the run's stress-ng and perf stat -a around it; a failing plugin
# run exits 2; SIGINT and SIGTERM stop everything, leave nothing behind and
# still write a report marked as interrupted. Runs pin the plugin
# (--integration plugin); the built-in stressors: 84-native-front-end.t.
. "$(dirname "$0")/lib.sh"
isolate
need_stress_ng
SMM=$BUILD/stress-mm
[ -x "$SMM" ] || skip_all "$SMM not built"

mapfile -t opts < <("$BUILD/test/tables" params | cut -f7 | grep -v '^stats-dir$')
fe_opts=(vmalloc-order vmalloc-order-ops shm-pcp shm-pcp-ops timeout metrics
	metrics-brief times yaml stress-ng counters counters-engine vmallocinfo-interval
	help version)
bad=(
	"--vmalloc-order x" "--vmalloc-order 4097" "--vmalloc-order -1"
	"--vmalloc-order-ops 0" "--shm-pcp 1x" "--shm-pcp-ops 99999999999999999999"
	"-t 0" "-t 10x" "--timeout 1.5s" "--vmallocinfo-interval -1"
	"--vmallocinfo-interval 0.01" "--counters nope" "--counters ''"
	"--stress-ng /nonexistent" "--stress-ng /tmp" "--yaml ''"
	"--yaml /proc/x.yaml" "--yaml /tmp" "--no-such-option" "stray"
	"--vmalloc-order" "--metrics=1" "--counters tlb_flush,"
	"--vmallocinfo-interval 1e0" "--vmalloc-order-bytes 8K" "--repeat 0"
	"--shm-pcp-bytes 16KK" "-- --shm 1 -t 1s" "-- --shm 1 --yaml x.yaml"
	"--vmalloc-order-tests fix_size_alloc_test" "--counters-engine nope"
	"--vmalloc-order 1 --vmalloc-order-method test-vmalloc --vmalloc-order-tests bogus"
	"-- --shm 1 --timeo 4" "-- --shm 1 --yam F" "-- --shm 1 -YF" "-- --shm 1 -vt4"
	"-- --shm 1 --plugin-meth x" "-- --shm 1 --timeout=4"
)
# what stress-ng itself reads those as: CASE|what shows it
as_sng=("--timeo 1|timeout" "-vt1|timeout" "--timeout=1|timeout" "--yam F.yaml|yaml"
	"-YF.yaml|yaml" "--plugin-meth nosuch|plugin-method")
plan $((3 + ${#opts[@]} + ${#bad[@]} + ${#as_sng[@]} + 3 + 20 + 7))

# 1. help, man page, completion
"$SMM" --help > "$TMPD/help"
ok $? "--help exits 0"
bash -n "$BUILD/stress-mm.bash-completion"
ok $? "the bash completion parses"
( . "$BUILD/stress-mm.bash-completion" && complete -p stress-mm > /dev/null )
ok $? "the bash completion registers for stress-mm"
for o in "${opts[@]}" "${fe_opts[@]}"; do
	if [ "$o" = help ] || [ "$o" = version ]; then
		continue
	fi
	esc=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
	if grep -q -- "--$o\b" "$TMPD/help" &&
		grep -q -- "\\\\-\\\\-$esc\b" "$BUILD/stress-mm.1" &&
		grep -q -- "--$o\b" "$BUILD/stress-mm.bash-completion"; then
		r=0
	else
		r=1
	fi
	case " ${opts[*]} " in
	*" $o "*) ok $r "--$o is in --help, the man page and the completion" ;;
	*) [ $r -eq 0 ] || ok 1 "--$o is in --help, the man page and the completion" ;;
	esac
done

# 2. bad values: exit 1, one line, nothing started
for b in "${bad[@]}"; do
	out=$(cd "$TMPD" && eval "\"$SMM\" --shm-pcp 1 $b" 2>&1)
	rc=$?
	lines=$(printf '%s\n' "$out" | grep -c .)
	[ $rc -eq 1 ] && [ "$lines" -eq 1 ] && case $out in stress-mm:*) true ;; *) false ;; esac
	ok $? "'$b': exit $rc, $lines line: $out"
done

# The refused arguments after -- are what the real stress-ng reads as -t,
# --yaml or --plugin-method (getopt_long prefixes and bundles); its other
# options, some sharing a prefix with those, pass.
for c in "${as_sng[@]}"; do
	arg=${c%|*}
	rm -f "$TMPD/F.yaml"
	case ${c#*|} in
	timeout)
		s0=$(date +%s)
		(cd "$TMPD" && eval "timeout 30 stress-ng --cpu 1 -t 20 $arg" > /dev/null 2>&1)
		[ $(($(date +%s) - s0)) -lt 10 ] ;;
	yaml)
		(cd "$TMPD" && eval "stress-ng --cpu 1 -t 1 $arg" > /dev/null 2>&1)
		[ -s "$TMPD/F.yaml" ] ;;
	plugin-method)
		(cd "$TMPD" && eval "stress-ng --plugin 1 --plugin-so \"$SO\" $arg -t 1" 2>&1) |
			grep -q "plugin-method must be one of" ;;
	esac
	ok $? "stress-ng reads '$arg' as its ${c#*|}, which stress-mm refuses after --"
done
(cd "$TMPD" && "$SMM" --integration plugin --shm-pcp 1 --shm-pcp-bytes 1M -t 1 --counters none \
	--vmallocinfo-interval 0 -- --times --timer-freq 1000 -v --yield 1 > "$TMPD/other.log" 2>&1)
rc=$?
[ $rc -eq 0 ] && grep -q "invoked with .* --times --timer-freq 1000 -v --yield 1" "$TMPD/other.log"
ok $? "stress-ng's other options after -- pass, prefixes of ours included (exit $rc)"

# Environment values the plugin would read are checked up front too, and
# a bad option after -- is stress-ng's usage error (exit 1).
out=$(cd "$TMPD" && STRESS_MM_SHM_PCP_BYTES=garbage "$SMM" --integration plugin --shm-pcp 1 -t 1 2>&1)
rc=$?
[ $rc -eq 1 ] && [ "$(printf '%s\n' "$out" | grep -c .)" -eq 1 ]
ok $? "a bad STRESS_MM_ variable: exit $rc before anything runs: $out"
(cd "$TMPD" && "$SMM" --integration plugin --shm-pcp 1 -t 1 --yaml "$TMPD/refused.yaml" \
	-- --no-such-stress-ng-option > "$TMPD/refused.log" 2>&1)
rc=$?
[ $rc -eq 1 ]
ok $? "a bad stress-ng option after --: stress-ng's usage status (exit $rc)"
# a "stress-ng" that runs nothing (/bin/true): no worker reached our code
(cd "$TMPD" && "$SMM" --integration plugin --shm-pcp 1 -t 1 --stress-ng /bin/true \
	--yaml "$TMPD/true.yaml" > "$TMPD/true.log" 2>&1)
# Nothing ran in either: no figure of the system's background counts,
# whatever the counters could do.
for c in refused true; do
	n0=$(grep -c "^stress-mm: figure: .* [0-9.e+-]*   (" "$TMPD/$c.log")
	nr=$(grep -c "^stress-mm: figure: [a-z0-9-]* *absent *(no stressor ran: " "$TMPD/$c.log")
	[ "$n0" -eq 0 ] && [ "$nr" -gt 0 ] &&
		grep -A1 "^    movable-refills-per-1000-pgfault:$" "$TMPD/$c.yaml" |
		grep -q "absent: 'no stressor ran: "
	ok $? "nothing ran ($c): no figure has a value ($n0), system-wide ones absent as no stressor ran ($nr)"
done

# 3. both stressors, one report
(cd "$TMPD" && "$SMM" --integration plugin --vmalloc-order 1 --vmalloc-order-method pty --shm-pcp 1 \
	--shm-pcp-bytes 1M -t 3 --metrics --times --yaml "$TMPD/r.yaml" \
	> "$TMPD/run.log" 2>&1)
rc=$?
ok $rc "both stressors: exit 0"
grep -q "metrc: \[[0-9]*\] vmalloc-order " "$TMPD/run.log" &&
	grep -q "metrc: \[[0-9]*\] shm-pcp " "$TMPD/run.log" &&
	! grep -q "metrc: \[[0-9]*\] plugin " "$TMPD/run.log"
ok $? "metrics lines carry the stressor names, never plugin"
[ "$(yaml_stressor "$TMPD/r.yaml" 1)" != plugin ] &&
	[ "$(yaml_bogo_ops "$TMPD/r.yaml" 1)" -gt 0 ] &&
	[ "$(yaml_bogo_ops "$TMPD/r.yaml" 2)" -gt 0 ]
ok $? "YAML: both metrics entries named, bogo-ops > 0"
missing=""
if [ -r /proc/vmallocinfo ] && [ "$(id -u)" = 0 ]; then
	# the zone-lock waits count only where spinlock waits are traced
	# (doc/counters.md): elsewhere they are skipped with that reason
	for c in $("$SMM" --help | sed -n '/^Counters:/,/^$/p' | tail -n +2); do
		grep -q "^    $c: [0-9]" "$TMPD/r.yaml" && continue
		case $c in
		zone_lock_* | spinlock_waits)
			grep -q "^    $c: 'skipped: .*spinlock wait" "$TMPD/r.yaml" && continue ;;
		esac
		missing="$missing $c"
	done
	[ -z "$missing" ]
	ok $? "YAML: every counter has a count, or a zone-lock one the reason${missing:+ (missing:$missing)}"
else
	skip "YAML: every counter has a count" "needs root for system-wide counting"
fi
grep -q "^  figures:" "$TMPD/r.yaml" && grep -q "^      numerator: " "$TMPD/r.yaml" &&
	grep -q "^      denominator: " "$TMPD/r.yaml" &&
	grep -q "pgalloc_total:" "$TMPD/r.yaml" && grep -q "count-end:" "$TMPD/r.yaml"
ok $? "YAML: figures with numerator and denominator, vmstat deltas and PCP state"
# fig FILE NAME KEY: KEY (value or absent) of figure NAME in the report
fig() {
	awk -v n="    $2:" -v k="      $3: " '
		$0 == "  figures:" { f = 1; next }
		f && /^  [^ ]/ { exit }
		f && $0 == n { g = 1; next }
		g && /^    [^ ]/ { exit }
		g && index($0, k) == 1 { print substr($0, length(k) + 1); exit }' "$1"
}
cnt() { sed -n "s/^    $2: \([0-9]*\)$/\1/p" "$1" | head -1; }
v=$(fig "$TMPD/r.yaml" vmalloc-order.zone-locked-order0-per-bogo-op value)
a=$(fig "$TMPD/r.yaml" shm-pcp.zone-locked-order0-per-bogo-op absent)
[ -z "$v" ] && case $a in *"2 stressors ran"*) true ;; *) false ;; esac
ok $? "both stressors: no per-bogo-op figure, absent with the reason ($a)"
# the UNMOVABLE refills and the drains include vmalloc-order's own
# kernel allocations: not shm-pcp's alone
mixed=""
for n in unmovable-refills-per-1000-faults order0-drains-per-1000-faults; do
	[ -z "$(fig "$TMPD/r.yaml" "shm-pcp.$n" value)" ] &&
		case $(fig "$TMPD/r.yaml" "shm-pcp.$n" absent) in *"2 stressors ran"*) true ;; *) false ;; esac ||
		mixed="$mixed $n"
done
[ -z "$mixed" ]
ok $? "both stressors: shm-pcp's unmovable refills and drains absent with the reason${mixed:+ (not:$mixed)}"
if grep -q "^    zone_locked_order0_movable_refill: [0-9]" "$TMPD/r.yaml"; then
	pages=$(sed -n '/^    shm-pcp:$/,/^    [^ ]/s/^      pages-faulted: //p' "$TMPD/r.yaml")
	mr=$(cnt "$TMPD/r.yaml" zone_locked_order0_movable_refill)
	got=$(fig "$TMPD/r.yaml" shm-pcp.movable-refills-per-1000-faults value)
	awk -v m="$mr" -v p="$pages" -v g="$got" 'BEGIN { w = m / p * 1000; d = g - w; if (d < 0) d = -d; exit !(p > 0 && d <= 1e-4 * (w + 1)) }'
	ok $? "movable refills per 1000 faults = $mr refills / $pages pages x 1000 (got $got)"
	pa=$(cnt "$TMPD/r.yaml" page_alloc_order0)
	zl=$(cnt "$TMPD/r.yaml" zone_locked_order0)
	ef=$(cnt "$TMPD/r.yaml" extfrag_order0)
	got=$(fig "$TMPD/r.yaml" linux-mm-zone-locked-ratio-pct value)
	awk -v a="$pa" -v z="$zl" -v e="$ef" -v g="$got" 'BEGIN { w = (e + z) / a * 100; d = g - w; if (d < 0) d = -d; exit !(a > 0 && d <= 1e-4 * (w + 1)) }'
	ok $? "linux-mm ratio = ($ef + $zl) / $pa x 100 (got $got)"
else
	skip "movable refills per 1000 faults from the counts" "counters need root here"
	skip "linux-mm ratio from the counts" "counters need root here"
fi

# stress-ng's own stressors: after -- alone, counted around and named as
# stress-ng names them; beside ours, never added to ours.
(cd "$TMPD" && "$SMM" -t 2 --vmallocinfo-interval 0 --yaml "$TMPD/pt.yaml" -- --shm 1 \
	> "$TMPD/pt.log" 2>&1)
rc=$?
[ $rc -eq 0 ] && grep -q "^      shm.bogo-ops-per-second-real-time: [0-9]" "$TMPD/pt.yaml" &&
	! grep -q "stressor: plugin" "$TMPD/pt.yaml"
ok $? "stress-mm -- --shm 1: exit $rc, shm's own bogo-ops/s under its name"
if grep -q "^    zone_locked_order0_movable_refill: [0-9]" "$TMPD/pt.yaml"; then
	grep -q "stress-mm: figure: movable-refills-per-1000-pgfault  *[0-9]" "$TMPD/pt.log" &&
		grep -Eq "^stress-mm: kcntr: zone_locked_order0 +[0-9]+ events$" "$TMPD/pt.log" &&
		grep -Eq "^stress-mm: kcntr: zone_lock_wait_ns_free +([0-9]+ ns|skipped   \(.*\))$" "$TMPD/pt.log"
	ok $? "stress-mm -- --shm 1 prints counters with their units and per-fault figures"
else
	skip "stress-mm -- --shm 1 prints counters with their units and per-fault figures" "counters need root here"
fi
(cd "$TMPD" && "$SMM" --integration plugin --shm-pcp 1 --shm-pcp-bytes 1M -t 2 --counters none \
	--vmallocinfo-interval 0 --yaml "$TMPD/mix.yaml" -- --cpu 1 > /dev/null 2>&1)
ours=$(sed -n '/^    shm-pcp:$/,/^    [^ ]/s/^      bogo-ops: //p' "$TMPD/mix.yaml")
plugin=$(awk '/^- stressor: shm-pcp$/ { f = 1 } f && /^  bogo-ops:/ { print $2; exit }' "$TMPD/mix.yaml")
grep -q "^- stressor: cpu$" "$TMPD/mix.yaml" && [ -n "$ours" ] && [ "$ours" = "$plugin" ]
ok $? "-- --cpu 1 beside shm-pcp: cpu keeps its entry, shm-pcp's bogo-ops are its own ($ours = $plugin)"
why=$(sed -n "s/^      shm-pcp.zone-locked-order0-per-bogo-op: '\(.*\)'$/\1/p" "$TMPD/mix.yaml")
case $why in "2 stressors ran: "*) true ;; *) false ;; esac
ok $? "-- --cpu 1 beside shm-pcp: no per-bogo-op figure, 2 stressors ran (${why:-a value})"

# 4. counters against perf over the same command. stress-mm counts the
# whole machine while its run lasts, and its window opens before it starts
# stress-ng and closes after stress-ng has ended; so its count lies between
# what stress-ng and its workers caused (perf stat without -a, wrapped
# around the run's stress-ng by --stress-ng) and what the machine did over
# a longer span (perf stat -a around it all), however busy the machine is.
# 80% of the first is the lower bound (a BPF program is not run for an
# event nested in another's on one CPU). Events the kernel defers past the
# end of the run (RCU-freed thread stacks drain PCP lists a while later)
# are left out.
if command -v perf > /dev/null && [ "$(id -u)" = 0 ]; then
	ev=(-e kmem:mm_page_alloc --filter 'order == 0'
		-e kmem:mm_page_alloc_zone_locked --filter 'order == 0'
		-e kmem:mm_page_alloc_zone_locked --filter 'order == 0 && migratetype == 0'
		-e kmem:mm_page_alloc_zone_locked --filter 'order == 0 && migratetype == 1 && percpu_refill == 1')
	# tlb:tlb_flush is left out: a flush is often made for a task by
	# another CPU's context, so the run's own count is not a lower bound.
	keys=(page_alloc_order0 zone_locked_order0 zone_locked_order0_unmovable zone_locked_order0_movable_refill)
	# the run's stress-ng under perf; its version probe as it is
	{
		echo '#!/bin/bash'
		echo 'case " $* " in *" --plugin "*) ;; *) exec stress-ng "$@" ;; esac'
		printf 'exec perf stat -x, -o %q' "$TMPD/perf-run.csv"
		printf ' %q' "${ev[@]}"
		echo ' -- stress-ng "$@"'
	} > "$TMPD/sng-perf"
	chmod +x "$TMPD/sng-perf"
	(cd "$TMPD" && perf stat -a -x, -o "$TMPD/perf-a.csv" "${ev[@]}" -- \
		"$SMM" --stress-ng "$TMPD/sng-perf" --integration plugin \
		--shm-pcp 1 --shm-pcp-bytes 1M --vmalloc-order 1 \
		--vmalloc-order-method stack --vmalloc-order-batch 64 -t 3 \
		--vmallocinfo-interval 0 \
		--yaml "$TMPD/p.yaml" > /dev/null 2>&1)
	mapfile -t pa < <(grep -v '^#' "$TMPD/perf-a.csv" | grep . | cut -d, -f1)
	mapfile -t pr < <(grep -v '^#' "$TMPD/perf-run.csv" | grep . | cut -d, -f1)
	good=1
	desc=""
	compared=0
	for k in 0 1 2 3; do
		ours=$(sed -n "s/^    ${keys[$k]}: //p" "$TMPD/p.yaml")
		run=${pr[$k]:-0}
		all=${pa[$k]:-0}
		desc="$desc ${keys[$k]} $run<=$ours<=$all"
		[ "$run" -gt 1000 ] 2>/dev/null || continue
		compared=$((compared + 1))
		awk -v o="$ours" -v r="$run" -v a="$all" \
			'BEGIN { exit !(o >= 0.8 * r && o <= 1.05 * a) }' || good=0
	done
	[ $good -eq 1 ] && [ $compared -ge 1 ]
	ok $? "counters between 80% of the run's stress-ng's count and 105% of the machine's ($compared compared:$desc)"
else
	skip "counters between 80% of the run's stress-ng's count and 105% of the machine's" "needs root and perf (linux-perf)"
fi

# 5. a failing plugin: SysV segments above shmmax, in an IPC namespace
if command -v unshare > /dev/null && [ "$(id -u)" = 0 ]; then
	(cd "$TMPD" && unshare --ipc sh -c 'echo 65536 > /proc/sys/kernel/shmmax &&
		exec "$0" --integration plugin --shm-pcp 1 --shm-pcp-method sysv --shm-pcp-bytes 1M \
		-t 2 --counters none --vmallocinfo-interval 0' "$SMM" \
		> "$TMPD/fail.log" 2>&1)
	rc=$?
	[ $rc -eq 2 ] && grep -q "stress-mm: shm-pcp failed:" "$TMPD/fail.log"
	ok $? "a plugin failure that stress-ng calls success exits 2 (exit $rc)"
else
	skip "a plugin failure exits 2" "needs root and unshare"
fi

# 5b. asked and ran: under RLIMIT_NOFILE 64 the pty path clamps a batch
# of 4096; the YAML keeps the batch asked in parameters and says the one
# the workers ran in ran, as their clamp note on stderr does.
(ulimit -n 64 && cd "$TMPD" && exec "$SMM" --integration plugin --vmalloc-order 1 \
	--vmalloc-order-method pty --vmalloc-order-batch 4096 -t 2 --counters none \
	--vmallocinfo-interval 0 --yaml "$TMPD/clamp.yaml" > "$TMPD/clamp.log" 2>&1)
rc=$?
blk=$(sed -n '/^    vmalloc-order:$/,/^    [^ ]/p' "$TMPD/clamp.yaml")
asked=$(printf '%s\n' "$blk" | sed -n '/^      parameters:$/,/^      [^ ]/s/^        vmalloc-order-batch: //p')
ran=$(printf '%s\n' "$blk" | sed -n '/^      ran:$/,/^      [^ ]/s/^        vmalloc-order-batch: //p')
note=$(sed -n 's/.*pty: batch clamped from 4096 to \([0-9]*\) .*/\1/p' "$TMPD/clamp.log" | sort -n | head -1)
[ $rc -eq 0 ] && [ "$asked" = 4096 ] && [ -n "$ran" ] && [ "$ran" -lt 4096 ] &&
	[ "$ran" = "$note" ]
ok $? "a clamped run's YAML: batch asked $asked, ran ${ran:-absent} (stderr: ${note:-none}; exit $rc)"

# 6. SIGINT and SIGTERM mid-run
for sig in INT TERM; do
	(cd "$TMPD" && exec "$SMM" --integration plugin --vmalloc-order 1 --shm-pcp 1 --shm-pcp-bytes 1M \
		-t 60 --yaml "$TMPD/$sig.yaml" > "$TMPD/$sig.log" 2>&1) &
	pid=$!
	sleep 3
	kill -$sig $pid
	wait $pid
	rc=$?
	want=$((128 + $(kill -l $sig)))
	[ $rc -eq $want ]
	ok $? "SIG$sig: exit $rc (128 + signal)"
	grep -q "interrupted: true" "$TMPD/$sig.yaml"
	ok $? "SIG$sig: the report is written and marked interrupted"
	wait_no_plugin 10
	ok $? "SIG$sig: no plugin process or companion left"
done
# stress-ng ends its run on one SIGINT; one during its teardown can crash
# it (stress_terminate_handle() after its shared state is gone), so the
# front end sends each child one: count the front end's own kill() calls.
if ! command -v strace > /dev/null; then
	skip "a stop sends each stress-ng one SIGINT" "no strace"
elif ! strace -o /dev/null true 2> /dev/null; then
	skip "a stop sends each stress-ng one SIGINT" "strace cannot trace here (ptrace refused)"
else
	(cd "$TMPD" && exec strace -o "$TMPD/kill.trace" -e trace=kill -e signal=none \
		"$SMM" --integration plugin --vmalloc-order 1 --shm-pcp 1 --shm-pcp-bytes 1M \
		-t 60 > "$TMPD/kill.log" 2>&1) &
	tracer=$!
	smm=
	for _ in $(seq 50); do
		smm=$(pgrep -P $tracer -x stress-mm) && break
		sleep 0.1
	done
	sleep 3
	[ -n "$smm" ] && kill -INT "$smm"
	wait $tracer
	ints=$(grep -c 'kill([0-9]*, SIGINT)' "$TMPD/kill.trace")
	[ -n "$smm" ] && [ "$ints" -eq 2 ] && ! grep -q "signal 11" "$TMPD/kill.log"
	ok $? "a stop sends each of the 2 stress-ng one SIGINT (sent: $ints)"
	wait_no_plugin 10
fi
left=$("$BUILD/test/shm-sweep" --count)
[ "$left" = "leftovers: 0" ]
ok $? "no shm-pcp leftovers after the runs ($left)"
ls -d "${TMPDIR:-/tmp}"/stress-mm.* 2>/dev/null | grep -q .
[ $? -ne 0 ]
ok $? "no temporary directory of stress-mm left"
done_testing
