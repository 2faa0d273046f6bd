#!/bin/bash
# mmtests (github.com/gormanm/mmtests) runs our stressors through the
# configs and stressng-bench cases of mmtests/0003-*.patch. Without an
# mmtests tree (the patch only):
#   - every config the patch adds names a STRESSNG_TESTNAME whose
#     stressng-bench case the patch adds, for one of our stressors;
#   - each case's switches, as stressng-bench runs them (TESTSWITCH,
#     then the thread count, --timeout and --metrics-brief), run on the
#     built-in stress-ng for 1 s, exit 0, and print the "(secs)" header
#     and a bogo-ops row of the stressor after it, the lines mmtests'
#     extract-report.pl reads (the bogo-ops/s of real time, column 6);
# With MMTESTS=DIR (a checkout of mmtests), mmtests/check.sh runs the
# real thing (make mmtests-check): patch, run-mmtests.sh twice,
# compare-kernels.sh on an A/A pair and on a planted 20% drop. Without it
# that test skips, with the reason: this machine reaches no github.
. "$(dirname "$0")/lib.sh"
need_native
patch=$(ls "$TOP"/mmtests/0*-stressng-add-vmalloc-order-and-shm-pcp.patch 2> /dev/null)
[ -f "$patch" ] || skip_all "no mmtests/0*-stressng-add-vmalloc-order-and-shm-pcp.patch"

# The files the patch adds or changes, each as "path<TAB>line" per added
# line.
awk '/^\+\+\+ b\// { f = substr($2, 3); next }
	/^\+/ && f != "" { print f "\t" substr($0, 2) }' "$patch" > "$TMPD/added"
configs=$(cut -f1 "$TMPD/added" | grep '^configs/config-workload-stressng-' | sort -u)
bench=shellpack_src/src/stressng/stressng-bench
n_configs=$(echo "$configs" | grep -c .)
plan $((2 * n_configs + 2))
[ "$n_configs" -ge 5 ]
ok $? "${patch#"$TOP"/} adds $n_configs stressng configs (at least vmalloc-order, -stack, shm-pcp, -spin, -none)"

# switches NAME: the TESTSWITCH of NAME's case the patch adds to
# stressng-bench, and its STRESSOR, on two lines (empty if no such case)
switches() {
	awk -v b="$bench" 'index($0, b "\t") == 1 { print substr($0, length(b) + 2) }' "$TMPD/added" |
		awk -v name="$1" '
		$0 == name ")" { in_case = 1; next }
		in_case && /TESTSWITCH=/ { sub(/.*TESTSWITCH="/, ""); sub(/"$/, ""); sw = $0 }
		in_case && /STRESSOR=/ { sub(/.*STRESSOR=/, ""); st = $0 }
		in_case && /;;/ { print sw; print st; exit }'
}

for c in $configs; do
	name=$(awk -F'\t' -v c="$c" '$1 == c { print $2 }' "$TMPD/added" |
		sed -n 's/^export STRESSNG_TESTNAME=//p')
	sw=$(switches "$name" | sed -n 1p)
	st=$(switches "$name" | sed -n 2p)
	case $st in vmalloc-order | shm-pcp) r=0 ;; *) r=1 ;; esac
	[ -n "$name" ] && [ -n "$sw" ] && [ $r -eq 0 ]
	ok $? "$c: STRESSNG_TESTNAME=${name:-none}, a stressng-bench case for $st: ${sw:-no case}"
	# stressng-bench's command line, 1 worker, 1 s; the lines after
	# "(secs)" as extract-report.pl splits them (after "] ")
	# shellcheck disable=SC2086 # TESTSWITCH is words, as in stressng-bench
	(cd "$TMPD" && timeout 60 "$NATIVE" $sw 1 --timeout 1s --metrics-brief) \
		> "$TMPD/$name.log" 2>&1
	rc=$?
	row=$(awk '/\(secs\)/ { r = 1; next } r { sub(/.*\] /, ""); print }' "$TMPD/$name.log" |
		awk -v st="$st" '$1 == st && $6 + 0 > 0')
	[ $rc -eq 0 ] && [ -n "$row" ]
	ok $? "stress-ng $sw 1 --timeout 1s --metrics-brief: exit $rc, row: ${row:-none}"
	[ -n "$row" ] || diag "$(tail -n 5 "$TMPD/$name.log")"
done

if [ -z "${MMTESTS:-}" ]; then
	skip "mmtests' run-mmtests.sh and compare-kernels.sh on our config (mmtests/check.sh)" \
		"MMTESTS unset: no mmtests tree on this machine (github.com/gormanm/mmtests is not reachable from CI; make mmtests-check MMTESTS=DIR)"
else
	"$TOP/mmtests/check.sh" "$BUILD" > "$TMPD/mmtests.tap" 2>&1
	ok $? "mmtests/check.sh with MMTESTS=$MMTESTS: $(tail -n 1 "$TMPD/mmtests.tap" | sed 's/^# //')"
	diag "$(grep -v '^#' "$TMPD/mmtests.tap")"
fi
done_testing
