// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stressors.c - the stressor descriptors.
 */
#include <string.h>
#include <unistd.h>

#include "params-table.h"
#include "path-sizes.h"
#include "stressors.h"
#include "sysfacts.h"

/* Does method @m (NULL: the default, all) include path @path? */
static bool uses_path(const char *m, const char *path)
{
	return !m || !strcmp(m, "all") || !strcmp(m, path);
}

/*
 * vmalloc-order: the io-uring buffers path needs RLIMIT_MEMLOCK to hold
 * its buffer (half of the limit, per worker), the fdtable path needs
 * RLIMIT_NOFILE above the table's slots: common/path-sizes.h has the
 * arithmetic core-vmalloc.c's paths follow.
 */
static void vmo_limits(const struct smm_stressor_cfg *c, uint64_t workers,
		       struct smm_limit_need *need)
{
	const char *method = c->text[SMM_VMO_P_METHOD];
	const char *iou = c->text[SMM_VMO_P_IO_URING];
	uint64_t bytes = 16384, nr_open = 1048576;
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);

	if (c->text[SMM_VMO_P_BYTES])
		smm_parse_size(c->text[SMM_VMO_P_BYTES], &bytes);
	if (uses_path(method, "io-uring") &&
	    (!iou || strcmp(iou, "rings") != 0)) {
		need->memlock_bytes =
			smm_iou_buffer_bytes(bytes, page) * workers * 2 +
			(16ULL << 20);
		need->memlock_why = "the io-uring buffers path";
	}
	if (uses_path(method, "fdtable")) {
		uint64_t slots = smm_fdtable_slots(bytes) + 64;

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
		.help = "start N workers making vmalloc-backed kernel "
			"allocations (0: one per online CPU)",
		.bogo_op_param = SMM_VMO_P_BYTES,
		.rate_figure = "allocations-per-second",
		.rate_count = SMM_COUNT_ALLOCS,
		.limits = vmo_limits,
	},
	{
		.name = "shm-pcp",
		.method = "shm_pcp",
		.params = smm_shm_params,
		.nparams = SMM_SHM_NR_PARAMS,
		.help = "start N workers faulting shared memory against "
			"vmalloc churn (0: one per online CPU)",
		.bogo_op_param = SMM_SHM_P_BYTES,
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

const char *smm_param_value(const struct smm_stressor *s,
			    const struct smm_stressor_cfg *c,
			    const char *option)
{
	for (int p = 0; p < s->nparams; p++)
		if (!strcmp(s->params[p].option, option))
			return smm_param_text(s, c, p);
	return NULL;
}

const char *smm_param_text(const struct smm_stressor *s,
			   const struct smm_stressor_cfg *c, int p)
{
	return c->text[p] ? c->text[p] : s->params[p].def;
}
