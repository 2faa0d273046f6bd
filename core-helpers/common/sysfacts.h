/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysfacts.h - small read-only facts from /proc: sysctls and whether a
 * process is gone (/proc/vmstat fields: vmstat.h). Every function reads afresh (no caching, no state).
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
 * smm_pid_dead() - whether @pid (> 0) is gone: kill(@pid, 0) says ESRCH, or
 * /proc/<pid>/stat shows a zombie (Z) or a dead task (X) that its parent
 * has not reaped yet (killed workers are adopted by init, which may reap
 * them late). A pid reused by another process reads as alive. @pid <= 0:
 * false.
 */
bool smm_pid_dead(long pid);

#endif /* SMM_SYSFACTS_H */
