/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * holder-children.h - holder items that are forked children parked on a
 * pipe, for allocations that are per process (the mm or the file table):
 * the LDT (arch/x86/kernel/ldt.c ldt_dup_context() on fork) and the fd
 * table (fs/file.c dup_fd() on fork). acquire() forks them; each waits
 * until release() closes the pipe's write end, then exits and is reaped.
 *
 * Children never outlive their worker: PR_SET_PDEATHSIG(SIGKILL) plus a
 * check that the parent is still the one that forked them, and the pipe's
 * write end dies with the worker (SIGKILL included), which ends their read.
 * Each child also costs a kernel thread stack and page tables: a kind that
 * uses them says so in its report.
 *
 * A kind's context must start with a struct smm_children: the functions
 * below are its holder ops (holder.h) as they are.
 */
#ifndef SMM_HOLDER_CHILDREN_H
#define SMM_HOLDER_CHILDREN_H

#include <stdint.h>
#include <sys/types.h>

struct smm_children {
	pid_t *pid; /* room for cap children */
	uint64_t cap;
	int gate[2]; /* children read [0] until the worker closes [1] */
};

/* Resource errnos of fork(2): EAGAIN, ENOMEM. */
extern const int smm_children_resource[];

/* smm_children_room() - room for @cap children. Return: 0 or -ENOMEM. */
int smm_children_room(void *ctx, uint64_t cap);

/*
 * smm_children_acquire() - fork @n parked children (@n <= cap). Return: how
 * many exist; *err the positive errno of pipe2(2) or fork(2), or 0.
 */
uint64_t smm_children_acquire(void *ctx, uint64_t n, int *err);

/* smm_children_release() - let @n children exit, and reap them. */
void smm_children_release(void *ctx, uint64_t n);

/* smm_children_free() - free the room (not the context). */
void smm_children_free(struct smm_children *c);

#endif /* SMM_HOLDER_CHILDREN_H */
