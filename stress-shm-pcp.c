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
#include "core-builtin.h"
#include "core-killpid.h"
#include "core-mmap.h"
#include "core-shm-pcp.h"
#include "core-signal.h"
#include "core-vmalloc.h"

#if defined(HAVE_SYS_IPC_H)
#include <sys/ipc.h>
#endif

#if defined(HAVE_SYS_PRCTL_H)
#include <sys/prctl.h>
#endif

#if defined(HAVE_SYS_SHM_H)
#include <sys/shm.h>
#endif

/*
 *  shm-pcp: shared memory page faults against concurrent vmalloc churn,
 *  with CPU-matched controls, to reproduce and measure order-0 per-CPU
 *  page list (PCP) starvation.
 *
 *  One bogo-op is one shared memory object cycle: create the object
 *  (POSIX shm_open, memfd_create or SysV shmget; method all takes them
 *  in turn, one per bogo-op), size it, map it MAP_SHARED, write-fault
 *  every page once at page size steps (mm/shmem.c shmem_fault() ->
 *  shmem_get_folio_gfp(), order-0 folios unless shmem THP is enabled),
 *  unmap it and destroy it. With --verify every page is read back once
 *  all are faulted and must hold the 64 bit word written to it.
 *
 *  Meanwhile --shm-pcp-churn-procs companion processes of each worker
 *  run a vmalloc path (core-vmalloc.h) without pause, or spin (the same
 *  CPU time without allocating: the control), or there are none. They
 *  are processes and not threads so that they meet the worker in the
 *  page allocator and not on one mmap lock. PCP lists are per CPU
 *  (mm/page_alloc.c, struct per_cpu_pages): pages a companion frees on
 *  CPU n restock only CPU n's lists, hence the placement:
 *    same    worker i on the (i mod n)th CPU it may use, its companions
 *            on its CPU, where their frees feed its faults;
 *    spread  workers as for same, companions on the other CPUs, so that
 *            they meet only on the zone lock (one usable CPU: same);
 *    any     nothing is pinned.
 *
 *  On kernels with "mm/vmalloc: request large order pages from buddy
 *  allocator" and "vmalloc: optimize vfree with free_pages_bulk()" a
 *  16K thread stack is taken and freed as one order-2 block, so exiting
 *  threads stop restocking the order-0 lists that faults draw from. On
 *  kernels without them (6.18 and older) a difference between the stack
 *  and spin modes is plain interference, not that regression.
 */
static const stress_help_t help[] = {
	{ NULL,	"shm-pcp N",		"start N workers faulting shared memory pages against vmalloc churn" },
	{ NULL,	"shm-pcp-bytes N",	"size of each shared memory object, every page faulted per bogo-op" },
	{ NULL,	"shm-pcp-churn-batch N", "churn allocations alive at once in one companion batch" },
	{ NULL,	"shm-pcp-churn-bytes N", "size of each churn allocation, 0 is the path's natural size" },
	{ NULL,	"shm-pcp-churn-procs N", "churn companion processes per worker" },
	{ NULL,	"shm-pcp-cpu P",	"placement of worker and companions: same, spread or any" },
	{ NULL,	"shm-pcp-method M",	"shared memory: all, posix, memfd or sysv" },
	{ NULL,	"shm-pcp-mode M",	"companions: stack, io-uring, bpf, ldt, pty, spin or none" },
	{ NULL,	"shm-pcp-ops N",	"stop after N shared memory object cycles" },
	{ NULL,	NULL,			NULL }
};

#define MIN_SHM_PCP_BYTES		(64 * KB)
#define MAX_SHM_PCP_BYTES		(1 * GB)
#define DEFAULT_SHM_PCP_BYTES		(8 * MB)

#define MIN_SHM_PCP_CHURN_BYTES		(0)
#define MAX_SHM_PCP_CHURN_BYTES		(1 * GB)
#define DEFAULT_SHM_PCP_CHURN_BYTES	(0)

#define MIN_SHM_PCP_CHURN_BATCH		(1)
#define MAX_SHM_PCP_CHURN_BATCH		(4096)
#define DEFAULT_SHM_PCP_CHURN_BATCH	(128)

#define MIN_SHM_PCP_CHURN_PROCS		(0)
#define MAX_SHM_PCP_CHURN_PROCS		(64)
#define DEFAULT_SHM_PCP_CHURN_PROCS	(1)

/* what the companions do, --shm-pcp-mode */
typedef struct {
	const char *name;		/* mode name */
	const char *path;		/* vmalloc path they churn, NULL if none */
	bool companions;		/* false: no companion at all */
} stress_shm_pcp_mode_t;

static const stress_shm_pcp_mode_t stress_shm_pcp_modes[] = {
	{ "stack",	"stack",	true },
	{ "io-uring",	"io-uring",	true },
	{ "bpf",	"bpf",		true },
	{ "ldt",	"ldt",		true },
	{ "pty",	"pty",		true },
	{ "spin",	NULL,		true },
	{ "none",	NULL,		false },
};

#define STRESS_SHM_PCP_MODE_STACK	(0)	/* default */

/* placement, --shm-pcp-cpu */
#define STRESS_SHM_PCP_CPU_SAME		(0)	/* default */
#define STRESS_SHM_PCP_CPU_SPREAD	(1)
#define STRESS_SHM_PCP_CPU_ANY		(2)

static const char * const stress_shm_pcp_cpus[] = {
	"same",
	"spread",
	"any",
};

/*
 *  stress_shm_pcp_mode_of()
 *	mode i: a row of the table, or past it a path added to the vmalloc
 *	path table (stress_vmalloc_path_add()), whose name is the mode's
 *	and which the companions churn; NULL past the last
 */
static const stress_shm_pcp_mode_t *stress_shm_pcp_mode_of(const size_t i,
	stress_shm_pcp_mode_t *added)
{
	const stress_vmalloc_path_info_t *info;

	if (i < SIZEOF_ARRAY(stress_shm_pcp_modes))
		return &stress_shm_pcp_modes[i];
	info = stress_vmalloc_path_info(STRESS_VMALLOC_PATHS_NUM + i -
		SIZEOF_ARRAY(stress_shm_pcp_modes));
	if (!info)
		return NULL;
	added->name = info->name;
	added->path = info->name;
	added->companions = true;
	return added;
}

static const char *stress_shm_pcp_mode(const size_t i)
{
	stress_shm_pcp_mode_t added;
	const stress_shm_pcp_mode_t *mode = stress_shm_pcp_mode_of(i, &added);

	return mode ? mode->name : NULL;
}

static const char *stress_shm_pcp_cpu(const size_t i)
{
	return (i < SIZEOF_ARRAY(stress_shm_pcp_cpus)) ? stress_shm_pcp_cpus[i] : NULL;
}

#if defined(HAVE_LIB_RT) &&	\
    defined(HAVE_SHM_OPEN) &&	\
    defined(HAVE_SHM_UNLINK)
#define STRESS_SHM_PCP_POSIX
#endif

#if defined(HAVE_MEMFD_CREATE)
#define STRESS_SHM_PCP_MEMFD
#endif

#if defined(HAVE_SYS_IPC_H) &&	\
    defined(HAVE_SYS_SHM_H) &&	\
    defined(HAVE_SHM_SYSV)
#define STRESS_SHM_PCP_SYSV
#endif

#if defined(__linux__) &&		\
    (defined(STRESS_SHM_PCP_POSIX) ||	\
     defined(STRESS_SHM_PCP_MEMFD) ||	\
     defined(STRESS_SHM_PCP_SYSV))
#define STRESS_SHM_PCP_IMPLEMENTED
#endif

#if defined(STRESS_SHM_PCP_IMPLEMENTED)

#define STRESS_SHM_PCP_ALIVE_CHECK	(16)	/* cycles between looks for companions reaped elsewhere */
#define STRESS_SHM_PCP_PAGE_CHUNK	(256)	/* pages between updates of the page count */

#if !defined(MFD_CLOEXEC)
#define MFD_CLOEXEC			(0)
#endif

/* one companion's slot in the mapping it shares with its worker */
typedef struct {
	uint64_t allocs;		/* churn allocations made */
	size_t batch;			/* allocations per batch after clamps */
	int err;			/* errno why it cannot run, 0 if it can */
	char reason[256];		/* what failed, for the skip line */
	size_t n_kinds;			/* kinds[] filled in by its set-up */
	/* each kind of its path as set-up judged it: proven, or why not */
	stress_vmalloc_kind_info_t kinds[STRESS_VMALLOC_KINDS_MAX];
} stress_shm_pcp_slot_t;

/* all a worker has */
typedef struct {
	/* settings */
	size_t bytes;			/* --shm-pcp-bytes */
	size_t method;			/* --shm-pcp-method, methods[] index */
	size_t mode;			/* --shm-pcp-mode, stress_shm_pcp_mode_of() */
	size_t churn_bytes;		/* --shm-pcp-churn-bytes, 0: natural */
	size_t churn_batch;		/* --shm-pcp-churn-batch */
	size_t churn_procs;		/* --shm-pcp-churn-procs */
	size_t cpu;			/* --shm-pcp-cpu */
	bool verify;			/* --verify */

	/* what ran and what it achieved */
	uint64_t seq;			/* object cycles begun */
	uint64_t pages;			/* pages write-faulted */
	uint64_t verified;		/* cycles whose pages were read back */
	uint64_t churn_allocs;		/* companions' allocations, last read */
	size_t procs;			/* companions started */
	uint64_t restarts;		/* companions restarted after SIGKILL */
	size_t path;			/* row of the vmalloc path table */
	size_t batch;			/* companions' batch after clamps */
	bool stopped;			/* the run ended during set-up */
	bool cut;			/* the run ended mid-cycle */
	int skip_err;			/* the errno it skipped with, 0 if none */
	int worker_cpu;			/* -1: not pinned */
	int companion_cpu[MAX_SHM_PCP_CHURN_PROCS];
	char placement[320];		/* what the placement did */
	stress_shm_pcp_slot_t *slots;	/* shared with the companions */
	size_t slots_size;
	stress_pid_t s_pids[MAX_SHM_PCP_CHURN_PROCS];
} stress_shm_pcp_context_t;

typedef int (*stress_shm_pcp_func_t)(stress_args_t *args, stress_shm_pcp_context_t *ctx);

typedef struct {
	const char *name;		/* method name */
	const stress_shm_pcp_func_t func; /* one object cycle */
} stress_shm_pcp_method_t;

/*
 *  A page of a full tmpfs (its size= or nr_blocks=) cannot be had at
 *  the faulting store: shmem_fault() returns VM_FAULT_SIGBUS on -ENOSPC.
 *  stress-ng has no helper that turns that SIGBUS into an error, so the
 *  fault loop catches it itself; a signal handler reaches nothing but a
 *  static, hence this one jump buffer.
 */
static sigjmp_buf stress_shm_pcp_jmp_env;

static void NORETURN MLOCKED_TEXT stress_shm_pcp_sigbus(int signum)
{
	stress_signal_siglongjmp(signum, stress_shm_pcp_jmp_env, 1);
}

/*
 *  stress_shm_pcp_errno_rc()
 *	the exit status of a skip for errno err, as stress-ng sorts them
 */
static int stress_shm_pcp_errno_rc(const int err)
{
	switch (err) {
	case ENOSYS:
	case EPERM:
	case EACCES:
	case EOPNOTSUPP:
		return EXIT_NOT_IMPLEMENTED;
	default:
		return EXIT_NO_RESOURCE;
	}
}

/*
 *  stress_shm_pcp_error()
 *	a step of a cycle failed with errno err: no room or no memory in
 *	shmem is a skip, anything else a failure
 */
static int stress_shm_pcp_error(stress_args_t *args, stress_shm_pcp_context_t *ctx,
	const int err, const char *what)
{
	if ((err == ENOSPC) || (err == ENOMEM)) {
		ctx->skip_err = err;
		pr_inf_skip("%s: %s, errno=%d (%s), skipping stressor\n",
			args->name, what, err, strerror(err));
		return EXIT_NO_RESOURCE;
	}
	pr_fail("%s: %s failed, errno=%d (%s)\n",
		args->name, what, err, strerror(err));
	return EXIT_FAILURE;
}

/*
 *  stress_shm_pcp_alarm_block()
 *	hold SIGALRM across the few system calls between creating an object
 *	and unlinking it or marking it for removal: where the stop signal
 *	ends a process at once (stress-ng's plugin stressor) no name is left
 */
static void stress_shm_pcp_alarm_block(sigset_t *old_set)
{
	sigset_t set;

	(void)sigemptyset(&set);
	(void)sigaddset(&set, SIGALRM);
	(void)sigprocmask(SIG_BLOCK, &set, old_set);
}

/*
 *  stress_shm_pcp_stamp()
 *	the word written to page n of cycle seq: it differs from page to page
 *	and from cycle to cycle (objects are at most 2^18 pages)
 */
static inline uint64_t stress_shm_pcp_stamp(const uint64_t seq, const size_t n)
{
	return 0x5aa5000000000000ULL ^ (seq << 20) ^ (uint64_t)n;
}

/*
 *  stress_shm_pcp_verify()
 *	read every page back: each must hold the word written to it
 */
static int stress_shm_pcp_verify(
	stress_args_t *args,
	stress_shm_pcp_context_t *ctx,
	const volatile uint64_t *words,
	const uint64_t seq,
	const size_t n)
{
	const size_t stride = args->page_size / sizeof(*words);
	size_t i;

	for (i = 0; i < n; i++) {
		const uint64_t got = words[i * stride];
		const uint64_t want = stress_shm_pcp_stamp(seq, i);

		if (UNLIKELY(got != want)) {
			pr_fail("%s: verify: page %zu of %zu bytes holds 0x%" PRIx64
				", 0x%" PRIx64 " was written\n",
				args->name, i, ctx->bytes, got, want);
			return EXIT_FAILURE;
		}
	}
	ctx->verified++;
	return EXIT_SUCCESS;
}

/*
 *  stress_shm_pcp_fault()
 *	write-fault every page of the object mapped at words once; the page
 *	count grows chunk by chunk so that a kill in the middle loses at
 *	most one chunk, and at each chunk the end of the run cuts the cycle
 *	short (a 1G object takes seconds): no bogo-op, nothing verified
 */
static int stress_shm_pcp_fault(
	stress_args_t *args,
	stress_shm_pcp_context_t *ctx,
	volatile uint64_t *words,
	const uint64_t seq,
	const char *where)
{
	const size_t stride = args->page_size / sizeof(*words);
	const size_t n_pages = (ctx->bytes + args->page_size - 1) / args->page_size;
	volatile uint64_t *pages = &ctx->pages;
	volatile size_t n = 0, told = 0;
	struct sigaction old_action;

	if (stress_signal_handler(args->name, SIGBUS, stress_shm_pcp_sigbus, &old_action) < 0)
		return EXIT_FAILURE;
	if (sigsetjmp(stress_shm_pcp_jmp_env, 1) != 0) {
		(void)stress_signal_restore(args->name, SIGBUS, &old_action);
		*pages += n - told;
		ctx->skip_err = ENOSPC;
		pr_inf_skip("%s: %s is full: a page of a %zu byte object could not "
			"be had (SIGBUS at the fault), errno=%d (%s), skipping stressor\n",
			args->name, where, ctx->bytes, ENOSPC, strerror(ENOSPC));
		return EXIT_NO_RESOURCE;
	}
	while (n < n_pages) {
		words[n * stride] = stress_shm_pcp_stamp(seq, n);
		n++;
		if (UNLIKELY(n - told == STRESS_SHM_PCP_PAGE_CHUNK)) {
			*pages += STRESS_SHM_PCP_PAGE_CHUNK;
			told = n;
			if (UNLIKELY(!stress_continue_flag()))
				break;
		}
	}
	(void)stress_signal_restore(args->name, SIGBUS, &old_action);
	*pages += n - told;
	if (n < n_pages) {
		ctx->cut = true;
		return EXIT_SUCCESS;
	}

	return ctx->verify ? stress_shm_pcp_verify(args, ctx, words, seq, n) : EXIT_SUCCESS;
}

/*
 *  stress_shm_pcp_fd_cycle()
 *	size the object of fd, map it shared, fault it, unmap it and close fd
 */
static int stress_shm_pcp_fd_cycle(
	stress_args_t *args,
	stress_shm_pcp_context_t *ctx,
	const int fd,
	const uint64_t seq,
	const char *where)
{
	char what[128];
	void *p;
	int rc, err;

	if (ftruncate(fd, (off_t)ctx->bytes) < 0) {
		err = errno;
		(void)close(fd);
		(void)snprintf(what, sizeof(what), "ftruncate to %zu bytes", ctx->bytes);
		return stress_shm_pcp_error(args, ctx, err, what);
	}
	p = mmap(NULL, ctx->bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		err = errno;
		(void)close(fd);
		(void)snprintf(what, sizeof(what), "mmap MAP_SHARED of %zu bytes", ctx->bytes);
		return stress_shm_pcp_error(args, ctx, err, what);
	}
	rc = stress_shm_pcp_fault(args, ctx, (volatile uint64_t *)p, seq, where);
	(void)munmap(p, ctx->bytes);
	(void)close(fd);
	return rc;
}

/*
 *  stress_shm_pcp_allocs()
 *	allocations the companions made so far
 */
static uint64_t stress_shm_pcp_allocs(stress_shm_pcp_context_t *ctx)
{
	uint64_t allocs = 0;
	size_t i;

	if (!ctx->slots)
		return ctx->churn_allocs;
	for (i = 0; i < ctx->procs; i++)
		allocs += ctx->slots[i].allocs;
	ctx->churn_allocs = allocs;
	return allocs;
}

static int stress_shm_pcp_companion_restart(stress_args_t *args,
	stress_shm_pcp_context_t *ctx, const size_t idx, const pid_t pid);

/*
 *  stress_shm_pcp_companion_ended()
 *	companion idx ended with status under a running worker: SIGKILL
 *	(the OOM killer, as stress-ng takes it) restarts it; no resource
 *	left mid-run, said in its slot, skips; anything else is a failure
 */
static int stress_shm_pcp_companion_ended(stress_args_t *args, stress_shm_pcp_context_t *ctx,
	const size_t idx, const pid_t pid, const int status)
{
	if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGKILL))
		return stress_shm_pcp_companion_restart(args, ctx, idx, pid);
	if (WIFEXITED(status) && (WEXITSTATUS(status) == EXIT_NO_RESOURCE) &&
	    ctx->slots[idx].err) {
		ctx->skip_err = ctx->slots[idx].err;
		pr_inf_skip("%s: %s, skipping stressor\n", args->name, ctx->slots[idx].reason);
		return EXIT_NO_RESOURCE;
	}
	if (WIFSIGNALED(status))
		pr_fail("%s: churn companion %" PRIdMAX " was killed by signal %d (%s)\n",
			args->name, (intmax_t)pid, WTERMSIG(status),
			stress_signal_name(WTERMSIG(status)));
	else
		pr_fail("%s: churn companion %" PRIdMAX " exited with status %d\n",
			args->name, (intmax_t)pid, WEXITSTATUS(status));
	return EXIT_FAILURE;
}

/*
 *  stress_shm_pcp_companions_check()
 *	reap what ended: companions (stress_shm_pcp_companion_ended()) and
 *	the children of killed ones, which the worker adopts as subreaper;
 *	every STRESS_SHM_PCP_ALIVE_CHECK cycles, a companion gone without
 *	being reaped here is a failure
 */
static int stress_shm_pcp_companions_check(stress_args_t *args, stress_shm_pcp_context_t *ctx)
{
	size_t i;
	int rc;

	for (;;) {
		int status = 0;
		const pid_t pid = waitpid(-1, &status, WNOHANG);

		if ((pid < 0) && (errno == EINTR))
			continue;
		if (pid <= 0)
			break;
		for (i = 0; (i < ctx->procs) && (ctx->s_pids[i].pid != pid); i++)
			;
		if (i == ctx->procs)
			continue;	/* a parked child of a killed companion */
		ctx->s_pids[i].pid = -1;
		if (!stress_continue_flag())
			continue;	/* it was stopped for the end of the run */
		rc = stress_shm_pcp_companion_ended(args, ctx, i, pid, status);
		if (rc != EXIT_SUCCESS)
			return rc;
	}
	for (i = 0; (ctx->seq % STRESS_SHM_PCP_ALIVE_CHECK == 0) && (i < ctx->procs); i++) {
		const pid_t pid = ctx->s_pids[i].pid;

		if ((pid > 1) && (kill(pid, 0) < 0) && (errno == ESRCH) && stress_continue_flag()) {
			pr_fail("%s: churn companion %" PRIdMAX " ended, reaped elsewhere\n",
				args->name, (intmax_t)pid);
			return EXIT_FAILURE;
		}
	}
	return EXIT_SUCCESS;
}

/*
 *  stress_shm_pcp_begin()
 *	start of a cycle: reap a companion that ended (a SIGKILLed one is
 *	restarted here, at most a cycle after it died); returns the
 *	cycle's sequence number in *seq
 */
static int stress_shm_pcp_begin(stress_args_t *args, stress_shm_pcp_context_t *ctx, uint64_t *seq)
{
	if (ctx->procs) {
		const int rc = stress_shm_pcp_companions_check(args, ctx);

		if (rc != EXIT_SUCCESS)
			return rc;
	}
	*seq = ctx->seq++;
	return EXIT_SUCCESS;
}

#if defined(STRESS_SHM_PCP_POSIX)
/*
 *  stress_shm_pcp_posix()
 *	one cycle of a POSIX shared memory object
 */
static int stress_shm_pcp_posix(stress_args_t *args, stress_shm_pcp_context_t *ctx)
{
	char name[64], what[96];
	sigset_t old_set;
	uint64_t seq;
	int fd, err = 0, rc;

	rc = stress_shm_pcp_begin(args, ctx, &seq);
	if (rc != EXIT_SUCCESS)
		return rc;
	(void)snprintf(name, sizeof(name), "/" STRESS_SHM_PCP_PREFIX "%" PRIdMAX "-%" PRIu64,
		(intmax_t)getpid(), seq);
	stress_shm_pcp_alarm_block(&old_set);
	fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, S_IRUSR | S_IWUSR);
	if (fd < 0)
		err = errno;
	else
		(void)shm_unlink(name);
	(void)sigprocmask(SIG_SETMASK, &old_set, NULL);
	if (fd < 0) {
		(void)snprintf(what, sizeof(what), "shm_open %s", name);
		return stress_shm_pcp_error(args, ctx, err, what);
	}
	return stress_shm_pcp_fd_cycle(args, ctx, fd, seq, "/dev/shm");
}
#endif

#if defined(STRESS_SHM_PCP_MEMFD)
/*
 *  stress_shm_pcp_memfd()
 *	one cycle of a memfd object
 */
static int stress_shm_pcp_memfd(stress_args_t *args, stress_shm_pcp_context_t *ctx)
{
	uint64_t seq;
	int fd, rc;

	rc = stress_shm_pcp_begin(args, ctx, &seq);
	if (rc != EXIT_SUCCESS)
		return rc;
	fd = shim_memfd_create(STRESS_SHM_PCP_PREFIX "memfd", MFD_CLOEXEC);
	if (fd < 0)
		return stress_shm_pcp_error(args, ctx, errno, "memfd_create");
	return stress_shm_pcp_fd_cycle(args, ctx, fd, seq, "memfd's shmem mount");
}
#endif

#if defined(STRESS_SHM_PCP_SYSV)
/*
 *  stress_shm_pcp_sysv_get()
 *	a new segment of ctx->bytes under a key of our base: first the one
 *	of the worker's pid, else the next free one; -errno on failure
 */
static int stress_shm_pcp_sysv_get(stress_shm_pcp_context_t *ctx)
{
	const unsigned int low = (unsigned int)getpid() & 0xffffU;
	unsigned int i;

	for (i = 0; i <= 0xffffU; i++) {
		const key_t key = (key_t)(STRESS_SHM_PCP_SYSV_KEY_BASE | ((low + i) & 0xffffU));
		int id;

		id = shmget(key, ctx->bytes, IPC_CREAT | IPC_EXCL | S_IRUSR | S_IWUSR);
		if ((id < 0) && (errno == EEXIST) && (i == 0)) {
			/* a dead worker with the same low pid bits may have left it */
			(void)stress_shm_pcp_sysv_sweep(1);
			id = shmget(key, ctx->bytes, IPC_CREAT | IPC_EXCL | S_IRUSR | S_IWUSR);
		}
		if (id >= 0)
			return id;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/*
 *  stress_shm_pcp_sysv()
 *	one cycle of a SysV shared memory segment, marked for removal
 *	right after it is attached
 */
static int stress_shm_pcp_sysv(stress_args_t *args, stress_shm_pcp_context_t *ctx)
{
	char what[96];
	sigset_t old_set;
	uint64_t seq;
	void *p;
	int id, err = 0, rc;

	rc = stress_shm_pcp_begin(args, ctx, &seq);
	if (rc != EXIT_SUCCESS)
		return rc;
	stress_shm_pcp_alarm_block(&old_set);
	id = stress_shm_pcp_sysv_get(ctx);
	if (id < 0) {
		(void)sigprocmask(SIG_SETMASK, &old_set, NULL);
		(void)snprintf(what, sizeof(what), "shmget of %zu bytes", ctx->bytes);
		return stress_shm_pcp_error(args, ctx, -id, what);
	}
	p = shmat(id, NULL, 0);
	if (p == (void *)-1)
		err = errno;
	(void)shmctl(id, IPC_RMID, NULL);
	(void)sigprocmask(SIG_SETMASK, &old_set, NULL);
	if (err)
		return stress_shm_pcp_error(args, ctx, err, "shmat");
	rc = stress_shm_pcp_fault(args, ctx, (volatile uint64_t *)p, seq, "SysV shm (shmem)");
	(void)shmdt(p);
	return rc;
}
#endif

static int stress_shm_pcp_all(stress_args_t *args, stress_shm_pcp_context_t *ctx);

static const stress_shm_pcp_method_t stress_shm_pcp_methods[] = {
	{ "all",	stress_shm_pcp_all },
#if defined(STRESS_SHM_PCP_POSIX)
	{ "posix",	stress_shm_pcp_posix },
#endif
#if defined(STRESS_SHM_PCP_MEMFD)
	{ "memfd",	stress_shm_pcp_memfd },
#endif
#if defined(STRESS_SHM_PCP_SYSV)
	{ "sysv",	stress_shm_pcp_sysv },
#endif
};

/*
 *  stress_shm_pcp_all()
 *	one cycle of each kind of shared memory in turn
 */
static int stress_shm_pcp_all(stress_args_t *args, stress_shm_pcp_context_t *ctx)
{
	const size_t n = SIZEOF_ARRAY(stress_shm_pcp_methods) - 1;

	return stress_shm_pcp_methods[1 + (size_t)(ctx->seq % n)].func(args, ctx);
}

static const char *stress_shm_pcp_method(const size_t i)
{
	return (i < SIZEOF_ARRAY(stress_shm_pcp_methods)) ? stress_shm_pcp_methods[i].name : NULL;
}

/*
 *  stress_shm_pcp_settings()
 *	the options, or their defaults when unset: --maximize and --minimize
 *	then take the largest or smallest object and churn batch (the churn
 *	bytes, companions and placement shape the experiment: kept)
 */
static void stress_shm_pcp_settings(stress_shm_pcp_context_t *ctx)
{
	size_t i;

	if (!stress_setting_get("shm-pcp-bytes", &ctx->bytes)) {
		ctx->bytes = DEFAULT_SHM_PCP_BYTES;
		if (g_opt_flags & OPT_FLAGS_MAXIMIZE)
			ctx->bytes = MAX_SHM_PCP_BYTES;
		if (g_opt_flags & OPT_FLAGS_MINIMIZE)
			ctx->bytes = MIN_SHM_PCP_BYTES;
	}
	if (!stress_setting_get("shm-pcp-method", &ctx->method)) {
		/* posix when built, else the first kind there is */
		ctx->method = 1;
		for (i = 1; i < SIZEOF_ARRAY(stress_shm_pcp_methods); i++) {
			if (!strcmp(stress_shm_pcp_methods[i].name, "posix")) {
				ctx->method = i;
				break;
			}
		}
	}
	if (!stress_setting_get("shm-pcp-mode", &ctx->mode) || !stress_shm_pcp_mode(ctx->mode))
		ctx->mode = STRESS_SHM_PCP_MODE_STACK;
	if (!stress_setting_get("shm-pcp-churn-bytes", &ctx->churn_bytes))
		ctx->churn_bytes = DEFAULT_SHM_PCP_CHURN_BYTES;
	if (!stress_setting_get("shm-pcp-churn-batch", &ctx->churn_batch)) {
		ctx->churn_batch = DEFAULT_SHM_PCP_CHURN_BATCH;
		if (g_opt_flags & OPT_FLAGS_MAXIMIZE)
			ctx->churn_batch = MAX_SHM_PCP_CHURN_BATCH;
		if (g_opt_flags & OPT_FLAGS_MINIMIZE)
			ctx->churn_batch = MIN_SHM_PCP_CHURN_BATCH;
	}
	if (!stress_setting_get("shm-pcp-churn-procs", &ctx->churn_procs))
		ctx->churn_procs = DEFAULT_SHM_PCP_CHURN_PROCS;
	if (!stress_setting_get("shm-pcp-cpu", &ctx->cpu))
		ctx->cpu = STRESS_SHM_PCP_CPU_SAME;
	ctx->verify = !!(g_opt_flags & OPT_FLAGS_VERIFY);
}

/*
 *  stress_shm_pcp_pin()
 *	pin the calling process to cpu, -1 leaves it; 0 or -errno
 */
static int stress_shm_pcp_pin(const int cpu)
{
#if defined(HAVE_SCHED_SETAFFINITY) &&	\
    defined(HAVE_CPU_SET_T)
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return (sched_setaffinity(0, sizeof(set), &set) < 0) ? -errno : 0;
#else
	(void)cpu;

	return 0;
#endif
}

#if defined(HAVE_SCHED_GETAFFINITY) &&	\
    defined(HAVE_SCHED_SETAFFINITY) &&	\
    defined(HAVE_CPU_SET_T)
/*
 *  stress_shm_pcp_nth_cpu()
 *	the nth CPU of set, not counting CPU skip; -1 if there is none
 */
static int stress_shm_pcp_nth_cpu(const cpu_set_t *set, size_t nth, const int skip)
{
	int cpu;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, set) || (cpu == skip))
			continue;
		if (nth-- == 0)
			return cpu;
	}
	return -1;
}
#endif

/*
 *  stress_shm_pcp_place()
 *	decide where the worker and its companions run and pin the worker;
 *	only CPUs of the worker's affinity mask (cpusets included) are used
 */
static int stress_shm_pcp_place(stress_args_t *args, stress_shm_pcp_context_t *ctx)
{
	size_t i, used;

	ctx->worker_cpu = -1;
	for (i = 0; i < SIZEOF_ARRAY(ctx->companion_cpu); i++)
		ctx->companion_cpu[i] = -1;
	if (ctx->cpu == STRESS_SHM_PCP_CPU_ANY) {
		(void)snprintf(ctx->placement, sizeof(ctx->placement),
			"any: worker and %zu companions not pinned", ctx->procs);
		return EXIT_SUCCESS;
	}
#if defined(HAVE_SCHED_GETAFFINITY) &&	\
    defined(HAVE_SCHED_SETAFFINITY) &&	\
    defined(HAVE_CPU_SET_T)
	{
		cpu_set_t set;
		size_t n_cpus;
		int cpu, ret;
		bool same = (ctx->cpu == STRESS_SHM_PCP_CPU_SAME);

		if (sched_getaffinity(0, sizeof(set), &set) < 0) {
			ret = errno;
			ctx->skip_err = ret;
			pr_inf_skip("%s: placement: sched_getaffinity failed, errno=%d (%s), "
				"skipping stressor\n", args->name, ret, strerror(ret));
			return stress_shm_pcp_errno_rc(ret);
		}
		n_cpus = (size_t)CPU_COUNT(&set);
		if (n_cpus == 0) {
			pr_inf_skip("%s: placement: no CPU in the affinity mask, skipping stressor\n",
				args->name);
			return EXIT_NO_RESOURCE;
		}
		cpu = stress_shm_pcp_nth_cpu(&set, (size_t)args->instance % n_cpus, -1);
		ret = stress_shm_pcp_pin(cpu);
		if (ret < 0) {
			ctx->skip_err = -ret;
			pr_inf_skip("%s: placement: cannot pin to CPU %d, errno=%d (%s), "
				"skipping stressor\n", args->name, cpu, -ret, strerror(-ret));
			return stress_shm_pcp_errno_rc(-ret);
		}
		ctx->worker_cpu = cpu;
		if (n_cpus == 1)
			same = true;
		for (i = 0; i < ctx->procs; i++)
			ctx->companion_cpu[i] = same ? cpu :
				stress_shm_pcp_nth_cpu(&set, i % (n_cpus - 1), cpu);
		used = (size_t)snprintf(ctx->placement, sizeof(ctx->placement),
			"%s%s: worker on CPU %d (instance %" PRIu32 "), %zu companions%s",
			same ? "same" : "spread",
			(same && (ctx->cpu == STRESS_SHM_PCP_CPU_SPREAD)) ?
				" (spread needs a second usable CPU)" : "",
			cpu, args->instance, ctx->procs, ctx->procs ? " on CPU" : "");
		for (i = 0; (i < ctx->procs) && (used < sizeof(ctx->placement)); i++)
			used += (size_t)snprintf(ctx->placement + used, sizeof(ctx->placement) - used,
				"%s%d", i ? "," : " ", ctx->companion_cpu[i]);
	}
#else
	(void)args;
	(void)used;
	(void)snprintf(ctx->placement, sizeof(ctx->placement),
		"any: no CPU affinity in this build, worker and %zu companions not pinned",
		ctx->procs);
#endif
	return EXIT_SUCCESS;
}

/*
 *  stress_shm_pcp_ready()
 *	tell the worker that the slot says whether the companion can run:
 *	one byte on its ready pipe
 */
static void stress_shm_pcp_ready(const int fd)
{
	const char ch = 'r';

	if (write(fd, &ch, sizeof(ch)) != (ssize_t)sizeof(ch))
		_exit(EXIT_FAILURE);
	(void)close(fd);
}

/*
 *  stress_shm_pcp_gate()
 *	wait until the worker opens the gate (closes it), or dies
 */
static void stress_shm_pcp_gate(const int fd, const pid_t worker)
{
	char ch;

	while ((read(fd, &ch, sizeof(ch)) < 0) && (errno == EINTR))
		;
	(void)close(fd);
	if (getppid() != worker)
		_exit(EXIT_SUCCESS);
}

/*
 *  stress_shm_pcp_companion()
 *	a companion: pin, set the path up, say ready or why not, wait for
 *	the gate, then churn (or spin) until the worker kills it, or it is
 *	told to stop (SIGALRM: at the parent's death, or SIGINT)
 */
static void NORETURN stress_shm_pcp_companion(
	stress_args_t *args,
	stress_shm_pcp_context_t *ctx,
	const size_t idx,
	const pid_t worker,
	const int ready_fd,
	const int gate_fd)
{
	stress_shm_pcp_slot_t *slot = &ctx->slots[idx];
	stress_shm_pcp_mode_t added;
	const stress_shm_pcp_mode_t *mode = stress_shm_pcp_mode_of(ctx->mode, &added);
	stress_vmalloc_path_t *path = NULL;
	stress_args_t path_args = *args;
	char what[256];
	int ret;

	/* the path's notes (its proof) once: notes come from instance 0, so
	 * the companions after the first, and any restarted, set the path
	 * up as another */
	if ((idx > 0) || ctx->restarts)
		path_args.instance = args->instance + 1;
	/* the companions of all workers share the churn's half of memory */
	path_args.instances = args->instances * (uint32_t)ctx->procs;
	/* SIGALRM stops this companion only, not every stressor of the run */
	(void)stress_vmalloc_child_init(args->name);
	if (getppid() != worker)
		_exit(EXIT_SUCCESS);
	ret = stress_shm_pcp_pin(ctx->companion_cpu[idx]);
	if (ret < 0) {
		slot->err = -ret;
		(void)snprintf(slot->reason, sizeof(slot->reason),
			"churn: companion %zu: cannot pin to CPU %d, errno=%d (%s)",
			idx, ctx->companion_cpu[idx], -ret, strerror(-ret));
		stress_shm_pcp_ready(ready_fd);
		_exit(EXIT_NO_RESOURCE);
	}
	if (mode->path) {
		const size_t bytes = ctx->churn_bytes ? ctx->churn_bytes :
			stress_vmalloc_path_info(ctx->path)->natural_bytes;
		char why[192] = "";

		ret = stress_vmalloc_path_setup(&path_args, ctx->path, bytes, ctx->churn_batch,
			STRESS_VMALLOC_IO_URING_RINGS, &path, why, sizeof(why));
		if (ret < 0) {
			slot->err = -ret;
			(void)snprintf(slot->reason, sizeof(slot->reason), "churn: %s",
				why[0] ? why : "set-up failed");
			stress_shm_pcp_ready(ready_fd);
			_exit(EXIT_NO_RESOURCE);
		}
		slot->batch = stress_vmalloc_path_batch_size(path);
		slot->n_kinds = stress_vmalloc_path_kinds(path, slot->kinds,
			SIZEOF_ARRAY(slot->kinds));
	}
	stress_shm_pcp_ready(ready_fd);
	stress_shm_pcp_gate(gate_fd, worker);

	if (!path) {
		/* spin: the same CPU time, no allocation */
		while (stress_continue_flag())
			stress_asm_mb();
		_exit(EXIT_SUCCESS);
	}
	while (stress_continue_flag()) {
		uint64_t allocs = 0;

		ret = stress_vmalloc_path_batch(path, &allocs, what, sizeof(what));
		slot->allocs += allocs;
		if ((ret == 0) || (ret == -EINTR) || !stress_continue_flag())
			continue;
		if (stress_shm_pcp_errno_rc(-ret) == EXIT_NO_RESOURCE) {
			/* a limit reached mid-run: the worker skips with the reason */
			(void)snprintf(slot->reason, sizeof(slot->reason),
				"churn companion: %.160s, errno=%d (%s)", what, -ret, strerror(-ret));
			slot->err = -ret;
			stress_vmalloc_path_teardown(path);
			_exit(EXIT_NO_RESOURCE);
		}
		pr_fail("%s: churn companion: %s, errno=%d (%s)\n",
			args->name, what, -ret, strerror(-ret));
		stress_vmalloc_path_teardown(path);
		_exit(EXIT_FAILURE);
	}
	stress_vmalloc_path_teardown(path);
	_exit(EXIT_SUCCESS);
}

/*
 *  stress_shm_pcp_companions_fork()
 *	fork companions first..last-1 and wait until each has said whether
 *	it can run; all set up first, then the gate opens and they start
 *	together, so that one that churns already does not slow the set-up
 *	of the next
 */
static int stress_shm_pcp_companions_fork(
	stress_args_t *args,
	stress_shm_pcp_context_t *ctx,
	const size_t first,
	const size_t last)
{
	const pid_t worker = getpid();
	int ready[MAX_SHM_PCP_CHURN_PROCS], gate[2], err = 0;
	bool died = false;
	size_t i, n;
	char why[300] = "";

	if (pipe(gate) < 0) {
		err = errno;
		ctx->skip_err = err;
		pr_inf_skip("%s: churn: pipe failed, errno=%d (%s), skipping stressor\n",
			args->name, err, strerror(err));
		return stress_shm_pcp_errno_rc(err);
	}
	for (n = first; n < last; n++) {
		int fds[2];
		pid_t pid;

		if (pipe(fds) < 0) {
			err = errno;
			(void)snprintf(why, sizeof(why), "churn: pipe failed, errno=%d (%s)",
				err, strerror(err));
			break;
		}
		pid = fork();
		if (pid < 0) {
			err = errno;
			(void)close(fds[0]);
			(void)close(fds[1]);
			(void)snprintf(why, sizeof(why), "churn: fork of companion %zu failed, "
				"errno=%d (%s)", n, err, strerror(err));
			break;
		} else if (pid == 0) {
			(void)close(fds[0]);
			(void)close(gate[1]);
			for (i = first; i < n; i++)
				(void)close(ready[i]);
			stress_shm_pcp_companion(args, ctx, n, worker, fds[1], gate[0]);
		}
		(void)close(fds[1]);
		ready[n] = fds[0];
		ctx->s_pids[n].pid = pid;
	}
	/* the companions' slots say why once their ready byte is here */
	for (i = first; i < n; i++) {
		ssize_t ret;
		char ch;

		do {
			ret = read(ready[i], &ch, sizeof(ch));
		} while ((ret < 0) && (errno == EINTR));
		(void)close(ready[i]);
		if (ret <= 0) {
			died = true;
		} else if (ctx->slots[i].err) {
			if (!err) {
				err = ctx->slots[i].err;
				(void)shim_strscpy(why, ctx->slots[i].reason, sizeof(why));
			}
		} else if (ctx->slots[i].batch &&
			   (!ctx->batch || (ctx->slots[i].batch < ctx->batch))) {
			ctx->batch = ctx->slots[i].batch;
		}
	}
	(void)close(gate[0]);
	(void)close(gate[1]);	/* go */

	if ((died || (err == EINTR)) && !stress_continue_flag()) {
		/* the run ended while they set up: nothing failed */
		ctx->stopped = true;
		return EXIT_SUCCESS;
	}
	if (err) {
		ctx->skip_err = err;
		pr_inf_skip("%s: %s, skipping stressor\n", args->name, why);
		return stress_shm_pcp_errno_rc(err);
	}
	if (died) {
		pr_inf_skip("%s: churn: a companion died before it was ready, skipping stressor\n",
			args->name);
		return EXIT_NO_RESOURCE;
	}
	return EXIT_SUCCESS;
}

/*
 *  stress_shm_pcp_companions_start()
 *	the slots the companions share with the worker, then the companions
 */
static int stress_shm_pcp_companions_start(stress_args_t *args, stress_shm_pcp_context_t *ctx)
{
	int err;

	if (ctx->procs == 0)
		return EXIT_SUCCESS;
#if defined(HAVE_PRCTL) &&		\
    defined(HAVE_SYS_PRCTL_H) &&	\
    defined(PR_SET_CHILD_SUBREAPER)
	/*
	 *  Companions are killed at the end, and the children a companion
	 *  parks (ldt, fdtable) are then orphans: the worker adopts them
	 *  and reaps them, stress-ng has no helper that reaps the children
	 *  of a killed child
	 */
	(void)prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
	ctx->slots_size = ctx->procs * sizeof(*ctx->slots);
	ctx->slots = (stress_shm_pcp_slot_t *)stress_mmap_populate(NULL, ctx->slots_size,
		PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ctx->slots == MAP_FAILED) {
		err = errno;
		ctx->slots = NULL;
		ctx->skip_err = err;
		pr_inf_skip("%s: cannot mmap %zu bytes for the churn companions, errno=%d (%s), "
			"skipping stressor\n", args->name, ctx->slots_size, err, strerror(err));
		return EXIT_NO_RESOURCE;
	}
	(void)shim_memset(ctx->slots, 0, ctx->slots_size);
	return stress_shm_pcp_companions_fork(args, ctx, 0, ctx->procs);
}

/*
 *  stress_shm_pcp_companion_restart()
 *	companion idx was SIGKILLed (the OOM killer, most likely): a new one
 *	takes its place and its slot, the allocations counted so far kept,
 *	as stress-ng restarts an OOM-killed child (stress_oomable_child())
 */
static int stress_shm_pcp_companion_restart(stress_args_t *args,
	stress_shm_pcp_context_t *ctx, const size_t idx, const pid_t pid)
{
	stress_shm_pcp_slot_t *slot = &ctx->slots[idx];

	ctx->restarts++;
	pr_inf("%s: churn companion %zu (pid %" PRIdMAX ") was killed by SIGKILL, "
		"possibly by the OOM killer: restarting it (%" PRIu64 " so far)\n",
		args->name, idx, (intmax_t)pid, ctx->restarts);
	slot->err = 0;
	slot->reason[0] = '\0';
	return stress_shm_pcp_companions_fork(args, ctx, idx, idx + 1);
}

/*
 *  stress_shm_pcp_bytes_clamp()
 *	an object faults at most the instance's share of memory (half the
 *	free memory shared by the instances, stress_vmalloc_memory_share()),
 *	never below the option's minimum; said once when it clamps
 */
static void stress_shm_pcp_bytes_clamp(stress_args_t *args, stress_shm_pcp_context_t *ctx)
{
	const uint64_t share = stress_vmalloc_memory_share(args) / args->page_size * args->page_size;
	const size_t asked = ctx->bytes;

	if ((uint64_t)ctx->bytes <= share)
		return;
	ctx->bytes = (size_t)STRESS_MAXIMUM(share, MIN_SHM_PCP_BYTES);
	if (stress_instance_zero(args))
		pr_inf("%s: objects of %zu bytes clamped to %zu: half the free memory "
			"shared by %" PRIu32 " instances\n", args->name, asked, ctx->bytes,
			args->instances);
}

/*
 *  stress_shm_pcp_context_init()
 *	place the worker, start its companions and say once what runs
 */
static int stress_shm_pcp_context_init(stress_args_t *args, stress_shm_pcp_context_t *ctx)
{
	stress_shm_pcp_mode_t added;
	const stress_shm_pcp_mode_t *mode = stress_shm_pcp_mode_of(ctx->mode, &added);
	const stress_vmalloc_path_info_t *info;
	char batch[64] = "";
	int rc;

	ctx->procs = mode->companions ? ctx->churn_procs : 0;
	stress_shm_pcp_bytes_clamp(args, ctx);
	if (mode->path) {
		for (ctx->path = 0; (info = stress_vmalloc_path_info(ctx->path)) != NULL; ctx->path++) {
			if (!strcmp(info->name, mode->path))
				break;
		}
		if (!info) {
			pr_inf_skip("%s: churn %s: no such vmalloc path in this build, "
				"skipping stressor\n", args->name, mode->name);
			return EXIT_NOT_IMPLEMENTED;
		}
	}
#if defined(STRESS_SHM_PCP_SYSV)
	/* segments of workers killed between shmget() and IPC_RMID */
	if (stress_instance_zero(args))
		(void)stress_shm_pcp_sysv_sweep(1);
#endif
	rc = stress_shm_pcp_place(args, ctx);
	if (rc != EXIT_SUCCESS)
		return rc;
	rc = stress_shm_pcp_companions_start(args, ctx);
	if (rc != EXIT_SUCCESS)
		return rc;
	if (!stress_continue_flag())
		ctx->stopped = true;

	if (ctx->batch == ctx->churn_batch)
		(void)snprintf(batch, sizeof(batch), " (batch %zu)", ctx->batch);
	else if (ctx->batch)
		(void)snprintf(batch, sizeof(batch), " (batch %zu of %zu asked)",
			ctx->batch, ctx->churn_batch);
	if (stress_instance_zero(args))
		pr_inf("%s: %s object of %zu bytes per bogo-op, churn %s x %zu%s, placement %s\n",
			args->name, stress_shm_pcp_methods[ctx->method].name, ctx->bytes,
			mode->name, ctx->procs, batch, ctx->placement);
	return EXIT_SUCCESS;
}

/*
 *  stress_shm_pcp_reap()
 *	reap the children of killed companions the worker adopted, they
 *	end at once as their parent died; give up after 2 seconds
 */
static void stress_shm_pcp_reap(void)
{
	const double t_end = stress_time_now() + 2.0;

	while (stress_time_now() < t_end) {
		const pid_t pid = waitpid(-1, NULL, WNOHANG);

		if ((pid < 0) && (errno == ECHILD))
			break;
		if (pid <= 0)
			(void)shim_usleep(1000);
	}
}

/*
 *  stress_shm_pcp_context_deinit()
 *	say what was verified, stop and reap the companions, free all
 */
static void stress_shm_pcp_context_deinit(stress_args_t *args, stress_shm_pcp_context_t *ctx)
{
	if (ctx->verify && ctx->verified && stress_instance_zero(args))
		pr_inf("%s: verify: every page read back held the word written to it "
			"(%zu pages per object)\n", args->name,
			(ctx->bytes + args->page_size - 1) / args->page_size);
	if (ctx->procs) {
		/*
		 *  SIGKILL: a batch can take seconds (ldt forks a child per
		 *  item) and all a companion holds dies with it; its parked
		 *  children see their pipe close and their parent die
		 */
		(void)stress_kill_and_wait_many(args, ctx->s_pids, ctx->procs, SIGKILL, false);
		stress_shm_pcp_reap();
		ctx->procs = 0;
	}
	if (ctx->slots) {
		(void)munmap((void *)ctx->slots, ctx->slots_size);
		ctx->slots = NULL;
	}
}

/*
 *  stress_shm_pcp_metrics()
 *	pages the worker faulted and allocations its companions made, per
 *	second of its run
 */
static void stress_shm_pcp_metrics(stress_args_t *args, stress_shm_pcp_context_t *ctx, const double duration)
{
	const uint64_t allocs = stress_shm_pcp_allocs(ctx);

	if (duration <= 0.0)
		return;
	stress_metrics_set(args, "pages faulted per sec",
		(double)ctx->pages / duration, STRESS_METRIC_GEOMETRIC_MEAN);
	if (allocs)
		stress_metrics_set(args, "churn allocations per sec",
			(double)allocs / duration, STRESS_METRIC_GEOMETRIC_MEAN);
}

/*
 *  stress_shm_pcp()
 *	stress shared memory page faults while companions churn vmalloc
 */
static int stress_shm_pcp(stress_args_t *args)
{
	stress_shm_pcp_context_t ctx;
	const stress_shm_pcp_method_t *method;
	double t_start, duration;
	int rc;

	(void)shim_memset(&ctx, 0, sizeof(ctx));
	stress_shm_pcp_settings(&ctx);
	method = &stress_shm_pcp_methods[ctx.method];

	rc = stress_shm_pcp_context_init(args, &ctx);
	if (rc != EXIT_SUCCESS) {
		stress_shm_pcp_context_deinit(args, &ctx);
		return rc;
	}

	stress_proc_state_set(args->name, STRESS_STATE_SYNC_WAIT);
	stress_sync_start_wait(args);
	stress_proc_state_set(args->name, STRESS_STATE_RUN);

	t_start = stress_time_now();
	if (!ctx.stopped) {
		do {
			rc = method->func(args, &ctx);
			if ((rc != EXIT_SUCCESS) || ctx.cut)
				break;
			stress_bogo_inc(args);
		} while (stress_continue(args));
	}
	duration = stress_time_now() - t_start;

	stress_proc_state_set(args->name, STRESS_STATE_DEINIT);
	if (rc == EXIT_SUCCESS)
		stress_shm_pcp_metrics(args, &ctx, duration);
	stress_shm_pcp_context_deinit(args, &ctx);

	return rc;
}

#else

static const char *stress_shm_pcp_method(const size_t i)
{
	(void)i;

	return NULL;
}

#endif

static const stress_opt_t opts[] = {
	{ OPT_shm_pcp_bytes,	   "shm-pcp-bytes",	  TYPE_ID_SIZE_T_BYTES_VM, MIN_SHM_PCP_BYTES, MAX_SHM_PCP_BYTES, NULL },
	{ OPT_shm_pcp_churn_batch, "shm-pcp-churn-batch", TYPE_ID_SIZE_T, MIN_SHM_PCP_CHURN_BATCH, MAX_SHM_PCP_CHURN_BATCH, NULL },
	{ OPT_shm_pcp_churn_bytes, "shm-pcp-churn-bytes", TYPE_ID_SIZE_T_BYTES_VM, MIN_SHM_PCP_CHURN_BYTES, MAX_SHM_PCP_CHURN_BYTES, NULL },
	{ OPT_shm_pcp_churn_procs, "shm-pcp-churn-procs", TYPE_ID_SIZE_T, MIN_SHM_PCP_CHURN_PROCS, MAX_SHM_PCP_CHURN_PROCS, NULL },
	{ OPT_shm_pcp_cpu,	   "shm-pcp-cpu",	  TYPE_ID_SIZE_T_METHOD, 0, 0, stress_shm_pcp_cpu },
	{ OPT_shm_pcp_method,	   "shm-pcp-method",	  TYPE_ID_SIZE_T_METHOD, 0, 0, stress_shm_pcp_method },
	{ OPT_shm_pcp_mode,	   "shm-pcp-mode",	  TYPE_ID_SIZE_T_METHOD, 0, 0, stress_shm_pcp_mode },
	END_OPT,
};

#if defined(STRESS_SHM_PCP_IMPLEMENTED)
static const stress_exercises_t exercises[] = {
	STRESS_EX_FEATURE("page-faults-minor"),
	STRESS_EX_FEATURE("memory-stores"),
	STRESS_EX_FEATURE("vmalloc"),
	STRESS_EX_FEATURE("lock-contention"),

	STRESS_EX_SYSCALL("fork"),
	STRESS_EX_SYSCALL("ftruncate"),
#if defined(STRESS_SHM_PCP_MEMFD)
	STRESS_EX_SYSCALL("memfd_create"),
#endif
	STRESS_EX_SYSCALL("mmap"),
	STRESS_EX_SYSCALL("munmap"),
	STRESS_EX_SYSCALL("sched_setaffinity"),
#if defined(STRESS_SHM_PCP_SYSV)
	STRESS_EX_SYSCALL("shmat"),
	STRESS_EX_SYSCALL("shmctl"),
	STRESS_EX_SYSCALL("shmdt"),
	STRESS_EX_SYSCALL("shmget"),
#endif
#if defined(STRESS_SHM_PCP_POSIX)
	STRESS_EX_SYSCALL("shm_open"),
	STRESS_EX_SYSCALL("shm_unlink"),
	STRESS_EX_LIBRARY("rt"),
#endif
	STRESS_EX_END,
};

const stressor_info_t stress_shm_pcp_info = {
	.stressor = stress_shm_pcp,
	.classifier = CLASS_VM | CLASS_OS,
	.opts = opts,
	.verify = VERIFY_OPTIONAL,
	.help = help,
	.exercises = exercises,
};

#else
const stressor_info_t stress_shm_pcp_info = {
	.stressor = stress_unimplemented,
	.classifier = CLASS_VM | CLASS_OS,
	.opts = opts,
	.verify = VERIFY_OPTIONAL,
	.help = help,
	.unimplemented_reason = "built without POSIX shm_open, memfd_create or SysV shared memory"
};

#endif
