#!/bin/bash
# lab/modplot.sh - make lab-module-bench as a picture: ns per
# vmalloc+vfree by page order, on a log scale, for every kernel and for
# our module at batch 1 and all-then-free and the kernel's test_vmalloc
# (fix_size_alloc_test), one curve each, the median of the repeats as a
# point with its [min, max] as a bar.
#
#   lab/modplot.sh OUT.svg|OUT.png DIR... [--caption TEXT]
#
# DIR is build/lab/<kernel> with the guest's bench.txt (lab/modtable.sh
# --tsv computes the medians). Colour: the kernel; shape: the column.
# Marks: one point per kernel, column and order measured, and one per
# legend entry (kernel x column), nothing else (test/98-plots.t counts
# them; in an SVG gnuplot lays a white disc under a filled circle with
# error bars: not a mark). Written to a temporary name, renamed when
# gnuplot succeeded. Exit status 0, 1 (gnuplot failed), 2 (usage, no
# data).
set -u
LABDIR=$(dirname "$0")
[ $# -ge 2 ] || { echo "usage: lab/modplot.sh OUT.svg|OUT.png DIR... [--caption TEXT]" >&2; exit 2; }
OUT=$1
shift
CAPTION=""
DIRS=()
while [ $# -gt 0 ]; do
	case $1 in
	--caption) CAPTION=${2:-}; shift 2 ;;
	*) DIRS+=("$1"); shift ;;
	esac
done
case $OUT in
*.svg) TERM_LINE="svg size 900,620 dynamic noenhanced font 'sans,10' background rgb 'white'" ;;
*.png) TERM_LINE="pngcairo size 900,620 noenhanced font 'sans,9' background rgb 'white'" ;;
*) echo "modplot: $OUT: the picture must end in .svg or .png" >&2; exit 2 ;;
esac
command -v gnuplot > /dev/null ||
	{ echo "modplot: gnuplot is not installed (apt-get install gnuplot-nox)" >&2; exit 2; }
tsv=$("$LABDIR/modtable.sh" --tsv "${DIRS[@]}") || exit 2
grep -qv '^#' <<< "$tsv" || { echo "modplot: no measurement in ${DIRS[*]}" >&2; exit 2; }
TMP=$OUT.tmp.${OUT##*.}

script=$(awk -F'\t' -v term="$TERM_LINE" -v out="$TMP" -v caption="$CAPTION" '
function q(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\n/, "\\n", s); return "\"" s "\"" }
!/^#/ && NF >= 7 {
	s = $1 SUBSEP $2
	if (!(s in sp)) { sp[s] = ++ns; sk[ns] = $1; sc[ns] = $2 }
	if (!($1 in kp)) kp[$1] = ++nk
	if (!($2 in cp)) cp[$2] = ++nc
	D[sp[s]] = D[sp[s]] sprintf("%d %s %s %s\n", $3, $4, $5, $6)
	if (rep == "" || $7 < rep) rep = $7
	if (rmax == "" || $7 > rmax) rmax = $7
}
END {
	split("#1f77b4 #d62728 #2ca02c #ff7f0e #9467bd #8c564b", col, " ")
	split("7 5 9 13 11 15", pt, " ")
	split("1 2 4", dt, " ")
	print "set terminal " term
	print "set output " q(out)
	t = "ns per vmalloc+vfree by page order: median and [min, max] of " (rep == rmax ? rep : rep "-" rmax) " repeats"
	if (caption != "") t = t "\n" caption
	print "set title " q(t)
	print "set logscale y\nset grid xtics ytics mytics\nset xrange [-0.4:9.4]\nset xtics 0,1,9"
	print "set xlabel \"order (2^order pages per area)\"\nset ylabel \"ns per vmalloc+vfree (log scale)\""
	print "set key top left Left reverse samplen 2"
	plot = "plot"
	for (s = 1; s <= ns; s++) {
		printf "$s%d << EOD\n%sEOD\n", s, D[s]
		plot = plot sprintf("%s \\\n  $s%d using ($1 + %g):2:3:4 with yerrorlines pt %s ps 0.8 dt %s lw 1.2 lc rgb \"%s\" title %s",
			s > 1 ? "," : "", s, (s - (ns + 1) / 2) * 0.05, pt[(cp[sc[s]] - 1) % 6 + 1],
			dt[(cp[sc[s]] - 1) % 3 + 1], col[(kp[sk[s]] - 1) % 6 + 1], q(sk[s] ": " sc[s]))
	}
	print plot
	print "unset output"
}' <<< "$tsv")

if ! printf '%s\n' "$script" | gnuplot; then
	rm -f "$TMP"
	echo "modplot: gnuplot failed drawing $OUT" >&2
	exit 1
fi
mv "$TMP" "$OUT"
echo "modplot: $OUT" >&2
