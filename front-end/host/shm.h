/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shm.h - the sweep of what a killed shm-pcp worker can leave behind, for
 * the front end and the tests: POSIX names under /dev/shm with the
 * stressor's prefix, and the stressor's own SysV sweep (core-shm-pcp.h:
 * the names, the key base, why only a SIGKILL in a window of a few system
 * calls leaves one). memfd objects have no name and die with their
 * descriptor.
 */
#ifndef SMM_SHM_H
#define SMM_SHM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * smm_shm_sweep() - remove POSIX names under @shm_dir (NULL: /dev/shm) with
 * the stressor's prefix and SysV segments of its key base whose creating
 * pid is dead (stress_shm_pcp_pid_dead(): gone, or a zombie not reaped
 * yet). @posix, @sysv: how many were removed (either may be NULL).
 * Return: 0, or -errno of reading the directory.
 */
int smm_shm_sweep(const char *shm_dir, unsigned int *posix, unsigned int *sysv);

/*
 * smm_shm_leftovers() - names and segments of ours that exist now, dead or
 * alive creator (for tests and the front end's report).
 */
unsigned int smm_shm_leftovers(const char *shm_dir);

#endif /* SMM_SHM_H */
