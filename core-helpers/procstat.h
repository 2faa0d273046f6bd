/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * procstat.h - /proc/vmstat deltas and /proc/zoneinfo PCP state over a run.
 *
 * /proc/vmstat (mm/vmstat.c): pgalloc_<zone> count pages (+= 1 << order),
 * bulk allocations included; pgfree pages; pgfault faults; nr_kernel_stack
 * KiB. /proc/zoneinfo "pagesets": per CPU per zone, count (pages now on
 * that CPU's PCP lists; an order-2 block counts 4), high (current high
 * mark) and batch.
 */
#ifndef SMM_PROCSTAT_H
#define SMM_PROCSTAT_H

#include <stdint.h>

#define SMM_VMSTAT_MAX 256
#define SMM_ZONES_MAX 16

struct smm_vmstat_snap {
	int n;
	char name[SMM_VMSTAT_MAX][48];
	uint64_t value[SMM_VMSTAT_MAX];
};

/* smm_vmstat_snap() - every /proc/vmstat field. Return: 0 or -errno. */
int smm_vmstat_snap(struct smm_vmstat_snap *s);

/*
 * smm_vmstat_delta() - after minus before for the fields whose name starts
 * with @prefix (e.g. "pgalloc_" sums every zone; "pgfault" one field).
 * Signed: gauges such as nr_kernel_stack can shrink.
 */
int64_t smm_vmstat_delta(const struct smm_vmstat_snap *before,
			 const struct smm_vmstat_snap *after,
			 const char *prefix);

struct smm_zone_pcp {
	char zone[64]; /* "Node 0, zone Normal" */
	uint64_t count; /* pages on all CPUs' PCP lists in this zone */
	uint64_t high; /* sum of the CPUs' current high marks */
	uint64_t batch; /* batch of the first CPU */
	int cpus;
};

struct smm_zoneinfo {
	int n;
	struct smm_zone_pcp z[SMM_ZONES_MAX];
};

/* smm_zoneinfo_read() - PCP state of every zone. Return: 0 or -errno. */
int smm_zoneinfo_read(struct smm_zoneinfo *zi);

#endif /* SMM_PROCSTAT_H */
