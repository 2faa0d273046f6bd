#!/bin/bash
# A run's exit status and what the YAML says about its workers, from the
# workers' records (common/stats.h), never from the words of a line: a
# path that cannot run here exits 4 with the SKIP's errno in the YAML; a
# run cut inside its first bogo-op (a 1 GiB object in 1 s) exits 0 and says
# so; every worker's CPU, slot and companions' CPUs and what each path
# achieved are in the YAML, and placement same puts 2 workers on 2
# different CPUs; method all says in the YAML which paths ran and which
# were left out and why; a worker killed by SIGSEGV (stress-ng exits 0) is
# a failure from its record; runs back to back (--repeat) do not see the
# previous run's dying thread stacks (sampler.h smm_settle(): without it, 2 of 2 trials here had a
# run whose stack proof SKIPped). Runs pin the plugin (--integration
# plugin); the built-in stressors: 84-native-front-end.t.
. "$(dirname "$0")/lib.sh"
need_stress_ng
SMM=$BUILD/stress-mm
[ -x "$SMM" ] || skip_all "$SMM not built"
plan 11

# 1. fdtable's tables come from kmalloc below 512K descriptors
# (RLIMIT_NOFILE 20000 here): EOPNOTSUPP, "not implemented".
if [ "$(ulimit -Hn)" -lt 500000 ]; then
	"$SMM" --integration plugin --vmalloc-order 1 --vmalloc-order-method fdtable -t 2s \
		--counters none --yaml "$TMPD/fd.yaml" > "$TMPD/fd.log" 2>&1
	rc=$?
	[ $rc -eq 4 ] && grep -q 'stress-mm: vmalloc-order skipped: ' "$TMPD/fd.log"
	ok $? "a path that cannot run here exits 4 and says why (exit $rc)"
	grep -q "^      skip-errno: $(perl -MPOSIX -e "print EOPNOTSUPP")$" "$TMPD/fd.yaml"
	ok $? "the YAML has the SKIP's errno (EOPNOTSUPP) from the record"
else
	skip "fdtable skips" "RLIMIT_NOFILE hard limit allows vmalloc'ed fd tables here"
	skip "fdtable skip errno" "as above"
fi

# 2. A run shorter than one bogo-op.
"$SMM" --integration plugin --shm-pcp 1 --shm-pcp-bytes 1G --shm-pcp-mode none -t 1s \
	--counters none --yaml "$TMPD/short.yaml" > "$TMPD/short.log" 2>&1
rc=$?
pages=$(sed -n 's/^      pages-faulted: //p' "$TMPD/short.yaml" | head -1)
ops=$(sed -n '/^  stressors:/,$s/^      bogo-ops: //p' "$TMPD/short.yaml" | head -1)
if [ "${ops:-x}" = 0 ]; then
	[ $rc -eq 0 ] && [ "${pages:-0}" -gt 0 ] &&
		grep -q 'shm-pcp: the run ended inside the first bogo-op' "$TMPD/short.log"
	ok $? "0 bogo-ops with $pages pages faulted: exit 0 and a line saying the run was too short (exit $rc)"
else
	skip "run too short" "the 1 GiB object was faulted within 1 s ($ops bogo-ops)"
fi

# 3. Placement and path reports in the YAML.
if [ "$(nproc)" -ge 2 ]; then
	"$SMM" --integration plugin --shm-pcp 2 -t 3s --counters none --yaml "$TMPD/pl.yaml" > "$TMPD/pl.log" 2>&1
	ok $? "two shm-pcp workers with stack churn run"
	cpus=$(sed -n '/^      worker-placement:/,/^      paths:/s/^        cpu: //p' "$TMPD/pl.yaml" | sort -u | wc -l)
	comp=$(sed -n '/^      worker-placement:/,/^      paths:/s/^        companion-cpus: //p' "$TMPD/pl.yaml" | paste -sd' ')
	[ "$cpus" -eq 2 ]
	ok $? "placement same: 2 workers on 2 CPUs in the YAML ($cpus)"
	mine=$(sed -n '/^      worker-placement:/,/^      paths:/{/^      - pid/{N;s/^      - pid: [0-9]*\n        cpu: //p}}' "$TMPD/pl.yaml" | paste -sd' ')
	[ "$comp" = "$mine" ]
	ok $? "each worker's companion on the worker's CPU (workers $mine, companions $comp)"
	# the records' fields under paths (up to the next key of the
	# stress-mm section); the line for people still reaches stderr
	paths=$(awk '/^      paths:/ { on = 1; print; next }
		on { match($0, /^ */); if (RLENGTH <= 6) exit; print }' "$TMPD/pl.yaml" | tr -d ' ' | paste -sd' ')
	grep -q "^shm-pcp: stack: kernel thread stacks are vmalloc areas of .* pages=4 (order 2), caller kernel_clone" "$TMPD/pl.log" &&
		[ "$paths" = "paths: stack: kind:vmalloc area-bytes:20480 pages:4 order:2 caller:kernel_clone decided-by:vmallocinfo" ]
	ok $? "the stack path's fields (kind, bytes, pages, order, caller, how it was decided) in the YAML from the records, its line on stderr ($paths)"
else
	for i in 1 2 3 4; do skip "placement $i" "one CPU"; done
fi
# 4. What each path achieved or why it was left out, from the records.
# (by bogo-ops, not time: one call sets up the next path, and a busy host
# may not reach the sixth path in a few seconds)
"$SMM" --integration plugin --vmalloc-order 1 --vmalloc-order-ops 14 -t 120 --counters none \
	--vmallocinfo-interval 0 --yaml "$TMPD/all.yaml" > "$TMPD/all.log" 2>&1
rc=$?
paths=$(awk '/^      paths:/ { on = 1; next }
	on { match($0, /^ */); if (RLENGTH <= 6) exit; print }' "$TMPD/all.yaml")
printf '%s\n' "$paths" | grep -A1 '^        io-uring rings:' | grep -q 'kind: vmap'
ok $? "method all: io-uring rings proven as vmap areas in paths (exit $rc)"
if [ "$(ulimit -Hn)" -lt 500000 ]; then
	printf '%s\n' "$paths" | grep -A2 '^        fdtable:' | tr -d '\n' |
		grep -q "left-out: .*errno: $(perl -MPOSIX -e "print EOPNOTSUPP")"
	ok $? "method all: fdtable left out, with its reason and EOPNOTSUPP, in paths"
else
	skip "fdtable left out" "RLIMIT_NOFILE hard limit allows vmalloc'ed fd tables here"
fi

# 5. A worker that crashes: stress-ng says success, its record says not.
# (-t 10, of which up to 8 s for finding the worker on a busy machine;
# the run goes on to its end after the crash)
"$SMM" --integration plugin --vmalloc-order 1 --vmalloc-order-method pty -t 10 --counters none \
	--vmallocinfo-interval 0 --yaml "$TMPD/crash.yaml" > "$TMPD/crash.log" 2>&1 &
smm=$!
worker=
found_worker() {
	dir=$(grep -lx "$smm" "${TMPDIR:-/tmp}"/stress-mm.*/owner 2>/dev/null | head -1)
	rec=$(ls "${dir%/owner}"/stats/vmalloc-order.*.stats 2>/dev/null | head -1)
	worker=$(basename "${rec:-x.0.stats}" .stats | sed 's/.*\.//')
	[ "${worker:-0}" -gt 0 ]
}
within 8 found_worker
# the record exists: its crash handler is installed right after it
sleep 1
[ "${worker:-0}" -gt 0 ] && kill -SEGV "$worker"
wait $smm
rc=$?
[ $rc -eq 2 ] && grep -q 'stress-mm: vmalloc-order failed: a worker crashed with signal 11' "$TMPD/crash.log" &&
	grep -q '^      failed: a worker crashed with signal 11' "$TMPD/crash.yaml"
ok $? "a worker killed by SIGSEGV: exit 2 from its record, said and in the YAML (worker ${worker:-none}, exit $rc)"

# 6. Back to back: each run's stack proof sees its own new areas.
"$SMM" --integration plugin --shm-pcp 1 -t 3 --repeat 4 --counters none --vmallocinfo-interval 0 \
	--yaml "$TMPD/rep.yaml" > "$TMPD/rep.log" 2>&1
rc=$?
[ $rc -eq 0 ] && ! grep -q 'SKIP' "$TMPD/rep.log"
ok $? "4 runs back to back with stack churn: no SKIP, exit 0 (exit $rc)"
[ $rc -eq 0 ] || diag "$(grep -i 'skip' "$TMPD/rep.log")"
done_testing
