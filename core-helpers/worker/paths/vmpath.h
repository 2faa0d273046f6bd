/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmpath.h - the contract of a vmalloc-order path: a user-space way to make
 * the kernel allocate (and free) areas in vmalloc space.
 *
 * A path is one or more kinds of kernel objects that each hold an
 * allocation (holder.h): one ops table per kind, in worker/paths/path-*.c.
 * The io-uring path has two kinds (rings, buffers); every other path one.
 * A path is driven from one process (a stress-ng worker, or a shm-pcp
 * churn companion): smm_vmpath_setup() once, then smm_vmpath_batch() per
 * bogo-op. One batch makes cfg->batch allocations of each kind alive at
 * the same time, then frees them all. Paths keep their state in what setup
 * returns: there is no global state, and any number of instances may run
 * in one process.
 *
 * SMM_VMO_PATHS (names.h) lists every path once: it gives enum
 * smm_vmo_path_id, the method choices of STRESS_MM_VMALLOC_ORDER_METHOD, and
 * the exported plugin methods stress_vmalloc_order_<sym>.
 */
#ifndef SMM_VMPATH_H
#define SMM_VMPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "holder.h"
#include "names.h"
#include "stats.h"

/* Kinds one path may have. */
#define SMM_VMPATH_MAX_KINDS 4

struct smm_vmpath_cfg {
	const char *stressor; /* prefix of every line the path prints */
	struct smm_stats_file *stats; /* the worker's record, or NULL */
	const char *batch_var; /* the variable that sets batch, for notes */
	uint64_t bytes; /* requested size of one allocation, bytes */
	uint64_t batch; /* requested allocations alive at once, 1..4096 */
	enum smm_iou_mode io_uring; /* io-uring: which kinds */
};

struct smm_vmpath {
	const char *name; /* "stack" */
	const char *kind; /* "vmalloc" (pages from the page allocator, freed
			   * by vfree) or "vmap" (address space only) */
	/* bytes of its most typical allocation (shm-pcp churn default) */
	uint64_t natural_bytes;
	/* not taken by method "all" (a path that needs set-up by root) */
	bool opt_in;
	/* its kinds, NULL-terminated: at most SMM_VMPATH_MAX_KINDS */
	const struct smm_holder_ops *const *kinds;
};

/* Indexed by enum smm_vmo_path_id. */
extern const struct smm_vmpath *const smm_vmpaths[SMM_VMO_NR_PATHS];

/*
 * smm_vmpath_setup() - smm_holder_setup() for every kind of @p that @cfg
 * wants (ops->wanted). A kind that cannot run is left out, with a note
 * ("<path>: leaving out <reason>") and in the record (SMM_PATH_LEFT_OUT),
 * as long as another one runs.
 * Return: 0 and *state; or, when no kind can run, the -errno of the first
 * kind that could not, with every kind's reason in @why ("; " between them):
 * a SKIP.
 */
int smm_vmpath_setup(const struct smm_vmpath *p, void **state,
		     const struct smm_vmpath_cfg *cfg, char *why, size_t len);

/*
 * smm_vmpath_batch() - one bogo-op: smm_holder_batch() of every kind set
 * up, in table order. @allocs grows by the allocations made.
 * Return: 0, or the first -errno with what failed in @what (a FAIL).
 */
int smm_vmpath_batch(void *state, uint64_t *allocs, char *what, size_t len);

/*
 * smm_vmpath_batch_size() - the items per bogo-op of the first kind set
 * up, after set-up's clamps (what runs, not what was asked); 0 without a
 * state.
 */
uint64_t smm_vmpath_batch_size(const void *state);

/*
 * smm_vmpath_kernel_ns() - add the kernel's ns for allocating and freeing
 * since the last call, over the kinds that can see them (holder.h
 * kernel_ns). Return: whether any kind can (false: *@alloc_ns and
 * *@free_ns untouched, the figure is absent).
 */
bool smm_vmpath_kernel_ns(void *state, uint64_t *alloc_ns, uint64_t *free_ns);

/*
 * smm_vmpath_verify() - smm_holder_verify() of every kind set up, in table
 * order. Return: 0 when all proved themselves (@what: how the first kind
 * showed, "its areas show in /proc/vmallocinfo again"); the first -errno (a
 * failure) with @what; else 1 when a kind could not be judged (vmallocinfo
 * unreadable and, for a vmap kind, nothing else to measure), with the
 * first such kind's reason in @what; the others are still verified.
 */
int smm_vmpath_verify(void *state, char *what, size_t len);

/* smm_vmpath_teardown() - free what smm_vmpath_setup() made; NULL-safe. */
void smm_vmpath_teardown(void *state);

#endif /* SMM_VMPATH_H */
