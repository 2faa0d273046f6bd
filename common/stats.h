/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats.h - the record: the one channel from a worker to the front end.
 *
 * Every worker, whatever runs it (the plugin, a stressor built into
 * stress-ng, the front end's test_vmalloc runner), writes one record when
 * STRESS_MM_STATS_DIR (an absolute path to a writable directory) is set:
 *
 *     $STRESS_MM_STATS_DIR/<stressor>.<pid>.stats
 *
 * sized to one struct smm_stats_file and mapped MAP_SHARED. Counts are
 * updated in place with relaxed atomic adds: no system call per update, and
 * what was counted survives a SIGKILL or SIGALRM of the worker at any
 * instant (the page cache keeps the pages). Churn companions inherit the
 * mapping and write to it too. The reader removes the files. The front end
 * takes a worker's counts, its SKIP or FAIL (errno and reason), a crash,
 * its placement and what each path achieved from here, never from the
 * lines the worker printed.
 *
 * Format (native endianness, little-endian on x86_64), version 6:
 *   offset size field          unit, meaning
 *        0    8 magic          "SMMSTATS" (no NUL)
 *        8    4 version        6
 *       12    4 pid            the worker's pid
 *       16   16 stressor       "vmalloc-order" or "shm-pcp", NUL-padded
 *       32    8 calls          bogo-ops done (= stress-ng's, within one)
 *       40    8 allocs         vmalloc-order allocations made
 *       48    8 pages          shm-pcp pages write-faulted, added every
 *                              SMM_STATS_PAGE_CHUNK pages as they are
 *                              faulted (a cut cycle counts all but its
 *                              last chunk)
 *       56    8 churn_allocs   allocations made by churn companions
 *       64    8 failures       failed calls
 *       72    8 skipped        1 when the worker ended with a SKIP, else 0
 *       80    4 skip_errno     positive errno of that SKIP, 0 if none
 *       84    4 fail_errno     positive errno of the last failure, 0 if none
 *       88    4 cpu            CPU the worker is pinned to, -1 if none
 *       92    4 slot           its place in the run's round-robin over the
 *                              allowed CPUs (0-based), -1 if none
 *       96    4 companions     churn companions recorded below (0..64)
 *      100    4 crash_signal   first signal that crashed the worker or a
 *                              companion (SIGSEGV, SIGBUS, ...), 0 if none
 *      104  256 companion_cpu  int32 x 64: CPU of each companion, -1 if not
 *                              pinned; entries past companions are -1
 *      360  256 skip_reason    the SKIP's reason, NUL-terminated
 *      616    8 kernel_alloc_ns  ns the kernel spent in allocation calls,
 *                              as the path measured them (path module:
 *                              the module's ktime around vmalloc); 0 for
 *                              paths that cannot see it
 *      624    8 kernel_free_ns   the same for the frees (vfree)
 *      632  256 fail_reason    what the last failure was, without its
 *                              errno, NUL-terminated
 *      888 3936 paths          struct smm_stats_path x 12, below
 *     4824    8 batch          what ran: allocations per bogo-op after the
 *                              clamps (vmalloc-order: the path's, the
 *                              smallest of its paths for "all"; shm-pcp:
 *                              the churn companions', the smallest of
 *                              theirs); 0 until a path is set up, and with
 *                              churn spin or none
 *     4832    8 bytes          what ran: bytes asked for one allocation
 *                              (vmalloc-order: its bytes, each path takes
 *                              the nearest size it reaches, see the path
 *                              slots; shm-pcp: the churn companions', the
 *                              path's natural size when churn bytes is 0);
 *                              0 when batch is
 *     4840      end (sizeof(struct smm_stats_file))
 *
 * struct smm_stats_path, one per path or kind a worker set up:
 *        0   32 name           "stack", "io-uring rings", ...; NUL-terminated
 *       32    4 state          enum smm_path_state; 0: slot unused
 *       36    4 err            positive errno: why left out or not verified
 *       40    4 kind           enum smm_area_kind (SMM_PATH_PROVEN)
 *       44    4 order          log2(pages) when pages is a power of two,
 *                              else -1
 *       48    8 area_bytes     /proc/vmallocinfo's size, guard page included
 *       56    8 pages          its pages=; 0 for a vmap area
 *       64    8 requested      bytes asked for, 0 if none
 *       72   64 caller         the area's caller, as vmallocinfo names it
 *      136  184 reason         why left out or not verified
 *      320    4 decided        enum smm_path_decided: how set-up's proof
 *                              decided the kind
 *      324    4 reserved       0
 *      328      end
 * A slot is claimed by compare-and-swap of state; the first writer of a
 * name wins, and a reader merges slots of one name (two companions may
 * claim one at once).
 *
 * A reader checks magic, version and size (smm_stats_read()) and may read
 * while workers run.
 */
#ifndef SMM_STATS_H
#define SMM_STATS_H

#include <stdint.h>
#include <sys/types.h>

#define SMM_STATS_ENV "STRESS_MM_STATS_DIR"
#define SMM_STATS_MAGIC "SMMSTATS"
#define SMM_STATS_VERSION 6
#define SMM_STATS_COMPANIONS 64 /* companion_cpu entries */
#define SMM_STATS_PAGE_CHUNK 256 /* pages between updates of pages */
#define SMM_STATS_PATHS 12 /* path slots */

enum smm_path_state {
	SMM_PATH_UNUSED = 0,
	SMM_PATH_PROVEN, /* kind, area_bytes, pages, order, caller valid */
	SMM_PATH_UNPROVEN, /* ran, not verified: err and reason say why */
	SMM_PATH_LEFT_OUT, /* could not run here: err and reason */
	SMM_PATH_CLAIMED = 0x7fffffff, /* being written: readers skip it */
};

enum smm_path_decided {
	SMM_DECIDED_NOTHING = 0, /* not measured: a per-CPU cache, no proof */
	SMM_DECIDED_AREAS, /* its areas in /proc/vmallocinfo */
	SMM_DECIDED_VMALLOCUSED, /* /proc/meminfo VmallocUsed grew */
	SMM_DECIDED_RULE, /* the kernel's rule: vmallocinfo unreadable */
};

enum smm_area_kind {
	SMM_AREA_VMALLOC = 1, /* pages from the page allocator, vfree'd */
	SMM_AREA_VMAP, /* address space only, pages come from elsewhere */
	SMM_AREA_OTHER,
};

struct smm_stats_path {
	char name[32];
	uint32_t state;
	int32_t err;
	uint32_t kind;
	int32_t order;
	uint64_t area_bytes;
	uint64_t pages;
	uint64_t requested;
	char caller[64];
	char reason[184];
	uint32_t decided; /* enum smm_path_decided */
	uint32_t reserved;
};

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
	int32_t crash_signal;
	int32_t companion_cpu[SMM_STATS_COMPANIONS];
	char skip_reason[256];
	uint64_t kernel_alloc_ns;
	uint64_t kernel_free_ns;
	char fail_reason[256];
	struct smm_stats_path paths[SMM_STATS_PATHS];
	uint64_t batch;
	uint64_t bytes;
};

/*
 * smm_stats_open() - create and map this process's record in @dir.
 * @dir: absolute directory; NULL or "" means records are off.
 * The file's blocks are allocated here (posix_fallocate(3)): a full
 * filesystem is ENOSPC now, never a SIGBUS at a store into the mapping.
 * Return: the mapping, or NULL when off or on error (errno set; a worker
 * goes on without a record rather than fail the run).
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
 * smm_stats_text() - copy @src into a record's text field @dst of @len
 * bytes; a text that does not fit is cut to end in "...", so that a reader
 * sees the cut.
 */
void smm_stats_text(char *dst, size_t len, const char *src);

/*
 * smm_stats_skip() - record a SKIP: its positive errno @err (0 if none) and
 * @reason (cut to 255 bytes, smm_stats_text()); NULL-safe.
 */
void smm_stats_skip(struct smm_stats_file *s, int err, const char *reason);

/*
 * smm_stats_fail() - count one failure of positive errno @err, kept as
 * fail_errno with @reason (cut to 255 bytes, smm_stats_text()); NULL-safe.
 */
void smm_stats_fail(struct smm_stats_file *s, int err, const char *reason);

/*
 * smm_stats_crash() - record signal @sig as the crash_signal unless one is
 * recorded; async-signal-safe, NULL-safe.
 */
void smm_stats_crash(struct smm_stats_file *s, int sig);

/*
 * smm_stats_place() - record the worker's CPU and @slot (-1: none) and its
 * @n companions' CPUs (at most SMM_STATS_COMPANIONS kept); NULL-safe.
 */
void smm_stats_place(struct smm_stats_file *s, int cpu, int slot,
		     const int *companion_cpu, unsigned int n);

/*
 * smm_stats_ran() - record what ran: @batch allocations per bogo-op of
 * @bytes each (the fields batch and bytes, above); NULL-safe.
 */
void smm_stats_ran(struct smm_stats_file *s, uint64_t batch, uint64_t bytes);

/*
 * smm_stats_path_add() - record what a path achieved (@p->state is
 * SMM_PATH_PROVEN, _UNPROVEN or _LEFT_OUT) in a free slot, unless a slot
 * of that name is recorded already. Return: 0; -EEXIST (recorded
 * already); -ENOSPC (no free slot); -EINVAL (a bad state). NULL-safe (0).
 */
int smm_stats_path_add(struct smm_stats_file *s,
		       const struct smm_stats_path *p);

/* smm_area_kind_name() - "vmalloc", "vmap", "other", or "?" for @kind. */
const char *smm_area_kind_name(uint32_t kind);

/* smm_path_decided_name() - how a kind was decided (enum
 * smm_path_decided): "vmallocinfo", "VmallocUsed", "rule", "not
 * measured", or "?". */
const char *smm_path_decided_name(uint32_t decided);

/*
 * smm_stats_read() - read one record into @out and check it.
 * Return: 0; -errno of open(2)/read(2); -EBADMSG when it is not a record
 * (no "SMMSTAT" magic, short, or a path slot of an unknown state);
 * -EPROTO when it is one of another version. On success strings in @out
 * are NUL-terminated, companions is at most SMM_STATS_COMPANIONS, and
 * slots being claimed read as unused.
 */
int smm_stats_read(const char *path, struct smm_stats_file *out);

/* stress-ng's exit statuses, which a record's SKIP or failure maps to. */
enum smm_exit_status {
	SMM_EX_OK,
	SMM_EX_USAGE,
	SMM_EX_FAIL,
	SMM_EX_NORES, /* skipped: no resource */
	SMM_EX_NOTIMPL, /* skipped: not implemented here */
};

/*
 * smm_errno_exit_status() - stress-ng's exit status for a stressor that
 * stopped with positive errno @err, as stress-ng sorts errors:
 * SMM_EX_NOTIMPL for ENOSYS, EPERM, EOPNOTSUPP, EACCES; SMM_EX_NORES for
 * ENOMEM, ENOSPC, EAGAIN, EMFILE, ENFILE; SMM_EX_FAIL for any other errno
 * and for 0.
 */
int smm_errno_exit_status(int err);

/* smm_worse_status() - the worse of two statuses: 128 + a signal, then
 * usage, then failure, then no resource, then not implemented, then 0. */
int smm_worse_status(int a, int b);

/*
 * smm_stats_exit_status() - what one record says: SMM_EX_FAIL when it
 * counted a failure or a crash, else smm_errno_exit_status(skip_errno)
 * when it skipped (SMM_EX_NOTIMPL when the errno is 0: a skip without a
 * cause), else SMM_EX_OK.
 */
int smm_stats_exit_status(const struct smm_stats_file *s);

/*
 * smm_stats_check_dir() - validate a STRESS_MM_STATS_DIR value: absolute,
 * an existing directory, writable, where a record can be made (a file of
 * a record's size is made and removed: /proc, /sys and a full filesystem
 * fail here). Return: 0 or -EINVAL (not absolute), -ENOTDIR, or the
 * -errno of stat(2), access(2), open(2) or posix_fallocate(3) (ENOSPC).
 */
int smm_stats_check_dir(const char *dir);

#endif /* SMM_STATS_H */
