// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * procstat.c - /proc/vmstat snapshots and /proc/zoneinfo pagesets.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "procstat.h"

int smm_vmstat_snap(struct smm_vmstat_snap *s)
{
	FILE *f = fopen("/proc/vmstat", "re");

	s->n = 0;
	if (!f)
		return -errno;
	while (s->n < SMM_VMSTAT_MAX &&
	       fscanf(f, "%47s %" SCNu64, s->name[s->n], &s->value[s->n]) == 2)
		s->n++;
	fclose(f);
	return 0;
}

int64_t smm_vmstat_delta(const struct smm_vmstat_snap *before,
			 const struct smm_vmstat_snap *after,
			 const char *prefix)
{
	size_t plen = strlen(prefix);
	int64_t d = 0;

	for (int i = 0; i < after->n; i++) {
		if (strncmp(after->name[i], prefix, plen) != 0)
			continue;
		if (prefix[plen - 1] != '_' && after->name[i][plen] != '\0')
			continue; /* a whole name, not a prefix */
		d += (int64_t)after->value[i];
		for (int j = 0; j < before->n; j++)
			if (strcmp(before->name[j], after->name[i]) == 0)
				d -= (int64_t)before->value[j];
	}
	return d;
}

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
