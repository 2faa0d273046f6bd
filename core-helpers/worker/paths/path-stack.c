// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * path-stack.c - kernel thread stacks (CONFIG_VMAP_STACK) as a vmalloc path.
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "params.h"
#include "path-stack.h"
#include "report.h"
#include "sysfacts.h"
#include "vmstat.h"
#include "vmproof.h"

/* A limit shared with other groups (RLIMIT_NPROC, pids cgroup) can be full
 * for a moment: retry a batch that got no thread at all for up to 50 ms. */
#define EAGAIN_RETRIES 50
#define EAGAIN_WAIT_US 1000

static const char *const stack_callers[] = {
	"kernel_clone",
	"copy_process",
	"dup_task_struct",
	"_do_fork",
	"alloc_thread_stack_node",
	NULL,
};

/*
 * Threads. On x86_64 they are raw clone(2) threads (CLONE_VM | CLONE_THREAD
 * ...) on preallocated user stacks, with no TLS of their own: they only
 * wait on the futex gate through an inline system call (no errno, so no
 * TLS access), and are joined through CLONE_CHILD_CLEARTID. The kernel does
 * the same work for them as for a pthread (copy_process(), a THREAD_SIZE
 * vmalloc stack, exit), less glibc's per-thread set-up (TLS copy,
 * set_robust_list, rseq), which kept the user-space share of the CPU this
 * path causes above 5%. All signals are blocked in them (inherited from the
 * creating thread), so stress-ng's SIGALRM lands on the worker's own thread.
 * Elsewhere: POSIX threads.
 */
#if defined(__x86_64__)
#define RAW_THREADS 1
#define RAW_STACK_BYTES (16UL << 10)
#endif

struct stack_state {
	const char *stressor;
	uint64_t batch; /* live threads per bogo-op, after clamping */
	uint64_t cap; /* threads the arrays hold */
	int gate; /* futex word: 0 parked, 1 released */
#if defined(RAW_THREADS)
	char *stacks; /* cap x RAW_STACK_BYTES */
	pid_t *ctid; /* tid while alive, 0 once exited (CLEARTID) */
#else
	pthread_attr_t attr;
	pthread_t *tids;
#endif
};

#if defined(RAW_THREADS)
static long raw_futex(int *uaddr, long op, long val)
{
	long ret;
	register long r10 __asm__("r10") = 0;

	__asm__ __volatile__("syscall"
			     : "=a"(ret)
			     : "0"((long)SYS_futex), "D"(uaddr), "S"(op),
			       "d"(val), "r"(r10)
			     : "rcx", "r11", "memory");
	return ret;
}

static int parked(void *arg)
{
	int *gate = arg;

	while (!__atomic_load_n(gate, __ATOMIC_ACQUIRE))
		raw_futex(gate, FUTEX_WAIT_PRIVATE, 0);
	return 0; /* glibc's clone() then calls SYS_exit directly */
}

static int stack_alloc(struct stack_state *st, uint64_t cap)
{
	st->cap = cap;
	st->ctid = calloc(cap, sizeof(*st->ctid));
	st->stacks = mmap(
		NULL, cap * RAW_STACK_BYTES, PROT_READ | PROT_WRITE,
		MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
	if (st->stacks == MAP_FAILED)
		st->stacks = NULL;
	return st->ctid && st->stacks ? 0 : -ENOMEM;
}

static void stack_free(struct stack_state *st)
{
	if (st->stacks)
		munmap(st->stacks, st->cap * RAW_STACK_BYTES);
	free(st->ctid);
}

/* Create up to @n parked threads; returns how many exist, *err = the
 * errno that stopped it early (0 if none). */
static uint64_t create_parked(struct stack_state *st, uint64_t n, int *err)
{
	const int flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
			  CLONE_THREAD | CLONE_SYSVSEM | CLONE_PARENT_SETTID |
			  CLONE_CHILD_CLEARTID;
	sigset_t all, old;
	uint64_t i;

	*err = 0;
	__atomic_store_n(&st->gate, 0, __ATOMIC_RELEASE);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (i = 0; i < n; i++) {
		char *top = st->stacks + (i + 1) * RAW_STACK_BYTES;

		if (clone(parked, top, flags, &st->gate, &st->ctid[i], NULL,
			  &st->ctid[i]) < 0) {
			*err = errno;
			break;
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return i;
}

static void release_parked(struct stack_state *st, uint64_t n)
{
	__atomic_store_n(&st->gate, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &st->gate, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL,
		0);
	for (uint64_t i = 0; i < n; i++) {
		pid_t t;

		while ((t = __atomic_load_n(&st->ctid[i], __ATOMIC_ACQUIRE)))
			syscall(SYS_futex, &st->ctid[i], FUTEX_WAIT, t, NULL,
				NULL, 0);
	}
}
#else
static void *parked(void *arg)
{
	int *gate = arg;

	while (!__atomic_load_n(gate, __ATOMIC_ACQUIRE))
		syscall(SYS_futex, gate, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	return NULL;
}

static int stack_alloc(struct stack_state *st, uint64_t cap)
{
	st->cap = cap;
	st->tids = calloc(cap, sizeof(*st->tids));
	if (!st->tids || pthread_attr_init(&st->attr) != 0)
		return -ENOMEM;
	/* Small user stacks: only the kernel stack is under test. */
	pthread_attr_setstacksize(&st->attr, PTHREAD_STACK_MIN);
	return 0;
}

static void stack_free(struct stack_state *st)
{
	if (st->tids)
		pthread_attr_destroy(&st->attr);
	free(st->tids);
}

static uint64_t create_parked(struct stack_state *st, uint64_t n, int *err)
{
	uint64_t i;

	*err = 0;
	__atomic_store_n(&st->gate, 0, __ATOMIC_RELEASE);
	for (i = 0; i < n; i++) {
		*err = pthread_create(&st->tids[i], &st->attr, parked,
				      &st->gate);
		if (*err)
			break;
	}
	return i;
}

static void release_parked(struct stack_state *st, uint64_t n)
{
	__atomic_store_n(&st->gate, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &st->gate, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL,
		0);
	for (uint64_t i = 0; i < n; i++)
		pthread_join(st->tids[i], NULL);
}
#endif

static void stack_teardown(void *state)
{
	struct stack_state *st = state;

	if (!st)
		return;
	stack_free(st);
	free(st);
}

/*
 * Prove the path: hold @n threads alive and look for new stack areas in
 * /proc/vmallocinfo; fall back to nr_kernel_stack (KiB) when unreadable.
 * Returns 0 or -errno with @why set (the path cannot run).
 */
static int stack_probe(struct stack_state *st, uint64_t n,
		       const struct smm_vmpath_cfg *cfg, char *why, size_t len)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	long page = sysconf(_SC_PAGESIZE);
	uint64_t kst0 = 0, kst1 = 0, made, thread_size = 0, t0;
	char size_txt[32], bytes_txt[32];
	struct smm_vmproof_result r;
	struct smm_vmproof p;
	int err;

	smm_vmproof_begin(&p, stack_callers);
	smm_vmstat("nr_kernel_stack", &kst0);
	t0 = smm_now_ns();
	made = create_parked(st, n, &err);
	/* Another group may hold the shared limit for a moment. */
	for (int i = 0; i < EAGAIN_RETRIES && made == 0 && err == EAGAIN; i++) {
		usleep(EAGAIN_WAIT_US);
		made = create_parked(st, n, &err);
	}
	smm_vmproof_end(&p, stack_callers, &r);
	smm_vmstat("nr_kernel_stack", &kst1);
	release_parked(st, made);
	if (made == 0) {
		snprintf(
			why, len,
			"stack: cannot create a thread: pthread_create errno=%d (%s); limits: RLIMIT_NPROC, threads-max, pid_max, pids cgroup",
			err, strerror(err));
		return -err;
	}
	if (made < n && made < st->batch) {
		smm_note_once(
			NULL, cfg->stressor,
			"stack: batch clamped from %llu to %llu live threads: pthread_create errno=%d (%s)",
			(unsigned long long)st->batch, (unsigned long long)made,
			err, strerror(err));
		st->batch = made;
	}
	if (!r.err && !r.count && made > (uint64_t)(2 * ncpu + 4)) {
		snprintf(
			why, len,
			"stack: %llu live threads added no thread stack area (kernel_clone, copy_process) to /proc/vmallocinfo: this kernel does not allocate stacks in vmalloc space (CONFIG_VMAP_STACK=n?)",
			(unsigned long long)made);
		return -EOPNOTSUPP;
	}
	if (r.count) {
		thread_size = r.size - (uint64_t)page;
		smm_format_size(thread_size, size_txt, sizeof(size_txt));
		smm_note_once(
			"stack-achieved", cfg->stressor,
			"stack: kernel thread stacks are %s areas of %llu bytes (THREAD_SIZE %s + guard page), pages=%lu (order %d), caller %s; probe: %llu live threads, %zu new stack areas system-wide",
			smm_vma_kind(r.flags), (unsigned long long)r.size,
			size_txt, r.pages, smm_page_order(r.pages), r.caller,
			(unsigned long long)made, r.fresh);
	} else if (made >= 16 && kst1 > kst0) {
		/* nr_kernel_stack is in KiB (mm/vmstat.c). Rounded to a power
		 * of two: other tasks come and go meanwhile. */
		uint64_t kib = (kst1 - kst0 + made / 2) / made;

		thread_size = 1024;
		while (thread_size < kib * 1024 * 3 / 4 &&
		       thread_size < 1 << 24)
			thread_size <<= 1;
		smm_format_size(thread_size, size_txt, sizeof(size_txt));
		smm_note_once(
			"stack-achieved", cfg->stressor,
			"stack: kernel thread stacks of about %s (nr_kernel_stack grew %llu KiB for %llu threads), kind vmalloc not verified: /proc/vmallocinfo errno=%d (%s)",
			size_txt, (unsigned long long)(kst1 - kst0),
			(unsigned long long)made, -r.err, strerror(-r.err));
	}
	smm_batch_estimate(cfg->stressor, "stack", smm_now_ns() - t0, made,
			   st->batch);
	if (!thread_size)
		smm_note_once(
			"stack-achieved", cfg->stressor,
			"stack: stack size and vmalloc backing not measured: %llu live threads in the probe, /proc/vmallocinfo %s",
			(unsigned long long)made,
			r.err ? strerror(-r.err) : "readable");
	if (thread_size && cfg->bytes != thread_size) {
		smm_format_size(cfg->bytes, bytes_txt, sizeof(bytes_txt));
		smm_note_once(
			NULL, cfg->stressor,
			"stack: %s requested, but thread stacks are THREAD_SIZE = %s on this kernel: using %s",
			bytes_txt, size_txt, size_txt);
	}
	return 0;
}

static int stack_setup(void **state, const struct smm_vmpath_cfg *cfg,
		       char *why, size_t len)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t headroom, tmax, pmax, probe, probe_tids;
	struct stack_state *st;
	int rc;

	st = calloc(1, sizeof(*st));
	if (!st) {
		snprintf(why, len, "stack: out of memory");
		return -ENOMEM;
	}
	st->stressor = cfg->stressor;
	st->batch = cfg->batch;
	if (smm_task_headroom(&headroom, &tmax, &pmax) == 0 &&
	    st->batch > headroom / 2) {
		smm_note_once(
			NULL, cfg->stressor,
			"stack: batch clamped from %llu to %llu live threads: half the task headroom (threads-max %llu, pid_max %llu)",
			(unsigned long long)st->batch,
			(unsigned long long)(headroom / 2),
			(unsigned long long)tmax, (unsigned long long)pmax);
		st->batch = headroom / 2;
		if (st->batch == 0) {
			stack_teardown(st);
			snprintf(
				why, len,
				"stack: no task headroom left (threads-max %llu, pid_max %llu)",
				(unsigned long long)tmax,
				(unsigned long long)pmax);
			return -EAGAIN;
		}
	}
	/* The probe holds enough threads to get past the per-CPU stack cache
	 * (2 per CPU) whatever the batch, within the clamp. */
	probe = (uint64_t)(4 * ncpu + 16);
	if (probe < st->batch)
		probe = st->batch < 256 ? st->batch : 256;
	if (st->batch < cfg->batch && probe > st->batch)
		probe = st->batch;
	if (probe < st->batch)
		probe_tids = st->batch;
	else
		probe_tids = probe;
	if (stack_alloc(st, probe_tids) != 0) {
		stack_teardown(st);
		snprintf(why, len, "stack: out of memory");
		return -ENOMEM;
	}
	rc = stack_probe(st, probe, cfg, why, len);
	if (rc) {
		stack_teardown(st);
		return rc;
	}
	if (st->batch <= (uint64_t)(2 * ncpu))
		smm_note_once(
			NULL, cfg->stressor,
			"stack: batch %llu <= 2 stacks x %ld CPUs: most stacks come from the kernel's per-CPU cache of freed stacks (NR_CACHED_STACKS 2), not from vmalloc",
			(unsigned long long)st->batch, ncpu);
	*state = st;
	return 0;
}

static int stack_batch(void *state, uint64_t *allocs, char *what, size_t len)
{
	struct stack_state *st = state;
	uint64_t made;
	int err;

	made = create_parked(st, st->batch, &err);
	for (int i = 0; i < EAGAIN_RETRIES && made == 0 && err == EAGAIN; i++) {
		usleep(EAGAIN_WAIT_US);
		made = create_parked(st, st->batch, &err);
	}
	release_parked(st, made);
	*allocs += made;
	if (!err)
		return 0;
	if (err == EAGAIN && made > 0) {
		smm_note_once(
			NULL, st->stressor,
			"stack: batch clamped from %llu to %llu live threads: pthread_create errno=%d (%s)",
			(unsigned long long)st->batch, (unsigned long long)made,
			err, strerror(err));
		st->batch = made;
		return 0;
	}
	snprintf(what, len, "stack: pthread_create of thread %llu of %llu",
		 (unsigned long long)made + 1, (unsigned long long)st->batch);
	return -err;
}

const struct smm_vmpath smm_vmpath_stack = {
	.name = "stack",
	.kind = "vmalloc",
	.callers = stack_callers,
	.natural_bytes = 16384,
	.setup = stack_setup,
	.batch = stack_batch,
	.teardown = stack_teardown,
};
