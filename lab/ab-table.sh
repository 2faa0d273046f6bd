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
# Then each kernel's fingerprint.
#
# usage: lab/ab-table.sh [AB_OUT]   (default build/lab-ab)
set -u
cd "$(dirname "$0")/.."
OUT=${1:-${BUILD:-build}/lab-ab}
SMM=${BUILD:-build}/stress-mm
HOST_CPUS=$(nproc)

# summary FILE FIGURE: "median min max" from stress-mm.summary, or nothing
summary() {
	awk -v f="    $2:" '
		$0 == "  summary:" { s = 1; next }
		s && /^  [^ ]/ { exit }
		s && $0 == f { g = 1; next }
		g && /^      median:/ { m = $2 }
		g && /^      min:/ { lo = $2 }
		g && /^      max:/ { print m, lo, $2; exit }' "$1"
}

figures_of() { # workload
	case $1 in
	ng-shm) echo "shm.bogo-ops-per-second-real-time movable-refills-per-1000-pgfault unmovable-refills-per-1000-pgfault order0-drains-per-1000-pgfault" ;;
	*) echo "shm-pcp.bogo-ops-per-second-real-time shm-pcp.movable-refills-per-1000-faults shm-pcp.unmovable-refills-per-1000-faults shm-pcp.order0-drains-per-1000-faults" ;;
	esac
}

for cdir in $(ls -d "$OUT"/cpus-* 2> /dev/null | sort -t- -k2 -n); do
	n=${cdir##*cpus-}
	base=$(ls "$cdir" | grep -v '+' | grep '^built-' | head -1)
	[ -n "$base" ] || continue
	for vdir in "$cdir"/"$base"+*; do
		[ -d "$vdir" ] || continue
		v=${vdir##*/}
		echo "== $n vCPUs ($(awk -v n="$n" -v h="$HOST_CPUS" 'BEGIN { printf "%.1f", n / h }') per host core, TCG): $v -> $base (the change)"
		printf '%-14s %-40s %24s %24s %8s %19s %-12s %6s\n' workload figure \
			"${v#*+} median [min, max]" "$base" change interval verdict "eff/noise"
		for rb in "$cdir/$base"/run-*.yaml; do
			w=${rb##*/run-}
			w=${w%.yaml}
			rv=$vdir/run-$w.yaml
			if [ ! -s "$rv" ]; then
				echo "$w: variant run missing ($(cat "$rv.missing" 2> /dev/null))"
				continue
			fi
			for f in $(figures_of "$w"); do
				# the variant is the base of the comparison
				read -r bm bl bh <<< "$(summary "$rv" "$f")"
				read -r vm vl vh <<< "$(summary "$rb" "$f")"
				[ -n "${bm:-}" ] && [ -n "${vm:-}" ] || {
					printf '%-14s %-38s %s\n' "$w" "$f" "absent (see the reports)"
					continue
				}
				c=$("$SMM" compare --allow-param-diff --format simple \
					--metric "$f" "$rv" "$rb" 2> /dev/null | grep "^$f ")
				read -r _ _ _ ch lo hi _ verdict <<< "${c:-x x x - - - - cannot-compare}"
				en=$(awk -v bm="$bm" -v bl="$bl" -v bh="$bh" -v vm="$vm" -v vl="$vl" -v vh="$vh" 'BEGIN {
					h = ((bh - bl) / 2 + (vh - vl) / 2) / 2; d = vm - bm; if (d < 0) d = -d
					if (h > 0) printf "%.2f", d / h; else printf "%s", (d > 0 ? "inf" : "0") }')
				printf '%-14s %-40s %24s %24s %7s%% %19s %-12s %6s\n' "$w" "$f" \
					"$(printf '%.4g [%.4g, %.4g]' "$bm" "$bl" "$bh")" \
					"$(printf '%.4g [%.4g, %.4g]' "$vm" "$vl" "$vh")" \
					"$ch" "[$lo, $hi]" "$verdict" "$en"
			done
		done
		echo
	done
	echo "fingerprints at $n vCPUs:"
	for k in "$cdir"/*/; do
		k=${k%/}
		printf '  %-34s %s\n' "${k##*/}" "$(sed -n 's/^label: //p' "$k/fingerprint" 2> /dev/null || true)"
	done
	echo
done
