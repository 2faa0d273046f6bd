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
 * stress_vmalloc_order_context_init(); then the method's function does one
 * bogo-op. EXIT_SUCCESS is a bogo-op; EXIT_NO_RESOURCE and
 * EXIT_NOT_IMPLEMENTED end the stressor as a SKIP with the reason the
 * stressor gave (report.h smm_skip()); EXIT_FAILURE is a failure (its FAIL
 * line said it), the context is torn down and stress-ng forks a new worker.
 * After every call the record (stats.h) takes the bogo-ops, the
 * allocations, the batch and bytes that ran, and what each path set up
 * achieved, or why "all" left it out (once per path); the allocations once
 * more when stress-ng's stop signal arrives.
 *
 * Method "module" (our kernel module, vmalloc-module.h) is not in the
 * stressor file: it runs the file's own path method on a second context
 * of the stressor, whose stack row is set up as the module path
 * (smm_vmalloc_module_in_place() around the call), so that the set-up,
 * the batch, the skips and failures are the file's; its kinds are named
 * "module", and the record takes the module's kernel time too.
 */
/* NOLINTNEXTLINE(bugprone-suspicious-include): the one source */
#include "../stress-vmalloc-order.c"

#include "compat.h"
#include "plugin.h"
#include "record-kind.h"
#include "record.h"
#include "report.h"
#include "vmalloc-module.h"

static const char *const vmo_ours[] = { "module", NULL };

static const struct smm_compat_words vmo_words[] = {
	{ "vmalloc-order-method", vmo_ours, "test-vmalloc" },
};

/* The worker in this process. */
static struct {
	pid_t pid; /* whose state this is */
	bool live; /* context_init done, not torn down */
	pid_t rec_pid; /* whose record rec is */
	stress_args_t args;
	stress_vmalloc_order_context_t ctx;
	/* method module: the stressor's context again, whose module row
	 * (smm_vmalloc_module_row()) is the module path */
	stress_vmalloc_order_context_t mod;
	struct smm_stats_file *rec;
	bool recorded[2][STRESS_VMALLOC_PATHS_NUM]; /* kinds, or left out */
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

	for (size_t i = 0; i < STRESS_VMALLOC_PATHS_NUM; i++) {
		const size_t b = stress_vmalloc_path_batch_size(ctx->path[i]);
		size_t n;

		if (b && (!*batch || b < *batch))
			*batch = b;
		if (recorded[i])
			continue;
		if (ctx->off[i]) {
			smm_record_left_out(vmo.rec,
					    stress_vmalloc_paths[i].name,
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

/* The allocations of both contexts; async-signal-safe. */
static void vmo_record_counts(void)
{
	if (vmo.rec)
		__atomic_store_n(&vmo.rec->allocs,
				 vmo.ctx.allocs + vmo.mod.allocs,
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
	vmo_record_paths(&vmo.ctx, vmo.recorded[0], &batch);
	vmo_record_paths(&vmo.mod, vmo.recorded[1], &batch);
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
	if (vmo.live) {
		stress_vmalloc_order_context_deinit(&vmo.args, &vmo.ctx);
		stress_vmalloc_order_context_deinit(&vmo.args, &vmo.mod);
	}
	vmo.live = false;
}

/* A method's EXIT_* other than EXIT_SUCCESS: SKIP (no return) or -1; the
 * errno of a skip is the one the context of the method kept. */
static int vmo_end(int rc)
{
	const int err = vmo.ctx.skip_err ? vmo.ctx.skip_err : vmo.mod.skip_err;

	return smm_compat_end(rc, err, vmo_deinit);
}

/* The first call in a worker: its settings, record, slot and context. */
static int vmo_start(void)
{
	int rc;

	vmo.pid = getpid();
	memset(&vmo.ctx, 0, sizeof(vmo.ctx));
	stress_vmalloc_order_settings(&vmo.ctx);
	if (vmo.ctx.method >= SIZEOF_ARRAY(stress_vmalloc_order_methods))
		vmo.ctx.method = 0;
	vmo.mod = vmo.ctx;
	smm_compat_args_init(&vmo.args, "vmalloc-order");
	if (vmo.rec_pid != vmo.pid) {
		vmo.rec = smm_record_open(vmo.args.name);
		vmo.rec_pid = vmo.pid;
		memset(vmo.recorded, 0, sizeof(vmo.recorded));
	}
	smm_compat_stop_install(vmo_on_stop);
	smm_compat_begin(&vmo.args, vmo.rec);
	rc = stress_vmalloc_order_context_init(&vmo.args, &vmo.ctx);
	if (rc == EXIT_SUCCESS)
		rc = stress_vmalloc_order_context_init(&vmo.args, &vmo.mod);
	if (rc != EXIT_SUCCESS)
		return vmo_end(rc);
	vmo.live = true;
	return 0;
}

/* One bogo-op of method module: the file's path method on the second
 * context, whose module row is set up as the module path. */
static int vmo_module(void)
{
	int rc;

	smm_vmalloc_module_in_place(true);
	rc = stress_vmalloc_order_path(&vmo.args, &vmo.mod,
				       smm_vmalloc_module_row());
	smm_vmalloc_module_in_place(false);
	return rc;
}

/* The row of method @name, or the table's size when it is not built. */
static size_t vmo_row(const char *name)
{
	size_t i;

	for (i = 0; i < SIZEOF_ARRAY(stress_vmalloc_order_methods); i++)
		if (strcmp(stress_vmalloc_order_methods[i].name, name) == 0)
			break;
	return i;
}

int smm_plugin_vmo(const char *method)
{
	const char *word =
		method ? method
		       : smm_compat_setting_word("vmalloc-order-method");
	const bool module = word && strcmp(word, "module") == 0;
	size_t row;
	int rc;

	if ((!vmo.live || vmo.pid != getpid()) && vmo_start() != 0)
		return -1;
	smm_compat_begin(&vmo.args, vmo.rec);
	row = method && !module ? vmo_row(method) : vmo.ctx.method;
	if (row >= SIZEOF_ARRAY(stress_vmalloc_order_methods)) {
		pr_inf_skip(
			"%s: method %s is not built in, skipping stressor\n",
			vmo.args.name, method);
		return vmo_end(EXIT_NOT_IMPLEMENTED);
	}
	rc = module ? vmo_module()
		    : stress_vmalloc_order_methods[row].func(&vmo.args,
							     &vmo.ctx);
	vmo_record();
	if (rc != EXIT_SUCCESS)
		return vmo_end(rc);
	stress_bogo_inc(&vmo.args);
	smm_stats_add(vmo.rec, calls, 1);
	return 0;
}
