/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmpath.h - the contract of a vmalloc-order path: a user-space way to make
 * the kernel allocate (and free) areas in vmalloc space.
 *
 * A path is driven from one process (a stress-ng worker; later also a shm-pcp churn
 * companion): setup() once, then batch() per bogo-op. One batch makes
 * cfg->batch allocations alive at the same time, then frees them all.
 * Paths keep their state in what setup() returns: there is no global state,
 * and any number of instances may run in one process.
 *
 * SMM_VMO_PATHS (names.h) lists every path once: it gives enum
 * smm_vmo_path_id, the method choices of STRESS_MM_VMALLOC_ORDER_METHOD, and
 * the exported plugin methods stress_vmalloc_order_<sym>.
 */
#ifndef SMM_VMPATH_H
#define SMM_VMPATH_H

#include <stddef.h>
#include <stdint.h>

#include "names.h"

struct smm_vmpath_cfg {
	const char *stressor; /* prefix of every line the path prints */
	uint64_t bytes; /* requested size of one allocation, bytes */
	uint64_t batch; /* requested allocations alive at once */
	enum smm_iou_mode io_uring; /* io-uring: which kinds */
};

struct smm_vmpath {
	const char *name; /* "stack" */
	const char *kind; /* "vmalloc" (pages from the page allocator, freed
			   * by vfree) or "vmap" (address space only) */
	/* vmallocinfo callers that prove the path (NULL-terminated) */
	const char *const *callers;
	/* bytes of its most typical allocation (shm-pcp churn default) */
	uint64_t natural_bytes;
	/*
	 * setup() - check that the path can run here, size it, and report once
	 * per run what it achieved (area size, pages, kind).
	 * Return: 0 and *state; or -errno when the path cannot run on this
	 * kernel or with these limits, with the reason in @why (a SKIP).
	 */
	int (*setup)(void **state, const struct smm_vmpath_cfg *cfg, char *why,
		     size_t len);
	/*
	 * batch() - one bogo-op. @allocs: incremented by the allocations made.
	 * Return: 0, or -errno with what failed in @what (a FAIL).
	 */
	int (*batch)(void *state, uint64_t *allocs, char *what, size_t len);
	/* teardown() - free what setup() made (NULL-safe). */
	void (*teardown)(void *state);
};

/* Indexed by enum smm_vmo_path_id. */
extern const struct smm_vmpath *const smm_vmpaths[SMM_VMO_NR_PATHS];

#endif /* SMM_VMPATH_H */
