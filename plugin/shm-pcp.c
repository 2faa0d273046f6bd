// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plugin/shm-pcp.c - the shm-pcp stressor in the plugin: the stressor file
 * itself, compiled as is (plugin/compat/stress-ng.h), and the glue that
 * runs its method table one object cycle per call of a plugin method
 * (plugin/methods.c).
 *
 *   STRESS_MM_SHM_PCP_MODE=stack stress-ng --plugin 1 \
 *       --plugin-so ./build/stress-mm.so --plugin-method shm_pcp -t 60s
 *
 * The first call in a worker opens its record, takes its slot in the run as
 * its instance (the stressor places worker i on the i-th allowed CPU),
 * becomes the subreaper of its companions' children and runs
 * stress_shm_pcp_context_init(): placement, companions started. Each call
 * is then one cycle; its EXIT_* maps as in plugin/vmalloc-order.c (a SKIP
 * or a failure first runs stress_shm_pcp_context_deinit(), which stops the
 * companions). The record takes what the companions' churn path proved
 * (their slots' kinds) once the worker has started, and the cycles, the
 * pages faulted, the companions' allocations and the placement after
 * every call; when
 * stress-ng's stop signal arrives the stop handler stores the counts once
 * more, SIGKILLs the companions and reaps every child (theirs included)
 * before stress-ng's own handler ends the worker, so that no companion or
 * zombie is left when stress-ng returns.
 *
 * STRESS_MM_SHM_PCP_MODE=module (churn through our kernel module,
 * vmalloc-module.h) is the row the plugin adds to the core's path table,
 * which the stressor takes as the mode past its own
 * (stress_shm_pcp_mode_of()): the companions set it up and churn it as
 * any path, and the stressor's line says "churn module".
 */
/* NOLINTNEXTLINE(bugprone-suspicious-include): the one source */
#include "../stress-shm-pcp.c"

#include "compat.h"
#include "plugin.h"
#include "record-kind.h"
#include "record.h"
#include "report.h"

#define SHM_REAP_LOOKS 2000 /* 1 ms each: 2 s at most */

/* The worker in this process. */
static struct {
	pid_t pid; /* whose state this is */
	bool live; /* context_init done, not torn down */
	pid_t rec_pid; /* whose record rec is */
	stress_args_t args;
	stress_shm_pcp_context_t ctx;
	struct smm_stats_file *rec;
} shm;

void smm_plugin_shm_load(void)
{
	smm_compat_settings_load("shm-pcp", opts, NULL, 0);
}

/* Pages faulted and the companions' allocations; async-signal-safe. */
static void shm_record_counts(void)
{
	uint64_t allocs = 0;

	if (!shm.rec)
		return;
	__atomic_store_n(&shm.rec->pages, shm.ctx.pages, __ATOMIC_RELAXED);
	for (size_t i = 0; shm.ctx.slots && i < shm.ctx.procs; i++)
		allocs += shm.ctx.slots[i].allocs;
	if (allocs)
		__atomic_store_n(&shm.rec->churn_allocs, allocs,
				 __ATOMIC_RELAXED);
}

/* stress-ng's stop signal: count, then SIGKILL and reap the companions
 * and their children (async-signal-safe: kill, waitpid, nanosleep). */
static void shm_on_stop(void)
{
	const struct timespec nap = { 0, 1000000L };

	shm_record_counts();
	if (!shm.live && shm.ctx.placement[0])
		/* placed, but the run ended while the companions set up */
		smm_stats_place(shm.rec, shm.ctx.worker_cpu,
				(int)shm.args.instance, shm.ctx.companion_cpu,
				(unsigned int)shm.ctx.procs);
	for (size_t i = 0; i < shm.ctx.procs; i++)
		if (shm.ctx.s_pids[i].pid > 1)
			(void)kill(shm.ctx.s_pids[i].pid, SIGKILL);
	for (int i = 0; i < SHM_REAP_LOOKS; i++) {
		const pid_t pid = waitpid(-1, NULL, WNOHANG);

		if (pid < 0 && errno == ECHILD)
			break;
		if (pid <= 0 && errno != EINTR)
			nanosleep(&nap, NULL);
	}
}

static void shm_deinit(void)
{
	if (shm.live || shm.ctx.procs || shm.ctx.slots)
		stress_shm_pcp_context_deinit(&shm.args, &shm.ctx);
	shm.live = false;
}

/* A method's EXIT_* other than EXIT_SUCCESS: SKIP (no return) or -1. */
static int shm_end(int rc)
{
	return smm_compat_end(rc, shm.ctx.skip_err, shm_deinit);
}

/* What the companions' path set-up proved of each kind (their slots, read
 * once they said they were ready); the first record of a name wins. */
static void shm_record_kinds(void)
{
	for (size_t i = 0; shm.ctx.slots && i < shm.ctx.procs; i++) {
		const stress_shm_pcp_slot_t *slot = &shm.ctx.slots[i];

		for (size_t k = 0;
		     k < slot->n_kinds && k < SIZEOF_ARRAY(slot->kinds); k++)
			smm_plugin_record_kind(shm.rec, &slot->kinds[k]);
	}
}

/* What the companions run, once they are ready: their batch after the
 * clamps and the bytes they ask per allocation (none: spin, none). */
static void shm_record_ran(void)
{
	const stress_vmalloc_path_info_t *info =
		stress_vmalloc_path_info(shm.ctx.path);
	const size_t natural = info ? info->natural_bytes : 0;

	if (shm.ctx.batch)
		smm_stats_ran(shm.rec, shm.ctx.batch,
			      shm.ctx.churn_bytes ? shm.ctx.churn_bytes
						  : natural);
}

/* The row of method @name, or the table's size when it is not built. */
static size_t shm_row(const char *name)
{
	size_t i;

	for (i = 0; i < SIZEOF_ARRAY(stress_shm_pcp_methods); i++)
		if (strcmp(stress_shm_pcp_methods[i].name, name) == 0)
			break;
	return i;
}

/* The first call in a worker: settings, record, slot, companions; the
 * method the plugin method names (@method), else the setting's. */
static int shm_start(const char *method)
{
	int rc;

	shm.pid = getpid();
	memset(&shm.ctx, 0, sizeof(shm.ctx));
	stress_shm_pcp_settings(&shm.ctx);
	if (method && shm_row(method) < SIZEOF_ARRAY(stress_shm_pcp_methods))
		shm.ctx.method = shm_row(method);
	smm_compat_args_init(&shm.args, "shm-pcp");
	if (shm.rec_pid != shm.pid) {
		shm.rec = smm_record_open(shm.args.name);
		shm.rec_pid = shm.pid;
	}
	/* the companions' own children (ldt churn) come back to us */
	(void)prctl(PR_SET_CHILD_SUBREAPER, 1);
	smm_compat_stop_install(shm_on_stop);
	smm_compat_begin(&shm.args, shm.rec);
	rc = stress_shm_pcp_context_init(&shm.args, &shm.ctx);
	if (rc != EXIT_SUCCESS)
		return shm_end(rc);
	shm.live = true;
	shm_record_kinds();
	shm_record_ran();
	if (shm.ctx.stopped) {
		/* the run ended while the companions set up: nothing failed */
		shm_deinit();
		_exit(0);
	}
	smm_stats_place(shm.rec, shm.ctx.worker_cpu, (int)shm.args.instance,
			shm.ctx.companion_cpu, (unsigned int)shm.ctx.procs);
	return 0;
}

int smm_plugin_shm(const char *method)
{
	size_t row;
	int rc;

	if ((!shm.live || shm.pid != getpid()) && shm_start(method) != 0)
		return -1;
	smm_compat_begin(&shm.args, shm.rec);
	row = method ? shm_row(method) : shm.ctx.method;
	if (row >= SIZEOF_ARRAY(stress_shm_pcp_methods)) {
		pr_inf_skip(
			"%s: method %s is not built in, skipping stressor\n",
			shm.args.name, method);
		return shm_end(EXIT_NOT_IMPLEMENTED);
	}
	rc = stress_shm_pcp_methods[row].func(&shm.args, &shm.ctx);
	shm_record_counts();
	if (rc != EXIT_SUCCESS)
		return shm_end(rc);
	stress_bogo_inc(&shm.args);
	smm_stats_add(shm.rec, calls, 1);
	return 0;
}
