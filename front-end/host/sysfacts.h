/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysfacts.h - small read-only facts from /proc: sysctls (/proc/vmstat
 * fields: vmstat.h; whether a process is gone: core-shm-pcp.h). Every
 * function reads afresh (no caching, no state).
 */
#ifndef SMM_SYSFACTS_H
#define SMM_SYSFACTS_H

#include <stdint.h>

/*
 * smm_read_u64() - the first decimal number in the file at @path, e.g.
 * /proc/sys/kernel/threads-max.
 * Return: 0, -errno of open(2)/read(2), or -EINVAL when no number.
 */
int smm_read_u64(const char *path, uint64_t *out);

#endif /* SMM_SYSFACTS_H */
