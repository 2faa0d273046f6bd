// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vmo-core.c - the vmalloc-order stressor core.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "record.h"
#include "report.h"
#include "vmo-core.h"
#include "vmpath.h"
#include "vmproof.h"

int smm_vmo_start(struct smm_vmo *v, const struct smm_vmo_cfg *cfg,
		  struct smm_outcome *o)
{
	int rc;

	memset(v, 0, sizeof(*v));
	v->cfg = *cfg;
	v->pid = getpid();
	rc = smm_worker_stats_open(&v->stats, cfg->stressor);
	if (rc)
		return smm_outcome_skip(o, -rc, "no memory for the record");
	return smm_outcome_ok(o);
}

static int skip(struct smm_vmo *v, struct smm_outcome *o)
{
	smm_stats_skip(v->stats.s, o->err, o->text);
	return SMM_OUT_SKIP;
}

static int fail(struct smm_vmo *v, struct smm_outcome *o)
{
	smm_stats_fail(v->stats.s, o->err, o->text);
	return SMM_OUT_FAIL;
}

/* Whether @candidate, rather than @held, is the errno to keep when every
 * path is left out: the first one short of a resource, else the first. */
static bool better_errno(int held, int candidate)
{
	return !held || (smm_errno_exit_status(candidate) == 3 &&
			 smm_errno_exit_status(held) != 3);
}

/*
 * Set path @id up on first use. When @alone, a path that cannot run is a
 * SKIP; otherwise it is left out of the rotation with a note.
 * Return: 0 when the path is ready, else -1 (with @o a SKIP when @alone).
 */
static int path_ready(struct smm_vmo *v, unsigned int id, bool alone,
		      struct smm_outcome *o)
{
	struct smm_vmpath_cfg cfg = {
		.stressor = v->cfg.stressor,
		.stats = v->stats.s,
		.batch_var = v->cfg.batch_var,
		.bytes = v->cfg.param[SMM_VMO_P_BYTES],
		.batch = v->cfg.param[SMM_VMO_P_BATCH],
		.io_uring = (enum smm_iou_mode)v->cfg.param[SMM_VMO_P_IO_URING],
	};
	char why[512];
	int rc;

	if (v->ready[id])
		return 0;
	if (v->off[id])
		return -1;
	rc = smm_vmpath_setup(smm_vmpaths[id], &v->state[id], &cfg, why,
			      sizeof(why));
	if (rc == 0) {
		v->ready[id] = true;
		v->proved_ns[id] = smm_now_ns();
		if (!v->next_proof_ns)
			v->next_proof_ns = v->proved_ns[id] + SMM_VMO_VERIFY_NS;
		return 0;
	}
	if (alone) {
		smm_outcome_skip(o, -rc, "%s", why);
		return -1;
	}
	if (better_errno(v->left_out_err, -rc))
		v->left_out_err = -rc;
	smm_note_once(NULL, v->cfg.stressor, "all: leaving out %s", why);
	smm_record_left_out(v->stats.s, smm_vmpaths[id]->name, -rc, why);
	v->off[id] = true;
	return -1;
}

/* Whether path @id is the ready one proved longest ago. */
static bool oldest_proof(const struct smm_vmo *v, unsigned int id)
{
	for (unsigned int i = 0; i < SMM_VMO_NR_PATHS; i++)
		if (v->ready[i] && v->proved_ns[i] < v->proved_ns[id])
			return false;
	return true;
}

/* Under cfg.verify: prove path @id again when a proof is due and it is
 * its turn; the next is due after SMM_VMO_VERIFY_SHARE times as long as
 * this one took, SMM_VMO_VERIFY_NS at least. */
static int verify(struct smm_vmo *v, unsigned int id, struct smm_outcome *o)
{
	uint64_t now = smm_now_ns(), took;
	char what[512];
	int rc;

	if (!v->cfg.verify || v->unverified[id])
		return smm_outcome_ok(o);
	/* a path's first re-proof comes after its first bogo-op; later
	 * ones take their turn at the rate above */
	if (v->tried[id] && (now < v->next_proof_ns || !oldest_proof(v, id)))
		return smm_outcome_ok(o);
	rc = smm_vmpath_verify(v->state[id], what, sizeof(what));
	v->proved_ns[id] = smm_now_ns();
	v->tried[id] = true;
	if (rc == 0)
		v->reproofs[id]++;
	took = v->proved_ns[id] - now;
	v->next_proof_ns = v->proved_ns[id] +
			   (took * SMM_VMO_VERIFY_SHARE > SMM_VMO_VERIFY_NS
				    ? took * SMM_VMO_VERIFY_SHARE
				    : SMM_VMO_VERIFY_NS);
	if (rc == 1) {
		/* proved with what could be judged; said once per path */
		char key[64];

		v->unverified[id] = true;
		snprintf(key, sizeof(key), "verify-%s", smm_vmpaths[id]->name);
		smm_note_once(key, v->cfg.stressor,
			      "verify: %s: not verified: %s",
			      smm_vmpaths[id]->name, what);
		return smm_outcome_ok(o);
	}
	if (rc < 0)
		return smm_outcome_fail(o, -rc, "%s", what);
	smm_note_once(NULL, v->cfg.stressor, "verify: %s: %s",
		      smm_vmpaths[id]->name, what);
	return smm_outcome_ok(o);
}

static int batch(struct smm_vmo *v, unsigned int id, struct smm_outcome *o)
{
	struct smm_stats_file *s = v->stats.s;
	uint64_t allocs = 0, alloc_ns = 0, free_ns = 0;
	char what[256];
	int rc;

	rc = smm_vmpath_batch(v->state[id], &allocs, what, sizeof(what));
	smm_stats_add(s, allocs, allocs);
	if (smm_vmpath_kernel_ns(v->state[id], &alloc_ns, &free_ns)) {
		v->kernel_ns = true;
		smm_stats_add(s, kernel_alloc_ns, alloc_ns);
		smm_stats_add(s, kernel_free_ns, free_ns);
	}
	if (rc && smm_errno_exit_status(-rc) == SMM_EX_NORES) {
		/* not one item: a limit reached mid-run (RLIMIT_NPROC shared
		 * with every process of the user, memory) is no resource */
		smm_outcome_skip(o, -rc, "%s: no resource left mid-run", what);
		return skip(v, o);
	}
	if (rc) {
		smm_outcome_fail(o, -rc, "%s", what);
		return fail(v, o);
	}
	if (verify(v, id, o) != SMM_OUT_OK)
		return fail(v, o);
	smm_stats_add(s, calls, 1);
	return SMM_OUT_OK;
}

static int op_all(struct smm_vmo *v, struct smm_outcome *o)
{
	for (unsigned int tries = 0; tries < SMM_VMO_NR_PATHS; tries++) {
		unsigned int id = v->next++ % SMM_VMO_NR_PATHS;

		if (smm_vmpaths[id]->opt_in)
			continue; /* asked for by name only */
		if (path_ready(v, id, false, o) == 0)
			return batch(v, id, o);
	}
	smm_outcome_skip(
		o, v->left_out_err,
		"all: no vmalloc-order path can run here (see the notes above)");
	return skip(v, o);
}

int smm_vmo_op(struct smm_vmo *v, struct smm_outcome *o)
{
	return smm_vmo_op_method(v, v->cfg.param[SMM_VMO_P_METHOD], o);
}

int smm_vmo_op_method(struct smm_vmo *v, uint64_t m, struct smm_outcome *o)
{
	unsigned int id;

	if (m == 0)
		return op_all(v, o);
	/* Each adapter refuses the front end's own methods (test-vmalloc)
	 * when it parses them. */
	id = (unsigned int)(m - 1);
	if (path_ready(v, id, true, o) != 0)
		return skip(v, o);
	return batch(v, id, o);
}

uint64_t smm_vmo_allocs(const struct smm_vmo *v)
{
	return v->stats.s
		       ? __atomic_load_n(&v->stats.s->allocs, __ATOMIC_RELAXED)
		       : 0;
}

bool smm_vmo_kernel_ns(const struct smm_vmo *v, uint64_t *ns)
{
	const struct smm_stats_file *s = v->stats.s;

	if (!v->kernel_ns || !s)
		return false;
	*ns = s->kernel_alloc_ns + s->kernel_free_ns;
	return true;
}

/* Under cfg.verify: what was proved again, once per run. */
static void say_verified(const struct smm_vmo *v)
{
	char list[400] = "";
	size_t used = 0;
	bool tried = false;

	if (!v->cfg.verify)
		return;
	for (unsigned int id = 0; id < SMM_VMO_NR_PATHS; id++)
		tried |= v->tried[id];
	for (unsigned int id = 0; id < SMM_VMO_NR_PATHS && used < sizeof(list);
	     id++)
		if (v->reproofs[id] && !v->unverified[id])
			used += (size_t)snprintf(
				list + used, sizeof(list) - used, "%s%s x %u",
				used ? ", " : "", smm_vmpaths[id]->name,
				v->reproofs[id]);
	if (list[0])
		smm_note_once("verified", v->cfg.stressor,
			      "verify: proved again while running: %s", list);
	else if (tried)
		smm_note_once(
			"verified", v->cfg.stressor,
			"verify: nothing proved again: no path that ran could be judged (said above)");
	else
		smm_note_once(
			"verified", v->cfg.stressor,
			"verify: nothing proved again: the run ended before a path finished its first bogo-op");
}

void smm_vmo_stop(struct smm_vmo *v)
{
	say_verified(v);
	for (unsigned int id = 0; id < SMM_VMO_NR_PATHS; id++)
		if (v->ready[id])
			smm_vmpath_teardown(v->state[id]);
	memset(v->ready, 0, sizeof(v->ready));
	smm_worker_stats_close(&v->stats);
}
