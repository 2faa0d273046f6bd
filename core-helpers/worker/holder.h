/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * holder.h - the holder engine: one contract for every vmalloc-order path
 * whose bogo-op is "make N kernel objects that each hold an allocation, keep
 * them all alive at once, then release them all".
 *
 * Items and their families (one ops table per kind, worker/paths/):
 *   pty               /dev/ptmx opens            holder-fds.h
 *   bpf               sockets holding a filter   holder-fds.h
 *   ldt, fdtable      parked forked children     holder-children.h
 *   stack             parked clone(2) threads    path-stack.c
 *   io-uring rings    provided-buffer rings      path-io-uring.c
 *   io-uring buffers  registered buffers         path-io-uring.c
 *
 * One bogo-op (smm_holder_batch()): acquire h->batch items, release the
 * ones made, count ops->per_item allocations per item made. When acquire
 * stops early with an errno of ops->resource after at least one item, the
 * kernel allowed fewer this time: what was made counts, the bogo-op counts,
 * and it is said once per run ("<name>: a bogo-op made B of A <unit>:
 * <verb> errno=N (text); each bogo-op asks A again"); the batch is not
 * lowered, since limits shared with other processes come back. EINTR (a
 * signal stopped the kernel, e.g. stress-ng's SIGALRM at the end of the
 * run) is neither: the items made count and the stressor's loop decides.
 * Any other errno, or no item at all, is -errno, with "<name>: <verb> <k>
 * of <batch> <unit>" in @what: the caller sorts it (a failure, or no
 * resource for ENOMEM, EAGAIN, ... by smm_errno_exit_status()).
 * A batch that made nothing with ops->retry_errno (a per-user limit that
 * other workers hold for a moment) is retried every 1 ms for up to 50 ms
 * first.
 *
 * One setup (smm_holder_setup()), the same sequence for every kind, in
 * this order:
 *   1. allocate  ops->prepare(): the kind's context (its size mapping and
 *                one-time kernel set-up); then the holder
 *   2. clamp     to ops->headroom(): what the system's limits leave now
 *   3. room      ops->room(): space for the clamped batch (arrays, user
 *                memory), so a limit also bounds the memory
 *   4. prove     hold a probe of min(batch, SMM_PROBE_MAX) items (more when
 *                the kernel caches freed items per CPU) and compare
 *                /proc/vmallocinfo before and during (vmproof.h), up to
 *                SMM_HOLDER_PROBES times while no new area shows; clamp
 *                to what the kernel allowed, as a batch does
 *   5. estimate  from the probe's acquire + release time only (reading
 *                vmallocinfo is not timed): say once when one bogo-op will
 *                take over a second
 *   6. report    once per run what the kind achieved (vmproof.h), with the
 *                clamps of steps 2 and 4 in one note; or SKIP (a kind that
 *                does not run says no clamp)
 * A SKIP is -errno with the reason in @why: the errno of prepare() or of
 * the first acquire, -EAGAIN when the headroom is 0, -EOPNOTSUPP when the
 * probe added no area of ops->callers (only counted past the kernel's
 * per-CPU cache). /proc/vmallocinfo unreadable (not uid 0): a vmalloc
 * kind is measured by VmallocUsed instead (vmproof.h); fewer vmalloc
 * pages than one per allocation past the cache is "not judged", never a
 * SKIP or a FAIL, since VmallocUsed counts the whole machine (a sibling
 * worker's frees hide ours); a kind with ops->by_rule runs or is left out
 * (-EOPNOTSUPP, as a root run's proof leaves it out) by its rule; either
 * way the record says the callers were not seen and why
 * (SMM_PATH_UNPROVEN).
 *
 * Runs inside stress-ng's workers (worker/README.md): no capability is
 * assumed, SIGALRM may end the process between any two lines, and every
 * item is kernel-owned (a descriptor, a child, a thread, a registration),
 * so nothing survives the process.
 */
#ifndef SMM_HOLDER_H
#define SMM_HOLDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct smm_vmpath_cfg;

/* Retries of a batch that made nothing with ops->retry_errno. */
#define SMM_HOLDER_RETRIES 50
#define SMM_HOLDER_RETRY_US 1000

/* Probes before "no area" is a SKIP (100 ms apart). */
#define SMM_HOLDER_PROBES 3

/* The largest probe a per-CPU cache can ask for (items). */
#define SMM_HOLDER_PROBE_CACHE_MAX 256

struct smm_holder_ops {
	const char *name; /* message prefix: "pty", "io-uring rings" */
	const char *unit; /* items, plural: "ptys", "live threads" */
	const char *verb; /* the call that makes one item: "posix_openpt" */
	const char *first; /* making the first item, for the SKIP: "open
			    * /dev/ptmx" */
	const char *const *callers; /* vmallocinfo callers that prove it */
	uint64_t per_item; /* kernel allocations behind one item, >= 1 */
	/* errnos meaning "the kernel allowed fewer": clamp (0-terminated);
	 * any other errno is a failure */
	const int *resource;
	int retry_errno; /* retried when nothing was made; 0: none */
	/* items per bogo-op whatever cfg->batch asks (io-uring buffers: one
	 * buffer, its table the allocation); 0: cfg->batch */
	uint64_t fixed_batch;
	/* freed items the kernel keeps per CPU for reuse (kernel/fork.c
	 * NR_CACHED_STACKS); 0: none. The probe holds enough to get past
	 * them, and "no area" counts only then. */
	unsigned int cached_per_cpu;
	const char *cache; /* that cache, for the note: "NR_CACHED_STACKS" */
	/*
	 * by_rule() - for a kind VmallocUsed cannot judge where vmallocinfo
	 * is unreadable (a vmap kind: pages from elsewhere; items that are
	 * forked children, whose own thread stacks VmallocUsed counts too):
	 * whether the kernel puts its items in vmalloc space by rule, from
	 * sizes and limits, with the rule and its kernel source in @why.
	 * Return: true (the kind runs, "by rule, not measured"), false (it
	 * is left out, as a root run's proof leaves it out). NULL: the kind
	 * is judged by VmallocUsed.
	 */
	bool (*by_rule)(void *ctx, char *why, size_t len);
	/* Constant texts; the hooks below override them when set. */
	const char *what; /* what the items hold, for the report */
	const char *cannot; /* own words when not one item can be made */
	const char *no_area; /* own words when the probe adds no area */

	/*
	 * wanted() - whether @cfg asks for this kind (io-uring's kinds).
	 * NULL: always.
	 */
	bool (*wanted)(const struct smm_vmpath_cfg *cfg);
	/*
	 * prepare() - the kind's context: map cfg->bytes to what one item
	 * holds, do the one-time kernel set-up. Return: 0 and *ctx, or -errno
	 * with the SKIP reason in @why (no prefix needed).
	 */
	int (*prepare)(void **ctx, const struct smm_vmpath_cfg *cfg, char *why,
		       size_t len);
	/* destroy() - free what prepare() and room() made; NULL-safe. */
	void (*destroy)(void *ctx);
	/*
	 * headroom() - items the system's limits leave for this worker now
	 * (usually half of what is free: limits are shared); UINT64_MAX: no
	 * limit. @why names the limit, e.g. "half the task headroom
	 * (threads-max 190000, pid_max 32768)".
	 */
	uint64_t (*headroom)(void *ctx, char *why, size_t len);
	/* room() - space for @cap items (@cap >= 1). Return: 0 or -ENOMEM. */
	int (*room)(void *ctx, uint64_t cap);
	/*
	 * acquire() - make items 0..@n-1 (@n <= the room) so that all are
	 * alive at once. Return: how many are; *err the positive errno that
	 * stopped it early, or 0.
	 */
	uint64_t (*acquire)(void *ctx, uint64_t n, int *err);
	/* release() - free items 0..@n-1 (@n: what acquire() returned). */
	void (*release)(void *ctx, uint64_t n);
	/*
	 * describe() - what the items hold, for the report, when it depends
	 * on the context: "LDT copies of 2048 entries". NULL: ops->what.
	 */
	void (*describe)(void *ctx, char *buf, size_t len);
	/*
	 * why_not() - the kind's own words after a SKIP reason, when they
	 * depend on the context: @err > 0 when not one item could be made
	 * (the errno), 0 when the probe added no area. NULL: ops->cannot or
	 * ops->no_area; NULL or "": nothing to add.
	 */
	void (*why_not)(void *ctx, int err, char *buf, size_t len);
	/*
	 * kernel_ns() - add to *@alloc_ns and *@free_ns the ns the kernel
	 * reported for this kind's allocations and frees since the last call
	 * (path module: the module's ktime around vmalloc and vfree). NULL:
	 * the kind cannot see them.
	 */
	void (*kernel_ns)(void *ctx, uint64_t *alloc_ns, uint64_t *free_ns);
};

struct smm_holder {
	const struct smm_holder_ops *ops;
	void *ctx; /* prepare()'s, owned by the holder */
	const char *stressor; /* message prefix of every line */
	uint64_t batch; /* items per bogo-op, after clamping, >= 1 */
	uint64_t probe; /* items the set-up's proof held */
	uint64_t cached; /* of those, what the kernel may serve from its
			  * per-CPU cache without a new area */
};

/*
 * smm_holder_setup() - the setup sequence above for one kind.
 * @cfg: stressor, bytes and batch (1..4096 items) asked for.
 * Return: 0 and *out (free with smm_holder_free()); or -errno with the SKIP
 * reason in @why ("<name>: ..."), nothing left allocated.
 */
int smm_holder_setup(struct smm_holder **out, const struct smm_holder_ops *ops,
		     const struct smm_vmpath_cfg *cfg, char *why, size_t len);

/*
 * smm_holder_batch() - one bogo-op. @allocs grows by ops->per_item per item
 * made, failure or not.
 * Return: 0, or -errno (positive errno negated) with what failed in @what.
 */
int smm_holder_batch(struct smm_holder *h, uint64_t *allocs, char *what,
		     size_t len);

/*
 * smm_holder_acquire() - ops->acquire() of @n items, retried while nothing
 * was made with ops->retry_errno (see above). Same return as acquire().
 */
uint64_t smm_holder_acquire(const struct smm_holder *h, uint64_t n, int *err);

/*
 * smm_holder_cut() - say once per run that a bogo-op made only @made of
 * h->batch items, with @why; h->batch stays: a limit shared with other
 * processes (RLIMIT_NPROC, RLIMIT_MEMLOCK) may allow the whole batch again.
 */
void smm_holder_cut(const struct smm_holder *h, uint64_t made, const char *why);

/* smm_holder_resource() - whether @err is in ops->resource. */
bool smm_holder_resource(const struct smm_holder_ops *ops, int err);

/*
 * smm_holder_verify() - prove the kind again, as step 4 of the set-up did:
 * hold h->probe items and look for new areas of ops->callers in
 * /proc/vmallocinfo (up to SMM_HOLDER_PROBES looks, 100 ms apart), then
 * release them. Not a bogo-op: nothing is counted.
 * Return: 0 when new areas showed (or the probe stayed within the
 * kernel's per-CPU cache, where none need show); 1 when vmallocinfo
 * cannot be read (@what says why); -EBADMSG when none showed, -errno when
 * not one item could be made: a failure, described in @what.
 */
int smm_holder_verify(struct smm_holder *h, char *what, size_t len);

/* smm_holder_free() - ops->destroy() the context and free @h; NULL-safe. */
void smm_holder_free(struct smm_holder *h);

#endif /* SMM_HOLDER_H */
