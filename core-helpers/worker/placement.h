/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * placement.h - CPU placement of a shm-pcp worker and its churn companions.
 *
 * PCP lists are per CPU (mm/page_alloc.c, struct per_cpu_pages): pages a
 * companion frees on CPU n restock only CPU n's lists. So:
 *   same    workers go round-robin over the CPUs they may use, and every
 *           companion goes to its worker's CPU: the companions' frees land
 *           on the lists the worker's faults draw from;
 *   spread  workers go round-robin likewise and companions go round-robin
 *           to the other CPUs the worker may use: they meet only on the
 *           zone lock (with one usable CPU this falls back to same, and
 *           says so);
 *   any     nothing is pinned.
 * Only CPUs in the worker's affinity mask (cpusets included) are used.
 *
 * Round-robin: smm_placement_init(), called by the plugin's constructor in
 * stress-ng's main process before any worker is forked, maps a shared
 * anonymous page of SMM_PLACEMENT_SLOTS slots, one pid each. A worker
 * claims the lowest slot that is free or whose owner is dead (sysfacts.h
 * smm_pid_dead(): gone or a zombie) with a compare-and-swap, and takes CPU
 * allowed[slot % allowed CPUs]. A worker that stress-ng re-forks (after a
 * failure, once the old one is reaped) so takes over the slot, and the CPU,
 * of the one it replaces: the distribution does not drift. A pid reused by
 * another process within the run keeps its slot taken (the next worker
 * goes one further), which is rare with pid_max at 32768 or more.
 * Without the page (unit tests, a failed mmap) a worker uses the CPU it
 * runs on.
 */
#ifndef SMM_PLACEMENT_H
#define SMM_PLACEMENT_H

#include <sys/types.h>

#include "names.h"

#define SMM_MAX_COMPANIONS 64
#define SMM_PLACEMENT_SLOTS 1024 /* workers placed at once, at most */

struct smm_plan {
	enum smm_placement mode; /* as carried out (spread may become same) */
	int worker_cpu; /* -1: not pinned */
	int slot; /* round-robin slot, -1: none */
	int companion_cpu[SMM_MAX_COMPANIONS]; /* -1: not pinned */
	unsigned int companions;
	char text[320]; /* "same: worker on CPU 1 (slot 3), ..." */
};

/*
 * smm_placement_init() - map the shared slot page (once per process; a
 * second call keeps it). Return: 0 or -errno of mmap(2).
 */
int smm_placement_init(void);

/*
 * smm_placement_reset() - unmap the slot page: the state a test starts
 * from. Not for use while workers run.
 */
void smm_placement_reset(void);

/*
 * smm_placement_claim() - the slot of the calling process: the one it
 * already holds, else the lowest free or dead one (see above).
 * Return: 0..SMM_PLACEMENT_SLOTS-1; -ENODEV without the page; -ENOSPC when
 * every slot has a live owner.
 */
int smm_placement_claim(void);

/*
 * smm_placement_plan() - decide, and pin the calling process (the worker)
 * unless @mode is any.
 * @companions: at most SMM_MAX_COMPANIONS.
 * Return: 0, or -errno of sched_getaffinity(2)/sched_getcpu(3)/
 * sched_setaffinity(2).
 */
int smm_placement_plan(enum smm_placement mode, unsigned int companions,
		       struct smm_plan *plan);

/* smm_pin_self() - pin the calling process to @cpu (-1: leave it).
 * Return: 0 or -errno of sched_setaffinity(2). */
int smm_pin_self(int cpu);

#endif /* SMM_PLACEMENT_H */
