/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * placement.h - CPU placement of a shm-pcp worker and its churn companions.
 *
 * PCP lists are per CPU (mm/page_alloc.c, struct per_cpu_pages): pages a
 * companion frees on CPU n restock only CPU n's lists. So:
 *   same    the worker is pinned to the CPU it first runs on, and every
 *           companion to that CPU: the companions' frees land on the lists
 *           the worker's faults draw from;
 *   spread  the worker is pinned likewise and companions go round-robin to
 *           the other CPUs it may use: they meet only on the zone lock
 *           (with one usable CPU this falls back to same, and says so);
 *   any     nothing is pinned.
 * Only CPUs in the caller's affinity mask (cpusets included) are used.
 */
#ifndef SMM_PLACEMENT_H
#define SMM_PLACEMENT_H

#include "names.h"

#define SMM_MAX_COMPANIONS 64

struct smm_plan {
	enum smm_placement mode; /* as carried out (spread may become same) */
	int worker_cpu; /* -1: not pinned */
	int companion_cpu[SMM_MAX_COMPANIONS]; /* -1: not pinned */
	unsigned int companions;
	char text[256]; /* "same: worker on CPU 1, companions on CPU 1" */
};

/*
 * smm_placement_plan() - decide, and pin the calling process (the worker)
 * unless @mode is any.
 * @companions: at most SMM_MAX_COMPANIONS.
 * Return: 0, or -errno of sched_getcpu(3)/sched_setaffinity(2).
 */
int smm_placement_plan(enum smm_placement mode, unsigned int companions,
		       struct smm_plan *plan);

/* smm_pin_self() - pin the calling process to @cpu (-1: leave it). */
int smm_pin_self(int cpu);

#endif /* SMM_PLACEMENT_H */
