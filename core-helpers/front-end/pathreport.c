// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pathreport.c - a path's report line into its fields.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pathreport.h"

bool smm_path_report_parse(const char *line, struct smm_path_report *out)
{
	const char *p, *q, *areas, *caller;
	unsigned long long v;
	char *end;

	memset(out, 0, sizeof(*out));
	out->order = -1;
	/* "<stressor>: <path>: <what> are <kind> areas of " */
	p = strstr(line, ": ");
	if (!p)
		return false;
	p += 2;
	areas = strstr(p, " areas of ");
	if (!areas)
		return false;
	q = areas;
	while (q > p && q[-1] != ' ')
		q--;
	if (q <= p || (size_t)(areas - q) >= sizeof(out->kind) ||
	    strncmp(q - 5, " are ", 5) != 0)
		return false;
	snprintf(out->kind, sizeof(out->kind), "%.*s", (int)(areas - q), q);
	if (strcmp(out->kind, "vmalloc") != 0 && strcmp(out->kind, "vmap") != 0)
		return false;
	/* the path: up to the ": " before <what> (paths may hold ": ") */
	for (const char *c = p; c < q; c++)
		if (c[0] == ':' && c[1] == ' ')
			snprintf(out->path, sizeof(out->path), "%.*s",
				 (int)(c - p), p);
	if (!out->path[0])
		return false;
	v = strtoull(areas + strlen(" areas of "), &end, 10);
	if (end == areas + strlen(" areas of ") ||
	    strncmp(end, " bytes", 6) != 0)
		return false;
	out->area_bytes = v;
	q = strstr(end, "), ");
	if (!q)
		return false;
	q += 3;
	if (!strncmp(q, "pages=", 6)) {
		out->pages = strtoull(q + 6, &end, 10);
		if (end == q + 6)
			return false;
		if (!strncmp(end, " (order ", 8))
			out->order = (int)strtol(end + 8, NULL, 10);
	} else if (strncmp(q, "no pages=", 9) != 0) {
		return false;
	}
	caller = strstr(q, ", caller ");
	if (!caller)
		return false;
	caller += strlen(", caller ");
	snprintf(out->caller, sizeof(out->caller), "%.*s",
		 (int)strcspn(caller, ";"), caller);
	return out->caller[0] != '\0';
}
