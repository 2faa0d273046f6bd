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
#ifndef CORE_VMALLOC_H
#define CORE_VMALLOC_H

/*
 *  vmalloc paths: user-space ways to make the kernel allocate, and free,
 *  areas in vmalloc space (thread stacks with CONFIG_VMAP_STACK, io_uring
 *  provided-buffer rings and registered-buffer page tables, classic BPF
 *  filters, LDTs, pty buffers, fd tables). Used by the vmalloc-order
 *  stressor (one path per method) and by the shm-pcp stressor's churn
 *  processes. A path is driven by one process: setup once, then one
 *  batch per bogo-op: "batch" allocations of each kind of the path made
 *  so that they are all alive at once, then all freed.
 *
 *  The path table has the built-in rows, STRESS_VMALLOC_PATHS_NUM of
 *  them, then up to STRESS_VMALLOC_PATHS_MAX in all with the rows a
 *  caller adds of kinds of its own (stress_vmalloc_path_add(),
 *  core-vmalloc-kind.h): an added row is set up, batched, verified and
 *  torn down as a built-in one.
 *  STRESS_VMALLOC_SUPPORTED is defined where the paths are built (Linux;
 *  guard callers with it); stress_vmalloc_exit_status() says how a
 *  path's errno ends a stressor.
 */

#if defined(__linux__)
#define STRESS_VMALLOC_SUPPORTED
#endif

#define STRESS_VMALLOC_KINDS_MAX	(2)	/* kinds of one path */
#define STRESS_VMALLOC_PATHS_NUM	(6)	/* built-in rows of the path table */
#define STRESS_VMALLOC_PATHS_MAX	(8)	/* rows with the added: arrays per path */

/* how a kind of a path was judged, for --verify and the notes */
typedef enum {
	STRESS_VMALLOC_UNUSED = 0,
	STRESS_VMALLOC_PROVEN,		/* its areas showed in /proc/vmallocinfo */
	STRESS_VMALLOC_UNPROVEN,	/* ran, not verified: reason says why */
	STRESS_VMALLOC_LEFT_OUT,	/* could not run here: err, reason */
} stress_vmalloc_state_t;

/* how set-up's proof decided a kind */
typedef enum {
	STRESS_VMALLOC_BY_NOTHING = 0,	/* not measured (a per-CPU cache) */
	STRESS_VMALLOC_BY_AREAS,	/* its areas in /proc/vmallocinfo */
	STRESS_VMALLOC_BY_VMALLOCUSED,	/* /proc/meminfo VmallocUsed grew */
	STRESS_VMALLOC_BY_RULE,		/* the kernel's rule, not measured */
} stress_vmalloc_decided_t;

/* what one kind of a path achieved: filled in by setup */
typedef struct {
	char name[32];			/* "stack", "io-uring rings" */
	stress_vmalloc_state_t state;
	stress_vmalloc_decided_t decided;	/* how state was decided */
	int err;			/* errno: why left out or unproven */
	bool vmap;			/* vmap area (pages from elsewhere) */
	int order;			/* log2(pages) of an area, -1 if not */
	size_t area_bytes;		/* vmallocinfo size, guard page incl. */
	size_t pages;			/* its pages=, 0 for a vmap area */
	size_t requested;		/* bytes asked for one allocation */
	char caller[64];		/* the area's caller in vmallocinfo */
	char reason[192];		/* why left out or unproven */
} stress_vmalloc_kind_info_t;

typedef struct stress_vmalloc_path stress_vmalloc_path_t;	/* opaque */

/* one row of the path table; built-in rows in the order of the
 * vmalloc-order methods */
typedef struct {
	const char *name;		/* "stack", "io-uring", ... */
	size_t natural_bytes;		/* its most typical allocation size */
} stress_vmalloc_path_info_t;

/*
 *  stress_vmalloc_path_info()
 *	row idx of the path table: 0 .. STRESS_VMALLOC_PATHS_NUM - 1 are
 *	the built-in paths, the added follow; NULL past the last row
 */
extern const stress_vmalloc_path_info_t *stress_vmalloc_path_info(const size_t idx);

/*
 *  stress_vmalloc_exit_status()
 *	the EXIT_* a path's errno ends a stressor with: EXIT_NOT_IMPLEMENTED
 *	(ENOSYS, EPERM, EOPNOTSUPP, EACCES), EXIT_NO_RESOURCE (ENOMEM,
 *	ENOSPC, EAGAIN, EMFILE, ENFILE), else EXIT_FAILURE
 */
extern int stress_vmalloc_exit_status(const int err);

/*
 *  stress_vmalloc_child_init()
 *	call first in every process a worker forks (churn companions, the
 *	children a path parks): SIGALRM, which PR_SET_PDEATHSIG then sends
 *	when the parent dies (stress_parent_died_alarm()), only clears this
 *	process' stress_continue_flag(). stress-ng's inherited handler would
 *	also zero every instance's bogo-op limit (stress_continue_set_flag()
 *	-> stress_bogo_max_ops_zero(), shared by the run), so that a worker
 *	killed by the OOM killer or a user would end every stressor of the
 *	run, as a success. The signals stress-ng's stress_terminate_handle()
 *	takes (SIGSEGV, SIGBUS, SIGABRT, SIGTERM, ...) get their default
 *	action for the same reason: a child that crashes or is killed dies
 *	of that signal, which its worker sees (SIGINT and SIGHUP, which a
 *	terminal sends to the whole group, keep stress-ng's stop). Returns
 *	0, or -1 when the handler could not be set (stress_signal_handler()
 *	said why).
 */
extern int stress_vmalloc_child_init(const char *name);

/*
 *  stress_vmalloc_memory_share()
 *	bytes one instance may pin or have the kernel hold: half the free
 *	memory (stress_memory_info_get(), sysinfo freeram) divided by
 *	args->instances, in whole MiB above 1 MiB; UINT64_MAX when free
 *	memory cannot be read. Path set-up clamps a batch to it (the kind's
 *	bytes per item) and says so; shm-pcp sizes its objects by it.
 */
extern uint64_t stress_vmalloc_memory_share(stress_args_t *args);

/* io-uring path: which kinds run */
#define STRESS_VMALLOC_IO_URING_BUFFERS	(0x1)
#define STRESS_VMALLOC_IO_URING_RINGS	(0x2)

/*
 *  stress_vmalloc_path_setup()
 *	set path idx of the path table up for one process: allocations
 *	of about bytes each, batch of them alive at once (clamped to what
 *	the system's limits allow now, said once with pr_inf), io_uring
 *	kinds as STRESS_VMALLOC_IO_URING_* bits; prove each kind once in
 *	/proc/vmallocinfo (VmallocUsed when it is unreadable). A kind that
 *	cannot run is left out with a note as long as another one runs.
 *	Returns 0 and *path, -EINTR when the run ended during set-up
 *	(nothing failed, nothing is left allocated), or -errno when the
 *	path cannot run here with the reason in why[] (the caller skips:
 *	EXIT_NO_RESOURCE or EXIT_NOT_IMPLEMENTED by errno).
 */
extern int stress_vmalloc_path_setup(stress_args_t *args, const size_t idx,
	const size_t bytes, const size_t batch, const int io_uring,
	stress_vmalloc_path_t **path, char *why, const size_t why_len);

/*
 *  stress_vmalloc_path_batch()
 *	one bogo-op: make the batch of each kind, all alive at once, then
 *	free them all; *allocs grows by the kernel allocations made.
 *	Every item looks at stress_continue_flag() first: once the run
 *	ends, the batch stops, frees what it made (counted in *allocs) and
 *	returns -EINTR, so that one bogo-op never outlasts -t by more than
 *	an item and its release. Returns 0, -EINTR (stopped: not a whole
 *	bogo-op), or -errno with what failed in what[] (a failure).
 */
extern int stress_vmalloc_path_batch(stress_vmalloc_path_t *path,
	uint64_t *allocs, char *what, const size_t what_len);

/*
 *  stress_vmalloc_path_batch_size()
 *	allocations per batch of the first kind, after set-up's clamps
 */
extern size_t stress_vmalloc_path_batch_size(const stress_vmalloc_path_t *path);

/*
 *  stress_vmalloc_path_verify()
 *	prove every kind again: its areas show in /proc/vmallocinfo while a
 *	batch is held. Returns 0 proved, 1 could not be judged here (reason
 *	in what[]), -EINTR when the run ended during the proof (no
 *	verdict), -errno on failure (EBADMSG: the areas did not show).
 */
extern int stress_vmalloc_path_verify(stress_vmalloc_path_t *path,
	char *what, const size_t what_len);

/*
 *  stress_vmalloc_path_verifiable()
 *	whether --verify can prove every kind of the path again here: each
 *	was decided at set-up by its areas in /proc/vmallocinfo or by
 *	VmallocUsed; false, with the kind and why in why[], when one was
 *	decided by the kernel's rule or stayed within a per-CPU cache
 */
extern bool stress_vmalloc_path_verifiable(const stress_vmalloc_path_t *path,
	char *why, const size_t why_len);

/*
 *  stress_vmalloc_path_kinds()
 *	copy what each kind achieved into info[0..n-1]; returns the kinds
 */
extern size_t stress_vmalloc_path_kinds(const stress_vmalloc_path_t *path,
	stress_vmalloc_kind_info_t *info, const size_t n);

/*
 *  stress_vmalloc_path_teardown()
 *	free all that setup made; NULL is ignored
 */
extern void stress_vmalloc_path_teardown(stress_vmalloc_path_t *path);

#endif
