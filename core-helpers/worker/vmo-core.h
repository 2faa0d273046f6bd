/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmo-core.h - the vmalloc-order stressor, independent of how stress-ng
 * runs it: one core, two thin adapters (the plugin methods in
 * plugin/vmalloc-order.c, the built-in stressor in
 * stress-vmalloc-order.c).
 *
 * One bogo-op = one batch (vmpath.h): param[SMM_VMO_P_BATCH] allocations
 * of param[SMM_VMO_P_BYTES] made through one path so that they are all
 * alive at once, then all freed. Method "all" (param 0) takes one batch
 * per bogo-op from each path this kernel backs in turn, never the opt-in
 * path module; a path that cannot run is left out with a note, and only
 * when every path is left out is the stressor a SKIP. A path asked for
 * by name SKIPs when it cannot run. Method test-vmalloc (params.h
 * front_end_from) is no path of the core: stress-mm's front end runs the
 * kernel's test_vmalloc instead, and each adapter refuses it when it
 * parses the method; the core takes only 0..SMM_VMO_NR_PATHS.
 *
 * Each path proves its areas once when it is set up (holder.h). With
 * cfg.verify, every path proves them again right after its first bogo-op
 * (so that a run of -t 1 verifies what it ran), then the paths that run
 * prove them in turn (the one proved longest ago next), one proof at most
 * every SMM_VMO_VERIFY_NS and never so often that the proofs take more
 * than 1/SMM_VMO_VERIFY_SHARE of the worker's time (a proof holds a probe
 * and reads /proc/vmallocinfo twice: tens of ms on a busy host): an area
 * that no longer shows is a FAIL with EBADMSG. Unreadable vmallocinfo
 * (not uid 0): vmalloc kinds are verified by VmallocUsed (holder.h); a
 * kind that cannot be judged so (vmap) is said once per path and that
 * path is not proved again; it is no failure.
 * smm_vmo_stop() says what was verified, or that nothing was.
 *
 * The core keeps the worker's record (worker-stats.h, record.h):
 * allocations, the kernel's ns where a path sees them, bogo-ops done
 * (calls), each path's proof or why it was left out, its SKIP or FAIL with
 * the errno and reason; the adapters only report (with no record of their
 * own: smm_skip(NULL, ...), smm_fail(NULL, ...) or stress-ng's pr_*). Paths are set up lazily, on their first bogo-op.
 */
#ifndef SMM_VMO_CORE_H
#define SMM_VMO_CORE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "names.h"
#include "outcome.h"
#include "params-table.h"
#include "worker-stats.h"

/* Least time between two proofs of one path under cfg.verify, and the
 * share of the time the proofs may take: 1 in 100. */
#define SMM_VMO_VERIFY_NS 1000000000ULL
#define SMM_VMO_VERIFY_SHARE 100

struct smm_vmo_cfg {
	const char *stressor; /* "vmalloc-order": prefix of every line */
	/* how the user sets the batch, for notes: the variable or option */
	const char *batch_var;
	uint64_t param[SMM_VMO_NR_PARAMS]; /* params-table.h, parsed */
	bool verify; /* re-prove the paths while they run */
};

struct smm_vmo {
	struct smm_vmo_cfg cfg;
	pid_t pid; /* the worker this state belongs to */
	struct smm_worker_stats stats;
	void *state[SMM_VMO_NR_PATHS];
	bool ready[SMM_VMO_NR_PATHS];
	bool off[SMM_VMO_NR_PATHS]; /* left out of "all" */
	uint64_t proved_ns[SMM_VMO_NR_PATHS]; /* last proof, monotonic */
	unsigned int reproofs[SMM_VMO_NR_PATHS]; /* proofs under cfg.verify
						   * that proved */
	bool tried[SMM_VMO_NR_PATHS]; /* a proof under cfg.verify ran */
	bool unverified[SMM_VMO_NR_PATHS]; /* a kind could not be judged */
	uint64_t next_proof_ns; /* when the next proof is due */
	unsigned int next; /* "all": the next path to try */
	int left_out_err; /* errno recorded if every path is left out */
	bool kernel_ns; /* a path reported the kernel's ns */
};

/*
 * smm_vmo_start() - state for the calling process (the worker): copy @cfg,
 * open the record. Nothing is set up yet.
 * Return: SMM_OUT_OK, or SMM_OUT_SKIP (ENOMEM: no record) in @o.
 */
int smm_vmo_start(struct smm_vmo *v, const struct smm_vmo_cfg *cfg,
		  struct smm_outcome *o);

/*
 * smm_vmo_op() - one bogo-op (setting its path up first when needed).
 * Return: @o->kind: OK (counted in the record's calls), SKIP (recorded;
 * the worker ends) or FAIL (recorded; the worker ends).
 */
int smm_vmo_op(struct smm_vmo *v, struct smm_outcome *o);

/*
 * smm_vmo_op_method() - smm_vmo_op() of method @m (the values of
 * param[SMM_VMO_P_METHOD]) whatever cfg.param says: the plugin exports
 * one method per path, and stress-ng's plugin method "all" calls each of
 * them in one worker. Paths keep their state across methods.
 */
int smm_vmo_op_method(struct smm_vmo *v, uint64_t m, struct smm_outcome *o);

/* smm_vmo_allocs() - allocations made so far by this worker's bogo-ops. */
uint64_t smm_vmo_allocs(const struct smm_vmo *v);

/*
 * smm_vmo_kernel_ns() - the kernel's ns in vmalloc + vfree so far, when a
 * path that ran sees them (path module). Return: false: absent.
 */
bool smm_vmo_kernel_ns(const struct smm_vmo *v, uint64_t *ns);

/* smm_vmo_stop() - under cfg.verify say once what was proved again (or
 * that nothing was, and why); tear every path down; close the record. */
void smm_vmo_stop(struct smm_vmo *v);

#endif /* SMM_VMO_CORE_H */
