// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run-figures.c - the figures of one run, from its results.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "counters-report.h"
#include "figures.h"
#include "options.h"
#include "results.h"
#include "run-figures.h"
#include "runner.h"
#include "exit-status.h"

/* @num / @den x @scale, or absent when @den is 0. */
static void ratio(struct smm_figure *f, double num, double den, double scale)
{
	if (!f || f->absent)
		return;
	if (den <= 0) {
		smm_figure_absent(f, "its denominator (%s) is 0",
				  f->def->denominator);
		return;
	}
	f->value = scale * num / den;
}

/* A counter's value; 0 and @f absent when it was skipped. */
static double counter(const struct smm_run_result *res, const char *name,
		      struct smm_figure *f)
{
	const struct smm_counter *c = smm_counters_get(&res->cs, name);

	if (!res->counters_on) {
		smm_figure_absent(f, "counters skipped: %s",
				  res->counters_skip);
		return 0;
	}
	if (!c || c->skip[0]) {
		smm_figure_absent(f, "counter %s skipped: %s", name,
				  c ? c->skip : "not in --counters");
		return 0;
	}
	return (double)c->value;
}

/* @num (a counter) per 1000 of @den, with the reason when @den is not
 * known. */
static void per_1000(const struct smm_run_result *res, struct smm_figure *f,
		     const char *num, double den, const char *den_missing)
{
	double n = counter(res, num, f);

	if (den_missing)
		smm_figure_absent(f, "%s", den_missing);
	ratio(f, n, den, 1000);
}

/* Why stressor result @r has no record: its runner's reason, or none came. */
static const char *no_record_why(const struct smm_stressor_result *r)
{
	if (r->runner && r->runner->no_record)
		return r->runner->no_record;
	return "no record from any worker";
}

/* The zone-lock waits (counters zone_lock_wait*_<side>) of stressor @s
 * per 1000 pages faulted or allocations, and its share of CPU time;
 * @s < 0: system-wide, per 1000 page faults. */
static void zone_lock_figures(const struct smm_run_result *res, int s, int nran,
			      struct smm_figures *fs)
{
	const struct smm_stressor *st = NULL;
	const char *per = "pgfault", *norecord = NULL, *who = NULL;
	double den = (double)smm_vmstat_delta(&res->vm0, &res->vm1, "pgfault");
	double ns = 0, cpus = (double)sysconf(_SC_NPROCESSORS_ONLN);
	struct smm_figure *f, *share;
	char name[96], cnt[64];

	if (s >= 0) {
		const struct smm_stressor_result *r = &res->st[s];
		bool pages;

		st = &smm_stressors[s];
		who = st->name;
		pages = st->rate_count == SMM_COUNT_PAGES;
		per = pages ? "faults" : "allocs";
		den = pages ? (double)r->pages : (double)r->allocs;
		if (!r->nrecords)
			norecord = no_record_why(r);
	} else if (res->vm_err) {
		norecord = "/proc/vmstat unreadable";
	}
	share = smm_figure_add(fs, who, "zone-lock-wait-cpu-share-pct");
	for (int side = 0; side < SMM_NR_SIDES; side++) {
		for (int k = 0; k < 2; k++) {
			if (!st && k)
				continue; /* system-wide: waits only */
			snprintf(name, sizeof(name),
				 "zone-lock-wait%s-%s-per-1000-%s",
				 k ? "-ns" : "s", smm_side_names[side], per);
			snprintf(cnt, sizeof(cnt), "zone_lock_wait%s_%s",
				 k ? "_ns" : "s", smm_side_names[side]);
			f = smm_figure_add(fs, who, name);
			if (st && nran > 1)
				smm_figure_absent(
					f,
					"%d stressors ran: system-wide waits cannot be split between them",
					nran);
			per_1000(res, f, cnt, den, norecord);
		}
		snprintf(cnt, sizeof(cnt), "zone_lock_wait_ns_%s",
			 smm_side_names[side]);
		ns += counter(res, cnt, share);
	}
	if (st && nran > 1)
		smm_figure_absent(
			share,
			"%d stressors ran: system-wide waits cannot be split between them",
			nran);
	ratio(share, ns, cpus * res->seconds * 1e9, 100);
}

static void stressor_figures(const struct smm_run_result *res, int s, int nran,
			     struct smm_figures *fs)
{
	const struct smm_stressor *st = &smm_stressors[s];
	const struct smm_stressor_result *r = &res->st[s];
	const char *norecord = r->nrecords ? NULL : no_record_why(r);
	double wall = r->wall_s;
	struct smm_figure *f;

	if (r->runner && r->runner->figures) {
		r->runner->figures(res, s, fs);
		return;
	}
	smm_figure_rates(fs, st->name, r->ops_real, r->ops_usr_sys);
	f = smm_figure_add(fs, st->name, st->rate_figure);
	if (norecord)
		smm_figure_absent(f, "%s", norecord);
	ratio(f,
	      (double)(st->rate_count == SMM_COUNT_PAGES ? r->pages
							 : r->allocs),
	      wall, 1);
	if (st->rate_count == SMM_COUNT_ALLOCS) {
		f = smm_figure_add(fs, st->name, "kernel-ns-per-vmalloc-vfree");
		if (norecord)
			smm_figure_absent(f, "%s", norecord);
		else if (!r->kernel_ns)
			smm_figure_absent(
				f,
				"the path cannot see the kernel's time (only path module can)");
		ratio(f, (double)r->kernel_ns, (double)r->allocs, 1);
	}
	if (st->rate_count == SMM_COUNT_PAGES) {
		static const char *const mixed[][2] = {
			{ "unmovable-refills-per-1000-faults",
			  "zone_locked_order0_unmovable_refill" },
			{ "order0-drains-per-1000-faults",
			  "pcpu_drain_order0" },
		};

		/* The faults' refills are MOVABLE, another stressor's
		 * kernel allocations are not: this one stays its own. */
		per_1000(res,
			 smm_figure_add(fs, st->name,
					"movable-refills-per-1000-faults"),
			 "zone_locked_order0_movable_refill", (double)r->pages,
			 norecord);
		for (size_t i = 0; i < sizeof(mixed) / sizeof(mixed[0]); i++) {
			f = smm_figure_add(fs, st->name, mixed[i][0]);
			if (nran > 1)
				smm_figure_absent(
					f,
					"%d stressors ran: system-wide UNMOVABLE refills and drains cannot be split between them",
					nran);
			per_1000(res, f, mixed[i][1], (double)r->pages,
				 norecord);
		}
	}
	zone_lock_figures(res, s, nran, fs);
	f = smm_figure_add(fs, st->name, "zone-locked-order0-per-bogo-op");
	if (nran > 1)
		smm_figure_absent(
			f,
			"%d stressors ran: system-wide counts cannot be split between them",
			nran);
	ratio(f, counter(res, "zone_locked_order0", f), (double)r->bogo_ops, 1);
}

/* Whether stressor result @r ran: asked, not skipped, and a worker of
 * it did something: bogo-ops, a record, or (a runner whose workers keep
 * none) a metrics entry with wall-clock time. A stress-ng that refused
 * its command line, one that never ran our stressor, or a run stopped
 * before a worker started gives none of these. */
static bool ran(const struct smm_stressor_result *r)
{
	bool no_records = r->runner && r->runner->no_record;

	if (!r->asked || smm_skipped(r->status))
		return false;
	return r->bogo_ops > 0 || r->nrecords > 0 ||
	       (no_records && r->wall_s > 0);
}

/* The own figures of a stressor that did not run: absent, with its SKIP
 * reason or why it did not run (stress-ng's refusal, no worker). */
static void not_run_figures(const struct smm_run_result *res, int s,
			    struct smm_figures *fs)
{
	const struct smm_stressor *st = &smm_stressors[s];
	const char *names[] = { "bogo-ops-per-second-real-time",
				"bogo-ops-per-second-usr-sys-time",
				st->rate_figure };
	const char *how =
		smm_skipped(res->st[s].status) ? "skipped" : "did not run";

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		smm_figure_absent(smm_figure_add(fs, st->name, names[i]),
				  "%s %s: %.200s", st->name, how,
				  res->st[s].why);
}

static void system_figures(const struct smm_run_result *res,
			   struct smm_figures *fs)
{
	const char *nofault = res->vm_err ? "/proc/vmstat unreadable" : NULL;
	double pgfault =
		(double)smm_vmstat_delta(&res->vm0, &res->vm1, "pgfault");
	struct smm_figure *f;
	double zl0, ef0, pa0;

	per_1000(res,
		 smm_figure_add(fs, NULL, "movable-refills-per-1000-pgfault"),
		 "zone_locked_order0_movable_refill", pgfault, nofault);
	per_1000(res,
		 smm_figure_add(fs, NULL, "unmovable-refills-per-1000-pgfault"),
		 "zone_locked_order0_unmovable_refill", pgfault, nofault);
	per_1000(res,
		 smm_figure_add(fs, NULL, "order0-drains-per-1000-pgfault"),
		 "pcpu_drain_order0", pgfault, nofault);
	f = smm_figure_add(fs, NULL, "order2-refills-per-order2-alloc");
	ratio(f, counter(res, "zone_locked_order2_refill", f),
	      counter(res, "page_alloc_order2", f), 1);
	zone_lock_figures(res, -1, 0, fs);
	f = smm_figure_add(fs, NULL, "linux-mm-zone-locked-ratio-pct");
	zl0 = counter(res, "zone_locked_order0", f);
	ef0 = counter(res, "extfrag_order0", f);
	pa0 = counter(res, "page_alloc_order0", f);
	ratio(f, ef0 + zl0, pa0, 100);
}

void smm_figures_compute(const struct smm_run_cfg *cfg,
			 struct smm_run_result *res)
{
	struct smm_figures *fs = &res->fig;
	bool pass_only = res->st[SMM_PASS_CHILD].asked;
	int nran = 0, others = 0;

	(void)cfg;
	memset(fs, 0, sizeof(*fs));
	/* stress-ng's own stressors beside ours (after --) ran in each of
	 * our stress-ng: the same ones, counted once */
	for (int s = 0; s < SMM_NR_STRESSORS; s++) {
		if (!ran(&res->st[s]))
			continue;
		nran++;
		if (res->st[s].others_ran > others)
			others = res->st[s].others_ran;
	}
	nran += others;
	for (int s = 0; s < SMM_NR_STRESSORS; s++)
		if (ran(&res->st[s]))
			stressor_figures(res, s, nran, fs);
		else if (res->st[s].asked)
			not_run_figures(res, s, fs);
	/* stress-ng's own stressors, when they ran alone (after --). */
	for (int i = 0; pass_only && i < res->nng; i++)
		smm_figure_rates(fs, res->ng[i].name, res->ng[i].ops_real,
				 res->ng[i].ops_usr_sys);
	if (nran || (pass_only && res->nng)) {
		system_figures(res, fs);
		return;
	}
	for (size_t i = 0; i < smm_nr_figure_defs; i++)
		if (!smm_figure_defs[i].per_stressor)
			smm_figure_absent(
				smm_figure_add(fs, NULL,
					       smm_figure_defs[i].name),
				"no stressor ran: the system's counts are background");
}

void smm_print_counters(const struct smm_run_result *res)
{
	const struct smm_figures *fs = &res->fig;

	if (!res->counters_on) {
		fprintf(stderr, "stress-mm: kcntr: skipped: %s\n",
			res->counters_skip);
	} else {
		char eng[256];

		smm_counters_engine_line(&res->cs, eng, sizeof(eng));
		fprintf(stderr, "stress-mm: kcntr: %s\n", eng);
		fprintf(stderr, "stress-mm: kcntr: %-36s %14s unit\n",
			"counter", "count");
		for (size_t i = 0; i < res->cs.n; i++) {
			const struct smm_counter *c = &res->cs.c[i];
			const char *unit = c->spec->ns ? "ns" : "events";

			if (c->skip[0])
				fprintf(stderr,
					"stress-mm: kcntr: %-36s %14s   (%s)\n",
					c->spec->name, "skipped", c->skip);
			else
				fprintf(stderr,
					"stress-mm: kcntr: %-36s %14llu %s\n",
					c->spec->name,
					(unsigned long long)c->value, unit);
		}
	}
	for (int i = 0; i < fs->n; i++) {
		const struct smm_figure *f = &fs->f[i];

		if (!f->def ||
		    !strncmp(f->def->name, "bogo-ops-per-second", 19))
			continue; /* in stress-ng's metrics lines */
		if (f->absent)
			fprintf(stderr,
				"stress-mm: figure: %-40s %12s   (%s)\n",
				f->name, "absent", f->why);
		else
			fprintf(stderr,
				"stress-mm: figure: %-40s %12.4g   (%s per %s)\n",
				f->name, f->value, f->def->numerator,
				f->def->denominator);
	}
}
