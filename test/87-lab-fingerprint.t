#!/bin/bash
# The lab's fingerprint classifier (lab/fingerprint.awk) on counts
# recorded in lab guests (QEMU TCG, 2 vCPUs, 5 s of stress-mm stack churn
# at batch 64, 2026-12-01), and on the edge cases where it must say
# "not observed" or "not available" with the reason instead of guessing.
# Runs without QEMU, with the host's awk and, when present, busybox awk
# (the guest's).
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
FP=lab/fingerprint.awk
awks=("awk")
busybox awk 'BEGIN { exit 0 }' 2> /dev/null && awks+=("busybox awk")

# label AWK COUNTS: the label the classifier gives for these counts.
label() { printf '%s\n' "$2" | $1 -f "$FP" | sed -n 's/^label: //p'; }

# A case: name, counts (| separates lines), expected label.
cases=()
add() { cases+=("$1" "$2" "$3"); }

# --- recorded in lab guests ----------------------------------------------
# Debian trixie 6.12.117: stacks from the order-0 bulk allocator (no
# order-2 mm_page_alloc), 4 order-0 frees per stack at free_unref_page.
add "Debian 6.12.117 (recorded)" \
	"free_probe: free_unref_page|alloc_events: ok|stacks: 37632|stack_areas: 35625|alloc_order0: 2516|alloc_order1: 22|alloc_order2: 6|alloc_order3: 7362|alloc_order9: 1|free_order0: 143170|free_order1: 16|free_order2: 1|free_order3: 7359" \
	"stacks allocated as order-0 pages (bulk), freed as order-0 pages"
# Debian sid 7.2.13: carries a06157804399 and 60ced5818f.
add "Debian 7.2.13 (recorded)" \
	"free_probe: __free_frozen_pages|alloc_events: ok|stacks: 34176|stack_areas: 32430|alloc_order0: 2007|alloc_order1: 10|alloc_order2: 32438|alloc_order3: 1280|alloc_order9: 1|free_order0: 268|free_order2: 32429|free_order3: 1249" \
	"stacks allocated as order-2 blocks, freed as order-2 blocks"
add "built 7.2.13 (recorded)" \
	"free_probe: __free_frozen_pages|alloc_events: ok|stacks: 43584|stack_areas: 40611|alloc_order0: 1962|alloc_order1: 16|alloc_order2: 40619|alloc_order3: 103|free_order0: 282|free_order2: 40613|free_order3: 77" \
	"stacks allocated as order-2 blocks, freed as order-2 blocks"
add "built 7.2.13 + vfree-per-page (recorded)" \
	"free_probe: __free_frozen_pages|alloc_events: ok|stacks: 36224|stack_areas: 33648|alloc_order0: 1916|alloc_order1: 11|alloc_order2: 33656|alloc_order3: 101|free_order0: 134894|free_order2: 1|free_order3: 73" \
	"stacks allocated as order-2 blocks, freed as order-0 pages"
add "built 7.2.13 + short-runs-order0 (recorded)" \
	"free_probe: __free_frozen_pages|alloc_events: ok|stacks: 38528|stack_areas: 35882|alloc_order0: 1940|alloc_order1: 11|alloc_order2: 35890|alloc_order3: 120|free_order0: 143816|free_order2: 1|free_order3: 94" \
	"stacks allocated as order-2 blocks, freed as order-0 pages"
# Bulk-allocated pages are sometimes neighbours: free_pages_bulk() frees
# such pairs as order-1 blocks. Mixed, and said so with the numbers.
add "built 7.2.13 + vmalloc-order0-alloc (recorded)" \
	"free_probe: __free_frozen_pages|alloc_events: ok|stacks: 41536|stack_areas: 38671|alloc_order0: 1918|alloc_order1: 13|alloc_order2: 6|alloc_order3: 132|free_order0: 111554|free_order1: 19115|free_order2: 1309|free_order3: 104" \
	"stacks allocated as order-0 pages (bulk), freed as a mix of orders (2.88 order-0, 0.49 order-1, 0.03 order-2 frees per stack)"

# --- edge cases ------------------------------------------------------------
add "no stacks counted" \
	"free_probe: __free_frozen_pages|alloc_events: ok|stacks: 0|stack_areas: 0|alloc_order0: 1900|free_order0: 300" \
	"fingerprint not available: no thread stacks counted (stacks 0, stack_areas 0)"
add "stress-mm's YAML missing, no vmalloc event" \
	"free_probe: __free_frozen_pages|alloc_events: ok|stack_areas: unavailable: no vmalloc:alloc_vmap_area hist|alloc_order2: 5000|free_order2: 5000" \
	"fingerprint not available: no thread stacks counted (stacks missing, stack_areas unavailable: no vmalloc:alloc_vmap_area hist)"
add "kprobe events unavailable" \
	"free_probe: unavailable: no kprobe_events in tracefs (tracefs not mounted, or CONFIG_KPROBE_EVENTS=n)|alloc_events: ok|stacks: 34176|stack_areas: 32430|alloc_order2: 32438" \
	"stacks allocated as order-2 blocks, free order not observed (no kprobe_events in tracefs (tracefs not mounted, or CONFIG_KPROBE_EVENTS=n))"
add "no page-free function to probe" \
	"free_probe: unavailable: none of __free_frozen_pages, free_frozen_pages, free_unref_page in /proc/kallsyms|alloc_events: ok|stacks: 37632|stack_areas: 35625|alloc_order2: 6" \
	"stacks allocated as order-0 pages (bulk), free order not observed (none of __free_frozen_pages, free_frozen_pages, free_unref_page in /proc/kallsyms)"
# The probed function is not on the stacks' free path (inlined, or a
# wrapper the prepared-range free skips): few pages seen, no guess.
add "probe bypassed by the free path" \
	"free_probe: free_frozen_pages|alloc_events: ok|stacks: 34176|stack_areas: 32430|alloc_order2: 32438|free_order0: 268|free_order3: 1249" \
	"stacks allocated as order-2 blocks, free order not observed (a kprobe on free_frozen_pages saw 0.32 pages freed per stack, fewer than the 4 pages of a stack: the free path bypasses it)"
add "free counts missing altogether" \
	"alloc_events: ok|stacks: 34176|stack_areas: 32430|alloc_order2: 32438" \
	"stacks allocated as order-2 blocks, free order not observed (no free_probe in the counts)"
add "kmem:mm_page_alloc unavailable" \
	"free_probe: __free_frozen_pages|alloc_events: unavailable: no hist trigger on kmem:mm_page_alloc (no tracefs, or CONFIG_HIST_TRIGGERS=n)|stacks: 34176|stack_areas: 32430|free_order0: 268|free_order2: 32429" \
	"stacks' allocation order not observed (no hist trigger on kmem:mm_page_alloc (no tracefs, or CONFIG_HIST_TRIGGERS=n)), freed as order-2 blocks"
# Per stack area when the kernel counted them, else per thread.
add "vmalloc event missing: per thread" \
	"free_probe: __free_frozen_pages|alloc_events: ok|stacks: 36224|stack_areas: unavailable: no vmalloc:alloc_vmap_area hist|alloc_order2: 33656|free_order0: 134894|free_order2: 1" \
	"stacks allocated as order-2 blocks, freed as order-0 pages"
add "half the stacks freed as order-2 blocks" \
	"free_probe: __free_frozen_pages|alloc_events: ok|stacks: 1000|stack_areas: 1000|alloc_order2: 1000|free_order0: 2000|free_order2: 500" \
	"stacks allocated as order-2 blocks, freed as a mix of orders (2.00 order-0, 0.00 order-1, 0.50 order-2 frees per stack)"
add "half the stacks allocated as order-2 blocks" \
	"free_probe: __free_frozen_pages|alloc_events: ok|stacks: 1000|stack_areas: 1000|alloc_order2: 500|free_order0: 4000" \
	"stacks allocated partly as order-2 blocks (0.50 order-2 allocations per stack), freed as order-0 pages"

ncases=$((${#cases[@]} / 3))
plan $((ncases * ${#awks[@]} + 3))
for a in "${awks[@]}"; do
	for ((i = 0; i < ${#cases[@]}; i += 3)); do
		got=$(label "$a" "$(printf '%s' "${cases[i + 1]}" | tr '|' '\n')")
		[ "$got" = "${cases[i + 2]}" ]
		ok $? "$a: ${cases[i]}: ${cases[i + 2]}"
		[ "$got" = "${cases[i + 2]}" ] || diag "got: $got"
	done
done

# The output keeps the counts and adds the per-stack figures table.sh reads.
out=$(printf '%s\n' "${cases[1]}" | tr '|' '\n' | awk -f "$FP")
printf '%s\n' "$out" | grep -q "^stack_areas: 35625$" &&
	printf '%s\n' "$out" | grep -q "^order2_allocs_per_stack: 0.00$" &&
	printf '%s\n' "$out" | grep -q "^order2_frees_per_stack: 0.00$" &&
	printf '%s\n' "$out" | grep -q "^order0_frees_per_stack: 4.02$" &&
	[ "$(printf '%s\n' "$out" | grep -c '^label: ')" = 1 ] &&
	[ "$(printf '%s\n' "$out" | tail -n 1 | cut -c1-7)" = "label: " ]
ok $? "the report keeps the counts, adds per-stack figures, ends with one label"

# Every key the classifier reads is one the guest writes.
missing=""
for k in stacks stack_areas alloc_events free_probe; do
	grep -q "echo \"$k: \|print \"$k: " lab/guest-init || missing="$missing $k"
done
for k in alloc_order free_order; do
	grep -q "print \"$k\" \$1 \": \"" lab/guest-init || missing="$missing $k"
done
[ -z "$missing" ]
ok $? "lab/guest-init writes every key lab/fingerprint.awk reads${missing:+ (missing:$missing)}"

# The guest must never count the free order with kmem:mm_page_free (on
# 7.2 it fires per page at order 0 before an order-2 chunk is freed).
! grep -v '^[[:space:]]*#' lab/guest-init | grep -q "mm_page_free\b\|page_free_order"
ok $? "the guest does not read the free order from kmem:mm_page_free"
done_testing
