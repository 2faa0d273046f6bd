// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * figures.c - the figures of a run.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "figures.h"
#include "options.h"
#include "results.h"

static struct smm_figure *add(struct smm_figures *fs, const char *stressor,
			      const char *name, const char *num,
			      const char *den, bool gate)
{
	struct smm_figure *f;

	if (fs->n == SMM_MAX_FIGURES)
		return NULL;
	f = &fs->f[fs->n++];
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s%s%s", stressor ? stressor : "",
		 stressor ? "." : "", name);
	f->numerator = num;
	f->denominator = den;
	f->gate = gate;
	return f;
}

__attribute__((format(printf, 2, 3))) static void absent(struct smm_figure *f,
							 const char *fmt, ...)
{
	va_list ap;

	if (!f)
		return;
	f->absent = true;
	va_start(ap, fmt);
	vsnprintf(f->why, sizeof(f->why), fmt, ap);
	va_end(ap);
}

/* @num / @den x @scale, or absent when @den is 0. */
static void ratio(struct smm_figure *f, double num, double den, double scale)
{
	if (!f)
		return;
	if (den <= 0) {
		absent(f, "its denominator (%s) is 0", f->denominator);
		return;
	}
	f->value = scale * num / den;
}

/* A counter's value; false (and @f absent) when it was skipped. */
static bool counter(const struct smm_run_result *res, const char *name,
		    double *v, struct smm_figure *f)
{
	const struct smm_counter *c = smm_counters_get(&res->cs, name);

	if (!res->counters_on) {
		absent(f, "counters skipped: %s", res->counters_skip);
		return false;
	}
	if (!c || c->skip[0]) {
		absent(f, "counter %s skipped: %s", name,
		       c ? c->skip : "not opened");
		return false;
	}
	*v = (double)c->value;
	return true;
}

static void stressor_figures(const struct smm_run_result *res, int s,
			     struct smm_figures *fs)
{
	const struct smm_stressor *st = &smm_stressors[s];
	const struct smm_stressor_result *r = &res->st[s];
	struct smm_figure *f;
	double wall = r->wall_s > 0 ? r->wall_s : res->seconds;

	f = add(fs, st->name, "bogo-ops-per-second-real-time",
		"stress-ng's bogo-ops", "stress-ng's wall-clock seconds", true);
	if (f)
		f->value = r->ops_real;
	f = add(fs, st->name, "bogo-ops-per-second-usr-sys-time",
		"stress-ng's bogo-ops", "user + system CPU seconds", true);
	if (f)
		f->value = r->ops_usr_sys;
	/* Rates over stress-ng's own wall-clock time, as its bogo-ops/s;
	 * zero included, so that a candidate that stops cannot pass. */
	f = add(fs, st->name, st->rate_figure,
		st->rate_count == SMM_COUNT_PAGES
			? "pages write-faulted by the workers (stats files)"
			: "allocations made by the workers (stats files)",
		"stress-ng's wall-clock seconds", true);
	ratio(f,
	      (double)(st->rate_count == SMM_COUNT_PAGES ? r->pages
							 : r->allocs),
	      wall, 1);
}

void smm_figures_compute(const struct smm_run_cfg *cfg,
			 struct smm_run_result *res)
{
	struct smm_figures *fs = &res->fig;
	struct smm_figure *f;
	double pa0 = 0, zl0 = 0, ef0 = 0, pgalloc, ops = 0;

	(void)cfg;
	memset(fs, 0, sizeof(*fs));
	for (int s = 0; s < SMM_NR_STRESSORS; s++) {
		if (!res->st[s].asked || res->ch[s].skipped)
			continue;
		stressor_figures(res, s, fs);
		ops += (double)res->st[s].bogo_ops;
	}
	pgalloc = (double)smm_vmstat_delta(&res->vm0, &res->vm1, "pgalloc_");
	f = add(fs, NULL, "zone-locked-order0-per-1000-pages",
		"order-0 kmem:mm_page_alloc_zone_locked",
		"pages allocated (pgalloc_*)", true);
	if (counter(res, "zone_locked_order0", &zl0, f))
		ratio(f, zl0, pgalloc, 1000);
	f = add(fs, NULL, "linux-mm-zone-locked-ratio-pct",
		"order-0 kmem:mm_page_alloc_extfrag + mm_page_alloc_zone_locked",
		"order-0 kmem:mm_page_alloc (misses bulk allocations)", true);
	if (counter(res, "zone_locked_order0", &zl0, f) &&
	    counter(res, "extfrag_order0", &ef0, f) &&
	    counter(res, "page_alloc_order0", &pa0, f))
		ratio(f, ef0 + zl0, pa0, 100);
	f = add(fs, NULL, "zone-locked-order0-per-bogo-op",
		"order-0 kmem:mm_page_alloc_zone_locked",
		"bogo-ops of every stressor", false);
	if (counter(res, "zone_locked_order0", &zl0, f))
		ratio(f, zl0, ops, 1);
}

const struct smm_figure *smm_figure_get(const struct smm_figures *fs,
					const char *name)
{
	for (int i = 0; i < fs->n; i++)
		if (strcmp(fs->f[i].name, name) == 0)
			return &fs->f[i];
	return NULL;
}

void smm_print_counters(const struct smm_run_result *res)
{
	const struct smm_figures *fs = &res->fig;
	const struct smm_figure *f;

	if (!res->counters_on) {
		fprintf(stderr, "stress-mm: kcntr: skipped: %s\n",
			res->counters_skip);
		return;
	}
	fprintf(stderr, "stress-mm: kcntr: %-32s %14s\n", "counter", "count");
	for (size_t i = 0; i < res->cs.n; i++) {
		const struct smm_counter *c = &res->cs.c[i];

		if (c->skip[0])
			fprintf(stderr, "stress-mm: kcntr: %-32s %14s   (%s)\n",
				c->spec->name, "skipped", c->skip);
		else
			fprintf(stderr, "stress-mm: kcntr: %-32s %14llu\n",
				c->spec->name, (unsigned long long)c->value);
	}
	for (int i = 0; i < fs->n; i++) {
		f = &fs->f[i];
		if (strchr(f->name, '.'))
			continue; /* per-stressor: in the metrics lines */
		if (f->absent)
			fprintf(stderr, "stress-mm: kcntr: %-32s %14s   (%s)\n",
				f->name, "absent", f->why);
		else
			fprintf(stderr, "stress-mm: kcntr: %-32s %14.2f\n",
				f->name, f->value);
	}
}
