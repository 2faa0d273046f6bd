// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shm.c - the sweep of dead shm-pcp workers' leftovers: POSIX names here,
 * SysV segments by the stressor files' own sweep (core-shm-pcp.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core-shm-pcp.h"
#include "shm.h"

#define SHM_DIR "/dev/shm"

/* Walk our POSIX names; remove those of dead pids when @remove. */
static int walk_posix(const char *dir, int remove, unsigned int *count)
{
	size_t plen = strlen(STRESS_SHM_PCP_PREFIX);
	struct dirent *d;
	DIR *dp;

	dp = opendir(dir ? dir : SHM_DIR);
	if (!dp)
		return -errno;
	while ((d = readdir(dp))) {
		char path[512];
		long pid;

		if (strncmp(d->d_name, STRESS_SHM_PCP_PREFIX, plen) != 0)
			continue;
		pid = strtol(d->d_name + plen, NULL, 10);
		if (!remove) {
			(*count)++;
			continue;
		}
		if (!stress_shm_pcp_pid_dead((pid_t)pid))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir ? dir : SHM_DIR,
			 d->d_name);
		if (unlink(path) == 0)
			(*count)++;
	}
	closedir(dp);
	return 0;
}

int smm_shm_sweep(const char *shm_dir, unsigned int *posix, unsigned int *sysv)
{
	unsigned int p = 0, s = 0;
	int rc;

	rc = walk_posix(shm_dir, 1, &p);
	s = stress_shm_pcp_sysv_sweep(1);
	if (posix)
		*posix = p;
	if (sysv)
		*sysv = s;
	return rc;
}

unsigned int smm_shm_leftovers(const char *shm_dir)
{
	unsigned int n = 0;

	walk_posix(shm_dir, 0, &n);
	n += stress_shm_pcp_sysv_sweep(0);
	return n;
}
