// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * counters.bpf.c - the front end's kernel counters as BPF programs: one
 * BTF-enabled raw tracepoint program (tp_btf) per tracepoint, binning each
 * event by the fields the perf filters test (smm-counts.h), and the
 * zone-lock waits from lock:contention_begin/_end. Loaded, gated and read
 * by front-end/counters/bpf-counters.c through the skeleton bpftool
 * generates from this file at build time.
 *
 * Tracepoint arguments are the TP_PROTO of include/trace/events/kmem.h,
 * tlb.h and lock.h (the same on 6.18 and 7.2):
 *   mm_page_alloc(struct page *, unsigned int order, gfp_t, int mt)
 *   mm_page_alloc_zone_locked(struct page *, unsigned int order, int mt,
 *                             int percpu_refill)
 *   mm_page_alloc_extfrag(struct page *, int alloc_order, int fallback_order,
 *                         int alloc_mt, int fallback_mt)
 *   mm_page_pcpu_drain(struct page *, unsigned int order, int mt)
 *   tlb_flush(int reason, unsigned long pages)
 *   contention_begin(void *lock, unsigned int flags)
 *   contention_end(void *lock, int ret)
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "smm-counts.h"
#include "smm-kernel.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by the front end: count only between enable and disable. */
volatile __u32 smm_on;
/* Text ranges of the functions that decide a zone-lock wait's side. */
struct smm_bpf_range smm_ranges[SMM_BPF_RANGES];
volatile const __u32 smm_nr_ranges;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct smm_bpf_counts);
} smm_counts SEC(".maps");

/* The zone-lock wait in progress on this CPU (spinlock waits do not
 * migrate: the waiter spins with preemption off). */
struct smm_wait {
	__u64 lock, t0;
	__u32 side;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct smm_wait);
} smm_waits SEC(".maps");

/* A per-CPU scratch buffer for the stack at a zone-lock wait. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64[SMM_BPF_STACK]);
} smm_stack SEC(".maps");

static __always_inline struct smm_bpf_counts *counts(void)
{
	__u32 k = 0;

	if (!smm_on)
		return NULL;
	return bpf_map_lookup_elem(&smm_counts, &k);
}

static __always_inline __u32 obin(long order)
{
	return order >= 0 && order < SMM_BPF_ORDERS - 1 ? (__u32)order
							: SMM_BPF_ORDERS - 1;
}

static __always_inline __u32 mbin(long mt)
{
	return mt >= 0 && mt < SMM_BPF_MTS - 1 ? (__u32)mt : SMM_BPF_MTS - 1;
}

SEC("tp_btf/mm_page_alloc")
int BPF_PROG(smm_page_alloc, struct page *page, unsigned int order,
	     unsigned int gfp, int mt)
{
	struct smm_bpf_counts *c = counts();

	if (c)
		c->alloc[obin(order)]++;
	return 0;
}

SEC("tp_btf/mm_page_alloc_zone_locked")
int BPF_PROG(smm_zone_locked, struct page *page, unsigned int order, int mt,
	     int percpu_refill)
{
	struct smm_bpf_counts *c = counts();

	if (c)
		c->zone_locked[obin(order)][mbin(mt)][percpu_refill == 1]++;
	return 0;
}

SEC("tp_btf/mm_page_alloc_extfrag")
int BPF_PROG(smm_extfrag, struct page *page, int alloc_order,
	     int fallback_order, int alloc_mt, int fallback_mt)
{
	struct smm_bpf_counts *c = counts();

	if (c)
		c->extfrag[obin(alloc_order)]++;
	return 0;
}

SEC("tp_btf/mm_page_pcpu_drain")
int BPF_PROG(smm_pcpu_drain, struct page *page, unsigned int order, int mt)
{
	struct smm_bpf_counts *c = counts();

	if (c)
		c->drain[obin(order)]++;
	return 0;
}

SEC("tp_btf/tlb_flush")
int BPF_PROG(smm_tlb_flush, int reason, unsigned long pages)
{
	struct smm_bpf_counts *c = counts();

	if (c)
		c->tlb_flush++;
	return 0;
}

/*
 * Is @lock the lock of a struct zone? It is when the zone it would belong
 * to lies at a whole index of the node_zones[] array of the pglist_data
 * that zone names as its own: the kernel's own structures, read with the
 * running kernel's offsets (CO-RE). Any other lock fails the test (its
 * would-be zone_pgdat is not a pointer whose node_zones[] holds it).
 * Returns the index, or -1.
 */
static __always_inline int zone_of(__u64 lock, struct pglist_data **pgdat)
{
	__u64 zone = lock - bpf_core_field_offset(struct zone, lock);
	__u64 zsize = bpf_core_type_size(struct zone);
	__u64 nzones = bpf_core_enum_value(enum zone_type, __MAX_NR_ZONES);
	struct pglist_data *pg = NULL;
	__u64 base, d;

	if (bpf_probe_read_kernel(
		    &pg, sizeof(pg),
		    (void *)(zone +
			     bpf_core_field_offset(struct zone, zone_pgdat))) ||
	    !pg)
		return -1;
	base = (__u64)pg +
	       bpf_core_field_offset(struct pglist_data, node_zones);
	if (zone < base || !zsize)
		return -1;
	d = zone - base;
	if (d % zsize || d / zsize >= nzones)
		return -1;
	*pgdat = pg;
	return (int)(d / zsize);
}

/* Remember the zone (node, index, name) the first time one of its waits
 * is seen on this CPU: the report names the zones whose locks waited. */
static __always_inline void note_zone(struct smm_bpf_counts *c, __u64 lock,
				      struct pglist_data *pg, int idx)
{
	for (int i = 0; i < SMM_BPF_ZONES; i++) {
		struct smm_bpf_zone *z = &c->zones[i];
		const char *name = NULL;

		if (z->lock == lock)
			return;
		if (z->lock)
			continue;
		z->lock = lock;
		z->idx = (__u32)idx;
		z->nid = BPF_CORE_READ(pg, node_id);
		name = BPF_CORE_READ(
			(struct zone *)(lock - bpf_core_field_offset(
						       struct zone, lock)),
			name);
		if (name)
			bpf_probe_read_kernel_str(z->name, sizeof(z->name),
						  name);
		return;
	}
}

/* The side of a wait: the innermost frame inside a range decides. */
static __always_inline __u32 side_of(void *ctx, struct smm_bpf_counts *c)
{
	__u32 k = 0;
	__u64 *st = bpf_map_lookup_elem(&smm_stack, &k);
	long n;

	if (!st)
		return SMM_SIDE_OTHER;
	n = bpf_get_stack(ctx, st, SMM_BPF_STACK * sizeof(__u64), 0);
	if (n <= 0) {
		c->stack_errors++;
		return SMM_SIDE_OTHER;
	}
	n /= sizeof(__u64);
	for (int f = 0; f < SMM_BPF_STACK; f++) {
		__u64 ip;

		if (f >= n)
			break;
		ip = st[f];
		for (__u32 r = 0; r < SMM_BPF_RANGES; r++) {
			if (r >= smm_nr_ranges)
				break;
			if (ip >= smm_ranges[r].start && ip < smm_ranges[r].end)
				return smm_ranges[r].side < SMM_NR_SIDES
					       ? smm_ranges[r].side
					       : SMM_SIDE_OTHER;
		}
	}
	return SMM_SIDE_OTHER;
}

SEC("tp_btf/contention_begin")
int BPF_PROG(smm_contention_begin, void *lock, unsigned int flags)
{
	struct smm_bpf_counts *c = counts();
	struct pglist_data *pg = NULL;
	struct smm_wait *w;
	__u32 k = 0;
	int idx;

	/* spinlock_t: SPIN; on PREEMPT_RT an rtmutex: RT */
	if (!c || (flags != SMM_LCB_F_SPIN && flags != SMM_LCB_F_RT))
		return 0;
	c->spin_waits++;
	idx = zone_of((__u64)lock, &pg);
	if (idx < 0)
		return 0;
	w = bpf_map_lookup_elem(&smm_waits, &k);
	if (!w)
		return 0;
	if (w->lock)
		c->zone_unmatched++;
	note_zone(c, (__u64)lock, pg, idx);
	w->side = side_of(ctx, c);
	w->lock = (__u64)lock;
	w->t0 = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/contention_end")
int BPF_PROG(smm_contention_end, void *lock, int ret)
{
	struct smm_bpf_counts *c;
	struct smm_wait *w;
	__u32 k = 0, side;

	w = bpf_map_lookup_elem(&smm_waits, &k);
	if (!w || !w->lock || w->lock != (__u64)lock)
		return 0;
	w->lock = 0;
	side = w->side;
	c = counts();
	if (c && side < SMM_NR_SIDES) {
		c->zone_waits[side]++;
		c->zone_wait_ns[side] += bpf_ktime_get_ns() - w->t0;
	}
	return 0;
}
