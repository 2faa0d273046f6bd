/*
 * Copyright (C) 2026 The stress-mm authors.
 *
 * This program is free software; you can redistribute it and/or
 * modify it under the terms of the GNU General Public License
 * as published by the Free Software Foundation; either version 2
 * of the License, or (at your option) any later version.
 *
 * This program is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
 * GNU General Public License for more details.
 *
 * You should have received a copy of the GNU General Public License
 * along with this program; if not, write to the Free Software
 * Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301, USA.
 *
 */
#ifndef CORE_SHM_PCP_H
#define CORE_SHM_PCP_H

/*
 *  The names of the shm-pcp stressor's shared memory, and the sweep of
 *  what a worker killed in the few system calls between making and
 *  removing an object leaves behind. POSIX objects are
 *  /dev/shm/STRESS_SHM_PCP_PREFIX<pid>-<seq>, unlinked right after
 *  shm_open(); SysV segments take a key of STRESS_SHM_PCP_SYSV_KEY_BASE
 *  (high 16 bits) and the creator's low pid bits, or the next free one,
 *  never IPC_PRIVATE, and are marked IPC_RMID right after shmat(). Plain
 *  C, so that a program that runs the stressor can sweep after it too;
 *  off Linux nothing is dead and nothing is swept.
 */

#include <sys/types.h>

#define STRESS_SHM_PCP_PREFIX		"stress-ng-shm-pcp-"
#define STRESS_SHM_PCP_SYSV_KEY_BASE	(0x534d0000)
#define STRESS_SHM_PCP_SYSV_KEY_MASK	(0xffff0000UL)

/*
 *  stress_shm_pcp_sysv_key()
 *	the first key a segment of process pid tries
 */
static inline key_t stress_shm_pcp_sysv_key(const pid_t pid)
{
	return (key_t)(STRESS_SHM_PCP_SYSV_KEY_BASE | ((unsigned int)pid & 0xffffU));
}

/*
 *  stress_shm_pcp_pid_dead()
 *	whether process pid (> 0) is gone: kill(pid, 0) fails with ESRCH,
 *	or /proc/<pid>/stat says it is a zombie (Z) or dead (X)
 */
extern int stress_shm_pcp_pid_dead(const pid_t pid);

/*
 *  stress_shm_pcp_sysv_sweep()
 *	with remove, IPC_RMID the SysV segments of our key base whose
 *	creator (/proc/sysvipc/shm cpid) is dead; returns how many were
 *	removed, or, without remove, how many of ours exist (0 when
 *	/proc/sysvipc/shm is unreadable)
 */
extern unsigned int stress_shm_pcp_sysv_sweep(const int remove);

#endif
