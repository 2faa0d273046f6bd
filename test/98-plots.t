#!/bin/bash
# The plots: stress-mm compare --plot on real runs' reports, the lab A/B's
# table and picture (lab/ab-table.sh, lab/ab-plot.sh) on reports of
# workloads a new user would write (--vmalloc-order 0 and -- --fork 0:
# each shows its own figures, none "absent or not comparable") and on a
# recorded matrix, and make lab-module-bench's picture (lab/modplot.sh)
# on recorded bench lines. Each picture is made, is valid SVG (xmllint)
# and holds one mark per run, comparison or measurement (counted: gnuplot
# draws a point as <use> of a gpPt symbol; the white discs it lays under
# filled circles with error bars are not marks) plus one per legend
# entry; a PNG is made too; a wrong name or a missing input is refused
# with one line and leaves no file.
. "$(dirname "$0")/lib.sh"
need_stress_ng
SMM=$BUILD/stress-mm
[ -x "$SMM" ] || skip_all "$SMM not built"
command -v gnuplot > /dev/null || skip_all "gnuplot not installed (make deps: gnuplot-nox)"
command -v xmllint > /dev/null || skip_all "xmllint not installed (make deps: libxml2-utils)"
plan 21
cd "$TMPD" || exit 1

# marks FILE.svg: point marks drawn (not the symbols' definitions, not
# the white discs under filled circles with error bars)
marks() {
	grep -o "<use xlink:href='#gpPt[0-9]*' transform='[^']*' color='[^']*'" "$1" |
		grep -vc "color='#FFFFFF'"
}
runs_in() { grep -c '^  - exit-status:' "$1"; }

# --- stress-mm compare --plot -------------------------------------------
# the plugin for every run: the native stress-ng, built beside the suite,
# may appear between two runs, and two integrations are not compared
common="-t 1 --repeat 4 --vmallocinfo-interval 0 --integration plugin"
"$SMM" --vmalloc-order 1 $common --yaml vmo-a.yaml > vmo-a.log 2>&1 &&
	"$SMM" --vmalloc-order 1 $common --yaml vmo-b.yaml > vmo-b.log 2>&1 &&
	"$SMM" $common --yaml fork-a.yaml -- --fork 1 > fork-a.log 2>&1
ok $? "three real reports of 4 runs (vmalloc-order twice, stress-ng --fork)"

"$SMM" compare vmo-a.yaml vmo-b.yaml --plot cmp.svg > cmp.out 2> cmp.err
rc=$?
nfig=$(grep -c '^vmalloc-order\.\|^[a-z0-9-]*-per-1000-pgfault ' cmp.out)
[ $rc -le 1 ] && [ -s cmp.svg ] && [ "$nfig" -ge 1 ]
ok $? "compare --plot cmp.svg exits $rc (a verdict) and writes it ($nfig figures compared)"
xmllint --noout cmp.svg 2> xmllint.err
ok $? "cmp.svg is valid XML (xmllint)"
want=$((nfig * ($(runs_in vmo-a.yaml) + $(runs_in vmo-b.yaml))))
[ "$(marks cmp.svg)" -eq "$want" ]
ok $? "cmp.svg holds one mark per run of each compared figure ($(marks cmp.svg) of $want)"
n=0
while read -r f _; do
	grep -qF "$f" cmp.svg && n=$((n + 1))
done < <(grep '^vmalloc-order\.\|-per-1000-pgfault ' cmp.out)
verdicts=$(grep -cE "change [+-][0-9.]+% \[[+-][0-9.]+%, [+-][0-9.]+%\]: (no change|regression|improvement|inconclusive)" cmp.svg)
[ "$n" -eq "$nfig" ] && [ "$verdicts" -eq "$nfig" ]
ok $? "every panel is titled with its figure, its change, interval and verdict ($n, $verdicts of $nfig)"

"$SMM" compare vmo-a.yaml vmo-b.yaml --plot cmp.png > png.out 2> png.err
rc=$?
[ $rc -le 1 ] && [ "$(head -c 4 cmp.png | tail -c 3)" = PNG ]
ok $? "compare --plot cmp.png exits $rc (a verdict) and writes a PNG ($(head -c 200 png.err))"

# Two configurations (--allow-param-diff): the picture says what differs.
sed 's/^\(        vmalloc-order-batch:\) 16$/\1 32/' vmo-b.yaml > vmo-b32.yaml
"$SMM" compare --allow-param-diff vmo-a.yaml vmo-b32.yaml --plot pd.svg > /dev/null 2>&1
rc=$?
[ $rc -le 1 ] && grep -q "configurations differ: base vmalloc-order.vmalloc-order-batch=16; candidate vmalloc-order.vmalloc-order-batch=32" pd.svg
ok $? "--allow-param-diff: the plot's title names what differs (exit $rc)"

"$SMM" compare vmo-a.yaml vmo-b.yaml --plot cmp.pdf > bad.out 2> bad.err
rc=$?
[ $rc -eq 2 ] && [ ! -s bad.out ] && [ "$(wc -l < bad.err)" -eq 1 ] &&
	grep -q "^stress-mm compare: --plot='cmp.pdf': the file must end in .svg or .png$" bad.err &&
	[ ! -e cmp.pdf ]
ok $? "--plot cmp.pdf: exit 2, one line, nothing printed or written ($(cat bad.err))"

PATH=/nonexistent "$SMM" compare vmo-a.yaml vmo-b.yaml --plot new.svg > bad.out 2> bad.err
rc=$?
[ $rc -eq 2 ] && [ ! -s bad.out ] && grep -q "needs gnuplot.*gnuplot-nox" bad.err && [ ! -e new.svg ]
ok $? "no gnuplot in PATH: exit 2 before anything is printed, naming the package ($(cat bad.err))"

# --- the lab A/B: its own figures per workload, table and picture --------
mkdir -p ab/cpus-2/built-7.2 ab/cpus-2/built-7.2+variant
cp vmo-b.yaml ab/cpus-2/built-7.2/run-vmo.yaml
cp vmo-a.yaml ab/cpus-2/built-7.2+variant/run-vmo.yaml
cp fork-a.yaml ab/cpus-2/built-7.2/run-fork.yaml
# the other kernel's fork runs: the same values, another report
sed 's/^  hostname: .*/  hostname: variant/' fork-a.yaml > ab/cpus-2/built-7.2+variant/run-fork.yaml
BUILD=$BUILD "$TOP/lab/ab-table.sh" "$TMPD/ab" > table.txt 2>&1
diag "$(cat table.txt)"
! grep -q "absent or not comparable" table.txt &&
	grep -q "^vmo  *vmalloc-order.bogo-ops-per-second-real-time " table.txt &&
	grep -q "^vmo  *vmalloc-order.allocations-per-second " table.txt &&
	grep -q "^fork  *fork.bogo-ops-per-second-real-time " table.txt &&
	grep -q "^fork  *movable-refills-per-1000-pgfault " table.txt &&
	! grep -q "shm-pcp\|usr-sys-time" table.txt
ok $? "ab-table: --vmalloc-order 0 and -- --fork 0 workloads show their own figures, none absent"
BUILD=$BUILD "$TOP/lab/ab-table.sh" --tsv "$TMPD/ab" > ab.tsv 2> tsv.err
rows=$(grep -vc '^#' ab.tsv)
[ "$rows" -gt 0 ] && [ "$rows" -eq "$(grep -c '^\(vmo\|fork\)  *[a-z]' table.txt)" ] &&
	[ "$(awk -F'\t' '!/^#/ && NF != 16' ab.tsv | wc -l)" -eq 0 ]
ok $? "ab-table --tsv: one line of 16 fields per comparison of the table ($rows)"

"$TOP/lab/ab-plot.sh" ab.tsv ab.svg "test" 2> plot.err
ok $? "ab-plot draws the lab's picture from it"
xmllint --noout ab.svg && [ "$(marks ab.svg)" -eq $((rows + 2)) ]
ok $? "valid SVG, one mark per comparison and per legend entry ($(marks ab.svg) of $rows + 2)"

# A recorded matrix: 3 vCPU counts x 2 variants x 4 workloads x 3 figures
awk 'BEGIN { OFS = "\t"; print "#vcpus\tvariant\tbase\tworkload\tfigure"
	split("2 8 16", c, " "); split("vfree-per-page short-runs-order0", v, " ")
	split("ng-shm shm-pcp-none shm-pcp-spin shm-pcp-stack", w, " ")
	for (i = 1; i <= 3; i++) for (j = 1; j <= 2; j++) for (k = 1; k <= 4; k++)
		for (f = 1; f <= 3; f++) {
			fig = (w[k] == "ng-shm" ? (f == 1 ? "shm.bogo-ops-per-second-real-time" : f == 2 ? "movable-refills-per-1000-pgfault" : "unmovable-refills-per-1000-pgfault") \
				: (f == 1 ? "shm-pcp.bogo-ops-per-second-real-time" : f == 2 ? "shm-pcp.movable-refills-per-1000-faults" : "shm-pcp.unmovable-refills-per-1000-faults"))
			ch = w[k] == "shm-pcp-stack" ? (f == 1 ? -12.5 : f == 2 ? 50.2 : 5300) : 1.5 - k
			print c[i], "built-7.2+" v[j], "built-7.2", w[k], fig, 1, 1, 1, 1, 1, 1, ch, ch - 8, ch + 9, "no-change", 1 } }' > matrix.tsv
"$TOP/lab/ab-plot.sh" matrix.tsv matrix.svg "recorded matrix" 2> /dev/null &&
	xmllint --noout matrix.svg && [ "$(marks matrix.svg)" -eq $((72 + 8)) ] &&
	[ "$(grep -c "<title>" matrix.svg)" -ge 3 ]
ok $? "a recorded 3 x 2 x 4 x 3 matrix: valid SVG with 72 + 8 marks ($(marks matrix.svg))"
for f in bogo-ops-per-second-real-time movable-refills-per-1000-faults unmovable-refills-per-1000-faults; do
	grep -q ">$f<" matrix.svg || echo "no panel $f"
done > panels.err
[ ! -s panels.err ] && grep -q "stress-ng stressors: per 1000 pgfault" matrix.svg
ok $? "one panel per figure, stress-ng's per-1000-pgfault figures beside shm-pcp's per-1000-faults, and said so"
"$TOP/lab/ab-plot.sh" matrix.tsv matrix.png 2> /dev/null && [ "$(head -c 4 matrix.png | tail -c 3)" = PNG ]
ok $? "ab-plot writes a PNG too"
"$TOP/lab/ab-plot.sh" matrix.tsv matrix.pdf 2> bad.err
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l < bad.err)" -eq 1 ] && [ ! -e matrix.pdf ] &&
	"$TOP/lab/ab-plot.sh" /dev/null x.svg 2> /dev/null
[ $? -eq 2 ] && [ ! -e x.svg ]
ok $? "ab-plot refuses a .pdf and an empty table with one line and exit 2, no file"

# --- make lab-module-bench's picture from recorded bench lines ----------
mkdir -p mb/built-7.2 mb/built-7.2+vmalloc-order0-alloc
# medians recorded on 2026-12-01 (doc/module.md), 5 repeats within +-1%
awk 'BEGIN {
	split("4265 4263 4889 5712 7531 11010 17973 31776 59640 115312", a1); split("4698 5093 5619 6367 7818 11201 18070 31951 59838 115428", a2)
	split("4100 4114 4733 5530 7378 10870 17736 31592 59439 114994", a3); split("4257 4513 5980 8493 13512 23699 44041 85160 166993 331000", b1)
	split("4665 5378 6871 9183 13917 22759 39052 73728 147531 289382", b2); split("4098 4368 5839 8317 13383 23521 43883 84985 166725 330707", b3)
	for (r = 1; r <= 5; r++) for (o = 0; o <= 9; o++) {
		j = 1 + (r - 3) * 0.005
		printf "bench rep=%d order=%d loops=1 batch=1 module_b1_ns=%d module_all_ns=%d tv_ns=%d\n", r, o, a1[o+1]*j, a2[o+1]*j, a3[o+1]*j > "mb/built-7.2/bench.txt"
		printf "bench rep=%d order=%d loops=1 batch=1 module_b1_ns=%d module_all_ns=%d tv_ns=%s\n", r, o, b1[o+1]*j, b2[o+1]*j, o < 9 ? int(b3[o+1]*j) : "none" > "mb/built-7.2+vmalloc-order0-alloc/bench.txt" } }'
"$TOP/lab/modplot.sh" mb.svg mb/built-7.2 mb/built-7.2+vmalloc-order0-alloc 2> /dev/null &&
	xmllint --noout mb.svg
ok $? "modplot draws the bench of two kernels (valid SVG)"
# 2 kernels x 3 columns x 10 orders, less one test_vmalloc order missing,
# plus 6 legend entries
[ "$(marks mb.svg)" -eq $((60 - 1 + 6)) ] && grep -q "log scale" mb.svg
ok $? "one mark per kernel, column and order measured, and per legend entry ($(marks mb.svg) of 65), log scale"
"$TOP/lab/modplot.sh" mb.png mb/built-7.2 2> /dev/null && [ "$(head -c 4 mb.png | tail -c 3)" = PNG ]
ok $? "modplot writes a PNG of one kernel too"
"$TOP/lab/modplot.sh" none.svg mb/nothing-here 2> bad.err
[ $? -eq 2 ] && [ ! -e none.svg ] && grep -q "no mb/nothing-here/bench.txt" bad.err
ok $? "modplot: a kernel without bench.txt: exit 2, its name, no file"
done_testing
