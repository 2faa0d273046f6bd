#!/bin/bash
# lab/ab-plot.sh - the lab A/B as a picture (make lab-ab: AB_OUT/ab.svg).
#
#   lab/ab-plot.sh TSV OUT.svg|OUT.png [CAPTION]
#
# TSV is lab/ab-table.sh --tsv's (one line per comparison of a variant
# with the base kernel at one vCPU count, for one workload and figure).
# One panel per figure, named without its stressor (bogo-ops/s of
# shm-pcp and of stress-ng --shm share a panel; a figure per 1000 page
# faults of the system shares the panel of the stressors' own per 1000
# faults, and the panel says so): at each vCPU count, per workload
# (colour) and variant (shape), the change variant -> base as a point
# with its 95% interval from stress-mm compare, on a log scale of the
# ratio labelled in percent, and a dashed line at no change. The
# controls (churn none, spin, stress-ng's own stressors) sit beside the
# workload they control. A last cell holds the legend.
#
# Marks: one point per comparison (line of TSV) and one per legend entry
# (workload x variant), nothing else: test/98-plots.t counts them (in an
# SVG, gnuplot lays a white disc under a filled circle with error bars:
# not a mark). The
# picture is written to a temporary name and renamed when gnuplot
# succeeded. Exit status 0, 1 (gnuplot failed), 2 (usage, no data).
set -u
[ $# -ge 2 ] || { echo "usage: lab/ab-plot.sh TSV OUT.svg|OUT.png [CAPTION]" >&2; exit 2; }
TSV=$1 OUT=$2 CAPTION=${3:-}
case $OUT in
*.svg) TERM_LINE="svg size %d,%d dynamic noenhanced font 'sans,10' background rgb 'white'" ;;
*.png) TERM_LINE="pngcairo size %d,%d noenhanced font 'sans,9' background rgb 'white'" ;;
*) echo "ab-plot: $OUT: the picture must end in .svg or .png" >&2; exit 2 ;;
esac
command -v gnuplot > /dev/null ||
	{ echo "ab-plot: gnuplot is not installed (apt-get install gnuplot-nox)" >&2; exit 2; }
grep -qv '^#' "$TSV" 2> /dev/null ||
	{ echo "ab-plot: $TSV: no comparison in it" >&2; exit 2; }

script=$(awk -F'\t' -v term="$TERM_LINE" -v out="$OUT.tmp.${OUT##*.}" -v caption="$CAPTION" '
function q(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\n/, "\\n", s); return "\"" s "\"" }
# a tic label is a format string to gnuplot: a percent sign is %%
function pct(r,   p) { p = (r - 1) * 100
	return p == 0 ? "0" : sprintf("%+.0f%%%%", p) }
!/^#/ && NF >= 15 {
	n++; C[n] = $1; V[n] = $2; BASE = $3; W[n] = $4
	k = $5; sysw = 0
	if (index(k, ".")) sub(/^[^.]*\./, "", k)
	if (k ~ /-per-1000-pgfault$/) { sub(/-per-1000-pgfault$/, "-per-1000-faults", k); sysw = 1 }
	K[n] = k; if (sysw) SYS[k] = 1
	R[n] = 1 + $12 / 100; LO[n] = 1 + $13 / 100; HI[n] = 1 + $14 / 100
	# no interval exists at these run counts: the point alone
	if ($15 == "too-few-runs") { LO[n] = R[n]; HI[n] = R[n]; nointerval = 1 }
	if (!(k in kp)) { kp[k] = ++nk; kname[nk] = k }
	if (!($1 in cp)) { cp[$1] = 1; cv[++nc] = $1 + 0 }
	if (!($4 in wp)) { wp[$4] = ++nw; wname[nw] = $4 }
	if (!($2 in vp)) { vp[$2] = ++nv; vname[nv] = $2 }
	s = $4 SUBSEP $2
	if (!(s in sp)) { sp[s] = ++ns; sw[ns] = $4; sv[ns] = $2 }
}
END {
	# vCPU counts in numeric order
	for (i = 2; i <= nc; i++) { x = cv[i]; for (j = i - 1; j >= 1 && cv[j] > x; j--) cv[j + 1] = cv[j]; cv[j + 1] = x }
	for (i = 1; i <= nc; i++) ci[cv[i]] = i
	split("#1f77b4 #d62728 #2ca02c #ff7f0e #9467bd #8c564b #e377c2 #7f7f7f #bcbd22 #17becf", col, " ")
	split("7 5 9 13 11 15", pt, " ")
	cells = nk + 1; cols = cells <= 2 ? cells : cells <= 4 ? 2 : 3; rows = int((cells + cols - 1) / cols)
	printf "set terminal " term "\n", cols * 470, rows * 350 + 60
	print "set output " q(out)
	print "set encoding utf8"
	w = 0.8 / ns; if (w > 0.12) w = 0.12
	title = "lab A/B: the change from each variant to " BASE ", with the 95% interval of stress-mm compare"
	if (nointerval) title = title "\n(points without bars: too few runs for an interval)"
	if (caption != "") title = title "\n" caption
	printf "set multiplot layout %d,%d title %s font \",11\"\n", rows, cols, q(title)
	print "set logscale y\nset grid ytics\nunset key\nset xlabel \"vCPUs\""
	xt = ""
	for (i = 1; i <= nc; i++) xt = xt (i > 1 ? ", " : "") q(cv[i]) " " i
	print "set xtics (" xt ") scale 0"
	printf "set xrange [0.5:%g]\n", nc + 0.5
	for (p = 1; p <= nk; p++) {
		lo = 1; hi = 1
		for (i = 1; i <= n; i++) if (kp[K[i]] == p) {
			if (LO[i] < lo) lo = LO[i]; if (HI[i] > hi) hi = HI[i]
			if (R[i] < lo) lo = R[i]; if (R[i] > hi) hi = R[i]
		}
		if (lo < 0.001) lo = 0.001
		lo = lo / 1.15; hi = hi * 1.15
		printf "set yrange [%g:%g]\n", lo, hi
		# changes of -99% .. +99900% as ratios
		split("0.01 0.1 0.25 0.5 0.75 0.9 1 1.1 1.25 1.5 2 3 6 11 21 51 101 201 501 1001", tic, " ")
		# tics at least a ninth of the axis apart, from 0 outwards
		g = (log(hi) - log(lo)) / 9; yt = q(pct(1)) " 1"; up = 1; dn = 1
		for (t = 1; t in tic; t++) {
			x = tic[t] + 0
			if (x > 1 && x <= hi && log(x) - log(up) >= g) { yt = yt ", " q(pct(x)) " " x; up = x }
		}
		for (t = 20; t >= 1; t--) {
			if (!(t in tic)) continue
			x = tic[t] + 0
			if (x < 1 && x >= lo && log(dn) - log(x) >= g) { yt = yt ", " q(pct(x)) " " x; dn = x }
		}
		print "set ytics (" yt ")"
		t2 = kname[p] "\nchange, log scale"
		if (kname[p] in SYS) t2 = t2 "; stress-ng stressors: per 1000 pgfault"
		print "set title " q(t2)
		plot = "plot 1 with lines dt 2 lc rgb \"#000000\" notitle"
		for (s = 1; s <= ns; s++) {
			blk = ""
			for (i = 1; i <= n; i++) if (kp[K[i]] == p && sp[W[i] SUBSEP V[i]] == s)
				blk = blk sprintf("%.4f %.6g %.6g %.6g\n", ci[C[i]] + (s - (ns + 1) / 2) * w, R[i], LO[i] < 0.001 ? 0.001 : LO[i], HI[i])
			if (blk == "") continue
			printf "$p%ds%d << EOD\n%sEOD\n", p, s, blk
			plot = plot sprintf(", \\\n  $p%ds%d using 1:2:3:4 with yerrorbars pt %s ps 0.8 lw 1.5 lc rgb \"%s\" notitle", p, s, pt[(vp[sv[s]] - 1) % 6 + 1], col[(wp[sw[s]] - 1) % 10 + 1])
		}
		print plot
	}
	# the legend: one sample per workload and variant, no data
	print "unset logscale y\nunset border\nunset tics\nunset xlabel\nunset grid\nunset title"
	print "set xrange [0:1]\nset yrange [0:1]\nset key center center vertical Left reverse samplen 1"
	print "$none << EOD\n-1 -1\nEOD"
	plot = "plot"
	for (s = 1; s <= ns; s++)
		plot = plot sprintf("%s \\\n  $none using 1:2 with points pt %s ps 1 lc rgb \"%s\" title %s", s > 1 ? "," : "", pt[(vp[sv[s]] - 1) % 6 + 1], col[(wp[sw[s]] - 1) % 10 + 1], q(sw[s] ", " substr(sv[s], index(sv[s], "+") + 1)))
	print plot
	print "unset multiplot\nunset output"
}' "$TSV")

if ! printf '%s\n' "$script" | gnuplot; then
	rm -f "$OUT.tmp.${OUT##*.}"
	echo "ab-plot: gnuplot failed drawing $OUT" >&2
	exit 1
fi
mv "$OUT.tmp.${OUT##*.}" "$OUT"
echo "ab-plot: $OUT" >&2
