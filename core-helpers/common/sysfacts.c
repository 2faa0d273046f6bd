// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sysfacts.c - facts from /proc.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sysfacts.h"

int smm_read_u64(const char *path, uint64_t *out)
{
	char buf[64];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0) {
		int err = errno;

		close(fd);
		return -err;
	}
	close(fd);
	buf[n] = '\0';
	if (sscanf(buf, "%" SCNu64, out) != 1)
		return -EINVAL;
	return 0;
}

/* Dead: gone (ESRCH), or a zombie not yet reaped (killed workers are
 * adopted by init, which may reap them late). */
bool smm_pid_dead(long pid)
{
	char path[64], buf[256], *rp;
	ssize_t n;
	int fd;

	if (pid <= 0)
		return false;
	if (kill((pid_t)pid, 0) < 0)
		return errno == ESRCH;
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	/* "pid (comm) S ...": the state follows the last ')' */
	rp = strrchr(buf, ')');
	return rp && rp[1] == ' ' && (rp[2] == 'Z' || rp[2] == 'X');
}
