/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * worker-stats.h - the counters of one worker of a stressor core: its
 * stats file (stats.h) when STRESS_MM_STATS_DIR is set, else the same
 * record in an anonymous shared mapping. Either way the worker's churn
 * companions, which inherit the mapping, add to the worker's record, and
 * the adapters read their metrics from it.
 */
#ifndef SMM_WORKER_STATS_H
#define SMM_WORKER_STATS_H

#include <stdbool.h>

#include "stats.h"

struct smm_worker_stats {
	struct smm_stats_file *s; /* never NULL after a successful open */
	bool anonymous; /* s is not a file: nobody else reads it */
};

/*
 * smm_worker_stats_open() - the record of the calling process for
 * @stressor. A stats directory that cannot take the file falls back to
 * the anonymous record, as the plugin always did (a worker goes on without
 * statistics for the front end rather than fail).
 * Return: 0, or -errno of mmap(2) (ENOMEM): @ws->s stays NULL.
 */
int smm_worker_stats_open(struct smm_worker_stats *ws, const char *stressor);

/* smm_worker_stats_close() - unmap the record (the file stays). */
void smm_worker_stats_close(struct smm_worker_stats *ws);

#endif /* SMM_WORKER_STATS_H */
