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
#include "stress-ng.h"
#include "core-builtin.h"
#include "core-memory.h"
#include "core-vmalloc.h"

#if defined(STRESS_VMALLOC_SUPPORTED)

#include "core-vmalloc-kind.h"

/*
 *  The proof of a kind: the areas of its kernel callers in
 *  /proc/vmallocinfo (mm/vmalloc.c vmalloc_info_show()) before and while
 *  a probe of items is held, or the growth of VmallocUsed in
 *  /proc/meminfo where vmallocinfo is unreadable (mode 0400: uid 0).
 */

/*
 *  stress_vmalloc_page_order()
 *	log2 of pages when it is a power of two, else -1
 */
int stress_vmalloc_page_order(const unsigned long int pages)
{
	int order = 0;

	if ((pages == 0) || (pages & (pages - 1)))
		return -1;
	while ((1UL << order) < pages)
		order++;
	return order;
}

/*
 *  stress_vmalloc_area_parse()
 *	one vmallocinfo line (mm/vmalloc.c vmalloc_info_show()):
 *	0x<start>-0x<end> <size> [<caller>+0x<off>/0x<len>] [pages=N]
 *	... [vmalloc] [vmap] ...; false when it has no range and size
 */
static bool stress_vmalloc_area_parse(char *line, stress_vmalloc_area_t *a)
{
	uint64_t end;
	char *word, *save = NULL;
	int used = 0;

	(void)shim_memset(a, 0, sizeof(*a));
	if (sscanf(line, "0x%" SCNx64 "-0x%" SCNx64 " %" SCNu64 "%n",
		   &a->start, &end, &a->size, &used) != 3)
		return false;
	for (word = strtok_r(line + used, " \t\n", &save); word;
	     word = strtok_r(NULL, " \t\n", &save)) {
		const char *plus = strstr(word, "+0x");

		if (!strncmp(word, "pages=", 6)) {
			a->pages = strtoul(word + 6, NULL, 10);
		} else if (!strcmp(word, "vmalloc")) {
			a->vmalloc = true;
		} else if (!strcmp(word, "vmap")) {
			a->vmap = true;
		} else if (plus && (plus > word) && !a->caller[0]) {
			size_t n = (size_t)(plus - word);

			if (n >= sizeof(a->caller))
				n = sizeof(a->caller) - 1;
			(void)shim_memcpy(a->caller, word, n);
			a->caller[n] = '\0';
		}
	}
	return true;
}

/*
 *  stress_vmalloc_areas_read()
 *	the areas of /proc/vmallocinfo whose caller is one of callers;
 *	0, or -errno (EACCES: not uid 0, the file is mode 0400)
 */
static int stress_vmalloc_areas_read(const char * const *callers,
	stress_vmalloc_area_t **areas, size_t *n)
{
	stress_vmalloc_area_t *v = NULL, a;
	size_t len = 0, cap = 0;
	char line[512];
	FILE *fp;

	*areas = NULL;
	*n = 0;
	fp = fopen("/proc/vmallocinfo", "r");
	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp)) {
		const char * const *c;

		if (!stress_vmalloc_area_parse(line, &a))
			continue;
		for (c = callers; *c && strcmp(*c, a.caller); c++)
			;
		if (!*c)
			continue;
		if (len == cap) {
			stress_vmalloc_area_t *nv;

			cap = cap ? cap * 2 : 256;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				(void)fclose(fp);
				return -ENOMEM;
			}
			v = nv;
		}
		v[len++] = a;
	}
	(void)fclose(fp);
	*areas = v;
	*n = len;
	return 0;
}

/*
 *  stress_vmalloc_areas_new()
 *	keep in after only the areas that pair with none of before on
 *	(start, size, caller): with kptr_restrict=1 every start reads 0
 *	and this counts the growth per (size, caller); returns how many
 */
static size_t stress_vmalloc_areas_new(const stress_vmalloc_area_t *before,
	const size_t nb, stress_vmalloc_area_t *after, const size_t na)
{
	bool *paired = calloc(nb ? nb : 1, sizeof(*paired));
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
				paired[j] = true;
			continue;
		}
		after[keep++] = after[i];
	}
	free(paired);
	return keep;
}

/*
 *  stress_vmalloc_used_kb()
 *	VmallocUsed of /proc/meminfo (every vmalloc'ed page: no vmap, no
 *	caller, the whole machine); 0, or -errno
 */
static int stress_vmalloc_used_kb(uint64_t *kb)
{
	char line[128];
	FILE *fp = fopen("/proc/meminfo", "r");
	int ret = -ENOENT;

	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "VmallocUsed: %" SCNu64 " kB", kb) == 1) {
			ret = 0;
			break;
		}
	}
	(void)fclose(fp);
	return ret;
}

/*
 *  stress_vmalloc_proof_begin()
 *	snapshot the callers' areas; never fails, p->err says why not
 */
void stress_vmalloc_proof_begin(stress_vmalloc_proof_t *p, const char * const *callers)
{
	(void)shim_memset(p, 0, sizeof(*p));
	p->err = stress_vmalloc_areas_read(callers, &p->before, &p->nb);
	/* kernels 4.4 to 5.2 report VmallocUsed as 0: no measure */
	if (p->err)
		p->used_ok = (stress_vmalloc_used_kb(&p->used_kb) == 0) && p->used_kb;
}

/*
 *  stress_vmalloc_proof_end()
 *	the areas new since the snapshot, their commonest size
 */
void stress_vmalloc_proof_end(stress_vmalloc_proof_t *p,
	const char * const *callers, stress_vmalloc_result_t *r)
{
	stress_vmalloc_area_t *after = NULL;
	size_t na = 0, i, j;

	(void)shim_memset(r, 0, sizeof(*r));
	r->err = p->err;
	if (r->err && p->used_ok) {
		const int64_t page_kb = (int64_t)(stress_memory_page_size_get() / 1024);
		uint64_t kb = 0;

		r->used_ok = (stress_vmalloc_used_kb(&kb) == 0);
		r->used_pages = ((int64_t)kb - (int64_t)p->used_kb) / page_kb;
	}
	if (!r->err)
		r->err = stress_vmalloc_areas_read(callers, &after, &na);
	if (!r->err) {
		size_t best = 0;

		r->fresh = stress_vmalloc_areas_new(p->before, p->nb, after, na);
		for (i = 0; (i < r->fresh) && (r->count <= r->fresh / 2); i++) {
			size_t c = 0;

			for (j = 0; j < r->fresh; j++)
				c += (after[j].size == after[i].size);
			if (c > r->count) {
				r->count = c;
				best = i;
			}
		}
		if (r->count) {
			r->size = after[best].size;
			r->pages = after[best].pages;
			r->vmalloc = after[best].vmalloc;
			r->vmap = after[best].vmap;
			(void)shim_strscpy(r->caller, after[best].caller, sizeof(r->caller));
		}
	}
	free(after);
	free(p->before);
	p->before = NULL;
	p->nb = 0;
}

#endif
