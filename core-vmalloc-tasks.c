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
#include "core-memory.h"
#include "core-vmalloc.h"

#include <fcntl.h>
#include <sys/resource.h>

#if defined(STRESS_VMALLOC_SUPPORTED)

#if defined(HAVE_LINUX_FUTEX_H)
#include <linux/futex.h>
#endif
#if defined(HAVE_ASM_LDT_H)
#include <asm/ldt.h>
#endif
#if defined(HAVE_LIB_PTHREAD)
#include <pthread.h>
#endif
#include <sched.h>

#include "core-vmalloc-kind.h"

/*
 *  The kinds whose items are tasks: parked threads (stack: their kernel
 *  stacks) and parked forked children (ldt, fdtable: their copies of the
 *  parent's LDT or fd table, and their own stacks).
 */

/*
 *  Forked children parked on a pipe as items, for allocations per
 *  process (the mm's LDT, the file table): each waits until release
 *  closes the write end, then exits and is reaped. The pipe's write end
 *  dies with the worker whatever kills it, and the parent death signal
 *  is set too, so that no child outlives it.
 */
static const int stress_vmalloc_fork_resource[] = { EAGAIN, ENOMEM, 0 };

static int stress_vmalloc_children_room(stress_vmalloc_kind_t *k, const uint64_t cap)
{
	free(k->pids);
	k->gate[0] = -1;
	k->gate[1] = -1;
	k->cap = cap;
	k->pids = calloc((size_t)cap, sizeof(*k->pids));
	return k->pids ? 0 : -ENOMEM;
}

static void NORETURN stress_vmalloc_child_parked(const char *name, const int fd, const pid_t parent)
{
	char ch;

	(void)stress_vmalloc_child_init(name);
	while ((getppid() == parent) && (read(fd, &ch, 1) < 0) && (errno == EINTR))
		;
	_exit(0);
}

static uint64_t stress_vmalloc_children_acquire(stress_vmalloc_kind_t *k, const uint64_t n, int *err)
{
	const pid_t parent = getpid();
	uint64_t i;

	*err = 0;
	if (pipe2(k->gate, O_CLOEXEC) < 0) {
		*err = errno;
		k->gate[0] = -1;
		k->gate[1] = -1;
		return 0;
	}
	for (i = 0; (i < n) && (i < k->cap) && !stress_vmalloc_stopped(err); i++) {
		const pid_t pid = fork();

		if (pid < 0) {
			*err = errno;
			break;
		}
		if (pid == 0) {
			(void)close(k->gate[1]);
			stress_vmalloc_child_parked(k->args->name, k->gate[0], parent);
		}
		k->pids[i] = pid;
	}
	return i;
}

static void stress_vmalloc_children_release(stress_vmalloc_kind_t *k, const uint64_t n)
{
	uint64_t i;

	if (k->gate[1] >= 0)
		(void)close(k->gate[1]);
	for (i = 0; i < n; i++)
		(void)shim_waitpid(k->pids[i], NULL, 0);
	if (k->gate[0] >= 0)
		(void)close(k->gate[0]);
	k->gate[0] = -1;
	k->gate[1] = -1;
}

/*
 *  stack: kernel thread stacks. kernel/fork.c under CONFIG_VMAP_STACK:
 *  alloc_thread_stack_node() takes a freed stack from a per-CPU cache
 *  of NR_CACHED_STACKS (2), else __vmalloc_node()s THREAD_SIZE (16K,
 *  order 2 on x86_64); vmallocinfo "20480 kernel_clone+0x.../0x...
 *  pages=4 vmalloc". Items: threads parked on a futex. On x86_64 they
 *  are raw clone(2) threads on preallocated stacks without TLS of their
 *  own: they only wait on the futex by an inline system call (no errno)
 *  and are joined through CLONE_CHILD_CLEARTID, so the kernel does a
 *  pthread's work without glibc's per-thread set-up, which kept the
 *  user-space share of this path above 5%. All signals are blocked in
 *  them, so the stressor's SIGALRM lands on its own thread; the worker
 *  takes its signals every 16 clones, and stops there when told to.
 */
static const char * const stress_vmalloc_stack_callers[] = {
	"kernel_clone", "copy_process", "dup_task_struct", "_do_fork",
	"alloc_thread_stack_node", NULL
};

static const int stress_vmalloc_stack_resource[] = { EAGAIN, ENOMEM, 0 };

#if defined(__x86_64__) &&		\
    defined(HAVE_CLONE) &&		\
    defined(__NR_futex) &&		\
    defined(FUTEX_WAIT_PRIVATE) &&	\
    defined(FUTEX_WAKE_PRIVATE) &&	\
    defined(CLONE_CHILD_CLEARTID)
#define STRESS_VMALLOC_RAW_THREADS
#define STRESS_VMALLOC_RAW_STACK	(16 * KB)
#define STRESS_VMALLOC_RAW_STOP_EVERY	(16)	/* clones between looks */

static int stress_vmalloc_thread_parked(void *arg)
{
	int *futex = (int *)arg;

	while (!__atomic_load_n(futex, __ATOMIC_ACQUIRE)) {
		long int ret;
		register long int r10 __asm__("r10") = 0;

		__asm__ __volatile__("syscall"
			: "=a"(ret)
			: "0"((long int)__NR_futex), "D"(futex),
			  "S"((long int)FUTEX_WAIT_PRIVATE), "d"(0L), "r"(r10)
			: "rcx", "r11", "memory");
		(void)ret;
	}
	return 0;	/* clone()'s wrapper then calls exit directly */
}

static void stress_vmalloc_stack_free(stress_vmalloc_kind_t *k)
{
	if (k->stacks)
		(void)munmap((void *)k->stacks, (size_t)k->cap * STRESS_VMALLOC_RAW_STACK);
	free(k->ctid);
	k->stacks = NULL;
	k->ctid = NULL;
}

static int stress_vmalloc_stack_room(stress_vmalloc_kind_t *k, const uint64_t cap)
{
	void *p;

	stress_vmalloc_stack_free(k);
	k->cap = cap;
	k->ctid = calloc((size_t)cap, sizeof(*k->ctid));
	p = mmap(NULL, (size_t)cap * STRESS_VMALLOC_RAW_STACK, PROT_READ | PROT_WRITE,
		MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
	k->stacks = (p == MAP_FAILED) ? NULL : (char *)p;
	return (k->ctid && k->stacks) ? 0 : -ENOMEM;
}

static uint64_t stress_vmalloc_stack_acquire(stress_vmalloc_kind_t *k, const uint64_t n, int *err)
{
	const int flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
			  CLONE_THREAD | CLONE_SYSVSEM | CLONE_PARENT_SETTID |
			  CLONE_CHILD_CLEARTID;
	sigset_t all, old;
	uint64_t i;

	*err = 0;
	__atomic_store_n(&k->futex, 0, __ATOMIC_RELEASE);
	(void)sigfillset(&all);
	(void)sigprocmask(SIG_SETMASK, &all, &old);
	for (i = 0; (i < n) && (i < k->cap); i++) {
		char *top = k->stacks + (i + 1) * STRESS_VMALLOC_RAW_STACK;

		if ((i % STRESS_VMALLOC_RAW_STOP_EVERY) == 0) {
			/* a stop signal held back meanwhile lands here */
			(void)sigprocmask(SIG_SETMASK, &old, NULL);
			if (stress_vmalloc_stopped(err))
				return i;
			(void)sigprocmask(SIG_SETMASK, &all, NULL);
		}
		if (clone(stress_vmalloc_thread_parked, top, flags, &k->futex,
			  &k->ctid[i], NULL, &k->ctid[i]) < 0) {
			*err = errno;
			break;
		}
	}
	(void)sigprocmask(SIG_SETMASK, &old, NULL);
	return i;
}

static void stress_vmalloc_stack_release(stress_vmalloc_kind_t *k, const uint64_t n)
{
	uint64_t i;

	__atomic_store_n(&k->futex, 1, __ATOMIC_RELEASE);
	(void)syscall(__NR_futex, &k->futex, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
	for (i = 0; i < n; i++) {
		pid_t tid;

		/* the kernel clears ctid and wakes it (shared) at exit */
		while ((tid = __atomic_load_n(&k->ctid[i], __ATOMIC_ACQUIRE)) != 0)
			(void)shim_futex_wait(&k->ctid[i], tid, NULL);
	}
}

#elif defined(HAVE_LIB_PTHREAD)

static void *stress_vmalloc_thread_parked(void *arg)
{
	int *futex = (int *)arg;

	while (!__atomic_load_n(futex, __ATOMIC_ACQUIRE))
		(void)shim_futex_wait(futex, 0, NULL);
	return NULL;
}

static void stress_vmalloc_stack_free(stress_vmalloc_kind_t *k)
{
	free(k->tids);
	k->tids = NULL;
}

static int stress_vmalloc_stack_room(stress_vmalloc_kind_t *k, const uint64_t cap)
{
	stress_vmalloc_stack_free(k);
	k->cap = cap;
	k->tids = calloc((size_t)cap, sizeof(*k->tids));
	return k->tids ? 0 : -ENOMEM;
}

static uint64_t stress_vmalloc_stack_acquire(stress_vmalloc_kind_t *k, const uint64_t n, int *err)
{
	pthread_attr_t attr;
	uint64_t i;

	*err = 0;
	__atomic_store_n(&k->futex, 0, __ATOMIC_RELEASE);
	if (pthread_attr_init(&attr)) {
		*err = ENOMEM;
		return 0;
	}
	/* small user stacks: only the kernel stack is under test */
	(void)pthread_attr_setstacksize(&attr, PTHREAD_STACK_MIN);
	for (i = 0; (i < n) && (i < k->cap) && !stress_vmalloc_stopped(err); i++) {
		*err = pthread_create(&k->tids[i], &attr, stress_vmalloc_thread_parked, &k->futex);
		if (*err)
			break;
	}
	(void)pthread_attr_destroy(&attr);
	return i;
}

static void stress_vmalloc_stack_release(stress_vmalloc_kind_t *k, const uint64_t n)
{
	uint64_t i;

	__atomic_store_n(&k->futex, 1, __ATOMIC_RELEASE);
	(void)shim_futex_wake(&k->futex, INT_MAX);
	for (i = 0; i < n; i++)
		(void)pthread_join(k->tids[i], NULL);
}
#endif

#if defined(STRESS_VMALLOC_RAW_THREADS) ||	\
    defined(HAVE_LIB_PTHREAD)
static int stress_vmalloc_stack_prepare(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	(void)k;
	(void)why;
	(void)len;
	return 0;	/* THREAD_SIZE, whatever the bytes asked: said */
}
#else
static int stress_vmalloc_stack_prepare(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	(void)k;
	(void)snprintf(why, len, "built without clone(2) or POSIX threads");
	return -ENOSYS;
}
#endif

/*
 *  ldt: x86 local descriptor tables. arch/x86/kernel/ldt.c
 *  alloc_ldt_struct() __vmalloc()s a table over a page (more than 512
 *  8-byte entries; at most LDT_ENTRIES 8192, 16 pages). The table
 *  belongs to the mm: ldt_dup_context() copies it, with a new vmalloc,
 *  into every child forked, and the child's exit frees it. Items:
 *  forked children, each holding a copy of the stressor's table of
 *  bytes / 8 entries (513..8192).
 */
static const char * const stress_vmalloc_ldt_callers[] = { "alloc_ldt_struct", NULL };

#if defined(HAVE_ASM_LDT_H) &&	\
    defined(HAVE_MODIFY_LDT) &&	\
    defined(__NR_modify_ldt) &&	\
    defined(LDT_ENTRIES) &&	\
    defined(LDT_ENTRY_SIZE)
#define STRESS_VMALLOC_LDT
#define STRESS_VMALLOC_LDT_MIN	(513)	/* one page holds 512 */

static int stress_vmalloc_ldt_prepare(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	struct user_desc d;

	k->entries = k->bytes / LDT_ENTRY_SIZE;
	if (k->entries < STRESS_VMALLOC_LDT_MIN)
		k->entries = STRESS_VMALLOC_LDT_MIN;
	if (k->entries > LDT_ENTRIES)
		k->entries = LDT_ENTRIES;
	/* writing entry N-1 gives this process a table of N entries */
	(void)shim_memset(&d, 0, sizeof(d));
	d.entry_number = (unsigned int)(k->entries - 1);
	d.seg_32bit = 1;
	d.useable = 1;
	if (shim_modify_ldt(1, &d, sizeof(d)) != 0) {
		const int err = errno;

		(void)snprintf(why, len, "modify_ldt errno=%d (%s): no "
			"CONFIG_MODIFY_LDT_SYSCALL, or forbidden by seccomp",
			err, strerror(err));
		return -err;
	}
	return 0;
}

static void stress_vmalloc_ldt_describe(stress_vmalloc_kind_t *k, char *buf, const size_t len)
{
	(void)snprintf(buf, len, "LDT copies of %" PRIu64 " entries (one per forked "
		"child, which also gets a thread stack)", k->entries);
}

/* ldt.c: a table over one page is vmalloc'ed */
static bool stress_vmalloc_ldt_by_rule(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	const bool over = k->entries * LDT_ENTRY_SIZE > (uint64_t)stress_memory_page_size_get();

	(void)snprintf(why, len, "%s: an LDT of %" PRIu64 " entries is %s a page, x86 ldt.c",
		over ? "vmalloc" : "kmalloc", k->entries, over ? "over" : "within");
	return over;
}
#else
static int stress_vmalloc_ldt_prepare(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	(void)k;
	(void)snprintf(why, len, "modify_ldt(2) is x86 only");
	return -EOPNOTSUPP;
}
#endif

/*
 *  fdtable: fs/file.c. A descriptor above the table's size makes
 *  expand_files() -> alloc_fdtable() kvmalloc an array of 8 bytes per
 *  slot, and fork() copies the table at that size (dup_fd()). kvmalloc
 *  tries kmalloc first: vmalloc only when that fails or above
 *  KMALLOC_MAX_SIZE (more than 524288 slots). The high descriptor is a
 *  duplicate of the path's own /dev/null descriptor by F_DUPFD (the
 *  lowest free number at or above the one asked for, never replacing
 *  an open one) and lives only while a batch does, so that the forks of
 *  other paths copy a small table again. Items: forked children.
 */
static const char * const stress_vmalloc_fdtable_callers[] = {
	"alloc_fdtable", "dup_fd", "expand_fdtable", NULL
};

static int stress_vmalloc_fdtable_prepare(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	uint64_t slots = stress_vmalloc_fdtable_slots(k->bytes);
	struct rlimit rlim;

	k->own = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (k->own < 0) {
		const int err = errno;

		(void)snprintf(why, len, "open /dev/null: errno=%d (%s)", err, strerror(err));
		return -err;
	}
	if (getrlimit(RLIMIT_NOFILE, &rlim) < 0)
		rlim.rlim_cur = 1024;
	k->nofile = (uint64_t)rlim.rlim_cur;
	stress_vmalloc_read_u64("/proc/sys/fs/nr_open", &k->nr_open);
	if (slots > k->nofile)
		slots = k->nofile;
	k->target = (slots > 4) ? (int)slots - 1 : 3;
	return 0;
}

static uint64_t stress_vmalloc_fdtable_acquire(stress_vmalloc_kind_t *k, const uint64_t n, int *err)
{
	k->high = fcntl(k->own, F_DUPFD_CLOEXEC, k->target);
	if (k->high < 0) {
		*err = errno;
		return 0;
	}
	return stress_vmalloc_children_acquire(k, n, err);
}

static void stress_vmalloc_fdtable_release(stress_vmalloc_kind_t *k, const uint64_t n)
{
	stress_vmalloc_children_release(k, n);
	if (k->high >= 0)
		(void)close(k->high);
	k->high = -1;
}

static void stress_vmalloc_fdtable_describe(stress_vmalloc_kind_t *k, char *buf, const size_t len)
{
	(void)snprintf(buf, len, "fd tables up to fd %d (one per forked child, "
		"which also gets a thread stack)", k->target);
}

static void stress_vmalloc_fdtable_why_not(stress_vmalloc_kind_t *k, const int err,
	char *buf, const size_t len)
{
	char table[32], need[32];

	if (err) {
		(void)snprintf(buf, len, "the table grows first by F_DUPFD to fd %d", k->target);
		return;
	}
	(void)stress_vmalloc_size_str(((uint64_t)k->target + 1) * STRESS_VMALLOC_FD_SLOT,
		table, sizeof(table));
	(void)stress_vmalloc_size_str(STRESS_VMALLOC_KMALLOC_MAX / STRESS_VMALLOC_FD_SLOT,
		need, sizeof(need));
	(void)snprintf(buf, len, "fd tables of about %s (highest fd %d, RLIMIT_NOFILE %"
		PRIu64 ") came from kmalloc, not vmalloc: kvmalloc falls back only when "
		"kmalloc fails or above 4 MiB (KMALLOC_MAX_SIZE), i.e. RLIMIT_NOFILE and "
		"fs.nr_open (%" PRIu64 ") above %s descriptors",
		table, k->target, k->nofile, k->nr_open, need);
}

/* fs/file.c alloc_fdtable(): kvmalloc, vmalloc above KMALLOC_MAX_SIZE */
static bool stress_vmalloc_fdtable_by_rule(stress_vmalloc_kind_t *k, char *why, const size_t len)
{
	const uint64_t bytes = ((uint64_t)k->target + 1) * STRESS_VMALLOC_FD_SLOT;
	char table[32];

	(void)snprintf(why, len, "a fd table of %s is %s KMALLOC_MAX_SIZE, fs/file.c kvmalloc",
		stress_vmalloc_size_str(bytes, table, sizeof(table)),
		bytes > STRESS_VMALLOC_KMALLOC_MAX ? "above" : "within");
	return bytes > STRESS_VMALLOC_KMALLOC_MAX;
}

/*
 *  What one item holds, for the memory share of a batch: a kernel
 *  stack and the raw thread's user stack; a ring or buffer pinned; a
 *  filter's pages; two N_TTY areas; a child's LDT or fd table and its
 *  kernel stack.
 */
static uint64_t stress_vmalloc_stack_held(const stress_vmalloc_kind_t *k)
{
	(void)k;
	return 2 * STRESS_VMALLOC_THREAD_SIZE;
}

static uint64_t stress_vmalloc_ldt_held(const stress_vmalloc_kind_t *k)
{
	return stress_vmalloc_round_page(k->entries * 8) + STRESS_VMALLOC_THREAD_SIZE;
}

static uint64_t stress_vmalloc_fdtable_held(const stress_vmalloc_kind_t *k)
{
	return stress_vmalloc_round_page(((uint64_t)k->target + 1) * STRESS_VMALLOC_FD_SLOT) +
		STRESS_VMALLOC_THREAD_SIZE;
}

const stress_vmalloc_ops_t stress_vmalloc_stack_ops = {
	.name = "stack",
	.unit = "threads",
#if defined(STRESS_VMALLOC_RAW_THREADS)
	.verb = "clone",
#else
	.verb = "pthread_create",
#endif
	.first = "create a thread",
	.callers = stress_vmalloc_stack_callers,
	.resource = stress_vmalloc_stack_resource,
	.what = "kernel thread stacks",
	.cannot = "limits: RLIMIT_NPROC, threads-max, pid_max, pids cgroup, seccomp",
	.no_area = "this kernel does not allocate stacks in vmalloc space (CONFIG_VMAP_STACK=n?)",
	.cache = "NR_CACHED_STACKS 2, kernel/fork.c",
	.per_item = 1,
	.cached_per_cpu = 2,
	/* RLIMIT_NPROC, a pids cgroup: shared, full for a moment */
	.retry_errno = EAGAIN,
	.prepare = stress_vmalloc_stack_prepare,
	.held = stress_vmalloc_stack_held,
#if defined(STRESS_VMALLOC_RAW_THREADS) ||	\
    defined(HAVE_LIB_PTHREAD)
	.headroom = stress_vmalloc_half_tasks,
	.room = stress_vmalloc_stack_room,
	.acquire = stress_vmalloc_stack_acquire,
	.release = stress_vmalloc_stack_release,
	.free = stress_vmalloc_stack_free,
#endif
};

const stress_vmalloc_ops_t stress_vmalloc_ldt_ops = {
	.name = "ldt",
	.unit = "forked children",
	.verb = "fork",
	.first = "fork",
	.callers = stress_vmalloc_ldt_callers,
	.resource = stress_vmalloc_fork_resource,
	.per_item = 1,
	.prepare = stress_vmalloc_ldt_prepare,
	.held = stress_vmalloc_ldt_held,
#if defined(STRESS_VMALLOC_LDT)
	.headroom = stress_vmalloc_half_tasks,
	.room = stress_vmalloc_children_room,
	.acquire = stress_vmalloc_children_acquire,
	.release = stress_vmalloc_children_release,
	.describe = stress_vmalloc_ldt_describe,
	.by_rule = stress_vmalloc_ldt_by_rule,
#endif
};

const stress_vmalloc_ops_t stress_vmalloc_fdtable_ops = {
	.name = "fdtable",
	.unit = "forked children",
	.verb = "fork",
	.first = "fork",
	.callers = stress_vmalloc_fdtable_callers,
	.resource = stress_vmalloc_fork_resource,
	.per_item = 1,
	.prepare = stress_vmalloc_fdtable_prepare,
	.held = stress_vmalloc_fdtable_held,
	.headroom = stress_vmalloc_half_tasks,
	.room = stress_vmalloc_children_room,
	.acquire = stress_vmalloc_fdtable_acquire,
	.release = stress_vmalloc_fdtable_release,
	.describe = stress_vmalloc_fdtable_describe,
	.why_not = stress_vmalloc_fdtable_why_not,
	.by_rule = stress_vmalloc_fdtable_by_rule,
};

#endif
