/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmstat.h - the one /proc/vmstat reader: snapshots and deltas over a run.
 *
 * /proc/vmstat (mm/vmstat.c vmstat_show()): "name value" lines.
 * pgalloc_<zone> count pages (+= 1 << order), bulk allocations included;
 * pgfree pages; pgfault faults; nr_kernel_stack KiB.
 */
#ifndef SMM_VMSTAT_H
#define SMM_VMSTAT_H

#include <stdint.h>

#define SMM_VMSTAT_MAX 256

struct smm_vmstat_snap {
	int n;
	char name[SMM_VMSTAT_MAX][48];
	uint64_t value[SMM_VMSTAT_MAX];
};

/*
 * smm_vmstat_snap() - every /proc/vmstat field (the first SMM_VMSTAT_MAX).
 * Return: 0; -errno of fopen(3); -ENODATA when no field could be read (an
 * empty snapshot must never be taken for a reading of 0).
 */
int smm_vmstat_snap(struct smm_vmstat_snap *s);

/*
 * smm_vmstat_delta() - after minus before for the fields whose name starts
 * with @prefix (e.g. "pgalloc_" sums every zone; "pgfault" one field).
 * Signed: gauges such as nr_kernel_stack can shrink.
 */
int64_t smm_vmstat_delta(const struct smm_vmstat_snap *before,
			 const struct smm_vmstat_snap *after,
			 const char *prefix);

#endif /* SMM_VMSTAT_H */
