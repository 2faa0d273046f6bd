/*
 * Copyright (C) 2026 The stress-mm authors.
 *
 * This program is free software; you can redistribute it and/or
 * modify it under the terms of the GNU General Public License
 * as published by the Free Software Foundation; either version 2
 * of the License, or (at your option) any later version.
 *
 * This program is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
 * GNU General Public License for more details.
 *
 * You should have received a copy of the GNU General Public License
 * along with this program; if not, write to the Free Software
 * Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301, USA.
 *
 */
#include "core-shm-pcp.h"

#if defined(__linux__)

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ipc.h>
#include <sys/shm.h>

int stress_shm_pcp_pid_dead(const pid_t pid)
{
	char path[64], buf[256], *rp;
	ssize_t n;
	int fd;

	if (pid <= 0)
		return 0;
	if (kill(pid, 0) < 0)
		return errno == ESRCH;
	(void)snprintf(path, sizeof(path), "/proc/%ld/stat", (long int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT;
	n = read(fd, buf, sizeof(buf) - 1);
	(void)close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* "pid (comm) S ...": the state follows the last ')' */
	rp = strrchr(buf, ')');
	return rp && (rp[1] == ' ') && ((rp[2] == 'Z') || (rp[2] == 'X'));
}

unsigned int stress_shm_pcp_sysv_sweep(const int remove)
{
	unsigned int count = 0;
	char line[512];
	FILE *fp;

	fp = fopen("/proc/sysvipc/shm", "r");
	if (!fp)
		return 0;
	while (fgets(line, sizeof(line), fp)) {
		long int key, id, perms, size, cpid;

		if (sscanf(line, "%ld %ld %ld %ld %ld", &key, &id, &perms, &size, &cpid) != 5)
			continue;	/* the header */
		if (((unsigned long int)key & STRESS_SHM_PCP_SYSV_KEY_MASK) != STRESS_SHM_PCP_SYSV_KEY_BASE)
			continue;
		if (!remove)
			count++;
		else if (stress_shm_pcp_pid_dead((pid_t)cpid) && (shmctl((int)id, IPC_RMID, NULL) == 0))
			count++;
	}
	(void)fclose(fp);
	return count;
}

#else

/* /proc/<pid>/stat and /proc/sysvipc/shm are Linux's */
int stress_shm_pcp_pid_dead(const pid_t pid)
{
	(void)pid;
	return 0;
}

unsigned int stress_shm_pcp_sysv_sweep(const int remove)
{
	(void)remove;
	return 0;
}

#endif
