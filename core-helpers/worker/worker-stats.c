// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * worker-stats.c - a worker's record, in its stats file or anonymous.
 */
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include "record.h"
#include "worker-stats.h"

int smm_worker_stats_open(struct smm_worker_stats *ws, const char *stressor)
{
	struct smm_stats_file *s;

	ws->anonymous = false;
	ws->s = smm_record_open(stressor);
	if (ws->s)
		return 0;
	s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s == MAP_FAILED)
		return -errno;
	/* Counters only: nobody reads an anonymous record's header. */
	ws->s = s;
	ws->anonymous = true;
	return 0;
}

void smm_worker_stats_close(struct smm_worker_stats *ws)
{
	if (ws->s)
		munmap(ws->s, sizeof(*ws->s));
	ws->s = NULL;
}
