/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * smm-counts.h - the layout of what bpf/counters.bpf.c counts, shared by
 * the BPF program and the front end (front-end/counters/bpf-counters.c).
 *
 * One struct smm_bpf_counts per CPU (a BPF_MAP_TYPE_PERCPU_ARRAY of one
 * entry), read once at the end of a run. The kmem tracepoints are binned
 * by the fields the perf filters of counters.c test, so that every perf
 * counter is a sum of bins:
 *   alloc[order]                      kmem:mm_page_alloc
 *   zone_locked[order][mt][refill]    kmem:mm_page_alloc_zone_locked
 *   extfrag[alloc_order]              kmem:mm_page_alloc_extfrag
 *   drain[order]                      kmem:mm_page_pcpu_drain
 *   tlb_flush                         tlb:tlb_flush
 * Orders 0..SMM_BPF_ORDERS-2 have a bin each, anything else (negative or
 * larger) the last; migratetypes 0..SMM_BPF_MTS-2 likewise; refill is 1
 * for percpu_refill == 1 and 0 otherwise.
 *
 * Zone-lock waits (lock:contention_begin/_end on a lock that is the lock
 * of a struct zone, smm_bpf_side for the side): count and nanoseconds
 * from contention_begin to contention_end on the same CPU; spin_waits
 * counts every spinlock wait the tracepoint showed (any lock), which says
 * whether this kernel's spinlock waits pass it at all.
 */
#ifndef SMM_COUNTS_H
#define SMM_COUNTS_H

#include <linux/types.h>

#define SMM_BPF_ORDERS 16
#define SMM_BPF_MTS 8
#define SMM_BPF_ZONES 8 /* distinct zone locks remembered per CPU */
#define SMM_BPF_RANGES 16 /* function ranges that decide a side */
#define SMM_BPF_STACK 32 /* frames read at a zone-lock wait */

/* include/trace/events/lock.h: the flags of lock:contention_begin */
#define SMM_LCB_F_SPIN (1U << 0)
#define SMM_LCB_F_RT (1U << 3)

enum smm_bpf_side {
	SMM_SIDE_ALLOC, /* PCP refill: rmqueue_bulk under __rmqueue_pcplist */
	SMM_SIDE_FREE, /* free_pcppages_bulk, free_one_page */
	SMM_SIDE_OTHER, /* any other holder of zone->lock */
	SMM_NR_SIDES,
};

struct smm_bpf_zone {
	__u64 lock; /* address of zone->lock, 0: slot free */
	__s32 nid; /* zone->zone_pgdat->node_id */
	__u32 idx; /* index in node_zones[] */
	char name[16]; /* zone->name */
};

struct smm_bpf_counts {
	__u64 alloc[SMM_BPF_ORDERS];
	__u64 zone_locked[SMM_BPF_ORDERS][SMM_BPF_MTS][2];
	__u64 extfrag[SMM_BPF_ORDERS];
	__u64 drain[SMM_BPF_ORDERS];
	__u64 tlb_flush;
	__u64 spin_waits;
	__u64 zone_waits[SMM_NR_SIDES];
	__u64 zone_wait_ns[SMM_NR_SIDES];
	__u64 zone_unmatched; /* a begin whose end was not seen on its CPU */
	__u64 stack_errors; /* bpf_get_stack() failed: side "other" */
	struct smm_bpf_zone zones[SMM_BPF_ZONES];
};

/* A function's text, [start, end), and the side a wait under it is on. */
struct smm_bpf_range {
	__u64 start, end;
	__u32 side;
	__u32 pad;
};

#endif /* SMM_COUNTS_H */
