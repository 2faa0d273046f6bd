// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plugin/vmalloc-order.c - the vmalloc-order stressor in the plugin: the
 * stressor file itself, compiled as is (its `#include "stress-ng.h"` finds
 * plugin/compat/stress-ng.h), and the glue that runs its method table one
 * bogo-op per call of a plugin method (plugin/methods.c).
 *
 *   stress-ng --plugin N --plugin-so ./build/stress-mm.so \
 *             --plugin-method vmalloc_order_stack -t 60s --metrics
 *
 * Per call: the first one in a process (stress-ng forks each worker, and
 * re-forks one after a failure) opens the worker's record, takes its slot
 * in the run as its instance, puts the stop handler in place and runs
 * stress_vmalloc_order_context_init() and the stressor's own set-up of
 * the paths its method runs, stress_vmalloc_order_setup(); then each call
 * is one bogo-op, stress_vmalloc_order_op(). EXIT_SUCCESS is a bogo-op; EXIT_NO_RESOURCE and
 * EXIT_NOT_IMPLEMENTED end the stressor as a SKIP with the reason the
 * stressor gave (report.h smm_skip()); EXIT_FAILURE is a failure (its FAIL
 * line said it), the context is torn down and stress-ng forks a new worker.
 * After every call the record (stats.h) takes the bogo-ops, the
 * allocations, the batch and bytes that ran, and what each path set up
 * achieved, or why "all" left it out (once per path); the allocations once
 * more when stress-ng's stop signal arrives.
 *
 * Method "module" (our kernel module, vmalloc-module.h) is the row the
 * plugin adds to the core's path table, which the stressor takes as the
 * method past its own (stress_vmalloc_order_method_name()): its set-up,
 * batch, skips and failures are the file's; the record takes the
 * module's kernel time of the bogo-ops too.
 */
/* NOLINTNEXTLINE(bugprone-suspicious-include): the one source */
#include "../stress-vmalloc-order.c"

#include "compat.h"
#include "plugin.h"
#include "record-kind.h"
#include "record.h"
#include "report.h"
#include "vmalloc-module.h"

static const struct smm_compat_words vmo_words[] = {
	{ "vmalloc-order-method", "test-vmalloc" },
};

/* The worker in this process. */
static struct {
	pid_t pid; /* whose state this is */
	bool live; /* context_init done, not torn down */
	pid_t rec_pid; /* whose record rec is */
	stress_args_t args;
	stress_vmalloc_order_context_t ctx;
	struct smm_stats_file *rec;
	bool recorded[STRESS_VMALLOC_PATHS_MAX]; /* kinds, or left out */
} vmo;

void smm_plugin_vmo_load(void)
{
	smm_compat_settings_load("vmalloc-order", opts, vmo_words,
				 SIZEOF_ARRAY(vmo_words));
}

/* The kinds of every path of @ctx set up since the last call, or the path
 * left out of "all" with its errno and reason; the smallest batch of its
 * paths in *@batch. */
static void vmo_record_paths(const stress_vmalloc_order_context_t *ctx,
			     bool *recorded, size_t *batch)
{
	stress_vmalloc_kind_info_t info[STRESS_VMALLOC_KINDS_MAX];

	for (size_t i = 0; i < STRESS_VMALLOC_PATHS_MAX; i++) {
		const size_t b = stress_vmalloc_path_batch_size(ctx->path[i]);
		size_t n;

		if (b && (!*batch || b < *batch))
			*batch = b;
		if (recorded[i])
			continue;
		if (ctx->off[i]) {
			smm_record_left_out(vmo.rec,
					    stress_vmalloc_path_info(i)->name,
					    ctx->off_err[i], ctx->off_why[i]);
			recorded[i] = true;
			continue;
		}
		if (!ctx->path[i])
			continue;
		n = stress_vmalloc_path_kinds(ctx->path[i], info,
					      SIZEOF_ARRAY(info));
		for (size_t k = 0; k < n; k++)
			smm_plugin_record_kind(vmo.rec, &info[k]);
		recorded[i] = true;
	}
}

/* The allocations; async-signal-safe. */
static void vmo_record_counts(void)
{
	if (vmo.rec)
		__atomic_store_n(&vmo.rec->allocs, vmo.ctx.allocs,
				 __ATOMIC_RELAXED);
}

/* After a call: the counters, the module's kernel time, then what ran: the
 * paths' kinds, the batch and the bytes asked per allocation. */
static void vmo_record(void)
{
	uint64_t alloc_ns = 0, free_ns = 0;
	size_t batch = 0;

	if (!vmo.rec)
		return;
	vmo_record_counts();
	smm_vmalloc_module_kernel_ns(&alloc_ns, &free_ns);
	smm_stats_add(vmo.rec, kernel_alloc_ns, alloc_ns);
	smm_stats_add(vmo.rec, kernel_free_ns, free_ns);
	vmo_record_paths(&vmo.ctx, vmo.recorded, &batch);
	if (batch)
		smm_stats_ran(vmo.rec, batch, vmo.ctx.bytes);
}

/* stress-ng's stop signal: the allocations counted so far. */
static void vmo_on_stop(void)
{
	vmo_record_counts();
}

static void vmo_deinit(void)
{
	if (vmo.live)
		stress_vmalloc_order_context_deinit(&vmo.args, &vmo.ctx);
	vmo.live = false;
}

/* A method's EXIT_* other than EXIT_SUCCESS: SKIP (no return) or -1, with
 * the errno the stressor kept. */
static int vmo_end(int rc)
{
	return smm_compat_end(rc, vmo.ctx.skip_err, vmo_deinit);
}

/* The row of method @name, or the first past the last when it is not
 * built: the stressor's method name function, its rows then the path
 * table's added ones (module). */
static size_t vmo_row(const char *name)
{
	const char *row;
	size_t i;

	for (i = 0; (row = stress_vmalloc_order_method_name(i)) != NULL; i++)
		if (strcmp(row, name) == 0)
			break;
	return i;
}

/* The first call in a worker: its settings (the method @method names, or
 * the setting's), record, slot, context, and the paths set up. */
static int vmo_start(const char *method)
{
	uint64_t proof_ns = 0;
	int rc;

	vmo.pid = getpid();
	memset(&vmo.ctx, 0, sizeof(vmo.ctx));
	stress_vmalloc_order_settings(&vmo.ctx);
	if (method)
		vmo.ctx.method = vmo_row(method);
	smm_compat_args_init(&vmo.args, "vmalloc-order");
	if (vmo.rec_pid != vmo.pid) {
		vmo.rec = smm_record_open(vmo.args.name);
		vmo.rec_pid = vmo.pid;
		memset(vmo.recorded, 0, sizeof(vmo.recorded));
	}
	smm_compat_stop_install(vmo_on_stop);
	smm_compat_begin(&vmo.args, vmo.rec);
	if (!stress_vmalloc_order_method_name(vmo.ctx.method)) {
		pr_inf_skip(
			"%s: method %s is not built in, skipping stressor\n",
			vmo.args.name, method);
		return vmo_end(EXIT_NOT_IMPLEMENTED);
	}
	rc = stress_vmalloc_order_context_init(&vmo.args, &vmo.ctx);
	if (rc != EXIT_SUCCESS)
		return vmo_end(rc);
	vmo.live = true;
	rc = stress_vmalloc_order_setup(&vmo.args, &vmo.ctx);
	/* the module's kernel time of set-up's proofs is no bogo-op's */
	smm_vmalloc_module_kernel_ns(&proof_ns, &proof_ns);
	vmo_record();
	if (rc != EXIT_SUCCESS)
		return vmo_end(rc);
	if (vmo.ctx.cut) {
		/* the run ended while the paths set up: nothing failed */
		vmo_deinit();
		_exit(0);
	}
	return 0;
}

int smm_plugin_vmo(const char *method)
{
	int rc;

	if ((!vmo.live || vmo.pid != getpid()) && vmo_start(method) != 0)
		return -1;
	smm_compat_begin(&vmo.args, vmo.rec);
	rc = stress_vmalloc_order_op(&vmo.args, &vmo.ctx);
	vmo_record();
	if (rc != EXIT_SUCCESS)
		return vmo_end(rc);
	stress_bogo_inc(&vmo.args);
	smm_stats_add(vmo.rec, calls, 1);
	return 0;
}
