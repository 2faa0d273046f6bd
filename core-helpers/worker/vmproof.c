// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vmproof.c - new vmallocinfo areas of a path's callers.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "params.h"
#include "record.h"
#include "report.h"
#include "vmpath.h"
#include "vmproof.h"

/* VmallocUsed of /proc/meminfo, kB. Return: 0, or -errno. */
static int vmalloc_used_kb(uint64_t *kb)
{
	char line[128];
	FILE *f = fopen("/proc/meminfo", "re");
	int rc = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmallocUsed: %" SCNu64 " kB", kb) == 1) {
			rc = 0;
			break;
		}
	fclose(f);
	return rc;
}

void smm_vmproof_begin(struct smm_vmproof *p, const char *const *callers)
{
	memset(p, 0, sizeof(*p));
	p->err = smm_vmallocinfo_read(NULL, callers, 0, &p->before, &p->nb);
	/* kernels 4.4 to 5.2 report VmallocUsed as 0: not a measure */
	if (p->err)
		p->used_ok = vmalloc_used_kb(&p->used_kb) == 0 && p->used_kb;
}

void smm_vmproof_end(struct smm_vmproof *p, const char *const *callers,
		     struct smm_vmproof_result *r)
{
	struct smm_vmarea *after = NULL;
	size_t na = 0;

	memset(r, 0, sizeof(*r));
	r->err = p->err;
	if (r->err && p->used_ok) {
		uint64_t kb = 0,
			 page_kb = (uint64_t)sysconf(_SC_PAGESIZE) / 1024;

		r->used_ok = vmalloc_used_kb(&kb) == 0;
		r->used_pages =
			((int64_t)kb - (int64_t)p->used_kb) / (int64_t)page_kb;
	}
	if (!r->err)
		r->err = smm_vmallocinfo_read(NULL, callers, 0, &after, &na);
	if (!r->err) {
		r->fresh = smm_vmallocinfo_new(p->before, p->nb, after, na);
		/* The most common size among the new areas. */
		size_t m =
			smm_vmarea_mode(after, r->fresh, r->fresh, &r->count);

		if (r->count) {
			r->size = after[m].size;
			r->pages = after[m].pages;
			r->flags = after[m].flags;
			memcpy(r->caller, after[m].caller, sizeof(r->caller));
		}
	}
	free(after);
	free(p->before);
	p->before = NULL;
	p->nb = 0;
}

int smm_page_order(unsigned long pages)
{
	int order = 0;

	if (pages == 0 || (pages & (pages - 1)))
		return -1;
	while ((1UL << order) < pages)
		order++;
	return order;
}

static enum smm_area_kind area_kind(unsigned int flags)
{
	if (flags & SMM_VMA_VMALLOC)
		return SMM_AREA_VMALLOC;
	if (flags & SMM_VMA_VMAP)
		return SMM_AREA_VMAP;
	return SMM_AREA_OTHER;
}

static void record_proven(const struct smm_vmpath_cfg *cfg, const char *path,
			  const struct smm_vmproof_result *r)
{
	struct smm_stats_path p = {
		.state = SMM_PATH_PROVEN,
		.kind = area_kind(r->flags),
		.order = smm_page_order(r->pages),
		.area_bytes = r->size,
		.pages = r->pages,
		.requested = cfg->bytes,
	};

	snprintf(p.name, sizeof(p.name), "%s", path);
	snprintf(p.caller, sizeof(p.caller), "%s", r->caller);
	smm_stats_path_add(cfg->stats, &p);
}

void smm_vmproof_report(const struct smm_vmpath_cfg *cfg, const char *path,
			const char *what, const struct smm_vmproof_result *r,
			uint64_t live, const char *unit)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t requested = cfg->bytes;
	const char *stressor = cfg->stressor;
	char key[64], got[32], want[32], order[64];

	snprintf(key, sizeof(key), "%s-achieved", path);
	if (!r->count)
		return;
	record_proven(cfg, path, r);
	smm_format_size(r->size - page, got, sizeof(got));
	if (!r->pages) /* vmap: pages come from elsewhere, none counted */
		snprintf(order, sizeof(order), "no pages=");
	else if (smm_page_order(r->pages) >= 0)
		snprintf(order, sizeof(order), "pages=%lu (order %d)", r->pages,
			 smm_page_order(r->pages));
	else
		snprintf(order, sizeof(order), "pages=%lu", r->pages);
	smm_note_once(
		key, stressor,
		"%s: %s are %s areas of %llu bytes (%s + guard page), %s, caller %s; probe: %llu live %s, %zu new areas system-wide",
		path, what, smm_area_kind_name(area_kind(r->flags)),
		(unsigned long long)r->size, got, order, r->caller,
		(unsigned long long)live, unit, r->fresh);
	if (requested && requested != r->size - page) {
		smm_format_size(requested, want, sizeof(want));
		snprintf(key, sizeof(key), "%s-size", path);
		smm_note_once(key, stressor,
			      "%s: %s requested, nearest reachable: %s", path,
			      want, got);
	}
}

uint64_t smm_probe_size(uint64_t batch)
{
	return batch < SMM_PROBE_MAX ? batch : SMM_PROBE_MAX;
}

uint64_t smm_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void smm_batch_estimate(const struct smm_vmpath_cfg *cfg, const char *path,
			uint64_t probe_ns, uint64_t probed, uint64_t batch)
{
	double est;
	char key[64];

	if (!probed)
		return;
	est = (double)probe_ns / (double)probed * (double)batch / 1e9;
	if (est < 1.0)
		return;
	snprintf(key, sizeof(key), "%s-estimate", path);
	smm_note_once(
		key, cfg->stressor,
		"%s: one batch of %llu will take about %.1f s (%.2f ms each in the probe): expect few of them; a smaller %s makes batches shorter",
		path, (unsigned long long)batch, est,
		(double)probe_ns / (double)probed / 1e6,
		cfg->batch_var ? cfg->batch_var : "batch");
}
