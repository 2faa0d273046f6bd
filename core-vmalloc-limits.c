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
#include "stress-ng.h"
#include "core-capabilities.h"
#include "core-memory.h"
#include "core-vmalloc.h"

#include <dirent.h>
#include <sys/resource.h>

#if defined(STRESS_VMALLOC_SUPPORTED)

#include "core-vmalloc-kind.h"

/*
 *  The headroom of the limits a kind meets, in items: a batch is clamped
 *  to half of what each leaves (threads-max and pid_max, RLIMIT_NOFILE,
 *  kernel.pty.max, RLIMIT_MEMLOCK, the instance's share of free memory),
 *  so that other processes, and the proof, still find some.
 */

/*
 *  stress_vmalloc_half_tasks()
 *	half the tasks threads-max and pid_max leave (shared limits)
 */
uint64_t stress_vmalloc_half_tasks(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	uint64_t tmax = 0, pmax = 0, total = 0, lim;
	unsigned long int running, tasks;
	double l1, l5, l15;
	FILE *fp;

	(void)k;
	stress_vmalloc_read_u64("/proc/sys/kernel/threads-max", &tmax);
	stress_vmalloc_read_u64("/proc/sys/kernel/pid_max", &pmax);
	fp = fopen("/proc/loadavg", "r");
	if (fp) {
		if (fscanf(fp, "%lf %lf %lf %lu/%lu", &l1, &l5, &l15, &running, &tasks) == 5)
			total = tasks;
		(void)fclose(fp);
	}
	if (!tmax || !pmax || !total) {
		(void)snprintf(why, len, "task limits unreadable");
		return UINT64_MAX;
	}
	(void)snprintf(why, len, "half the task headroom (threads-max %" PRIu64
		", pid_max %" PRIu64 ")", tmax, pmax);
	lim = STRESS_MINIMUM(tmax, pmax);
	return lim > total ? (lim - total) / 2 : 0;
}

/*
 *  stress_vmalloc_half_fds()
 *	half the descriptors RLIMIT_NOFILE leaves free
 */
uint64_t stress_vmalloc_half_fds(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	struct rlimit rlim;
	uint64_t open_fds = 0;
	struct dirent *d;
	DIR *dir;

	(void)k;
	if (getrlimit(RLIMIT_NOFILE, &rlim) < 0)
		rlim.rlim_cur = 1024;
	(void)snprintf(why, len, "half the free descriptors under RLIMIT_NOFILE %" PRIu64,
		(uint64_t)rlim.rlim_cur);
	if (rlim.rlim_cur == RLIM_INFINITY)
		return UINT64_MAX / 2;
	dir = opendir("/proc/self/fd");
	if (dir) {
		while ((d = readdir(dir)) != NULL)
			open_fds += (d->d_name[0] != '.');
		(void)closedir(dir);
	}
	return (uint64_t)rlim.rlim_cur > open_fds ? ((uint64_t)rlim.rlim_cur - open_fds) / 2 : 0;
}

/*
 *  stress_vmalloc_ipc_lock()
 *	whether io_uring leaves pinned pages unaccounted: CAP_IPC_LOCK in
 *	the initial user namespace (io_uring asks capable(); a container's
 *	root lifts nothing, and only the initial namespace maps all uids)
 */
bool stress_vmalloc_ipc_lock(void)
{
	unsigned long int inside = 1, outside = 1, count = 0;
	FILE *fp = fopen("/proc/self/uid_map", "r");

	if (!fp)
		return false;
	if (fscanf(fp, "%lu %lu %lu", &inside, &outside, &count) != 3)
		count = 0;
	(void)fclose(fp);
	if ((inside != 0) || (outside != 0) || (count != 4294967295UL))
		return false;
	return stress_capabilities_check(SHIM_CAP_IPC_LOCK);
}

/*
 *  stress_vmalloc_memlock()
 *	bytes io_uring may pin, and the limit in words
 */
uint64_t stress_vmalloc_memlock(char *buf, const size_t len)
{
	struct rlimit rlim;
	char have[32];

	if (stress_vmalloc_ipc_lock()) {
		(void)snprintf(buf, len, "no RLIMIT_MEMLOCK bound (CAP_IPC_LOCK: not accounted)");
		return UINT64_MAX / 4;
	}
	if (getrlimit(RLIMIT_MEMLOCK, &rlim) < 0)
		rlim.rlim_cur = 64 * KB;
	if (rlim.rlim_cur == RLIM_INFINITY) {
		(void)snprintf(buf, len, "RLIMIT_MEMLOCK unlimited");
		return UINT64_MAX / 4;
	}
	(void)snprintf(buf, len, "RLIMIT_MEMLOCK %s",
		stress_vmalloc_size_str((uint64_t)rlim.rlim_cur, have, sizeof(have)));
	return (uint64_t)rlim.rlim_cur;
}

/*
 *  the lower of half the ptys an unprivileged open may still take
 *  (kernel.pty.max less kernel.pty.reserve and kernel.pty.nr, as
 *  fs/devpts/inode.c devpts_new_index()) and half the free descriptors,
 *  so that the proof can still open /proc/vmallocinfo
 */
uint64_t stress_vmalloc_pty_headroom(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	uint64_t max = 4096, reserve = 1024, nr = 0, ptys, fds;

	stress_vmalloc_read_u64("/proc/sys/kernel/pty/max", &max);
	stress_vmalloc_read_u64("/proc/sys/kernel/pty/reserve", &reserve);
	stress_vmalloc_read_u64("/proc/sys/kernel/pty/nr", &nr);
	ptys = (max <= reserve + nr) ? 0 : (max - reserve - nr) / 2;
	fds = stress_vmalloc_half_fds(k, why, len);
	if (fds < ptys)
		return fds;
	(void)snprintf(why, len, "half of what kernel.pty.max %" PRIu64
		" less kernel.pty.reserve %" PRIu64 " leaves", max, reserve);
	return ptys;
}

/*
 *  stress_vmalloc_memory_room()
 *	items a batch may hold within the instance's memory share, at least 1
 */
uint64_t stress_vmalloc_memory_room(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	const uint64_t share = stress_vmalloc_memory_share(k->args);
	const uint64_t held = k->ops->held ? k->ops->held(k) : 0;
	char each[32], all[32];

	if (!held || (share == UINT64_MAX))
		return UINT64_MAX;
	(void)snprintf(why, len, "half the free memory shared by %" PRIu32 " instances: "
		"%s each, %s an item", STRESS_MAXIMUM(k->args->instances, 1),
		stress_vmalloc_size_str(share, all, sizeof(all)),
		stress_vmalloc_size_str(held, each, sizeof(each)));
	return STRESS_MAXIMUM(share / held, 1);
}

#endif
