/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * holder-fds.h - holder items that are file descriptors, each holding a
 * kernel allocation for as long as it is open (pty: a /dev/ptmx open;
 * bpf: a socket holding a filter). acquire() opens them one by one with
 * the kind's open_one(), release() closes them. close(2) cannot fail in a
 * way that keeps the allocation, and the process's death closes them all.
 *
 * A kind's context must start with a struct smm_fds: the functions below
 * are its holder ops (holder.h) as they are.
 */
#ifndef SMM_HOLDER_FDS_H
#define SMM_HOLDER_FDS_H

#include <stddef.h>
#include <stdint.h>

struct smm_fds {
	int *fd; /* room for cap descriptors */
	uint64_t cap;
	/* open_one() - one descriptor, or -errno; @ctx: the kind's context */
	int (*open_one)(void *ctx);
};

/* Resource errnos of opens: EMFILE, ENFILE, ENOSPC, ENOMEM, EAGAIN, EIO. */
extern const int smm_fds_resource[];

/* smm_fds_room() - room for @cap descriptors. Return: 0 or -ENOMEM. */
int smm_fds_room(void *ctx, uint64_t cap);

/*
 * smm_fds_acquire() - open @n descriptors (@n <= cap). Return: how many are
 * open; *err the positive errno of the open that failed, or 0.
 */
uint64_t smm_fds_acquire(void *ctx, uint64_t n, int *err);

/* smm_fds_release() - close the first @n descriptors. */
void smm_fds_release(void *ctx, uint64_t n);

/* smm_fds_free() - free the room (not the context). */
void smm_fds_free(struct smm_fds *f);

#endif /* SMM_HOLDER_FDS_H */
