// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sampler.c - vmalloc areas and pages per caller over a run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sampler.h"
#include "core-vmallocinfo.h"

static struct smm_caller_tally *tally_of(struct smm_sampler *vs, const char *c)
{
	for (int i = 0; i < vs->n; i++)
		if (strcmp(vs->t[i].caller, c) == 0)
			return &vs->t[i];
	if (vs->n == SMM_MAX_CALLERS)
		return NULL;
	snprintf(vs->t[vs->n].caller, sizeof(vs->t[0].caller), "%s", c);
	return &vs->t[vs->n++];
}

void smm_sample(struct smm_sampler *vs, bool base)
{
	stress_vmallocinfo_area_t *v = NULL;
	size_t n = 0;
	int rc = stress_vmallocinfo_read(NULL, NULL, 0, &v, &n);

	if (rc) {
		vs->err = rc;
		return;
	}
	for (int i = 0; i < vs->n; i++) {
		vs->t[i].max_areas = base ? 0 : vs->t[i].max_areas;
		vs->t[i].base_areas = base ? 0 : vs->t[i].base_areas;
	}
	{
		uint64_t areas[SMM_MAX_CALLERS] = { 0 },
			 pages[SMM_MAX_CALLERS] = { 0 };

		for (size_t i = 0; i < n; i++) {
			struct smm_caller_tally *t = tally_of(
				vs, v[i].caller[0] ? v[i].caller : "(none)");

			if (!t)
				continue;
			areas[t - vs->t]++;
			pages[t - vs->t] += v[i].pages;
		}
		for (int i = 0; i < vs->n; i++) {
			struct smm_caller_tally *t = &vs->t[i];

			if (base) {
				t->base_areas = areas[i];
				t->base_pages = pages[i];
				t->seen_base = true;
			}
			if (areas[i] > t->max_areas)
				t->max_areas = areas[i];
			if (pages[i] > t->max_pages)
				t->max_pages = pages[i];
		}
	}
	vs->samples++;
	free(v);
}

int smm_settle(int max_ms)
{
	struct timespec step = { 0, 50 * 1000000L };
	size_t last = (size_t)-1;
	int waited = 0, still = 0;

	while (waited <= max_ms) {
		stress_vmallocinfo_area_t *v = NULL;
		size_t n = 0;
		int rc = stress_vmallocinfo_read(NULL, NULL, 0, &v, &n);

		free(v);
		if (rc)
			return rc;
		still = n == last ? still + 50 : 0;
		if (still >= 300)
			break;
		last = n;
		nanosleep(&step, NULL);
		waited += 50;
	}
	return waited;
}
