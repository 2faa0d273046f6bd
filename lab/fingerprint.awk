# lab/fingerprint.awk - the lab's kernel fingerprint: from counts taken
# during 5 s of thread-stack churn, in which order this kernel allocates
# thread stacks and in which order it frees them. The one place where
# the label is decided; lab/guest-init runs it in the guest (busybox awk),
# test/87-lab-fingerprint.t runs it on recorded counts (any POSIX awk).
#
# Input, "key: value" lines (unknown keys are passed through):
#   stacks: N            threads whose stacks stress-mm created (its YAML)
#   stack_areas: N       thread-stack vmalloc areas the kernel allocated
#                        (vmalloc:alloc_vmap_area, size 20480), or
#                        "unavailable: REASON"
#   alloc_events: ok | unavailable: REASON   (kmem:mm_page_alloc)
#   alloc_order<K>: N    kmem:mm_page_alloc events of order K
#   free_probe: FUNCTION | unavailable: REASON   the kprobe event on the
#                        function that frees a block, with its order
#   free_order<K>: N     calls of that function with order K
# Output: the input, then per-stack figures and the label.
#
# Why these counts. Stacks are 16 KiB (4 pages, order 2 on x86_64).
# Allocation: since 6.19 a stack is one order-2 mm_page_alloc; before, its
# pages come from the bulk allocator, which emits no mm_page_alloc at all
# (so "order-0 pages (bulk)" is read from the absence of order-2
# allocations). Free: kmem:mm_page_free cannot tell (on 7.2 it fires once
# per page at order 0 in free_pages_prepare(), and the order-2 chunk is
# then freed with FPI_PREPARED, no event), so the order is read at the
# function that frees each block. A probe that saw fewer pages freed
# than the stacks gave back is bypassed by the free path: then the free
# order is "not observed", never guessed.

function n(k) { return (k in v && v[k] ~ /^[0-9]+$/) ? v[k] + 0 : 0 }
function has(k) { return (k in v && v[k] ~ /^[0-9]+$/) }
function unavailable(k) { return (k in v && v[k] ~ /^unavailable/) }
function why(k) { s = v[k]; sub(/^unavailable: */, "", s); return s }

{
	print
	i = index($0, ":")
	if (i == 0)
		next
	k = substr($0, 1, i - 1)
	val = substr($0, i + 1)
	sub(/^[ \t]+/, "", val)
	sub(/[ \t\r]+$/, "", val)
	v[k] = val
}

END {
	# Per stack = per stack area the kernel vmalloc'ed (a stack taken from
	# the per-CPU cache allocates and frees nothing); stress-mm's thread
	# count only when the vmalloc event is missing.
	if (has("stack_areas") && n("stack_areas") > 0) {
		per = n("stack_areas")
		unit = "stack areas"
	} else {
		per = n("stacks")
		unit = "threads"
	}
	# Pages freed, over all orders (no "^": busybox awk may lack math).
	pages = 0
	size = 1
	for (o = 0; o <= 10; o++) {
		if (has("free_order" o))
			pages += n("free_order" o) * size
		size *= 2
	}
	printf "per: %d %s\n", per, unit
	printf "free_pages: %d\n", pages
	if (per == 0) {
		printf "label: fingerprint not available: no thread stacks counted (stacks %s, stack_areas %s)\n",
			("stacks" in v) ? v["stacks"] : "missing",
			("stack_areas" in v) ? v["stack_areas"] : "missing"
		exit 0
	}
	ra = n("alloc_order2") / per
	rf = n("free_order2") / per
	rp = pages / per
	printf "order2_allocs_per_stack: %.2f\n", ra
	printf "order2_frees_per_stack: %.2f\n", rf
	printf "order0_frees_per_stack: %.2f\n", n("free_order0") / per
	printf "pages_freed_per_stack: %.2f\n", rp

	if (!("alloc_events" in v) || unavailable("alloc_events"))
		alloc = sprintf("stacks' allocation order not observed (%s)",
			("alloc_events" in v) ? why("alloc_events") : "no kmem:mm_page_alloc counts")
	else if (ra >= 0.75)
		alloc = "stacks allocated as order-2 blocks"
	else if (ra <= 0.25)
		alloc = "stacks allocated as order-0 pages (bulk)"
	else
		alloc = sprintf("stacks allocated partly as order-2 blocks (%.2f order-2 allocations per stack)", ra)

	probe = v["free_probe"]
	if (!("free_probe" in v) || probe == "")
		free = "free order not observed (no free_probe in the counts)"
	else if (unavailable("free_probe"))
		free = "free order not observed (" why("free_probe") ")"
	else if (rp < 3)
		free = sprintf("free order not observed (a kprobe on %s saw %.2f pages freed per stack, fewer than the 4 pages of a stack: the free path bypasses it)", probe, rp)
	else if (rf >= 0.75)
		free = "freed as order-2 blocks"
	else if (rf <= 0.25 && n("free_order0") / per >= 3.5)
		free = "freed as order-0 pages"
	else
		free = sprintf("freed as a mix of orders (%.2f order-0, %.2f order-1, %.2f order-2 frees per stack)",
			n("free_order0") / per, n("free_order1") / per, rf)
	printf "label: %s, %s\n", alloc, free
}
