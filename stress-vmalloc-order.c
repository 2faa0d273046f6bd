// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stress-vmalloc-order.c - the vmalloc-order stressor, as stress-ng plugin
 * methods.
 *
 *   stress-ng --plugin N --plugin-so ./build/stress-mm.so \
 *             --plugin-method vmalloc_order_stack -t 60s --metrics
 *
 * One bogo-op = one batch: STRESS_MM_VMALLOC_ORDER_BATCH allocations of
 * STRESS_MM_VMALLOC_ORDER_BYTES made through one path (worker/paths/vmpath.h)
 * so that they are all alive at once, then all freed.
 *
 * Methods (exported symbols; nothing else in the object is exported):
 *   stress_vmalloc_order        path from STRESS_MM_VMALLOC_ORDER_METHOD;
 *                               "all" cycles, one batch per call, through
 *                               the paths this kernel backs (never the
 *                               opt-in path module)
 *   stress_vmalloc_order_<sym>  one path, for each SMM_VMO_PATHS entry
 *
 * Contract with stress-ng (checked on 0.15.06; doc/plugin.md):
 * the parameters are read and validated once, by the constructor, while
 * stress-ng loads the object: a bad value prints one line naming the
 * variable, the value and the valid range, and stress-ng exits with status
 * 1 before any worker starts. Workers set up their path on the first call.
 * A path that cannot run here prints "vmalloc-order: SKIP: <reason>" once
 * and ends its stressor (report.h, smm_skip()); a failure prints
 * "vmalloc-order: FAIL: <what> errno=N (text)" and the method returns -1,
 * which stress-ng answers by forking a new worker.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "params-table.h"
#include "plugin-env.h"
#include "record.h"
#include "report.h"
#include "vmpath.h"

#define SMM_EXPORT __attribute__((visibility("default")))

/* Limits, help and option table: core-helpers/common/params-table.c,
 * smm_vmo_params[] (STRESS_MM_VMALLOC_ORDER_BYTES, _BATCH, _METHOD,
 * _IO_URING). */

static const char stressor[] = "vmalloc-order";

/* Parsed once by the constructor; inherited by every worker. */
static uint64_t param[SMM_VMO_NR_PARAMS];

/* Per worker: reset whenever the pid changes (stress-ng re-forks). */
struct vmo_worker {
	pid_t pid;
	void *state[SMM_VMO_NR_PATHS];
	bool ready[SMM_VMO_NR_PATHS];
	bool off[SMM_VMO_NR_PATHS];
	unsigned int next;
	int left_out_err; /* errno recorded if every path is left out */
	struct smm_stats_file *stats; /* NULL unless STRESS_MM_STATS_DIR */
};

static struct vmo_worker worker;

__attribute__((constructor)) static void vmalloc_order_load(void)
{
	smm_plugin_env_load(stressor, smm_vmo_params, SMM_VMO_NR_PARAMS, param);
}

static struct vmo_worker *worker_get(void)
{
	if (worker.pid != getpid()) {
		memset(&worker, 0, sizeof(worker));
		worker.pid = getpid();
		worker.stats = smm_record_open(stressor);
	}
	return &worker;
}

/*
 * Set path @id up on first use. When @alone, a path that cannot run ends the
 * stressor (SKIP); otherwise it is left out of the rotation with a note.
 * Returns 0 when the path is ready.
 */
static int path_ready(struct vmo_worker *w, unsigned int id, bool alone)
{
	const struct smm_vmpath *p = smm_vmpaths[id];
	struct smm_vmpath_cfg cfg = {
		.stressor = stressor,
		.stats = w->stats,
		.batch_var = smm_vmo_params[SMM_VMO_P_BATCH].env,
		.bytes = param[SMM_VMO_P_BYTES],
		.batch = param[SMM_VMO_P_BATCH],
		.io_uring = (enum smm_iou_mode)param[SMM_VMO_P_IO_URING],
	};
	char why[512];
	int rc;

	if (w->ready[id])
		return 0;
	if (w->off[id])
		return -1;
	rc = smm_vmpath_setup(p, &w->state[id], &cfg, why, sizeof(why));
	if (rc != 0) {
		if (alone)
			smm_skip(w->stats, stressor, -rc, "%s", why);
		/* If every path is left out, the errno recorded is that of the
		 * first one short of a resource, else of the first one. */
		if (!w->left_out_err ||
		    (smm_errno_exit_status(-rc) == 3 &&
		     smm_errno_exit_status(w->left_out_err) != 3))
			w->left_out_err = -rc;
		smm_note_once(NULL, stressor, "all: leaving out %s", why);
		smm_record_left_out(w->stats, p->name, -rc, why);
		w->off[id] = true;
		return -1;
	}
	w->ready[id] = true;
	return 0;
}

static int path_batch(struct vmo_worker *w, unsigned int id)
{
	uint64_t allocs = 0, alloc_ns = 0, free_ns = 0;
	char what[256];
	int rc;

	rc = smm_vmpath_batch(w->state[id], &allocs, what, sizeof(what));
	smm_stats_add(w->stats, allocs, allocs);
	if (smm_vmpath_kernel_ns(w->state[id], &alloc_ns, &free_ns)) {
		smm_stats_add(w->stats, kernel_alloc_ns, alloc_ns);
		smm_stats_add(w->stats, kernel_free_ns, free_ns);
	}
	if (rc == 0) {
		smm_stats_add(w->stats, calls, 1);
		return 0;
	}
	smm_fail(w->stats, stressor, -rc, "%s", what);
	return -1;
}

static int run_path(unsigned int id)
{
	struct vmo_worker *w = worker_get();

	path_ready(w, id, true);
	return path_batch(w, id);
}

static int run_all(void)
{
	struct vmo_worker *w = worker_get();

	for (unsigned int tries = 0; tries < SMM_VMO_NR_PATHS; tries++) {
		unsigned int id = w->next++ % SMM_VMO_NR_PATHS;

		if (smm_vmpaths[id]->opt_in)
			continue; /* asked for by name only */
		if (path_ready(w, id, false) == 0)
			return path_batch(w, id);
	}
	smm_skip(
		w->stats, stressor, w->left_out_err,
		"all: no vmalloc-order path can run here (see the notes above)");
}

SMM_EXPORT int stress_vmalloc_order(void)
{
	uint64_t m = param[SMM_VMO_P_METHOD];

	if (m == 0)
		return run_all();
	/* the constructor refused the front end's own methods */
	return run_path((unsigned int)(m - 1));
}

#define SMM_X(sym, name)                                 \
	SMM_EXPORT int stress_vmalloc_order_##sym(void); \
	int stress_vmalloc_order_##sym(void)             \
	{                                                \
		return run_path(SMM_VMO_PATH_##sym);     \
	}
SMM_VMO_PATHS(SMM_X)
#undef SMM_X
