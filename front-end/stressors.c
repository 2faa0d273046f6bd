// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stressors.c - the stressor descriptors.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "params-table.h"
#include "stressor-opts.h"
#include "core-vmalloc-sizes.h"
#include "stressors.h"
#include "sysfacts.h"

/* Does @c's method (all, or one path) include path @path? */
static bool uses_path(const struct smm_stressor_cfg *c, const char *path)
{
	const char *m = smm_vmo_params[SMM_VMO_P_METHOD]
				.choices[c->val[SMM_VMO_P_METHOD]];

	return !strcmp(m, "all") || !strcmp(m, path);
}

/*
 * vmalloc-order: the io-uring buffers path needs RLIMIT_MEMLOCK to hold
 * its buffer (half of the limit, per worker), the fdtable path needs
 * RLIMIT_NOFILE above the table's slots: the arithmetic of the paths
 * themselves (core-vmalloc-sizes.h).
 */
static void vmo_limits(const struct smm_stressor_cfg *c, uint64_t workers,
		       struct smm_limit_need *need)
{
	const char *iou = smm_vmo_params[SMM_VMO_P_IO_URING]
				  .choices[c->val[SMM_VMO_P_IO_URING]];
	uint64_t bytes = c->val[SMM_VMO_P_BYTES], nr_open = 1048576;
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);

	if (uses_path(c, "io-uring") && strcmp(iou, "rings") != 0) {
		need->memlock_bytes =
			stress_vmalloc_buffer_bytes(bytes, page) * workers * 2 +
			(16ULL << 20);
		need->memlock_why =
			"the io-uring buffers path at --vmalloc-order-bytes (its page tables are vmalloc areas only above 4 MiB, or where kmalloc fails)";
	}
	if (uses_path(c, "fdtable")) {
		uint64_t slots = stress_vmalloc_fdtable_slots(bytes) + 64;

		smm_read_u64("/proc/sys/fs/nr_open", &nr_open);
		need->nofile = slots < nr_open ? slots : nr_open;
		need->nofile_why = "the fdtable path";
	}
}

const struct smm_stressor smm_stressors[SMM_NR_STRESSORS] = {
	{
		.name = "vmalloc-order",
		.method = "vmalloc_order",
		.params = smm_vmo_params,
		.nparams = SMM_VMO_NR_PARAMS,
		.help = SMM_OPT_VMALLOC_ORDER_HELP " (0: one per online CPU)",
		.bogo_op_param = SMM_VMO_P_BYTES,
		.ran_batch_param = SMM_VMO_P_BATCH,
		.ran_bytes_param = SMM_VMO_P_BYTES,
		.rate_figure = "allocations-per-second",
		.rate_count = SMM_COUNT_ALLOCS,
		.limits = vmo_limits,
	},
	{
		.name = "shm-pcp",
		.method = "shm_pcp",
		.params = smm_shm_params,
		.nparams = SMM_SHM_NR_PARAMS,
		.help = SMM_OPT_SHM_PCP_HELP " (0: one per online CPU)",
		.bogo_op_param = SMM_SHM_P_BYTES,
		.ran_batch_param = SMM_SHM_P_CHURN_BATCH,
		.ran_bytes_param = SMM_SHM_P_CHURN_BYTES,
		.rate_figure = "pages-faulted-per-second",
		.rate_count = SMM_COUNT_PAGES,
		.limits = NULL,
	},
};

const struct smm_stressor *smm_stressor_of(const char *name)
{
	for (int s = 0; s < SMM_NR_STRESSORS; s++)
		if (strcmp(smm_stressors[s].name, name) == 0)
			return &smm_stressors[s];
	return NULL;
}

int smm_stressor_cfg_init(const struct smm_stressor *s,
			  struct smm_stressor_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->workers = -1;
	for (int p = 0; p < s->nparams && p < SMM_MAX_STRESSOR_PARAMS; p++)
		if (smm_param_parse(&s->params[p], NULL, &c->val[p], NULL, 0))
			return -EINVAL;
	return 0;
}

int smm_param_set(const struct smm_stressor *s, struct smm_stressor_cfg *c,
		  int p, const char *text, const char *label, char *err,
		  size_t len)
{
	struct smm_param named = s->params[p];
	uint64_t v;
	int rc;

	if (label)
		named.env = label;
	rc = smm_param_parse(&named, text, &v, err, len);
	if (rc)
		return rc;
	c->val[p] = v;
	c->given[p] = true;
	return 0;
}

int smm_param_index(const struct smm_stressor *s, const char *option)
{
	for (int p = 0; p < s->nparams; p++)
		if (!strcmp(s->params[p].option, option))
			return p;
	return -1;
}

const char *smm_param_word(const struct smm_stressor *s,
			   const struct smm_stressor_cfg *c, const char *option)
{
	int p = smm_param_index(s, option);

	if (p < 0 || s->params[p].type != SMM_P_CHOICE)
		return NULL;
	return s->params[p].choices[c->val[p]];
}

const char *smm_param_text(const struct smm_stressor *s,
			   const struct smm_stressor_cfg *c, int p, char *buf,
			   size_t len)
{
	smm_param_format(&s->params[p], c->val[p], buf, len);
	return buf;
}
