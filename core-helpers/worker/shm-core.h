/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shm-core.h - the shm-pcp stressor, independent of how stress-ng runs it:
 * one core, two thin adapters (the plugin method in plugin/shm-pcp.c, the
 * built-in stressor in stress-shm-pcp.c). Shmem page faults against
 * concurrent vmalloc churn, with CPU-matched controls, to reproduce and
 * measure order-0 PCP starvation.
 *
 * One bogo-op = one shared-memory object cycle (shm-cycle.h): create it,
 * size it to param[SMM_SHM_P_BYTES], map it shared, write-fault every
 * page once, unmap, destroy; method "all" takes posix, memfd and sysv in
 * turn, one per cycle. Meanwhile param[SMM_SHM_P_CHURN_PROCS] companion
 * processes of the worker (churn.h) run a vmalloc-order path without
 * pause (by default thread stacks; module: exact-size areas of
 * param[SMM_SHM_P_CHURN_BYTES] through our device), or spin (same CPU
 * time, no allocation: the control), or nothing (none). Placement
 * (placement.h): same CPU by default. On kernels without "vmalloc:
 * optimize vfree with free_pages_bulk()" (6.18 and older) a difference
 * between stack and spin is plain interference, not that regression.
 *
 * With cfg.verify each cycle reads every page back after faulting them
 * all: a page that does not hold the word written to it is a FAIL with
 * EBADMSG.
 *
 * smm_shm_start() places the worker and starts its companions; a churn
 * path that cannot run here is a SKIP, since the measurement would not be
 * the one asked for, and so is a cycle that finds no room or memory.
 * Companions that die, and other failed cycles, are FAILs.
 * Every SKIP and FAIL stops the companions and is recorded.
 */
#ifndef SMM_SHM_CORE_H
#define SMM_SHM_CORE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "churn.h"
#include "outcome.h"
#include "params-table.h"
#include "placement.h"
#include "worker-stats.h"

/* Cycles between two checks that the companions still run. */
#define SMM_SHM_ALIVE_CHECK_EVERY 16

struct smm_shm_cfg {
	const char *stressor; /* "shm-pcp": prefix of every line */
	/* how the user sets the churn batch, for notes */
	const char *batch_var;
	uint64_t param[SMM_SHM_NR_PARAMS]; /* params-table.h, parsed */
	bool verify; /* read every faulted page back */
};

struct smm_shm {
	struct smm_shm_cfg cfg;
	pid_t pid; /* the worker this state belongs to */
	bool started; /* placed, companions running */
	uint64_t seq; /* cycles begun */
	struct smm_plan plan;
	struct smm_churn churn;
	struct smm_worker_stats stats;
};

/*
 * smm_shm_start() - state for the calling process (the worker): open the
 * record, place the worker, start and wait for its companions, say once
 * what runs. Return: @o->kind, OK or SKIP; STOPPED when a stop signal
 * ended the run while the companions set up (nothing failed).
 */
int smm_shm_start(struct smm_shm *s, const struct smm_shm_cfg *cfg,
		  struct smm_outcome *o);

/*
 * smm_shm_op() - one cycle. Return: @o->kind: OK; SKIP when shmem has no
 * room (ENOSPC, a full tmpfs included) or no memory (ENOMEM); FAIL
 * otherwise, a companion that ended among them.
 */
int smm_shm_op(struct smm_shm *s, struct smm_outcome *o);

/* smm_shm_pages() - pages this worker write-faulted so far. */
uint64_t smm_shm_pages(const struct smm_shm *s);

/* smm_shm_churn_allocs() - allocations its companions made so far. */
uint64_t smm_shm_churn_allocs(const struct smm_shm *s);

/* smm_shm_stop() - stop the companions and close the record. */
void smm_shm_stop(struct smm_shm *s);

#endif /* SMM_SHM_CORE_H */
