/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmproof.h - a path proves itself: which areas of its kernel callers appear
 * in /proc/vmallocinfo while its allocations are alive.
 *
 *   smm_vmproof_begin(&p, callers);   snapshot before allocating
 *   ... make allocations and keep them alive ...
 *   smm_vmproof_end(&p, callers, &r); new areas, their most common size
 *   ... free them ...
 *
 * "New" means not present at the snapshot (vmallocinfo.h,
 * smm_vmallocinfo_new()), so areas other processes free meanwhile do not
 * hide ours; areas other processes create with the same callers are counted
 * too (r.fresh is system-wide). Unreadable vmallocinfo (not uid 0) is not an
 * error: r.err says why, and the proof falls back on what an unprivileged
 * process can measure: VmallocUsed of /proc/meminfo (nr_vmalloc_pages,
 * mm/vmalloc.c: every vmalloc'ed page, no vmap, no caller) before and
 * during, r.used_pages; machine-wide, like the areas.
 */
#ifndef SMM_VMPROOF_H
#define SMM_VMPROOF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vmallocinfo.h"

struct smm_vmpath_cfg;

struct smm_vmproof {
	struct smm_vmarea *before;
	size_t nb;
	int err; /* 0, or -errno of reading /proc/vmallocinfo */
	bool used_ok; /* err set and VmallocUsed read into used_kb */
	uint64_t used_kb;
};

struct smm_vmproof_result {
	int err; /* 0, or -errno: nothing below is valid */
	size_t fresh; /* new areas of the callers (system-wide) */
	size_t count; /* new areas of the most common size */
	uint64_t size; /* that size, bytes, guard page included */
	unsigned long pages; /* its pages= (0 for vmap areas) */
	unsigned int flags; /* its SMM_VMA_* flags */
	char caller[64]; /* its caller */
	/* with err: VmallocUsed's change in pages, when both reads worked */
	bool used_ok;
	int64_t used_pages;
};

/* Snapshot the callers' areas. Never fails; p->err records why not. */
void smm_vmproof_begin(struct smm_vmproof *p, const char *const *callers);

/* New areas since smm_vmproof_begin(); frees the snapshot. */
void smm_vmproof_end(struct smm_vmproof *p, const char *const *callers,
		     struct smm_vmproof_result *r);

/* Page order of @pages when it is a power of two, else -1. */
int smm_page_order(unsigned long pages);

/*
 * smm_vmproof_report() - what path (or kind) @path achieved, into the
 * worker's record (cfg->stats: SMM_PATH_PROVEN with kind, area size, pages,
 * order, caller and cfg->bytes asked for), and said once per run for
 * people (@r from a readable vmallocinfo: r->err 0; holder.c reports what
 * it decided where vmallocinfo was unreadable):
 *   <path>: <what> are <kind> areas of <size> bytes (<size - page> + guard
 *   page), pages=N (order k), caller C; probe: <live> live <unit>, <fresh>
 *   new areas system-wide
 * and, when cfg->bytes differs from the area's size less the guard page,
 * "<path>: <asked> requested, nearest reachable: <size>". Nothing when
 * the proof found no area (r->count 0).
 */
void smm_vmproof_report(const struct smm_vmpath_cfg *cfg, const char *path,
			const char *what, const struct smm_vmproof_result *r,
			uint64_t live, const char *unit);

/* Allocations a path holds to prove itself: enough to show in vmallocinfo,
 * few enough that the proof stays quick whatever the batch. */
#define SMM_PROBE_MAX 64

/* smm_probe_size() - min(@batch, SMM_PROBE_MAX). */
uint64_t smm_probe_size(uint64_t batch);

/* smm_now_ns() - CLOCK_MONOTONIC in nanoseconds. */
uint64_t smm_now_ns(void);

/*
 * smm_batch_estimate() - from a probe of @probed items that took @probe_ns
 * to acquire and release, say once per run (key "<path>-estimate") when one
 * batch of @batch items will take over a second, naming cfg->batch_var,
 * the variable that makes batches shorter: few or no bogo-ops are then no
 * surprise.
 */
void smm_batch_estimate(const struct smm_vmpath_cfg *cfg, const char *path,
			uint64_t probe_ns, uint64_t probed, uint64_t batch);

#endif /* SMM_VMPROOF_H */
