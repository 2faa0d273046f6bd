/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lock-sides.h - which side of the page allocator holds zone->lock: the text
 * ranges, from /proc/kallsyms, of the functions that take it for a PCP
 * refill (the allocation side) and to give pages back to the buddy lists
 * (the free side). A zone-lock wait whose kernel stack passes through one
 * of them is on that side (bpf/counters.bpf.c); any other is "other".
 *
 * mm/page_alloc.c (6.18, 7.2): rmqueue_bulk() takes zone->lock to refill a
 * PCP list and is called only from __rmqueue_pcplist(); the compiler
 * inlines it there on both kernels, so __rmqueue_pcplist stands for it
 * when it is not a symbol of its own. free_pcppages_bulk() (PCP lists
 * over their high mark, drains) and free_one_page() (orders the PCP lists
 * do not take, and frees that skip them) take it on the free side. A
 * symbol's compiler clones (".isra.0", ".constprop.0", ".part.0") count
 * as the symbol. A range ends where the next text symbol starts.
 *
 * A side none of whose functions is a symbol here (all inlined) cannot be
 * told: its waits would land in "other", so that side and "other" are
 * reported as absent with the reason (smm_lock_sides.why[]).
 */
#ifndef SMM_LOCK_SIDES_H
#define SMM_LOCK_SIDES_H

#include <stddef.h>
#include <stdint.h>

#include "smm-counts.h"

struct smm_lock_sides {
	struct smm_bpf_range r[SMM_BPF_RANGES];
	unsigned int n;
	/* per side: the symbols found ("__rmqueue_pcplist"), or empty */
	char funcs[SMM_NR_SIDES][160];
	/* per side: non-empty when its waits cannot be counted, and why */
	char why[SMM_NR_SIDES][200];
};

/* The side names in reports: "alloc", "free", "other". */
extern const char *const smm_side_names[SMM_NR_SIDES];

/*
 * smm_lock_sides_read() - the ranges from @path (NULL: /proc/kallsyms, read
 * as root: addresses of 0 mean kernel.kptr_restrict hides them).
 * Return: 0 (sides that cannot be told have ->why set), or -errno when the
 * file cannot be read (every side's ->why says so too).
 */
int smm_lock_sides_read(struct smm_lock_sides *ks, const char *path);

#endif /* SMM_LOCK_SIDES_H */
