#!/bin/bash
# lab/ab-table.sh - the lab A/B table (lab/ab.sh) from AB_OUT/cpus-<n>/:
# per vCPU count, per variant against the base kernel, per workload and
# figure: variant and base median [min, max], the change and its interval
# and verdict from stress-mm compare, and the effect divided by the noise.
# The variants undo or limit the change under study (vfree-per-page frees
# as before 60ced5818f), so the variant is compare's base and the kernel
# as built its candidate: "regression" reads as "the change is worse",
# (|variant median - base median| / mean of the two absolute half-ranges,
# (max - min) / 2): above 1 the shift is larger than the run-to-run spread.
# Zone-lock rows come from the zone-lock boots (CPUDIR/zl/, lab/ab.sh
# AB_ZL_CPU) when there are some. Then each kernel's fingerprint, and the
# zone-lock proof's verdicts where it ran. Each workload shows its own
# figures, read from its reports (figures_of).
#
# AB_BASE and AB_VARIANTS name the base kernel and its variants by their
# directories, for kernels lab/ab.sh did not build (e.g. two Debian
# kernels that lab/lab.sh ran into AB_OUT/cpus-<n>/, the later one the
# base); by default the base is built-X and the variants built-X+*.
#
# usage: [AB_BASE=K AB_VARIANTS="K..."] lab/ab-table.sh [--tsv] [AB_OUT]
#        (default build/lab-ab)
# --tsv: one tab-separated line per comparison, for lab/ab-plot.sh:
#   vcpus variant base workload figure variant-median variant-min
#   variant-max base-median base-min base-max change% low% high% verdict
#   effect/noise (a header line first, starting with #)
set -u
cd "$(dirname "$0")/.."
TSV=0
[ "${1:-}" = --tsv ] && { TSV=1; shift; }
OUT=${1:-${BUILD:-build}/lab-ab}
SMM=${BUILD:-build}/stress-mm
HOST_CPUS=$(nproc)

# summary FIGURE FILE...: "median min max" over the files' runs: the
# median from stress-mm compare (which pools them), min and max from each
# file's stress-mm.summary; nothing when a file lacks the figure
summary() {
	local f=$1
	shift
	awk -v f="    $f:" '
		FNR == 1 { s = 0; g = 0 }
		$0 == "  summary:" { s = 1; next }
		s && /^  [^ ]/ { s = 0 }
		s && $0 == f { g = 1; next }
		g && /^      min:/ { if (n == "" || $2 < lo) lo = $2 }
		g && /^      max:/ { if (n == "" || $2 > hi) hi = $2; n++; g = 0 }
		END { if (n == ARGC - 1) print lo, hi }' "$@"
}

# runs_of CPUDIR KERNEL WORKLOAD [FIGURE]: the workload's reports of that
# kernel, one per round (ROUNDS > 1: CPUDIR/round-<r>/KERNEL),
# space-separated; a zone-lock FIGURE's from CPUDIR/zl/KERNEL when it exists
runs_of() {
	case ${4:-} in
	*zone-lock-*)
		if [ -d "$1/zl/$2" ]; then
			ls "$1/zl/$2/run-$3.yaml" 2> /dev/null
			return
		fi
		;;
	esac
	ls "$1/$2/run-$3.yaml" "$1"/round-*/"$2/run-$3.yaml" 2> /dev/null | tr '\n' ' '
}

# figures_of REPORT: the figures a workload's report holds, in its order:
# every stressor's own (NAME.figure; not the usr+sys-time rate, which
# the real-time one says better here), and the system-wide figures that
# match SYSTEM_FIGURES unless a stressor counts its own faults
# (-per-1000-faults: shm-pcp's replace the system's per 1000 pgfault).
# The zone-lock waits by side come with the BPF engine, in both (absent
# where the guest's spinlock waits bypass lock:contention_begin, see
# lab/lab.sh LAB_CPU).
SYSTEM_FIGURES=${SYSTEM_FIGURES:--per-1000-pgfault\$|^zone-lock-wait-cpu-share-pct\$}
figures_of() {
	awk -v sys="$SYSTEM_FIGURES" '
		$0 == "  summary:" { s = 1; next }
		s && /^  [^ ]/ { s = 0 }
		s && /^    [^ ]/ { f = $1; sub(/:$/, "", f); fig[++n] = f
			if (f ~ /-per-1000-faults$/) own = 1 }
		END { for (i = 1; i <= n; i++) {
			f = fig[i]
			if (f ~ /-usr-sys-time$/) continue
			if (index(f, ".") || (!own && f ~ sys)) print f } }' "$1"
}

[ $TSV = 1 ] && printf '#%s\n' "$(printf '%s\t' vcpus variant base workload figure \
	variant-median variant-min variant-max base-median base-min base-max \
	change low high verdict effect/noise | sed 's/\t$//')"
for cdir in $(ls -d "$OUT"/cpus-* 2> /dev/null |
	awk -F'cpus-' '{ print $NF, $0 }' | sort -n | cut -d' ' -f2-); do
	n=${cdir##*cpus-}
	if [ -n "${AB_BASE:-}" ]; then
		base=$AB_BASE
		variants=${AB_VARIANTS:-}
		kernels="$base $variants"
	else
		kernels=$( (ls "$cdir"; ls "$cdir"/round-* 2> /dev/null) | grep '^built-' | sort -u)
		base=$(echo "$kernels" | grep -v '+' | head -1)
		variants=$(echo "$kernels" | grep "^$base+")
	fi
	[ -n "$base" ] || continue
	rounds=$(ls -d "$cdir"/round-* 2> /dev/null | wc -l)
	for v in $variants; do
		[ $TSV = 1 ] || echo "== $n vCPUs ($(awk -v n="$n" -v h="$HOST_CPUS" 'BEGIN { printf "%.1f", n / h }') per host core, TCG, $((rounds > 1 ? rounds : 1)) boot(s) per kernel): $v -> $base (the change)"
		[ $TSV = 1 ] || [ ! -f "$cdir/zl/cpu" ] || echo "   zone-lock rows: one more boot per kernel with -cpu $(cat "$cdir/zl/cpu")"
		[ $TSV = 1 ] || printf '%-14s %-40s %24s %24s %8s %19s %-12s %6s\n' workload figure \
			"${v#"$base"+} median [min, max]" "$base" change interval verdict "eff/noise"
		for w in $(ls "$cdir/$base" "$cdir"/round-*/"$base" 2> /dev/null |
			sed -n 's/^run-\(.*\)\.yaml$/\1/p' | sort -u); do
			rb=$(runs_of "$cdir" "$base" "$w")
			rv=$(runs_of "$cdir" "$v" "$w")
			if [ "$(echo $rv | wc -w)" -ne "$(echo $rb | wc -w)" ]; then
				[ $TSV = 1 ] || echo "$w: variant runs missing ($(cat "$cdir"/"$v"/run-"$w".yaml.missing "$cdir"/round-*/"$v"/run-"$w".yaml.missing 2> /dev/null | head -1))"
				continue
			fi
			zb=$(ls "$cdir/zl/$base/run-$w.yaml" 2> /dev/null)
			# shellcheck disable=SC2086
			for f in $( (figures_of $rb; [ -z "$zb" ] || figures_of "$zb") | awk '!seen[$0]++'); do
				rb=$(runs_of "$cdir" "$base" "$w" "$f")
				rv=$(runs_of "$cdir" "$v" "$w" "$f")
				[ -n "$rb" ] && [ -n "$rv" ] || {
					[ $TSV = 1 ] || printf '%-14s %-38s %s\n' "$w" "$f" "no runs"
					continue
				}
				# the variant is the base of the comparison
				c=$("$SMM" compare --allow-param-diff --format simple \
					--metric "$f" "$(echo $rv | tr ' ' ,)" "$(echo $rb | tr ' ' ,)" \
					2> /dev/null | grep "^$f ")
				read -r bl bh <<< "$(summary "$f" $rv)"
				read -r vl vh <<< "$(summary "$f" $rb)"
				[ -n "${bl:-}" ] && [ -n "${vl:-}" ] && [ -n "$c" ] || {
					[ $TSV = 1 ] || printf '%-14s %-38s %s\n' "$w" "$f" "absent or not comparable (see the reports)"
					continue
				}
				read -r _ bm vm ch lo hi _ verdict <<< "$c"
				en=$(awk -v bm="$bm" -v bl="$bl" -v bh="$bh" -v vm="$vm" -v vl="$vl" -v vh="$vh" 'BEGIN {
					h = ((bh - bl) / 2 + (vh - vl) / 2) / 2; d = vm - bm; if (d < 0) d = -d
					if (h > 0) printf "%.2f", d / h; else printf "%s", (d > 0 ? "inf" : "0") }')
				if [ $TSV = 1 ]; then
					printf '%s\t' "$n" "$v" "$base" "$w" "$f" "$bm" "$bl" "$bh" \
						"$vm" "$vl" "$vh" "$ch" "$lo" "$hi" "$verdict"
					printf '%s\n' "$en"
					continue
				fi
				printf '%-14s %-40s %24s %24s %7s%% %19s %-12s %6s\n' "$w" "$f" \
					"$(printf '%.4g [%.4g, %.4g]' "$bm" "$bl" "$bh")" \
					"$(printf '%.4g [%.4g, %.4g]' "$vm" "$vl" "$vh")" \
					"$ch" "$([ "$verdict" = too-few-runs ] && echo none || echo "[$lo, $hi]")" \
					"$verdict" "$en"
			done
		done
		[ $TSV = 1 ] || echo
	done
	[ $TSV = 1 ] && continue
	echo "fingerprints at $n vCPUs:"
	for k in $kernels; do
		printf '  %-34s %s\n' "$k" "$(cat "$cdir/$k/fingerprint" "$cdir"/round-*/"$k"/fingerprint 2> /dev/null |
			sed -n 's/^label: //p' | sort | uniq -c | sed 's/^ *//' | paste -sd';')"
	done
	proofs=$(ls "$cdir"/*/zl-proof-*.txt "$cdir"/*/*/zl-proof-*.txt 2> /dev/null)
	if [ -n "$proofs" ]; then
		echo "zone-lock proof at $n vCPUs (test/helpers/zl-proof.c):"
		for p in $proofs; do
			k=${p%/*}
			m=${p##*zl-proof-}
			printf '  %-34s %-6s %s\n' "${k##*/}" "${m%.txt}" "$(grep -E '^(PASS|FAIL|SKIP)' "$p" | tail -1)"
		done
	fi
	echo
done
