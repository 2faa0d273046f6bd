/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shm.h - the names of shm-pcp's shared-memory objects (the cycle itself:
 * stress-shm-pcp.c), and the sweep of what a killed worker can leave
 * behind; the front end sweeps with it, the stressor its own way.
 *
 * Names: POSIX objects are /dev/shm/stress-ng-shm-pcp-<pid>-<seq>, as
 * stress-shm-pcp.c names them (STRESS_SHM_PCP_PREFIX); SysV segments use
 * a key with SMM_SHM_SYSV_KEY_BASE in the high 16 bits: first
 * SMM_SHM_SYSV_KEY(pid) = 0x534d0000 | (pid & 0xffff), and when a live
 * process holds that one (pids above 65535 share low bits), the next free
 * key of the base. Never IPC_PRIVATE (key 0): the sweep finds segments by
 * the key base and removes those whose creator (cpid) is dead.
 * SIGALRM (stress-ng's stop signal) is blocked between creating and
 * unlinking (POSIX) or marking for removal (SysV, IPC_RMID right after
 * shmat()), so only a SIGKILL in that window of a few system calls can leave
 * a name behind; smm_shm_sweep() removes those whose creator is dead. memfd
 * objects have no name and die with their descriptor.
 */
#ifndef SMM_SHM_H
#define SMM_SHM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define SMM_SHM_PREFIX "stress-ng-shm-pcp-"
#define SMM_SHM_SYSV_KEY_BASE 0x534d0000
#define SMM_SHM_SYSV_KEY(pid) (SMM_SHM_SYSV_KEY_BASE | ((pid)&0xffff))

/*
 * smm_shm_sweep() - remove POSIX names under @shm_dir (NULL: /dev/shm) with
 * our prefix and SysV segments with our key base whose creating pid is
 * dead (kill(pid, 0) == ESRCH, or a zombie). @posix, @sysv: how many were removed
 * (either may be NULL). Return: 0, or -errno of reading the directory.
 */
int smm_shm_sweep(const char *shm_dir, unsigned int *posix, unsigned int *sysv);

/*
 * smm_shm_leftovers() - names and segments of ours that exist now, dead or
 * alive creator (for tests and the front end's report).
 */
unsigned int smm_shm_leftovers(const char *shm_dir);

#endif /* SMM_SHM_H */
