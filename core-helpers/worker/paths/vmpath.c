// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vmpath.c - the table of vmalloc-order paths, and a path as its kinds.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "path-bpf.h"
#include "path-fdtable.h"
#include "path-io-uring.h"
#include "path-ldt.h"
#include "path-module.h"
#include "path-pty.h"
#include "path-stack.h"
#include "record.h"
#include "report.h"
#include "vmpath.h"

const struct smm_vmpath *const smm_vmpaths[SMM_VMO_NR_PATHS] = {
	[SMM_VMO_PATH_stack] = &smm_vmpath_stack,
	[SMM_VMO_PATH_io_uring] = &smm_vmpath_io_uring,
	[SMM_VMO_PATH_bpf] = &smm_vmpath_bpf,
	[SMM_VMO_PATH_ldt] = &smm_vmpath_ldt,
	[SMM_VMO_PATH_pty] = &smm_vmpath_pty,
	[SMM_VMO_PATH_fdtable] = &smm_vmpath_fdtable,
	[SMM_VMO_PATH_module] = &smm_vmpath_module,
};

struct vmpath_state {
	unsigned int n;
	struct smm_holder *h[SMM_VMPATH_MAX_KINDS];
};

int smm_vmpath_setup(const struct smm_vmpath *p, void **state,
		     const struct smm_vmpath_cfg *cfg, char *why, size_t len)
{
	char out[SMM_VMPATH_MAX_KINDS][512];
	const struct smm_holder_ops *left[SMM_VMPATH_MAX_KINDS];
	int err[SMM_VMPATH_MAX_KINDS];
	unsigned int nout = 0, k;
	struct vmpath_state *st;
	size_t used = 0;
	int first = 0;

	st = calloc(1, sizeof(*st));
	if (!st) {
		snprintf(why, len, "%s: out of memory", p->name);
		return -ENOMEM;
	}
	for (k = 0; k < SMM_VMPATH_MAX_KINDS && p->kinds[k]; k++) {
		const struct smm_holder_ops *ops = p->kinds[k];
		int rc;

		if (ops->wanted && !ops->wanted(cfg))
			continue;
		rc = smm_holder_setup(&st->h[st->n], ops, cfg, out[nout],
				      sizeof(out[nout]));
		if (rc == 0) {
			st->n++;
			continue;
		}
		if (!first)
			first = rc;
		left[nout] = ops;
		err[nout++] = -rc;
	}
	if (st->n == 0) {
		for (k = 0; k < nout && used < len; k++)
			used += (size_t)snprintf(why + used, len - used, "%s%s",
						 k ? "; " : "", out[k]);
		free(st);
		return first ? first : -EINVAL;
	}
	for (k = 0; k < nout; k++) {
		smm_note_once(NULL, cfg->stressor, "%s: leaving out %s",
			      p->name, out[k]);
		smm_record_left_out(cfg->stats, left[k]->name, err[k], out[k]);
	}
	*state = st;
	return 0;
}

int smm_vmpath_batch(void *state, uint64_t *allocs, char *what, size_t len)
{
	struct vmpath_state *st = state;

	for (unsigned int k = 0; k < st->n; k++) {
		int rc = smm_holder_batch(st->h[k], allocs, what, len);

		if (rc)
			return rc;
	}
	return 0;
}

int smm_vmpath_verify(void *state, char *what, size_t len)
{
	struct vmpath_state *st = state;
	int unverifiable = 0;

	for (unsigned int k = 0; k < st->n; k++) {
		char w[512];
		int rc = smm_holder_verify(st->h[k], w, sizeof(w));

		if (rc == 0 && k == 0)
			snprintf(what, len, "%s", w);
		if (rc < 0) {
			snprintf(what, len, "%s", w);
			return rc;
		}
		if (rc == 1 && !unverifiable) {
			snprintf(what, len, "%s", w);
			unverifiable = 1;
		}
	}
	return unverifiable;
}

uint64_t smm_vmpath_batch_size(const void *state)
{
	const struct vmpath_state *st = state;

	return st && st->n ? st->h[0]->batch : 0;
}

bool smm_vmpath_kernel_ns(void *state, uint64_t *alloc_ns, uint64_t *free_ns)
{
	struct vmpath_state *st = state;
	bool any = false;

	for (unsigned int k = 0; st && k < st->n; k++) {
		const struct smm_holder *h = st->h[k];

		if (h->ops->kernel_ns) {
			h->ops->kernel_ns(h->ctx, alloc_ns, free_ns);
			any = true;
		}
	}
	return any;
}

void smm_vmpath_teardown(void *state)
{
	struct vmpath_state *st = state;

	if (!st)
		return;
	for (unsigned int k = 0; k < st->n; k++)
		smm_holder_free(st->h[k]);
	free(st);
}
