// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stress-shm-pcp.c - the shm-pcp stressor, as a stress-ng plugin method:
 * shmem page faults against concurrent vmalloc churn, with CPU-matched
 * controls, to reproduce and measure order-0 PCP starvation.
 *
 *   STRESS_MM_SHM_PCP_CHURN=stack stress-ng --plugin 1 \
 *       --plugin-so ./build/stress-mm.so --plugin-method shm_pcp -t 60s
 *
 * One bogo-op = one shared-memory object cycle (shm.h): create it, size it
 * to STRESS_MM_SHM_PCP_BYTES, map it shared, write-fault every page once,
 * unmap, destroy. Meanwhile STRESS_MM_SHM_PCP_CHURN_PROCS companion
 * processes of the worker (churn.h) run a vmalloc-order path without pause
 * (by default thread stacks: on kernels with "vmalloc: optimize vfree with
 * free_pages_bulk()" they go back as order-2 blocks and stop restocking the
 * order-0 PCP lists the faults draw from), or spin (same CPU time, no
 * allocation: the control), or nothing (none). Placement (placement.h):
 * same CPU by default, so that the companions' frees land on the lists the
 * faults use. On kernels without those vmalloc changes (6.18 and older) a
 * difference between stack and spin is plain interference, not that
 * regression.
 *
 * Companions start on the first call and die with the worker. Parameters
 * are read and validated once when stress-ng loads the object (see
 * stress-vmalloc-order.c); a churn path that cannot run here makes the
 * stressor SKIP, since the measurement would not be the one asked for.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "churn.h"
#include "config.h"
#include "names.h"
#include "params-table.h"
#include "placement.h"
#include "plugin-env.h"
#include "record.h"
#include "report.h"
#include "shm-cycle.h"

#define SMM_EXPORT __attribute__((visibility("default")))

/* Limits, help and option table: core-helpers/common/params-table.c,
 * smm_shm_params[] (STRESS_MM_SHM_PCP_*). */

/* Calls between checks that the companions still run. */
#define ALIVE_CHECK_EVERY 16

static const char stressor[] = "shm-pcp";

static uint64_t param[SMM_SHM_NR_PARAMS];

struct shm_worker {
	pid_t pid;
	bool started;
	uint64_t seq;
	struct smm_plan plan;
	struct smm_churn churn;
	struct smm_stats_file *stats;
};

static struct shm_worker worker;

__attribute__((constructor)) static void shm_pcp_load(void)
{
	smm_plugin_env_load(stressor, smm_shm_params, SMM_SHM_NR_PARAMS, param);
}

static __attribute__((noreturn)) void skip(struct shm_worker *w, int err,
					   const char *why)
{
	smm_churn_stop(&w->churn);
	smm_skip(w->stats, stressor, err, "%s", why);
}

/* First call in a worker: placement, then the companions. */
static void start(struct shm_worker *w)
{
	enum smm_churn_kind kind = (enum smm_churn_kind)param[SMM_SHM_P_CHURN];
	unsigned int procs = (unsigned int)param[SMM_SHM_P_CHURN_PROCS];
	struct smm_churn_cfg cc = {
		.stressor = stressor,
		.batch_var = smm_shm_params[SMM_SHM_P_CHURN_BATCH].env,
		.kind = kind,
		.bytes = param[SMM_SHM_P_CHURN_BYTES],
		.batch = param[SMM_SHM_P_CHURN_BATCH],
		.plan = &w->plan,
	};
	char why[600];
	int rc;

	memset(w, 0, sizeof(*w));
	w->pid = getpid();
	w->stats = smm_record_open(stressor);
	cc.stats = w->stats;
	if (kind == SMM_CHURN_NONE)
		procs = 0;
	rc = smm_placement_plan((enum smm_placement)param[SMM_SHM_P_CPU], procs,
				&w->plan);
	if (rc) {
		snprintf(why, sizeof(why), "placement: errno=%d (%s)", -rc,
			 strerror(-rc));
		skip(w, -rc, why);
	}
	rc = smm_churn_start(&w->churn, &cc, why, sizeof(why));
	if (rc)
		skip(w, -rc, why);
	smm_stats_place(w->stats, w->plan.worker_cpu, w->plan.slot,
			w->plan.companion_cpu, w->plan.companions);
	smm_note_once(
		"placement", stressor,
		"%s object of %llu bytes per bogo-op, churn %s x %u (batch %llu), placement %s",
		smm_shm_method_names[param[SMM_SHM_P_METHOD]],
		(unsigned long long)param[SMM_SHM_P_BYTES],
		smm_churn_names[kind], procs,
		(unsigned long long)param[SMM_SHM_P_CHURN_BATCH], w->plan.text);
	w->started = true;
}

/* A companion ended under a running worker: a failure, by its signal or
 * its exit status (no errno: nothing failed in a call). */
static void companion_gone(struct shm_worker *w, pid_t pid, int ws)
{
	if (ws != -1 && WIFSIGNALED(ws))
		smm_fail(w->stats, stressor, 0,
			 "churn companion %d was killed by signal %d (%s)",
			 (int)pid, WTERMSIG(ws), strsignal(WTERMSIG(ws)));
	else if (ws != -1)
		smm_fail(w->stats, stressor, 0,
			 "churn companion %d exited with status %d", (int)pid,
			 WEXITSTATUS(ws));
	else
		smm_fail(w->stats, stressor, ECHILD,
			 "churn companion %d ended, reaped elsewhere",
			 (int)pid);
}

SMM_EXPORT int stress_shm_pcp(void)
{
	struct shm_worker *w = &worker;
	char what[256];
	pid_t gone;
	int ws;
	long pages;

	if (w->pid != getpid() || !w->started)
		start(w);
	if (w->seq % ALIVE_CHECK_EVERY == 0 &&
	    (gone = smm_churn_alive(&w->churn, &ws)) != 0) {
		companion_gone(w, gone, ws);
		smm_churn_stop(&w->churn);
		w->started = false;
		return -1;
	}
	pages = smm_shm_cycle((enum smm_shm_method)param[SMM_SHM_P_METHOD],
			      param[SMM_SHM_P_BYTES], w->seq++, w->stats, what,
			      sizeof(what));
	if (pages == -ENOSPC || pages == -ENOMEM)
		skip(w, (int)-pages, what); /* no resource: exit 3 */
	if (pages < 0) {
		smm_fail(w->stats, stressor, (int)-pages, "%s", what);
		/* stress-ng ends this worker: its companions go first. */
		smm_churn_stop(&w->churn);
		w->started = false;
		return -1;
	}
	smm_stats_add(w->stats, calls, 1);
	return 0;
}
