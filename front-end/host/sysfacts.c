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
