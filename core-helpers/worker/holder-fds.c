// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * holder-fds.c - descriptors as holder items.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "holder-fds.h"

const int smm_fds_resource[] = {
	EMFILE, ENFILE, ENOSPC, ENOMEM, EAGAIN, EIO, 0
};

int smm_fds_room(void *ctx, uint64_t cap)
{
	struct smm_fds *f = ctx;

	free(f->fd);
	f->cap = cap;
	f->fd = calloc(cap, sizeof(*f->fd));
	return f->fd ? 0 : -ENOMEM;
}

uint64_t smm_fds_acquire(void *ctx, uint64_t n, int *err)
{
	struct smm_fds *f = ctx;
	uint64_t i;

	*err = 0;
	for (i = 0; i < n && i < f->cap; i++) {
		int fd = f->open_one(ctx);

		if (fd < 0) {
			*err = -fd;
			break;
		}
		f->fd[i] = fd;
	}
	return i;
}

void smm_fds_release(void *ctx, uint64_t n)
{
	struct smm_fds *f = ctx;

	for (uint64_t i = 0; i < n; i++)
		close(f->fd[i]);
}

void smm_fds_free(struct smm_fds *f)
{
	free(f->fd);
	f->fd = NULL;
	f->cap = 0;
}
