// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * zoneinfo.c - PCP state from /proc/zoneinfo.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "zoneinfo.h"

int smm_zoneinfo_read(struct smm_zoneinfo *zi)
{
	struct smm_zone_pcp *z = NULL;
	char line[256];
	uint64_t v;
	FILE *f;

	memset(zi, 0, sizeof(*zi));
	f = fopen("/proc/zoneinfo", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		int node;
		char name[32];

		if (sscanf(line, "Node %d, zone %31s", &node, name) == 2) {
			z = zi->n < SMM_ZONES_MAX ? &zi->z[zi->n++] : NULL;
			if (z)
				snprintf(z->zone, sizeof(z->zone),
					 "Node %d, zone %s", node, name);
			continue;
		}
		if (!z)
			continue;
		if (sscanf(line, " cpu: %" SCNu64, &v) == 1)
			z->cpus++;
		else if (sscanf(line, " count: %" SCNu64, &v) == 1)
			z->count += v;
		else if (sscanf(line, " high: %" SCNu64, &v) == 1)
			z->high += v;
		else if (sscanf(line, " batch: %" SCNu64, &v) == 1 &&
			 z->cpus == 1)
			z->batch = v;
	}
	fclose(f);
	return 0;
}
