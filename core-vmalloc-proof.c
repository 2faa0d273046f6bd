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
	p->err = stress_vmallocinfo_read(NULL, callers, 0, &p->before, &p->nb);
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
	stress_vmallocinfo_area_t *after = NULL;
	size_t na = 0;

	(void)shim_memset(r, 0, sizeof(*r));
	r->err = p->err;
	if (r->err && p->used_ok) {
		const int64_t page_kb = (int64_t)(stress_memory_page_size_get() / 1024);
		uint64_t kb = 0;

		r->used_ok = (stress_vmalloc_used_kb(&kb) == 0);
		r->used_pages = ((int64_t)kb - (int64_t)p->used_kb) / page_kb;
	}
	if (!r->err)
		r->err = stress_vmallocinfo_read(NULL, callers, 0, &after, &na);
	if (!r->err) {
		size_t best;

		r->fresh = stress_vmallocinfo_new(p->before, p->nb, after, na);
		best = stress_vmallocinfo_mode(after, r->fresh, r->fresh, &r->count);
		if (r->count) {
			r->size = after[best].size;
			r->pages = after[best].pages;
			r->vmalloc = !!(after[best].flags & STRESS_VMALLOCINFO_VMALLOC);
			r->vmap = !!(after[best].flags & STRESS_VMALLOCINFO_VMAP);
			(void)shim_strscpy(r->caller, after[best].caller, sizeof(r->caller));
		}
	}
	free(after);
	free(p->before);
	p->before = NULL;
	p->nb = 0;
}

#endif
