// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vmstat.c - /proc/vmstat snapshots, deltas and fields.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "vmstat.h"

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
	return s->n ? 0 : -ENODATA;
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
