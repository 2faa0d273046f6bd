/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fdpath.h - the batch engine of paths whose allocation lives as long as a
 * file descriptor (pty: /dev/ptmx opens; bpf: sockets holding a filter).
 *
 * A batch opens up to f->batch descriptors with open_one(), so that all the
 * kernel allocations behind them are alive at once, then closes them all.
 * When an open fails with a resource errno (EMFILE, ENFILE, ENOSPC, ENOMEM,
 * EAGAIN, EIO) after at least one succeeded, the batch is clamped to what
 * the kernel allowed and that is said once per run; any other errno, or a
 * batch that opened nothing, is a failure.
 */
#ifndef SMM_FDPATH_H
#define SMM_FDPATH_H

#include <stddef.h>
#include <stdint.h>

struct smm_fdpath {
	const char *stressor; /* message prefix */
	const char *name; /* path name, e.g. "pty" */
	const char *unit; /* what one descriptor is, e.g. "ptys" */
	uint64_t batch; /* descriptors per bogo-op, after clamping */
	uint64_t per_fd; /* kernel allocations behind one descriptor */
	int *fds;
	int (*open_one)(void *ctx); /* a descriptor, or -errno */
	void *ctx;
};

/*
 * smm_fdpath_init() - allocate room for @batch descriptors.
 * Return: 0 or -ENOMEM.
 */
int smm_fdpath_init(struct smm_fdpath *f, uint64_t batch);

/* smm_fdpath_free() - free what smm_fdpath_init() allocated. */
void smm_fdpath_free(struct smm_fdpath *f);

/*
 * smm_fdpath_open() - open up to @n (<= the initial batch) descriptors.
 * Return: how many are open; *err is the positive errno that stopped the
 * loop early, or 0.
 */
uint64_t smm_fdpath_open(struct smm_fdpath *f, uint64_t n, int *err);

/* smm_fdpath_close() - close the first @n descriptors. */
void smm_fdpath_close(struct smm_fdpath *f, uint64_t n);

/*
 * smm_fdpath_clamp() - lower f->batch to @to and say so once per run, with
 * @why (e.g. "posix_openpt errno=28 (No space left on device)").
 */
void smm_fdpath_clamp(struct smm_fdpath *f, uint64_t to, const char *why);

/*
 * smm_fdpath_batch() - one bogo-op. @allocs grows by per_fd per descriptor
 * opened. Return: 0, or -errno with what failed in @what.
 */
int smm_fdpath_batch(struct smm_fdpath *f, uint64_t *allocs, char *what,
		     size_t len);

/*
 * smm_fd_headroom() - half of the descriptors this process may still open
 * under RLIMIT_NOFILE (soft limit less the open ones, counted in
 * /proc/self/fd), to clamp a batch with. 0 when none are left.
 */
uint64_t smm_fd_headroom(uint64_t *limit);

#endif /* SMM_FDPATH_H */
