#!/bin/bash
# lab/table.sh - the lab's side-by-side table from build/lab/*/run-*.yaml:
# per kernel and churn setting, median ± relative half-range of the
# figures stress-mm --repeat recorded (stress-mm.summary), and the kernel's
# fingerprint label.
#
# usage: lab/table.sh [KERNEL...]   (default: every kernel under build/lab)
set -u
cd "$(dirname "$0")/.."
LAB=${BUILD:-build}/lab
kernels=("$@")
[ ${#kernels[@]} -gt 0 ] || mapfile -t kernels < <(ls -d "$LAB"/*/console.log 2>/dev/null | xargs -n1 dirname | xargs -n1 basename)
figs="vmalloc-order.bogo-ops-per-second-real-time shm-pcp.bogo-ops-per-second-real-time shm-pcp.pages-faulted-per-second shm-pcp.movable-refills-per-1000-faults shm-pcp.unmovable-refills-per-1000-faults"
printf '%-16s %-6s %18s %18s %18s %18s %18s\n' kernel churn "vmalloc-order op/s" "shm-pcp op/s" "shm pages/s" "movable refills/1k" "unmovable refills/1k"
for k in "${kernels[@]}"; do
	for f in "$LAB/$k"/run-*.yaml "$LAB/$k"/run-*.yaml.missing; do
		[ -e "$f" ] || continue
		c=${f##*/run-}
		c=${c%.missing}
		c=${c%.yaml}
		line=$(printf '%-16s %-6s' "$k" "$c")
		if [ "${f%.missing}" != "$f" ]; then
			echo "$line  $(cat "$f")"
			continue
		fi
		for g in $figs; do
			v=$(awk -v g="    $g:" '
				$0 == g { f = 1; next }
				f && /^      median:/ { m = $2 }
				f && /^      half-range-pct:/ { printf "%.4g ± %.1f%%", m, $2; exit }
				f && /^    [^ ]/ { exit }' "$f")
			line="$line $(printf '%18s' "${v:--}")"
		done
		echo "$line"
	done
done
echo
for k in "${kernels[@]}"; do
	if [ ! -s "$LAB/$k/fingerprint" ]; then
		echo "$k: fingerprint $(cat "$LAB/$k/fingerprint.missing" 2>/dev/null || echo missing)"
		continue
	fi
	echo "$k: $(sed -n 's/^label: //p' "$LAB/$k/fingerprint") ($(sed -n 's/^order2_allocs_per_stack: /order-2 allocations per stack /p' "$LAB/$k/fingerprint"), $(sed -n 's/^order2_frees_per_stack: /order-2 frees per stack /p' "$LAB/$k/fingerprint"))"
done
