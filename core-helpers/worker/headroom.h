/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * headroom.h - the headroom functions (holder.h, ops->headroom) that several
 * kinds share: tasks for threads and forked children, descriptors for
 * descriptors. Half of what is free: the limits are shared with the other
 * workers and with everything else on the machine.
 */
#ifndef SMM_HEADROOM_H
#define SMM_HEADROOM_H

#include <stddef.h>
#include <stdint.h>

/*
 * smm_headroom_tasks() - half of min(kernel.threads-max, kernel.pid_max)
 * less the tasks that exist (sysfacts.h smm_task_headroom(); kernel/fork.c
 * copy_process(), kernel/pid.c alloc_pid()). RLIMIT_NPROC is not counted
 * (/proc does not give the user's tasks cheaply): fork and clone say
 * EAGAIN. @ctx is unused. Return: items; UINT64_MAX when /proc cannot be
 * read; @why names the limits.
 */
uint64_t smm_headroom_tasks(void *ctx, char *why, size_t len);

/*
 * smm_headroom_fds() - half of the descriptors this process may still
 * open: RLIMIT_NOFILE's soft limit less the open ones (counted in
 * /proc/self/fd). @ctx is unused. Return: items (UINT64_MAX / 2 without a
 * limit); @why names the limit.
 */
uint64_t smm_headroom_fds(void *ctx, char *why, size_t len);

#endif /* SMM_HEADROOM_H */
