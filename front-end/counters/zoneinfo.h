/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zoneinfo.h - PCP state per zone from /proc/zoneinfo (mm/vmstat.c
 * zoneinfo_show_print()): "pagesets", per CPU per zone, count (pages now on
 * that CPU's PCP lists; an order-2 block counts 4), high (current high
 * mark) and batch.
 */
#ifndef SMM_ZONEINFO_H
#define SMM_ZONEINFO_H

#include <stdint.h>

#define SMM_ZONES_MAX 16

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

#endif /* SMM_ZONEINFO_H */
