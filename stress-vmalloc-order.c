/*
 * Copyright (C) 2026 The stress-mm authors.
 *
 * This program is free software; you can redistribute it and/or
 * modify it under the terms of the GNU General Public License
 * as published by the Free Software Foundation; either version 2
 * of the License, or (at your option) any later version.
 *
 * This program is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
 * GNU General Public License for more details.
 *
 * You should have received a copy of the GNU General Public License
 * along with this program; if not, write to the Free Software
 * Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301, USA.
 *
 */
#include "stress-ng.h"
#include "core-builtin.h"
#include "core-vmalloc.h"

#define MIN_VMALLOC_ORDER_BYTES		(4 * KB)
#define MAX_VMALLOC_ORDER_BYTES		(1 * GB)
#define DEFAULT_VMALLOC_ORDER_BYTES	(16 * KB)

#define MIN_VMALLOC_ORDER_BATCH		(1)
#define MAX_VMALLOC_ORDER_BATCH		(4096)
#define DEFAULT_VMALLOC_ORDER_BATCH	(16)

/*
 *  under --verify: least time between two proofs, and the share of the
 *  run the proofs may take (a proof holds a probe and reads
 *  /proc/vmallocinfo twice: tens of ms on a busy host)
 */
#define STRESS_VMALLOC_ORDER_VERIFY_SECS	(1.0)
#define STRESS_VMALLOC_ORDER_VERIFY_SHARE	(100.0)

static const stress_help_t help[] = {
	{ NULL,	"vmalloc-order N",		"start N workers making vmalloc-backed kernel allocations from user space" },
	{ NULL,	"vmalloc-order-batch N",	"allocations alive at once in one bogo-op, clamped to the limits" },
	{ NULL,	"vmalloc-order-bytes N",	"size of each allocation, each path takes the nearest it can reach" },
	{ NULL,	"vmalloc-order-io-uring M",	"io-uring path kinds: both, buffers (registered buffers), rings (buffer rings)" },
	{ NULL,	"vmalloc-order-method M",	"path: all, stack, io-uring, bpf, ldt, pty, fdtable" },
	{ NULL,	"vmalloc-order-ops N",		"stop after N vmalloc-order bogo operations" },
	{ NULL,	NULL,				NULL }
};

static const char * const stress_vmalloc_order_io_uring_names[] = {
	"both", "buffers", "rings",
};

static const char *stress_vmalloc_order_io_uring_name(const size_t i)
{
	return (i < SIZEOF_ARRAY(stress_vmalloc_order_io_uring_names)) ?
		stress_vmalloc_order_io_uring_names[i] : NULL;
}

#if defined(STRESS_VMALLOC_SUPPORTED)

/* per worker state: the paths set up so far, counters, verify schedule */
typedef struct {
	size_t bytes;			/* --vmalloc-order-bytes */
	size_t batch;			/* --vmalloc-order-batch */
	size_t method;			/* --vmalloc-order-method */
	int io_uring;			/* --vmalloc-order-io-uring, as bits */
	bool verify;			/* --verify */
	uint64_t allocs;		/* kernel allocations made by bogo-ops */
	size_t next;			/* "all": the next path to try */
	bool skipped;			/* the stressor skipped: said why */
	bool cut;			/* the run ended inside the last call */
	int skip_err;			/* the errno it skipped with, 0 if none */
	double next_proof;		/* when the next proof is due */
	stress_vmalloc_path_t *path[STRESS_VMALLOC_PATHS_MAX];
	bool off[STRESS_VMALLOC_PATHS_MAX];	/* left out of "all" */
	/* why a path's set-up failed: errno ("all" skips with it), reason */
	int off_err[STRESS_VMALLOC_PATHS_MAX];
	char off_why[STRESS_VMALLOC_PATHS_MAX][192];
	bool tried[STRESS_VMALLOC_PATHS_MAX];	/* proved again once */
	bool unjudged[STRESS_VMALLOC_PATHS_MAX];/* a kind cannot be judged */
	bool said[STRESS_VMALLOC_PATHS_MAX];	/* its verify was said */
	double proved[STRESS_VMALLOC_PATHS_MAX];/* its last proof */
	uint64_t reproofs[STRESS_VMALLOC_PATHS_MAX];
} stress_vmalloc_order_context_t;

typedef int (*stress_vmalloc_order_func_t)(stress_args_t *args,
	stress_vmalloc_order_context_t *ctx);

typedef struct {
	const char *name;
	const stress_vmalloc_order_func_t func;
} stress_vmalloc_order_method_t;

/*
 *  stress_vmalloc_order_settings()
 *	the options, or their defaults when unset: --maximize and --minimize
 *	then take the largest or smallest bytes and batch
 */
static void stress_vmalloc_order_settings(stress_vmalloc_order_context_t *ctx)
{
	size_t io_uring = 0;

	ctx->bytes = DEFAULT_VMALLOC_ORDER_BYTES;
	ctx->batch = DEFAULT_VMALLOC_ORDER_BATCH;
	ctx->method = 0;
	if (!stress_setting_get("vmalloc-order-bytes", &ctx->bytes)) {
		if (g_opt_flags & OPT_FLAGS_MAXIMIZE)
			ctx->bytes = MAX_VMALLOC_ORDER_BYTES;
		if (g_opt_flags & OPT_FLAGS_MINIMIZE)
			ctx->bytes = MIN_VMALLOC_ORDER_BYTES;
	}
	if (!stress_setting_get("vmalloc-order-batch", &ctx->batch)) {
		if (g_opt_flags & OPT_FLAGS_MAXIMIZE)
			ctx->batch = MAX_VMALLOC_ORDER_BATCH;
		if (g_opt_flags & OPT_FLAGS_MINIMIZE)
			ctx->batch = MIN_VMALLOC_ORDER_BATCH;
	}
	(void)stress_setting_get("vmalloc-order-method", &ctx->method);
	(void)stress_setting_get("vmalloc-order-io-uring", &io_uring);
	switch (io_uring) {
	case 1:
		ctx->io_uring = STRESS_VMALLOC_IO_URING_BUFFERS;
		break;
	case 2:
		ctx->io_uring = STRESS_VMALLOC_IO_URING_RINGS;
		break;
	default:
		ctx->io_uring = STRESS_VMALLOC_IO_URING_BUFFERS | STRESS_VMALLOC_IO_URING_RINGS;
		break;
	}
	ctx->verify = !!(g_opt_flags & OPT_FLAGS_VERIFY);
}

/*
 *  stress_vmalloc_order_context_init()
 *	nothing is set up yet: each path is, on its first bogo-op
 */
static int stress_vmalloc_order_context_init(stress_args_t *args,
	stress_vmalloc_order_context_t *ctx)
{
	(void)args;

	ctx->allocs = 0;
	ctx->next = 0;
	ctx->skipped = false;
	ctx->cut = false;
	ctx->skip_err = 0;
	ctx->next_proof = 0.0;
	(void)shim_memset(ctx->path, 0, sizeof(ctx->path));
	(void)shim_memset(ctx->off, 0, sizeof(ctx->off));
	(void)shim_memset(ctx->off_err, 0, sizeof(ctx->off_err));
	(void)shim_memset(ctx->off_why, 0, sizeof(ctx->off_why));
	(void)shim_memset(ctx->tried, 0, sizeof(ctx->tried));
	(void)shim_memset(ctx->unjudged, 0, sizeof(ctx->unjudged));
	(void)shim_memset(ctx->said, 0, sizeof(ctx->said));
	(void)shim_memset(ctx->proved, 0, sizeof(ctx->proved));
	(void)shim_memset(ctx->reproofs, 0, sizeof(ctx->reproofs));
	return EXIT_SUCCESS;
}

/*
 *  stress_vmalloc_order_ready()
 *	set path idx up on its first use. Asked for alone, a path that
 *	cannot run skips the stressor (its EXIT_*); in "all" it is left
 *	out with a note and -1 is returned. Under --verify a path whose
 *	kinds a proof cannot judge here cannot run either: verifying it
 *	would prove nothing. A run that ends during the set-up is cut:
 *	EXIT_SUCCESS, no path.
 */
static int stress_vmalloc_order_ready(stress_args_t *args,
	stress_vmalloc_order_context_t *ctx, const size_t idx, const bool alone)
{
	char why[1024], not_here[900];
	int ret, err;

	if (ctx->path[idx])
		return EXIT_SUCCESS;
	if (ctx->off[idx])
		return -1;
	ret = stress_vmalloc_path_setup(args, idx, ctx->bytes, ctx->batch,
		ctx->io_uring, &ctx->path[idx], why, sizeof(why));
	if (ret == -EINTR) {
		ctx->cut = true;
		return EXIT_SUCCESS;
	}
	if ((ret == 0) && ctx->verify &&
	    !stress_vmalloc_path_verifiable(ctx->path[idx], not_here, sizeof(not_here))) {
		stress_vmalloc_path_teardown(ctx->path[idx]);
		ctx->path[idx] = NULL;
		(void)snprintf(why, sizeof(why), "%s: cannot be verified here (--verify): %s",
			stress_vmalloc_path_info(idx)->name, not_here);
		ret = -EOPNOTSUPP;
	}
	if (ret == 0) {
		ctx->proved[idx] = stress_time_now();
		if (ctx->next_proof <= 0.0)
			ctx->next_proof = ctx->proved[idx] + STRESS_VMALLOC_ORDER_VERIFY_SECS;
		return EXIT_SUCCESS;
	}
	err = -ret;
	ctx->off_err[idx] = err;
	(void)shim_strscpy(ctx->off_why[idx], why, sizeof(ctx->off_why[idx]));
	if (alone) {
		ctx->skipped = true;
		ctx->skip_err = err;
		pr_inf_skip("%s: %s, skipping stressor\n", args->name, why);
		return stress_vmalloc_exit_status(err);
	}
	if (stress_instance_zero(args))
		pr_inf("%s: all: leaving out %s\n", args->name, why);
	ctx->off[idx] = true;
	return -1;
}

/*
 *  stress_vmalloc_order_oldest()
 *	whether path idx is the ready one proved longest ago
 */
static bool stress_vmalloc_order_oldest(const stress_vmalloc_order_context_t *ctx, const size_t idx)
{
	size_t i;

	for (i = 0; i < STRESS_VMALLOC_PATHS_MAX; i++) {
		if (ctx->path[i] && (ctx->proved[i] < ctx->proved[idx]))
			return false;
	}
	return true;
}

/*
 *  stress_vmalloc_order_verify()
 *	--verify: prove path idx again right after its first bogo-op (so
 *	that a run of -t 1 verifies what it ran), then the paths that run
 *	in turn, the one proved longest ago next, at most once a second and
 *	taking at most 1/100th of the time; areas that no longer show are a
 *	failure. A kind that cannot be judged here is said once and that
 *	path is not proved again.
 */
static int stress_vmalloc_order_verify(stress_args_t *args,
	stress_vmalloc_order_context_t *ctx, const size_t idx)
{
	const char *name = stress_vmalloc_path_info(idx)->name;
	const double now = stress_time_now();
	double took;
	char what[512];
	int ret;

	if (!ctx->verify || ctx->unjudged[idx])
		return EXIT_SUCCESS;
	if (ctx->tried[idx] && ((now < ctx->next_proof) || !stress_vmalloc_order_oldest(ctx, idx)))
		return EXIT_SUCCESS;
	ret = stress_vmalloc_path_verify(ctx->path[idx], what, sizeof(what));
	if (!stress_continue_flag())
		return EXIT_SUCCESS;	/* the run ended during the proof */
	ctx->proved[idx] = stress_time_now();
	ctx->tried[idx] = true;
	took = ctx->proved[idx] - now;
	ctx->next_proof = ctx->proved[idx] +
		STRESS_MAXIMUM(took * STRESS_VMALLOC_ORDER_VERIFY_SHARE, STRESS_VMALLOC_ORDER_VERIFY_SECS);
	if (ret < 0) {
		pr_fail("%s: %s errno=%d (%s)\n", args->name, what, -ret, strerror(-ret));
		return EXIT_FAILURE;
	}
	if (ret == 1) {
		ctx->unjudged[idx] = true;
		if (stress_instance_zero(args))
			pr_inf("%s: verify: %s: not verified: %s\n", args->name, name, what);
		return EXIT_SUCCESS;
	}
	ctx->reproofs[idx]++;
	if (!ctx->said[idx] && stress_instance_zero(args))
		pr_inf("%s: verify: %s: %s\n", args->name, name, what);
	ctx->said[idx] = true;
	return EXIT_SUCCESS;
}

/*
 *  stress_vmalloc_order_batch()
 *	one bogo-op of path idx: its batch of allocations, all alive at
 *	once, then freed; a batch the run's end cuts short is no bogo-op.
 *	Not one item for want of a resource mid-run (a
 *	limit shared with every process of the user) skips; any other
 *	errno is a failure.
 */
static int stress_vmalloc_order_batch(stress_args_t *args,
	stress_vmalloc_order_context_t *ctx, const size_t idx)
{
	char what[512];
	int ret, err;

	ret = stress_vmalloc_path_batch(ctx->path[idx], &ctx->allocs, what, sizeof(what));
	if (ret == -EINTR) {
		ctx->cut = true;	/* the run ended mid-batch */
		return EXIT_SUCCESS;
	}
	if (ret < 0) {
		err = -ret;
		if (stress_vmalloc_exit_status(err) == EXIT_NO_RESOURCE) {
			ctx->skip_err = err;
			pr_inf_skip("%s: %s errno=%d (%s): no resource left mid-run, "
				"skipping stressor\n", args->name, what, err, strerror(err));
			return EXIT_NO_RESOURCE;
		}
		pr_fail("%s: %s errno=%d (%s)\n", args->name, what, err, strerror(err));
		return EXIT_FAILURE;
	}
	return stress_vmalloc_order_verify(args, ctx, idx);
}

/*
 *  stress_vmalloc_order_path()
 *	one bogo-op of the path asked for by name: path idx of the path
 *	table, built in or added (stress_vmalloc_path_add())
 */
static int stress_vmalloc_order_path(stress_args_t *args,
	stress_vmalloc_order_context_t *ctx, const size_t idx)
{
	const int ret = stress_vmalloc_order_ready(args, ctx, idx, true);

	if ((ret != EXIT_SUCCESS) || !ctx->path[idx])
		return ret;
	return stress_vmalloc_order_batch(args, ctx, idx);
}

/*
 *  stress_vmalloc_order_all()
 *	one bogo-op of each path this kernel backs in turn; only when
 *	every path is left out is the stressor skipped
 */
static int stress_vmalloc_order_all(stress_args_t *args, stress_vmalloc_order_context_t *ctx)
{
	size_t tries, idx;
	int err = 0;

	for (tries = 0; tries < STRESS_VMALLOC_PATHS_NUM; tries++) {
		idx = ctx->next++ % STRESS_VMALLOC_PATHS_NUM;

		if (stress_vmalloc_order_ready(args, ctx, idx, false) != EXIT_SUCCESS)
			continue;
		if (!ctx->path[idx])
			return EXIT_SUCCESS;	/* cut during its set-up */
		return stress_vmalloc_order_batch(args, ctx, idx);
	}
	/* the first errno short of a resource, else the first */
	for (idx = 0; idx < STRESS_VMALLOC_PATHS_NUM; idx++) {
		if (!err ||
		    ((stress_vmalloc_exit_status(ctx->off_err[idx]) == EXIT_NO_RESOURCE) &&
		     (stress_vmalloc_exit_status(err) != EXIT_NO_RESOURCE)))
			err = ctx->off_err[idx];
	}
	ctx->skipped = true;
	ctx->skip_err = err;
	pr_inf_skip("%s: all: no vmalloc-order path can run here (see the notes above), "
		"skipping stressor\n", args->name);
	return stress_vmalloc_exit_status(err);
}

/*
 *  stress_vmalloc_order_stack()
 *	kernel thread stacks (CONFIG_VMAP_STACK): parked threads
 */
static int stress_vmalloc_order_stack(stress_args_t *args, stress_vmalloc_order_context_t *ctx)
{
	return stress_vmalloc_order_path(args, ctx, 0);
}

/*
 *  stress_vmalloc_order_io_uring()
 *	io_uring provided-buffer rings (vmap), registered buffer tables
 */
static int stress_vmalloc_order_io_uring(stress_args_t *args, stress_vmalloc_order_context_t *ctx)
{
	return stress_vmalloc_order_path(args, ctx, 1);
}

/*
 *  stress_vmalloc_order_bpf()
 *	classic BPF socket filters
 */
static int stress_vmalloc_order_bpf(stress_args_t *args, stress_vmalloc_order_context_t *ctx)
{
	return stress_vmalloc_order_path(args, ctx, 2);
}

/*
 *  stress_vmalloc_order_ldt()
 *	x86 LDT copies in forked children
 */
static int stress_vmalloc_order_ldt(stress_args_t *args, stress_vmalloc_order_context_t *ctx)
{
	return stress_vmalloc_order_path(args, ctx, 3);
}

/*
 *  stress_vmalloc_order_pty()
 *	pty line disciplines
 */
static int stress_vmalloc_order_pty(stress_args_t *args, stress_vmalloc_order_context_t *ctx)
{
	return stress_vmalloc_order_path(args, ctx, 4);
}

/*
 *  stress_vmalloc_order_fdtable()
 *	fd tables copied into forked children
 */
static int stress_vmalloc_order_fdtable(stress_args_t *args, stress_vmalloc_order_context_t *ctx)
{
	return stress_vmalloc_order_path(args, ctx, 5);
}

/* "all", then one per built-in path, in the order of the path table */
static const stress_vmalloc_order_method_t stress_vmalloc_order_methods[] = {
	{ "all",	stress_vmalloc_order_all },
	{ "stack",	stress_vmalloc_order_stack },
	{ "io-uring",	stress_vmalloc_order_io_uring },
	{ "bpf",	stress_vmalloc_order_bpf },
	{ "ldt",	stress_vmalloc_order_ldt },
	{ "pty",	stress_vmalloc_order_pty },
	{ "fdtable",	stress_vmalloc_order_fdtable },
};

/*
 *  stress_vmalloc_order_method_name()
 *	method i: a row of the table, or past it the path table's added
 *	rows (stress_vmalloc_path_add()), method i running path i - 1
 */
static const char *stress_vmalloc_order_method_name(const size_t i)
{
	const stress_vmalloc_path_info_t *info;

	if (i < SIZEOF_ARRAY(stress_vmalloc_order_methods))
		return stress_vmalloc_order_methods[i].name;
	info = stress_vmalloc_path_info(i - 1);
	return info ? info->name : NULL;
}

/*
 *  stress_vmalloc_order_op()
 *	one bogo-op of method ctx->method
 */
static int stress_vmalloc_order_op(stress_args_t *args, stress_vmalloc_order_context_t *ctx)
{
	if (ctx->method < SIZEOF_ARRAY(stress_vmalloc_order_methods))
		return stress_vmalloc_order_methods[ctx->method].func(args, ctx);
	return stress_vmalloc_order_path(args, ctx, ctx->method - 1);
}

/*
 *  stress_vmalloc_order_setup()
 *	set up every path the method runs before the timed loop: no proof
 *	then lands between bogo-ops, and "all" runs the same paths, timed
 *	alike, whether /proc/vmallocinfo can be read or a rule decides. A
 *	path asked for alone that cannot run skips (its EXIT_*), as "all"
 *	does when none can.
 */
static int stress_vmalloc_order_setup(stress_args_t *args, stress_vmalloc_order_context_t *ctx)
{
	size_t idx;

	if (ctx->method > 0)
		return stress_vmalloc_order_ready(args, ctx, ctx->method - 1, true);
	for (idx = 0; (idx < STRESS_VMALLOC_PATHS_NUM) && !ctx->cut; idx++)
		(void)stress_vmalloc_order_ready(args, ctx, idx, false);
	for (idx = 0; (idx < STRESS_VMALLOC_PATHS_NUM) && !ctx->cut; idx++) {
		if (ctx->path[idx])
			return EXIT_SUCCESS;
	}
	return ctx->cut ? EXIT_SUCCESS : stress_vmalloc_order_all(args, ctx);
}

/*
 *  stress_vmalloc_order_context_deinit()
 *	under --verify say what was proved again, or that nothing was;
 *	free every path set up
 */
static void stress_vmalloc_order_context_deinit(stress_args_t *args,
	stress_vmalloc_order_context_t *ctx)
{
	char list[400] = "";
	size_t i, used = 0;
	bool tried = false;

	if (ctx->verify && !ctx->skipped && stress_instance_zero(args)) {
		for (i = 0; i < STRESS_VMALLOC_PATHS_MAX; i++) {
			tried |= ctx->tried[i];
			if (ctx->reproofs[i] && !ctx->unjudged[i] && (used < sizeof(list)))
				used += (size_t)snprintf(list + used, sizeof(list) - used,
					"%s%s x %" PRIu64, used ? ", " : "",
					stress_vmalloc_path_info(i)->name, ctx->reproofs[i]);
		}
		if (list[0])
			pr_inf("%s: verify: proved again while running: %s\n", args->name, list);
		else if (tried)
			pr_inf("%s: verify: nothing proved again: no path that ran could "
				"be judged (said above)\n", args->name);
		else
			pr_inf("%s: verify: nothing proved again: the run ended before a "
				"path finished its first bogo-op\n", args->name);
	}
	for (i = 0; i < STRESS_VMALLOC_PATHS_MAX; i++) {
		stress_vmalloc_path_teardown(ctx->path[i]);
		ctx->path[i] = NULL;
	}
}

/*
 *  stress_vmalloc_order_metrics()
 *	kernel allocations made by the bogo-ops per second
 */
static void stress_vmalloc_order_metrics(stress_args_t *args,
	stress_vmalloc_order_context_t *ctx, const double duration)
{
	if (duration > 0.0)
		stress_metrics_set(args, "allocations per sec",
			(double)ctx->allocs / duration, STRESS_METRIC_GEOMETRIC_MEAN);
}

/*
 *  stress_vmalloc_order()
 *	one bogo-op is one batch: --vmalloc-order-batch allocations of
 *	--vmalloc-order-bytes made through one path so that they are all
 *	alive at once, then all freed
 */
static int stress_vmalloc_order(stress_args_t *args)
{
	stress_vmalloc_order_context_t ctx;
	double t_start, duration;
	int rc;

	(void)shim_memset(&ctx, 0, sizeof(ctx));
	stress_vmalloc_order_settings(&ctx);
	if (!stress_vmalloc_order_method_name(ctx.method))
		ctx.method = 0;
	rc = stress_vmalloc_order_context_init(args, &ctx);
	if (rc != EXIT_SUCCESS)
		return rc;
	rc = stress_vmalloc_order_setup(args, &ctx);
	if (rc != EXIT_SUCCESS) {
		stress_vmalloc_order_context_deinit(args, &ctx);
		return rc;
	}

	stress_proc_state_set(args->name, STRESS_STATE_SYNC_WAIT);
	stress_sync_start_wait(args);
	stress_proc_state_set(args->name, STRESS_STATE_RUN);

	t_start = stress_time_now();
	if (!ctx.cut) {
		do {
			rc = stress_vmalloc_order_op(args, &ctx);
			if ((rc != EXIT_SUCCESS) || ctx.cut)
				break;
			stress_bogo_inc(args);
		} while (stress_continue(args));
	}
	duration = stress_time_now() - t_start;

	stress_proc_state_set(args->name, STRESS_STATE_DEINIT);
	if (rc == EXIT_SUCCESS)
		stress_vmalloc_order_metrics(args, &ctx, duration);
	stress_vmalloc_order_context_deinit(args, &ctx);

	return rc;
}

#else

static const char * const stress_vmalloc_order_method_names[] = {
	"all", "stack", "io-uring", "bpf", "ldt", "pty", "fdtable",
};

static const char *stress_vmalloc_order_method_name(const size_t i)
{
	return (i < SIZEOF_ARRAY(stress_vmalloc_order_method_names)) ?
		stress_vmalloc_order_method_names[i] : NULL;
}

#endif

static const stress_opt_t opts[] = {
	{ OPT_vmalloc_order_batch,    "vmalloc-order-batch",    TYPE_ID_SIZE_T, MIN_VMALLOC_ORDER_BATCH, MAX_VMALLOC_ORDER_BATCH, NULL },
	{ OPT_vmalloc_order_bytes,    "vmalloc-order-bytes",    TYPE_ID_SIZE_T_BYTES_VM, MIN_VMALLOC_ORDER_BYTES, MAX_VMALLOC_ORDER_BYTES, NULL },
	{ OPT_vmalloc_order_io_uring, "vmalloc-order-io-uring", TYPE_ID_SIZE_T_METHOD, 0, 0, stress_vmalloc_order_io_uring_name },
	{ OPT_vmalloc_order_method,   "vmalloc-order-method",   TYPE_ID_SIZE_T_METHOD, 0, 0, stress_vmalloc_order_method_name },
	END_OPT,
};

static const stress_exercises_t exercises[] = {
	STRESS_EX_FEATURE("vmalloc"),
	STRESS_EX_FEATURE("system-time"),

	STRESS_EX_SYSCALL("clone"),
	STRESS_EX_SYSCALL("fork"),
	STRESS_EX_SYSCALL("futex"),
#if defined(HAVE_LINUX_IO_URING_H) &&	\
    defined(__NR_io_uring_register) &&	\
    defined(__NR_io_uring_setup)
	STRESS_EX_SYSCALL("io_uring_register"),
	STRESS_EX_SYSCALL("io_uring_setup"),
#endif
#if defined(HAVE_MODIFY_LDT) &&	\
    defined(__NR_modify_ldt)
	STRESS_EX_SYSCALL("modify_ldt"),
#endif
	STRESS_EX_SYSCALL("open"),
	STRESS_EX_SYSCALL("setsockopt"),
	STRESS_EX_SYSCALL("socket"),
	STRESS_EX_END,
};

#if defined(STRESS_VMALLOC_SUPPORTED)
const stressor_info_t stress_vmalloc_order_info = {
	.stressor = stress_vmalloc_order,
	.classifier = CLASS_VM | CLASS_OS,
	.opts = opts,
	.verify = VERIFY_OPTIONAL,
	.help = help,
	.exercises = exercises,
};
#else
const stressor_info_t stress_vmalloc_order_info = {
	.stressor = stress_unimplemented,
	.classifier = CLASS_VM | CLASS_OS,
	.opts = opts,
	.verify = VERIFY_OPTIONAL,
	.help = help,
	.exercises = exercises,
	.unimplemented_reason = "built without Linux vmalloc paths (/proc/vmallocinfo)",
};
#endif
