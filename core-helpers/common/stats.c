// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stats.c - per-worker counters in a shared file mapping.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stats.h"

_Static_assert(sizeof(struct smm_stats_file) == 336,
	       "stats.h documents a 336-byte record");

struct smm_stats_file *smm_stats_open(const char *dir, const char *stressor)
{
	struct smm_stats_file *s;
	char path[4096];
	int fd, n;

	if (!dir || !dir[0])
		return NULL;
	n = snprintf(path, sizeof(path), "%s/%s.%d.stats", dir, stressor,
		     (int)getpid());
	if (n < 0 || (size_t)n >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return NULL;
	if (ftruncate(fd, sizeof(*s)) < 0) {
		close(fd);
		return NULL;
	}
	s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (s == MAP_FAILED)
		return NULL;
	s->version = SMM_STATS_VERSION;
	s->pid = (int32_t)getpid();
	snprintf(s->stressor, sizeof(s->stressor), "%s", stressor);
	/* The magic last: a reader never sees a half-made header. */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	memcpy(s->magic, SMM_STATS_MAGIC, sizeof(s->magic));
	return s;
}

void smm_stats_skip(struct smm_stats_file *s, const char *reason)
{
	if (!s)
		return;
	snprintf(s->skip_reason, sizeof(s->skip_reason), "%s", reason);
	__atomic_store_n(&s->skipped, 1, __ATOMIC_RELEASE);
}

int smm_stats_check_dir(const char *dir)
{
	struct stat st;

	if (dir[0] != '/')
		return -EINVAL;
	if (stat(dir, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (access(dir, W_OK | X_OK) < 0)
		return -errno;
	return 0;
}
