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
 * no system call per bogo-op, and what was counted survives a SIGKILL of the
 * worker (the page cache keeps the file's pages). The worker's churn
 * companions inherit the mapping and add to it too. Files are left for the
 * reader, which removes them.
 *
 * File format (native endianness, little-endian on x86_64), version 1:
 *   offset  size  field
 *        0     8  magic "SMMSTAT1" (no NUL)
 *        8     4  version (1)
 *       12     4  pid of the worker
 *       16    16  stressor name, NUL-padded ("vmalloc-order", "shm-pcp")
 *       32     8  calls: method calls that returned 0 (= stress-ng bogo-ops
 *                 of this worker, within one)
 *       40     8  allocs: vmalloc-order allocations made
 *       48     8  pages: shm-pcp pages write-faulted
 *       56     8  churn_allocs: allocations made by shm-pcp churn companions
 *       64     8  failures: FAIL lines this worker printed
 *       72     8  skipped: 1 when the worker ended with a SKIP
 *       80   256  skip reason, NUL-terminated
 *      336        end (sizeof(struct smm_stats_file))
 * A reader must check magic and version and may read while workers run.
 */
#ifndef SMM_STATS_H
#define SMM_STATS_H

#include <stdint.h>
#include <sys/types.h>

#define SMM_STATS_ENV "STRESS_MM_STATS_DIR"
#define SMM_STATS_MAGIC "SMMSTAT1"
#define SMM_STATS_VERSION 1

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
	char skip_reason[256];
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

/* smm_stats_skip() - record a SKIP and its reason; NULL-safe. */
void smm_stats_skip(struct smm_stats_file *s, const char *reason);

/*
 * smm_stats_check_dir() - validate a STRESS_MM_STATS_DIR value: absolute,
 * an existing directory, writable. Return: 0 or -EINVAL (not absolute),
 * -ENOTDIR, or the -errno of stat(2)/access(2).
 */
int smm_stats_check_dir(const char *dir);

#endif /* SMM_STATS_H */
