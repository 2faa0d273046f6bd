/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats.h - per-worker counters in a file of their own, for the front end.
 *
 * When STRESS_MM_STATS_DIR (an absolute path to a writable directory) is set,
 * every worker of every stressor creates
 *
 *     $STRESS_MM_STATS_DIR/<stressor>.<pid>.stats
 *
 * (e.g. shm-pcp.4242.stats), sizes it to one struct smm_stats_file and maps
 * it MAP_SHARED. Counters are updated in place with relaxed atomic adds:
 * no system call per update, and what was counted survives a SIGKILL or
 * SIGALRM of the worker at any instant (the page cache keeps the file's
 * pages). The worker's churn companions inherit the mapping and add to it
 * too. Files are left for the reader, which removes them. The front end
 * derives a worker's exit status from the file (smm_stats_exit_status()),
 * never from the text the worker printed.
 *
 * File format (native endianness, little-endian on x86_64), version 3:
 *   offset size field          unit, meaning
 *        0    8 magic          "SMMSTATS" (no NUL)
 *        8    4 version        3
 *       12    4 pid            the worker's pid
 *       16   16 stressor       "vmalloc-order" or "shm-pcp", NUL-padded
 *       32    8 calls          method calls that returned 0 (= stress-ng's
 *                              bogo-ops of this worker, within one)
 *       40    8 allocs         vmalloc-order allocations made
 *       48    8 pages          shm-pcp pages write-faulted, added every
 *                              SMM_STATS_PAGE_CHUNK pages as they are
 *                              faulted (a killed or partial cycle counts
 *                              all but its last chunk)
 *       56    8 churn_allocs   allocations made by shm-pcp churn companions
 *       64    8 failures       FAIL lines this worker printed (count)
 *       72    8 skipped        1 when the worker ended with a SKIP, else 0
 *       80    4 skip_errno     positive errno of that SKIP, 0 if none
 *       84    4 fail_errno     positive errno of the last failure, 0 if none
 *       88    4 cpu            CPU the worker is pinned to, -1 if none
 *       92    4 slot           its place in the run's round-robin over the
 *                              allowed CPUs (0-based), -1 if none
 *       96    4 companions     churn companions recorded below (0..64)
 *      100    4 reserved       0
 *      104  256 companion_cpu  int32 x 64: CPU of each companion, -1 if not
 *                              pinned; entries past companions are -1
 *      360  256 skip_reason    the SKIP reason, NUL-terminated
 *      616    8 kernel_alloc_ns  ns the kernel spent in its allocation
 *                              calls, as the path measured them there
 *                              (path module: the module's ktime around
 *                              vmalloc); 0 for paths that cannot see it
 *      624    8 kernel_free_ns   the same for the frees (vfree)
 *      632      end (sizeof(struct smm_stats_file))
 * Version 1 (magic "SMMSTAT1", 336 bytes) had neither the errnos nor the
 * placement, and counted pages per finished cycle; version 2 (616 bytes)
 * had no kernel times. A reader must check
 * magic and version (smm_stats_read()) and may read while workers run.
 */
#ifndef SMM_STATS_H
#define SMM_STATS_H

#include <stdint.h>
#include <sys/types.h>

#define SMM_STATS_ENV "STRESS_MM_STATS_DIR"
#define SMM_STATS_MAGIC "SMMSTATS"
#define SMM_STATS_VERSION 3
#define SMM_STATS_COMPANIONS 64 /* companion_cpu entries */
#define SMM_STATS_PAGE_CHUNK 256 /* pages between updates of pages */

struct smm_stats_file {
	char magic[8];
	uint32_t version;
	int32_t pid;
	char stressor[16];
	uint64_t calls;
	uint64_t allocs;
	uint64_t pages;
	uint64_t churn_allocs;
	uint64_t failures;
	uint64_t skipped;
	int32_t skip_errno;
	int32_t fail_errno;
	int32_t cpu;
	int32_t slot;
	uint32_t companions;
	uint32_t reserved;
	int32_t companion_cpu[SMM_STATS_COMPANIONS];
	char skip_reason[256];
	uint64_t kernel_alloc_ns;
	uint64_t kernel_free_ns;
};

/*
 * smm_stats_open() - create and map this process's stats file in @dir.
 * @dir: absolute directory; NULL or "" means statistics are off.
 * Return: the mapping, or NULL when off or on error (errno set; a worker
 * goes on without statistics rather than fail the run).
 */
struct smm_stats_file *smm_stats_open(const char *dir, const char *stressor);

/* smm_stats_add() - *counter += n, atomically; NULL-safe on @s. */
#define smm_stats_add(s, field, n)                            \
	do {                                                  \
		if (s)                                        \
			__atomic_add_fetch(&(s)->field, (n),  \
					   __ATOMIC_RELAXED); \
	} while (0)

/*
 * smm_stats_skip() - record a SKIP: its positive errno @err (0 if none) and
 * @reason (truncated to 255 bytes); NULL-safe.
 */
void smm_stats_skip(struct smm_stats_file *s, int err, const char *reason);

/*
 * smm_stats_fail() - count one failure of positive errno @err (kept as
 * fail_errno); NULL-safe.
 */
void smm_stats_fail(struct smm_stats_file *s, int err);

/*
 * smm_stats_place() - record the worker's CPU and @slot (-1: none) and its
 * @n companions' CPUs (at most SMM_STATS_COMPANIONS kept); NULL-safe.
 */
void smm_stats_place(struct smm_stats_file *s, int cpu, int slot,
		     const int *companion_cpu, unsigned int n);

/*
 * smm_stats_read() - read one stats file into @out and check it.
 * Return: 0; -errno of open(2)/read(2); -EBADMSG when it is not a stats
 * file (short, or no "SMMSTAT" magic); -EPROTO when it is one of another
 * version (v1's magic "SMMSTAT1" included). Strings in @out are
 * NUL-terminated on success.
 */
int smm_stats_read(const char *path, struct smm_stats_file *out);

/*
 * smm_errno_exit_status() - stress-ng's exit status for a stressor that
 * stopped with positive errno @err, as stress-ng sorts errors: 4 (not
 * implemented) for ENOSYS, EPERM, EOPNOTSUPP, EACCES; 3 (no resource) for
 * ENOMEM, ENOSPC, EAGAIN, EMFILE, ENFILE; 2 (failure) for any other errno
 * and for 0.
 */
int smm_errno_exit_status(int err);

/*
 * smm_stats_exit_status() - what one worker's file says: 2 when it counted
 * a failure, else smm_errno_exit_status(skip_errno) when it skipped (4 when
 * the errno is 0: a skip without a cause is "not implemented"), else 0.
 */
int smm_stats_exit_status(const struct smm_stats_file *s);

/*
 * smm_stats_check_dir() - validate a STRESS_MM_STATS_DIR value: absolute,
 * an existing directory, writable. Return: 0 or -EINVAL (not absolute),
 * -ENOTDIR, or the -errno of stat(2)/access(2).
 */
int smm_stats_check_dir(const char *dir);

#endif /* SMM_STATS_H */
