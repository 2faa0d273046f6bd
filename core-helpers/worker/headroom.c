// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * headroom.c - shared headroom functions of the holder kinds.
 */
#include <dirent.h>
#include <stdio.h>
#include <sys/resource.h>

#include "headroom.h"
#include "sysfacts.h"

uint64_t smm_headroom_tasks(void *ctx, char *why, size_t len)
{
	uint64_t room, tmax, pmax;

	(void)ctx;
	if (smm_task_headroom(&room, &tmax, &pmax) != 0) {
		snprintf(why, len, "task limits unreadable");
		return UINT64_MAX;
	}
	snprintf(why, len,
		 "half the task headroom (threads-max %llu, pid_max %llu)",
		 (unsigned long long)tmax, (unsigned long long)pmax);
	return room / 2;
}

uint64_t smm_headroom_fds(void *ctx, char *why, size_t len)
{
	struct rlimit rl = { 0 };
	uint64_t open_fds = 0;
	struct dirent *d;
	DIR *dir;

	(void)ctx;
	getrlimit(RLIMIT_NOFILE, &rl);
	snprintf(why, len, "half the free descriptors under RLIMIT_NOFILE %llu",
		 (unsigned long long)rl.rlim_cur);
	if (rl.rlim_cur == RLIM_INFINITY)
		return UINT64_MAX / 2;
	dir = opendir("/proc/self/fd");
	if (dir) {
		while ((d = readdir(dir)))
			open_fds += d->d_name[0] != '.';
		closedir(dir);
	}
	return rl.rlim_cur > open_fds ? (rl.rlim_cur - open_fds) / 2 : 0;
}
