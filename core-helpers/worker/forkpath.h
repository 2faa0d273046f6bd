/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * forkpath.h - the batch engine of paths whose allocation is per process
 * (mm or files): the LDT (ldt_dup_context() on fork) and the fd table
 * (dup_fd() on fork). A batch forks up to f->batch children that park on a
 * pipe, so that the kernel's copies are all alive at once, then closes the
 * pipe and reaps them.
 *
 * Children never outlive their worker: PR_SET_PDEATHSIG(SIGKILL) plus a
 * check that the parent is still the one that forked them, and the pipe's
 * write end dies with the worker (SIGKILL included), which ends their read.
 * Each child also costs a kernel thread stack and page tables: a path that
 * uses this engine says so in its report.
 *
 * When fork(2) fails with EAGAIN or ENOMEM after at least one child, the
 * batch is clamped to what the kernel allowed and that is said once per run;
 * any other errno, or a batch without a child, is a failure.
 */
#ifndef SMM_FORKPATH_H
#define SMM_FORKPATH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct smm_forkpath {
	const char *stressor; /* message prefix */
	const char *name; /* path name, e.g. "ldt" */
	uint64_t batch; /* children per bogo-op, after clamping */
	pid_t *pids;
	int gate[2]; /* pipe: children read until the worker closes [1] */
};

/* Room for @batch children. Return: 0 or -ENOMEM. */
int smm_forkpath_init(struct smm_forkpath *f, uint64_t batch);

void smm_forkpath_free(struct smm_forkpath *f);

/*
 * smm_forkpath_spawn() - fork up to @n parked children.
 * Return: how many exist; *err is the positive errno that stopped it, or 0.
 */
uint64_t smm_forkpath_spawn(struct smm_forkpath *f, uint64_t n, int *err);

/* smm_forkpath_release() - let @n spawned children exit and reap them. */
void smm_forkpath_release(struct smm_forkpath *f, uint64_t n);

/* smm_forkpath_clamp() - lower the batch to @to, saying @why once. */
void smm_forkpath_clamp(struct smm_forkpath *f, uint64_t to, const char *why);

/*
 * smm_forkpath_batch() - one bogo-op; @allocs grows by the children made.
 * Return: 0, or -errno with what failed in @what.
 */
int smm_forkpath_batch(struct smm_forkpath *f, uint64_t *allocs, char *what,
		       size_t len);

#endif /* SMM_FORKPATH_H */
