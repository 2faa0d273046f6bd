/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * churn.h - shm-pcp churn companions: processes forked by a worker that
 * allocate and free vmalloc-backed memory without pause (through a
 * vmalloc-order path, vmpath.h), or burn CPU without allocating (spin, the
 * CPU-matched control).
 *
 * Companions are processes, not threads, so that they meet the worker in
 * the page allocator and not on one mmap lock. Each sets
 * PR_SET_PDEATHSIG(SIGKILL), checks that its parent is still the worker
 * (after every churn batch, every 2^16 spins), pins itself to the CPU the
 * plan gave it, sets its path up and tells the worker "ready" or why it
 * cannot run through a pipe, then waits on a gate: all companions start
 * churning together once every one is ready, and churn until killed.
 *
 * They never outlive the worker, and do not linger as zombies after it:
 * the worker puts its own handler in front of stress-ng's for the stop
 * signals (SIGALRM, SIGINT, SIGTERM), which SIGKILLs and reaps every
 * companion, then does what stress-ng's handler (which _exit()s the worker
 * at once) or the default action does. The worker is also the subreaper
 * (PR_SET_CHILD_SUBREAPER) of its companions' own children (the parked
 * children of the ldt churn), and reaps them too. Only a SIGKILL of the
 * worker skips this: the death signal then still kills every companion at
 * once, and their reaper (init, or the front end as a subreaper) reaps.
 */
#ifndef SMM_CHURN_H
#define SMM_CHURN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "names.h"
#include "placement.h"
#include "stats.h"
#include "vmpath.h"

struct smm_churn_cfg {
	const char *stressor;
	const char *batch_var; /* the variable that sets batch, for notes */
	enum smm_churn_kind kind;
	uint64_t bytes; /* 0: the path's natural size */
	uint64_t batch;
	const struct smm_plan *plan; /* companions and their CPUs */
	struct smm_stats_file *stats; /* the worker's record; may be NULL */
};

struct smm_churn {
	pid_t pids[SMM_MAX_COMPANIONS];
	unsigned int n;
	/* items per bogo-op of the companions after their set-up's clamps
	 * (the smallest when they differ); 0: none said (spin) */
	uint64_t batch;
};

/* smm_churn_path() - the vmalloc-order path behind @kind, or NULL. */
const struct smm_vmpath *smm_churn_path(enum smm_churn_kind kind);

/*
 * smm_churn_start() - fork cfg->plan->companions companions and wait until
 * each is ready. Return: 0; or -errno with the reason in @why when one
 * cannot run (its path's SKIP errno and reason, the errno of pinning it,
 * of pipe2(2) or of fork(2), or -ECHILD when it died before it said), after
 * stopping those started; -EINTR when a stop signal reached the worker
 * meanwhile (the run ended during set-up, as a timeout: nothing failed).
 */
int smm_churn_start(struct smm_churn *c, const struct smm_churn_cfg *cfg,
		    char *why, size_t len);

/*
 * smm_churn_alive() - 0 when every companion still runs, else the pid of
 * one that ended (reaped), its waitpid(2) status in @wstatus (-1 when it
 * was reaped elsewhere).
 */
pid_t smm_churn_alive(struct smm_churn *c, int *wstatus);

/*
 * smm_churn_stop() - SIGKILL every companion and reap every child of the
 * worker (companions and adopted grandchildren), waiting up to 2 s; the
 * stop signals are held meanwhile.
 */
void smm_churn_stop(struct smm_churn *c);

#endif /* SMM_CHURN_H */
