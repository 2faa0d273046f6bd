/*
 * Copyright (C) 2026 The stress-mm authors.
 *
 * This program is free software; you can redistribute it and/or
 * modify it under the terms of the GNU General Public License
 * as published by the Free Software Foundation; either version 2
 * of the License, or (at your option) any later version.
 *
 * This program is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
 * GNU General Public License for more details.
 *
 * You should have received a copy of the GNU General Public License
 * along with this program; if not, write to the Free Software
 * Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301, USA.
 *
 */
#include "core-vmallocinfo.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *word;
	unsigned int flag;
} stress_vmallocinfo_words[] = {
	{ "vmalloc",	STRESS_VMALLOCINFO_VMALLOC },
	{ "vmap",	STRESS_VMALLOCINFO_VMAP },
	{ "ioremap",	STRESS_VMALLOCINFO_IOREMAP },
	{ "vpages",	STRESS_VMALLOCINFO_VPAGES },
	{ "user",	STRESS_VMALLOCINFO_USER },
	{ "vm_map_ram",	STRESS_VMALLOCINFO_VM_MAP_RAM },
};

/*
 *  stress_vmallocinfo_word()
 *	one word after the size: pages=N, a flag, or the caller, the only
 *	word of the form name+0xoff/0xlen
 */
static void stress_vmallocinfo_word(const char *w, stress_vmallocinfo_area_t *a)
{
	const char *plus;
	size_t i;

	if (!strncmp(w, "pages=", 6)) {
		a->pages = strtoul(w + 6, NULL, 10);
		return;
	}
	for (i = 0; i < sizeof(stress_vmallocinfo_words) / sizeof(stress_vmallocinfo_words[0]); i++) {
		if (!strcmp(w, stress_vmallocinfo_words[i].word)) {
			a->flags |= stress_vmallocinfo_words[i].flag;
			return;
		}
	}
	plus = strstr(w, "+0x");
	if (plus && (plus > w) && !a->caller[0]) {
		size_t n = (size_t)(plus - w);

		if (n >= sizeof(a->caller))
			n = sizeof(a->caller) - 1;
		(void)memcpy(a->caller, w, n);
		a->caller[n] = '\0';
	}
}

int stress_vmallocinfo_parse(const char *line, stress_vmallocinfo_area_t *a)
{
	char buf[512], *save = NULL, *w;
	uint64_t end;
	int used = 0;

	(void)memset(a, 0, sizeof(*a));
	if (sscanf(line, "0x%" SCNx64 "-0x%" SCNx64 " %" SCNu64 "%n",
		   &a->start, &end, &a->size, &used) != 3)
		return -EINVAL;
	(void)snprintf(buf, sizeof(buf), "%s", line + used);
	if (strstr(buf, "unpurged vm_area"))
		a->flags |= STRESS_VMALLOCINFO_UNPURGED;
	for (w = strtok_r(buf, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save))
		stress_vmallocinfo_word(w, a);
	return 0;
}

int stress_vmallocinfo_caller(const char *caller, const char * const *callers)
{
	if (!callers)
		return 1;
	for (; *callers; callers++) {
		if (!strcmp(caller, *callers))
			return 1;
	}
	return 0;
}

int stress_vmallocinfo_read(const char *path, const char * const *callers,
	const uint64_t size, stress_vmallocinfo_area_t **areas, size_t *n)
{
	stress_vmallocinfo_area_t *v = NULL, a;
	size_t len = 0, cap = 0;
	char line[512];
	FILE *fp;

	*areas = NULL;
	*n = 0;
	fp = fopen(path ? path : STRESS_VMALLOCINFO_PATH, "re");
	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp)) {
		if (stress_vmallocinfo_parse(line, &a) != 0)
			continue;
		if (!stress_vmallocinfo_caller(a.caller, callers))
			continue;
		if (size && (a.size != size))
			continue;
		if (len == cap) {
			const size_t ncap = cap ? cap * 2 : 256;
			stress_vmallocinfo_area_t *nv = realloc(v, ncap * sizeof(*v));

			if (!nv) {
				free(v);
				(void)fclose(fp);
				return -ENOMEM;
			}
			v = nv;
			cap = ncap;
		}
		v[len++] = a;
	}
	(void)fclose(fp);
	*areas = v;
	*n = len;
	return 0;
}

size_t stress_vmallocinfo_new(const stress_vmallocinfo_area_t *before,
	const size_t nb, stress_vmallocinfo_area_t *after, const size_t na)
{
	unsigned char *paired = calloc(nb ? nb : 1, 1);
	size_t i, j, keep = 0;

	for (i = 0; i < na; i++) {
		for (j = 0; j < nb; j++) {
			if ((!paired || !paired[j]) &&
			    (after[i].start == before[j].start) &&
			    (after[i].size == before[j].size) &&
			    !strcmp(after[i].caller, before[j].caller))
				break;
		}
		if (j < nb) {
			if (paired)
				paired[j] = 1;
			continue;
		}
		after[keep++] = after[i];
	}
	free(paired);
	return keep;
}

size_t stress_vmallocinfo_mode(const stress_vmallocinfo_area_t *v,
	const size_t n, const size_t max_scan, size_t *count)
{
	size_t i, j, best = 0;

	*count = 0;
	for (i = 0; (i < n) && (i < max_scan); i++) {
		size_t c = 0;

		for (j = 0; j < n; j++)
			c += (v[j].size == v[i].size);
		if (c > *count) {
			*count = c;
			best = i;
		}
		if (*count > n / 2)	/* no other size can have more */
			break;
	}
	return best;
}
