// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shm.c - names of shm-pcp objects and the sweep of dead workers' leftovers.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <unistd.h>

#include "shm.h"
#include "sysfacts.h"

#define SHM_DIR "/dev/shm"

/* Walk our POSIX names; remove those of dead pids when @remove. */
static int walk_posix(const char *dir, int remove, unsigned int *count)
{
	size_t plen = strlen(SMM_SHM_PREFIX);
	struct dirent *d;
	DIR *dp;

	dp = opendir(dir ? dir : SHM_DIR);
	if (!dp)
		return -errno;
	while ((d = readdir(dp))) {
		char path[512];
		long pid;

		if (strncmp(d->d_name, SMM_SHM_PREFIX, plen) != 0)
			continue;
		pid = strtol(d->d_name + plen, NULL, 10);
		if (!remove) {
			(*count)++;
			continue;
		}
		if (!smm_pid_dead(pid))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir ? dir : SHM_DIR,
			 d->d_name);
		if (unlink(path) == 0)
			(*count)++;
	}
	closedir(dp);
	return 0;
}

/* Walk our SysV segments (key base) in /proc/sysvipc/shm. */
static void walk_sysv(int remove, unsigned int *count)
{
	char line[512];
	FILE *f;

	f = fopen("/proc/sysvipc/shm", "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		long key, id, perms, size, cpid;

		if (sscanf(line, "%ld %ld %ld %ld %ld", &key, &id, &perms,
			   &size, &cpid) != 5)
			continue; /* the header */
		if (((unsigned long)key & 0xffff0000UL) !=
		    SMM_SHM_SYSV_KEY_BASE)
			continue;
		if (!remove) {
			(*count)++;
			continue;
		}
		if (smm_pid_dead(cpid) && shmctl((int)id, IPC_RMID, NULL) == 0)
			(*count)++;
	}
	fclose(f);
}

int smm_shm_sweep(const char *shm_dir, unsigned int *posix, unsigned int *sysv)
{
	unsigned int p = 0, s = 0;
	int rc;

	rc = walk_posix(shm_dir, 1, &p);
	walk_sysv(1, &s);
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
	walk_sysv(0, &n);
	return n;
}
