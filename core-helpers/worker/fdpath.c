// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fdpath.c - batches of descriptors that each hold a kernel allocation.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "fdpath.h"
#include "report.h"

int smm_fdpath_init(struct smm_fdpath *f, uint64_t batch)
{
	f->batch = batch;
	f->fds = calloc(batch ? batch : 1, sizeof(*f->fds));
	return f->fds ? 0 : -ENOMEM;
}

void smm_fdpath_free(struct smm_fdpath *f)
{
	free(f->fds);
	f->fds = NULL;
}

uint64_t smm_fdpath_open(struct smm_fdpath *f, uint64_t n, int *err)
{
	uint64_t i;

	*err = 0;
	for (i = 0; i < n; i++) {
		int fd = f->open_one(f->ctx);

		if (fd < 0) {
			*err = -fd;
			break;
		}
		f->fds[i] = fd;
	}
	return i;
}

void smm_fdpath_close(struct smm_fdpath *f, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		close(f->fds[i]);
}

void smm_fdpath_clamp(struct smm_fdpath *f, uint64_t to, const char *why)
{
	smm_note_once(NULL, f->stressor,
		      "%s: batch clamped from %llu to %llu %s: %s", f->name,
		      (unsigned long long)f->batch, (unsigned long long)to,
		      f->unit, why);
	f->batch = to;
}

static int resource_errno(int err)
{
	return err == EMFILE || err == ENFILE || err == ENOSPC ||
	       err == ENOMEM || err == EAGAIN || err == EIO;
}

int smm_fdpath_batch(struct smm_fdpath *f, uint64_t *allocs, char *what,
		     size_t len)
{
	char why[128];
	uint64_t made;
	int err;

	made = smm_fdpath_open(f, f->batch, &err);
	smm_fdpath_close(f, made);
	*allocs += made * f->per_fd;
	if (!err)
		return 0;
	if (made > 0 && resource_errno(err)) {
		snprintf(why, sizeof(why), "errno=%d (%s)", err, strerror(err));
		smm_fdpath_clamp(f, made, why);
		return 0;
	}
	snprintf(what, len, "%s: open of %s %llu of %llu", f->name, f->unit,
		 (unsigned long long)made + 1, (unsigned long long)f->batch);
	return -err;
}

uint64_t smm_fd_headroom(uint64_t *limit)
{
	struct rlimit rl = { 0 };
	uint64_t open_fds = 0;
	struct dirent *d;
	DIR *dir;

	getrlimit(RLIMIT_NOFILE, &rl);
	*limit = rl.rlim_cur;
	dir = opendir("/proc/self/fd");
	if (dir) {
		while ((d = readdir(dir)))
			open_fds += d->d_name[0] != '.';
		closedir(dir);
	}
	if (rl.rlim_cur == RLIM_INFINITY)
		return UINT64_MAX / 2;
	return rl.rlim_cur > open_fds ? (rl.rlim_cur - open_fds) / 2 : 0;
}
