#!/bin/bash
# lab/modtable.sh DIR... - the table of make lab-module-bench: for each
# kernel (DIR = build/lab/<kernel>, with the guest's bench.txt) and order
# 0..9, ns per vmalloc+vfree, median [min, max] over the repeats, of
#   module b1:   our module, CYCLE batch 1 (alloc/free pairs),
#   module all:  our module, CYCLE "allocate all, then free all" in
#                batches of up to 64 MiB,
#   test_vmalloc: fix_size_alloc_test at the same nr_pages and loops,
# and module b1 / test_vmalloc. With two kernels, then the ratio of their
# medians (second / first) per column: under TCG only such ratios within
# one lab run mean anything, not the absolute times.
# --tsv: instead, one tab-separated line per kernel, column and order,
# for lab/modplot.sh: kernel column order median min max repeats (column:
# module-b1, module-all-then-free, test_vmalloc; a header line first,
# starting with #).
set -u
TSV=0
[ "${1:-}" = --tsv ] && { TSV=1; shift; }
[ $# -ge 1 ] || { echo "usage: lab/modtable.sh [--tsv] DIR..." >&2; exit 2; }
for d in "$@"; do
	[ -s "$d/bench.txt" ] || { echo "modtable: no $d/bench.txt" >&2; exit 2; }
done
for d in "$@"; do
	sed "s|^bench |kernel=$(basename "$d") |" "$d/bench.txt"
done | awk -v tsv=$TSV '
function kv(s,   a, i, n, p) {
	delete F
	n = split(s, a, " ")
	for (i = 1; i <= n; i++) {
		p = index(a[i], "=")
		if (p) F[substr(a[i], 1, p - 1)] = substr(a[i], p + 1)
	}
}
# median, min, max of the n values in V (sorted in place)
function stats(n,   i, j, x) {
	for (i = 2; i <= n; i++) {
		x = V[i]
		for (j = i - 1; j >= 1 && V[j] > x; j--) V[j + 1] = V[j]
		V[j + 1] = x
	}
	MIN = V[1]; MAX = V[n]
	MED = n % 2 ? V[(n + 1) / 2] : (V[n / 2] + V[n / 2 + 1]) / 2
}
function cell(k, o, c,   n, i, s) {
	n = N[k, o, c]
	if (!n) return sprintf("%26s", "n/a")
	for (i = 1; i <= n; i++) V[i] = X[k, o, c, i]
	stats(n)
	M[k, o, c] = MED
	s = sprintf("%.0f [%.0f, %.0f]", MED, MIN, MAX)
	return sprintf("%26s", s)
}
{
	kv($0)
	k = F["kernel"]
	if (!(k in seen)) { seen[k] = 1; kern[++nk] = k }
	o = F["order"]
	split("module_b1_ns module_all_ns tv_ns", cols, " ")
	for (c = 1; c <= 3; c++) {
		v = F[cols[c]]
		if (v == "" || v == "none") continue
		X[k, o, c, ++N[k, o, c]] = v + 0
	}
	reps[k] = F["rep"] > reps[k] ? F["rep"] : reps[k]
}
END {
	if (tsv) {
		split("module-b1 module-all-then-free test_vmalloc", cname, " ")
		printf "#kernel\tcolumn\torder\tmedian\tmin\tmax\trepeats\n"
		for (i = 1; i <= nk; i++)
			for (c = 1; c <= 3; c++)
				for (o = 0; o <= 9; o++) {
					n = N[kern[i], o, c]
					if (!n) continue
					for (j = 1; j <= n; j++) V[j] = X[kern[i], o, c, j]
					stats(n)
					printf "%s\t%s\t%d\t%.0f\t%.0f\t%.0f\t%d\n", kern[i], cname[c], o, MED, MIN, MAX, n
				}
		exit
	}
	for (i = 1; i <= nk; i++) {
		k = kern[i]
		printf "\n%s: ns per vmalloc+vfree, median [min, max] of %d repeats\n", k, reps[k]
		printf "%5s %26s %26s %26s %10s\n", "order", "module b1", "module all-then-free", "test_vmalloc fix_size", "b1/tv"
		for (o = 0; o <= 9; o++) {
			a = cell(k, o, 1); b = cell(k, o, 2); t = cell(k, o, 3)
			r = (M[k, o, 3] > 0 && M[k, o, 1] > 0) ? sprintf("%.3f", M[k, o, 1] / M[k, o, 3]) : "n/a"
			printf "%5d %s %s %s %10s\n", o, a, b, t, r
		}
	}
	if (nk == 2) {
		printf "\n%s / %s, ratio of medians\n", kern[2], kern[1]
		printf "%5s %12s %12s %12s\n", "order", "module b1", "module all", "test_vmalloc"
		for (o = 0; o <= 9; o++) {
			line = sprintf("%5d", o)
			for (c = 1; c <= 3; c++) {
				if (M[kern[1], o, c] > 0 && M[kern[2], o, c] > 0)
					line = line sprintf(" %12.3f", M[kern[2], o, c] / M[kern[1], o, c])
				else
					line = line sprintf(" %12s", "n/a")
			}
			print line
		}
	}
}'
