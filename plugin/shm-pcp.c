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
 * vmalloc-module.h) is not in the stressor file, and gets no row there:
 * the worker runs the mode row whose path the module takes the place of
 * (stack) with smm_vmalloc_module_in_place() on while
 * stress_shm_pcp_context_init() forks the companions, so that each sets
 * the module path up where the row says stack. The stressor's own line
 * then says "churn stack": instance 0 first says, in a line of its own,
 * what the companions do instead; their kinds in the record are named
 * "module".
 */
/* NOLINTNEXTLINE(bugprone-suspicious-include): the one source */
#include "../stress-shm-pcp.c"

#include "compat.h"
#include "path-module-name.h"
#include "plugin.h"
#include "record-kind.h"
#include "record.h"
#include "report.h"
#include "vmalloc-module.h"

#define SHM_REAP_LOOKS 2000 /* 1 ms each: 2 s at most */

static const char *const shm_ours[] = { "module", NULL };

static const struct smm_compat_words shm_words[] = {
	{ "shm-pcp-mode", shm_ours, NULL },
};

/* The worker in this process. */
static struct {
	pid_t pid; /* whose state this is */
	bool live; /* context_init done, not torn down */
	pid_t rec_pid; /* whose record rec is */
	stress_args_t args;
	stress_shm_pcp_context_t ctx;
	struct smm_stats_file *rec;
} shm;

/*
 * stress-ng keeps no metrics of a plugin, and the record no metric: the
 * front end divides the record's pages and churn allocations by the time.
 */
static void (*const shm_metrics)(stress_args_t *, stress_shm_pcp_context_t *,
				 const double)
	__attribute__((unused)) = stress_shm_pcp_metrics;

void smm_plugin_shm_load(void)
{
	smm_compat_settings_load("shm-pcp", opts, shm_words,
				 SIZEOF_ARRAY(shm_words));
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
	const size_t natural =
		shm.ctx.path < stress_vmalloc_paths_num
			? stress_vmalloc_paths[shm.ctx.path].natural_bytes
			: 0;

	if (shm.ctx.batch)
		smm_stats_ran(shm.rec, shm.ctx.batch,
			      shm.ctx.churn_bytes ? shm.ctx.churn_bytes
						  : natural);
}

/* Churn module: the mode row whose path the module takes the place of. */
static size_t shm_module_mode(void)
{
	const char *path = stress_vmalloc_paths[smm_vmalloc_module_row()].name;
	size_t i;

	for (i = 0; i < SIZEOF_ARRAY(stress_shm_pcp_modes); i++)
		if (stress_shm_pcp_modes[i].path &&
		    strcmp(stress_shm_pcp_modes[i].path, path) == 0)
			break;
	return i;
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
 * method the plugin method names (@method), else the setting's; the
 * companions churn through the module when @module. */
static int shm_start(const char *method, bool module)
{
	int rc;

	shm.pid = getpid();
	memset(&shm.ctx, 0, sizeof(shm.ctx));
	stress_shm_pcp_settings(&shm.ctx);
	if (method && shm_row(method) < SIZEOF_ARRAY(stress_shm_pcp_methods))
		shm.ctx.method = shm_row(method);
	if (module)
		shm.ctx.mode = shm_module_mode();
	smm_compat_args_init(&shm.args, "shm-pcp");
	if (shm.rec_pid != shm.pid) {
		shm.rec = smm_record_open(shm.args.name);
		shm.rec_pid = shm.pid;
	}
	/* the companions' own children (ldt churn) come back to us */
	(void)prctl(PR_SET_CHILD_SUBREAPER, 1);
	smm_compat_stop_install(shm_on_stop);
	smm_compat_begin(&shm.args, shm.rec);
	if (module && stress_instance_zero(&shm.args))
		pr_inf("%s: churn module: the companions allocate and free vmalloc areas through %s (our kernel module) in place of %s's threads; \"churn %s\" below is this churn\n",
		       shm.args.name, SMM_KMOD_DEVICE,
		       stress_shm_pcp_modes[shm.ctx.mode].name,
		       stress_shm_pcp_modes[shm.ctx.mode].name);
	smm_vmalloc_module_in_place(module);
	rc = stress_shm_pcp_context_init(&shm.args, &shm.ctx);
	smm_vmalloc_module_in_place(false);
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
	const char *mode = smm_compat_setting_word("shm-pcp-mode");
	const bool module = mode && strcmp(mode, "module") == 0;
	size_t row;
	int rc;

	if ((!shm.live || shm.pid != getpid()) &&
	    shm_start(method, module) != 0)
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
