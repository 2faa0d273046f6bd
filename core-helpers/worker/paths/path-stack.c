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

#include "headroom.h"
#include "path-stack.h"

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

/* Release every parked thread: the gate opens and stays open. */
static void open_gate(struct stack_state *st)
{
	__atomic_store_n(&st->gate, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &st->gate, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL,
		0);
}

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

static void stack_free(struct stack_state *st);

static int stack_room(void *ctx, uint64_t cap)
{
	struct stack_state *st = ctx;

	stack_free(st);
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
	st->stacks = NULL;
	st->ctid = NULL;
}

/* Create up to @n parked threads; returns how many exist, *err = the
 * errno that stopped it early (0 if none). */
static uint64_t create_parked(void *ctx, uint64_t n, int *err)
{
	struct stack_state *st = ctx;
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

static void release_parked(void *ctx, uint64_t n)
{
	struct stack_state *st = ctx;

	open_gate(st);
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

static void stack_free(struct stack_state *st);

static int stack_room(void *ctx, uint64_t cap)
{
	struct stack_state *st = ctx;

	stack_free(st);
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
	st->tids = NULL;
}

static uint64_t create_parked(void *ctx, uint64_t n, int *err)
{
	struct stack_state *st = ctx;
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

static void release_parked(void *ctx, uint64_t n)
{
	struct stack_state *st = ctx;

	open_gate(st);
	for (uint64_t i = 0; i < n; i++)
		pthread_join(st->tids[i], NULL);
}
#endif

static void stack_destroy(void *ctx)
{
	stack_free(ctx);
	free(ctx);
}

/* The size is THREAD_SIZE whatever cfg->bytes asks: the report says so. */
static int stack_prepare(void **ctx, const struct smm_vmpath_cfg *cfg,
			 char *why, size_t len)
{
	(void)cfg;
	*ctx = calloc(1, sizeof(struct stack_state));
	if (!*ctx) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

static const int stack_resource[] = { EAGAIN, ENOMEM, 0 };

static const struct smm_holder_ops stack_ops = {
	.name = "stack",
	.unit = "threads",
#if defined(RAW_THREADS)
	.verb = "clone",
#else
	.verb = "pthread_create",
#endif
	.first = "create a thread",
	.callers = stack_callers,
	.per_item = 1,
	.resource = stack_resource,
	/* A limit shared with other groups (RLIMIT_NPROC, pids cgroup) can
	 * be full for a moment. */
	.retry_errno = EAGAIN,
	.cached_per_cpu = 2,
	.cache = "NR_CACHED_STACKS 2, kernel/fork.c",
	.what = "kernel thread stacks",
	.cannot =
		"limits: RLIMIT_NPROC, threads-max, pid_max, pids cgroup, seccomp",
	.no_area =
		"this kernel does not allocate stacks in vmalloc space (CONFIG_VMAP_STACK=n?)",
	.prepare = stack_prepare,
	.destroy = stack_destroy,
	.headroom = smm_headroom_tasks,
	.room = stack_room,
	.acquire = create_parked,
	.release = release_parked,
};

static const struct smm_holder_ops *const stack_kinds[] = { &stack_ops, NULL };

const struct smm_vmpath smm_vmpath_stack = {
	.name = "stack",
	.kind = "vmalloc",
	.natural_bytes = 16384,
	.kinds = stack_kinds,
};
