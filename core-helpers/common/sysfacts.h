/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysfacts.h - small read-only facts from /proc: sysctls and task counts
 * (/proc/vmstat fields: vmstat.h). Every function reads afresh (no caching, no state).
 */
#ifndef SMM_SYSFACTS_H
#define SMM_SYSFACTS_H

#include <stdbool.h>
#include <stdint.h>

/*
 * smm_read_u64() - the first decimal number in the file at @path, e.g.
 * /proc/sys/kernel/threads-max.
 * Return: 0, -errno of open(2)/read(2), or -EINVAL when no number.
 */
int smm_read_u64(const char *path, uint64_t *out);

/*
 * smm_tasks_total() - tasks (threads) that exist system-wide now: the
 * denominator of "running/total" in /proc/loadavg (kernel/sched/loadavg.c,
 * nr_threads).
 * Return: 0, -errno, or -EINVAL on an unexpected format.
 */
int smm_tasks_total(uint64_t *out);

/*
 * smm_task_headroom() - how many more tasks the system allows now:
 * min(kernel.threads-max, kernel.pid_max) minus smm_tasks_total(). The
 * limits the thread-stack path clamps to (kernel/fork.c copy_process(),
 * kernel/pid.c alloc_pid()). RLIMIT_NPROC is not included: it counts the
 * user's tasks, which /proc does not give cheaply; EAGAIN reports it.
 * Return: 0 or -errno.
 */
int smm_task_headroom(uint64_t *out, uint64_t *threads_max, uint64_t *pid_max);

/*
 * smm_pid_dead() - whether @pid (> 0) is gone: kill(@pid, 0) says ESRCH, or
 * /proc/<pid>/stat shows a zombie (Z) or a dead task (X) that its parent
 * has not reaped yet (killed workers are adopted by init, which may reap
 * them late). A pid reused by another process reads as alive. @pid <= 0:
 * false.
 */
bool smm_pid_dead(long pid);

#endif /* SMM_SYSFACTS_H */
