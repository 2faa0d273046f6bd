// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * yreport.c - the YAML report.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "conditions.h"
#include "counters-report.h"
#include "docgen.h"
#include "summary.h"
#include "runner.h"
#include "exit-status.h"
#include "options-check.h"
#include "yamldoc.h"
#include "yreport.h"

#define MAX_RUNS_SUMMARISED 256

/* stress-ng's other top-level sections (times, ...), once each. */
static void copy_other_sections(yaml_document_t *out, int root,
				yaml_document_t *in, int src_root)
{
	yaml_node_t *top = yaml_document_get_node(in, src_root);

	if (!top || top->type != YAML_MAPPING_NODE)
		return;
	for (yaml_node_pair_t *p = top->data.mapping.pairs.start;
	     p < top->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(in, p->key);
		const char *key;

		if (!k || k->type != YAML_SCALAR_NODE)
			continue;
		key = (const char *)k->data.scalar.value;
		if (!strcmp(key, "system-info") || !strcmp(key, "metrics") ||
		    smm_yaml_get(out, root, key))
			continue;
		yaml_document_append_mapping_pair(
			out, root, smm_yaml_copy(out, in, p->key, NULL, NULL),
			smm_yaml_copy(out, in, p->value, NULL, NULL));
	}
}

/* stress-ng's own YAML of every stressor, names restored. */
static void copy_stress_ng(yaml_document_t *out, int root,
			   const struct smm_run_cfg *cfg,
			   const struct smm_run_result *res)
{
	int metrics = 0, have_sysinfo = 0;
	yaml_document_t in;

	(void)cfg;
	for (int s = 0; s <= SMM_NR_STRESSORS; s++) {
		const struct smm_stressor_result *r = &res->st[s];
		int si, mt;
		yaml_node_t *seq;

		if (!r->asked || !r->runner || !r->runner->ng_yaml ||
		    smm_yaml_load(r->out_path, &in) != 0)
			continue;
		si = smm_yaml_get(&in, 1, "system-info");
		if (si && !have_sysinfo) {
			yaml_document_append_mapping_pair(
				out, root,
				yaml_document_add_scalar(
					out, NULL, (yaml_char_t *)"system-info",
					-1, YAML_PLAIN_SCALAR_STYLE),
				smm_yaml_copy(out, &in, si, NULL, NULL));
			have_sysinfo = 1;
		}
		copy_other_sections(out, root, &in, 1);
		mt = smm_yaml_get(&in, 1, "metrics");
		seq = yaml_document_get_node(&in, mt);
		if (seq && seq->type == YAML_SEQUENCE_NODE) {
			if (!metrics)
				metrics = smm_yaml_seq(out, root, "metrics");
			for (yaml_node_item_t *it =
				     seq->data.sequence.items.start;
			     it < seq->data.sequence.items.top; it++)
				yaml_document_append_sequence_item(
					out, metrics,
					smm_yaml_copy(
						out, &in, *it,
						r->runner->ng_name,
						s < SMM_NR_STRESSORS
							? smm_stressors[s].name
							: NULL));
		}
		yaml_document_delete(&in);
	}
}

/* Every worker's CPU, round-robin slot and companions' CPUs (records),
 * by slot: what placement same/spread/any gave in this run. */
static void write_places(yaml_document_t *out, int m,
			 const struct smm_stressor_result *r)
{
	int seq = smm_yaml_seq(out, m, "worker-placement");

	for (int i = 0; i < r->nplace; i++) {
		const struct smm_worker_place *w = &r->place[i];
		int wm = smm_yaml_item_map(out, seq);

		smm_yaml_i64(out, wm, "pid", w->pid);
		smm_yaml_i64(out, wm, "cpu", w->cpu);
		smm_yaml_i64(out, wm, "slot", w->slot);
		smm_yaml_str(out, wm, "companion-cpus",
			     w->companions ? w->companion_cpus : "(none)");
	}
}

/* A proven path: the area's kind, size, pages, order and caller. */
static void write_proven(yaml_document_t *out, int x,
			 const struct smm_stats_path *p)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);

	smm_yaml_str(out, x, "kind", smm_area_kind_name(p->kind));
	smm_yaml_u64(out, x, "area-bytes", p->area_bytes);
	if (p->pages)
		smm_yaml_u64(out, x, "pages", p->pages);
	else
		smm_yaml_str(out, x, "pages", "none (vmap)");
	if (p->order >= 0)
		smm_yaml_i64(out, x, "order", p->order);
	else if (p->pages)
		smm_yaml_str(out, x, "order", "not a power of two");
	smm_yaml_str(out, x, "caller", p->caller);
	if (p->requested && p->requested + page != p->area_bytes)
		smm_yaml_u64(out, x, "requested-bytes", p->requested);
}

/* What each path achieved, or why it did not run or was not verified
 * (the workers' records). */
static void write_paths(yaml_document_t *out, int m,
			const struct smm_stressor_result *r)
{
	int pm = smm_yaml_map(out, m, "paths");

	for (int i = 0; i < r->npaths; i++) {
		const struct smm_stats_path *p = &r->paths[i];
		int x = smm_yaml_map(out, pm, p->name);

		if (p->state == SMM_PATH_PROVEN) {
			write_proven(out, x, p);
		} else {
			smm_yaml_str(out, x,
				     p->state == SMM_PATH_LEFT_OUT
					     ? "left-out"
					     : "not-verified",
				     p->reason);
			if (p->err)
				smm_yaml_i64(out, x, "errno", p->err);
		}
		if (p->state != SMM_PATH_LEFT_OUT ||
		    p->decided != SMM_DECIDED_NOTHING)
			smm_yaml_str(out, x, "decided-by",
				     smm_path_decided_name(p->decided));
	}
}

/* One figure of what ran under the key of its row @p: the value when the
 * records agree, else their smallest and largest, as text of the row's
 * form (the same as parameters: gives what was asked). */
static void write_ran_one(yaml_document_t *out, int m,
			  const struct smm_stressor *st, int p, uint64_t lo,
			  uint64_t hi)
{
	char buf[64], hbuf[64];
	int mm;

	if (p < 0)
		return;
	smm_param_format(&st->params[p], lo, buf, sizeof(buf));
	smm_param_format(&st->params[p], hi, hbuf, sizeof(hbuf));
	if (lo == hi) {
		smm_yaml_str(out, m, st->params[p].option, buf);
		return;
	}
	mm = smm_yaml_map(out, m, st->params[p].option);
	smm_yaml_str(out, mm, "min", buf);
	smm_yaml_str(out, mm, "max", hbuf);
}

/* What ran, beside the parameters as asked: the batch and bytes the
 * workers' records say after any clamp, or absent with the reason. */
static void write_ran(yaml_document_t *out, int m,
		      const struct smm_stressor *st,
		      const struct smm_stressor_result *r)
{
	int rm = smm_yaml_map(out, m, "ran");

	if (!r->nran) {
		smm_yaml_str(out, rm, "absent",
			     r->nrecords ? "no worker's record says what ran "
					   "(no path set up, or one that "
					   "does not batch)"
					 : "no worker's record was read");
		return;
	}
	write_ran_one(out, rm, st, st->ran_batch_param, r->batch_min,
		      r->batch_max);
	write_ran_one(out, rm, st, st->ran_bytes_param, r->bytes_min,
		      r->bytes_max);
}

static void write_stressors(yaml_document_t *out, int sm,
			    const struct smm_run_cfg *cfg,
			    const struct smm_run_result *res)
{
	int node = smm_yaml_map(out, sm, "stressors");

	for (int s = 0; s < SMM_NR_STRESSORS; s++) {
		const struct smm_stressor *st = &smm_stressors[s];
		const struct smm_stressor_result *r = &res->st[s];
		char val[64];
		int m, pm;

		if (cfg->st[s].workers < 0)
			continue;
		m = smm_yaml_map(out, node, st->name);
		smm_yaml_str(out, m, "integration",
			     r->runner ? r->runner->name : "(none)");
		smm_yaml_i64(out, m, "workers", cfg->st[s].workers);
		smm_yaml_i64(out, m, "workers-resolved", smm_workers(cfg, s));
		smm_yaml_u64(out, m, "ops-limit", cfg->st[s].ops);
		pm = smm_yaml_map(out, m, "parameters");
		for (int p = 0; p < st->nparams; p++)
			smm_yaml_str(out, pm, st->params[p].option,
				     smm_param_text(st, &cfg->st[s], p, val,
						    sizeof(val)));
		write_ran(out, m, st, r);
		smm_yaml_u64(out, m, "bogo-ops", r->bogo_ops);
		smm_yaml_u64(out, m, "records", (uint64_t)r->nrecords);
		smm_yaml_u64(out, m, "calls", r->calls);
		smm_yaml_u64(out, m, "allocations", r->allocs);
		smm_yaml_u64(out, m, "pages-faulted", r->pages);
		smm_yaml_u64(out, m, "churn-allocations", r->churn_allocs);
		smm_yaml_u64(out, m, "failed-calls", r->failures);
		if (r->kernel_ns) /* only path module measures it */
			smm_yaml_u64(out, m, "kernel-ns", r->kernel_ns);
		smm_yaml_str(out, m, "skipped",
			     smm_skipped(r->status) ? r->why : "");
		if (smm_skipped(r->status) && r->skip_errno)
			smm_yaml_i64(out, m, "skip-errno", r->skip_errno);
		smm_yaml_str(out, m, "failed",
			     r->status == SMM_EX_FAIL ||
					     r->status == SMM_EX_USAGE
				     ? r->why
				     : "");
		if (r->records_bad)
			smm_yaml_u64(out, m, "records-rejected",
				     (uint64_t)r->records_bad);
		write_places(out, m, r);
		if (r->runner && r->runner->yaml)
			r->runner->yaml(out, m, cfg, res, s);
		write_paths(out, m, r);
	}
}

/* stress-ng's own stressors, when they ran alone (after --). */
static void write_ng_stressors(yaml_document_t *out, int sm,
			       const struct smm_run_result *res)
{
	int node;

	if (!res->st[SMM_PASS_CHILD].asked)
		return;
	node = smm_yaml_map(out, sm, "stress-ng-stressors");
	for (int i = 0; i < res->nng; i++) {
		int m = smm_yaml_map(out, node, res->ng[i].name);

		smm_yaml_u64(out, m, "bogo-ops", res->ng[i].bogo_ops);
		smm_yaml_dbl(out, m, "wall-clock-time", res->ng[i].wall_s);
	}
}

static void write_counters(yaml_document_t *out, int sm,
			   const struct smm_run_result *res)
{
	int node = smm_yaml_map(out, sm, "counters");
	char buf[300];

	if (!res->counters_on) {
		smm_yaml_str(out, node, "skipped", res->counters_skip);
	} else {
		smm_counters_yaml(out, node, &res->cs);
		for (size_t i = 0; i < res->cs.n; i++) {
			const struct smm_counter *c = &res->cs.c[i];

			if (c->skip[0]) {
				snprintf(buf, sizeof(buf), "skipped: %s",
					 c->skip);
				smm_yaml_str(out, node, c->spec->name, buf);
			} else {
				smm_yaml_u64(out, node, c->spec->name,
					     c->value);
			}
		}
	}
}

/* Every figure: its value or why it is absent, and what it divides. */
static void write_figures(yaml_document_t *out, int sm,
			  const struct smm_figures *fs)
{
	int node = smm_yaml_map(out, sm, "figures");

	for (int i = 0; i < fs->n; i++) {
		const struct smm_figure *f = &fs->f[i];
		int m = smm_yaml_map(out, node, f->name);

		if (f->absent)
			smm_yaml_str(out, m, "absent", f->why);
		else
			smm_yaml_dbl(out, m, "value", f->value);
		smm_yaml_str(out, m, "numerator", f->def->numerator);
		smm_yaml_str(out, m, "denominator", f->def->denominator);
		smm_yaml_str(out, m, "unit", f->def->unit);
	}
}

static void write_vmstat_pcp(yaml_document_t *out, int sm,
			     const struct smm_run_result *res)
{
	static const char *const keys[] = {
		"pgalloc_",	  "pgalloc_dma",     "pgalloc_dma32",
		"pgalloc_normal", "pgalloc_movable", "pgfree",
		"pgfault",	  "nr_kernel_stack"
	};
	int node = smm_yaml_map(out, sm, "vmstat-delta");

	if (res->vm_err) {
		smm_yaml_str(out, node, "skipped", strerror(-res->vm_err));
	} else {
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			smm_yaml_i64(out, node,
				     strcmp(keys[k], "pgalloc_")
					     ? keys[k]
					     : "pgalloc_total",
				     smm_vmstat_delta(&res->vm0, &res->vm1,
						      keys[k]));
	}
	node = smm_yaml_seq(out, sm, "pcp");
	for (int z = 0; z < res->z1.n; z++) {
		int m = yaml_document_add_mapping(out, NULL,
						  YAML_BLOCK_MAPPING_STYLE);

		yaml_document_append_sequence_item(out, node, m);
		smm_yaml_str(out, m, "zone", res->z1.z[z].zone);
		if (z < res->z0.n) {
			smm_yaml_u64(out, m, "count-start", res->z0.z[z].count);
			smm_yaml_u64(out, m, "high-start", res->z0.z[z].high);
		}
		smm_yaml_u64(out, m, "count-end", res->z1.z[z].count);
		smm_yaml_u64(out, m, "high-end", res->z1.z[z].high);
		smm_yaml_u64(out, m, "batch", res->z1.z[z].batch);
	}
}

static void write_vmallocinfo(yaml_document_t *out, int sm,
			      const struct smm_run_cfg *cfg,
			      const struct smm_run_result *res)
{
	int node = smm_yaml_map(out, sm, "vmallocinfo"), callers;
	char buf[256];

	if (cfg->vm_interval == 0) {
		smm_yaml_str(out, node, "skipped", "--vmallocinfo-interval 0");
		return;
	}
	if (res->vs.err) {
		snprintf(buf, sizeof(buf), "skipped: /proc/vmallocinfo: %s",
			 strerror(-res->vs.err));
		smm_yaml_str(out, node, "skipped", buf);
		return;
	}
	smm_yaml_u64(out, node, "samples", (uint64_t)res->vs.samples);
	callers = smm_yaml_map(out, node, "callers-grown");
	for (int i = 0; i < res->vs.n; i++) {
		const struct smm_caller_tally *t = &res->vs.t[i];
		int m;

		if (t->max_areas <= t->base_areas)
			continue;
		m = smm_yaml_map(out, callers, t->caller);
		smm_yaml_u64(out, m, "areas-start", t->base_areas);
		smm_yaml_u64(out, m, "areas-max", t->max_areas);
		smm_yaml_u64(out, m, "pages-start", t->base_pages);
		smm_yaml_u64(out, m, "pages-max", t->max_pages);
	}
}

/* stress-mm.runs (every run's gate figures) and stress-mm.summary (per
 * figure: median, min, max, relative half-range, over the runs that were
 * not interrupted; how many were is summary-leaves-out-interrupted). */
static void write_runs(yaml_document_t *out, int sm,
		       const struct smm_run_result *runs, unsigned int nruns,
		       uint64_t requested)
{
	int seq = smm_yaml_seq(out, sm, "runs"), sum;
	uint64_t left_out = 0;

	smm_yaml_u64(out, sm, "repeat", nruns);
	smm_yaml_u64(out, sm, "repeat-requested", requested);
	for (unsigned int i = 0; i < nruns; i++) {
		int m = yaml_document_add_mapping(out, NULL,
						  YAML_BLOCK_MAPPING_STYLE);
		int mm;

		yaml_document_append_sequence_item(out, seq, m);
		smm_yaml_u64(out, m, "exit-status", (uint64_t)runs[i].status);
		smm_yaml_str(out, m, "interrupted",
			     runs[i].interrupted ? "true" : "false");
		if (runs[i].cut_why[0])
			smm_yaml_str(out, m, "interrupted-by", runs[i].cut_why);
		smm_yaml_dbl(out, m, "seconds", runs[i].seconds);
		/* Figures with a value (what compare reads), then those
		 * absent with the reason, then this run's counters. */
		mm = smm_yaml_map(out, m, "metrics");
		for (int k = 0; k < runs[i].fig.n; k++) {
			const struct smm_figure *f = &runs[i].fig.f[k];

			if (!f->absent)
				smm_yaml_dbl(out, mm, f->name, f->value);
		}
		mm = smm_yaml_map(out, m, "absent");
		for (int k = 0; k < runs[i].fig.n; k++) {
			const struct smm_figure *f = &runs[i].fig.f[k];

			if (f->absent)
				smm_yaml_str(out, mm, f->name, f->why);
		}
		mm = smm_yaml_map(out, m, "counters");
		for (size_t k = 0; runs[i].counters_on && k < runs[i].cs.n; k++)
			if (!runs[i].cs.c[k].skip[0])
				smm_yaml_u64(out, mm,
					     runs[i].cs.c[k].spec->name,
					     runs[i].cs.c[k].value);
	}
	/* an interrupted run's figures are of a run cut short: under runs
	 * only, never in the medians */
	for (unsigned int i = 0; i < nruns; i++)
		left_out += runs[i].interrupted;
	if (left_out)
		smm_yaml_u64(out, sm, "summary-leaves-out-interrupted",
			     left_out);
	sum = smm_yaml_map(out, sm, "summary");
	for (int k = 0; k < runs[0].fig.n; k++) {
		const struct smm_figure *f0 = &runs[0].fig.f[k];
		double v[MAX_RUNS_SUMMARISED];
		struct smm_summary st;
		size_t n = 0;
		int m;

		for (unsigned int i = 0; i < nruns && n < MAX_RUNS_SUMMARISED;
		     i++) {
			const struct smm_figure *f =
				smm_figure_get(&runs[i].fig, f0->name);

			if (f && !f->absent && !runs[i].interrupted)
				v[n++] = f->value;
		}
		if (!n)
			continue;
		smm_summary_of(v, n, &st);
		m = smm_yaml_map(out, sum, f0->name);
		smm_yaml_u64(out, m, "runs", st.n);
		smm_yaml_dbl(out, m, "median", st.median);
		smm_yaml_dbl(out, m, "min", st.min);
		smm_yaml_dbl(out, m, "max", st.max);
		smm_yaml_dbl(out, m, "half-range-pct", st.half_range_pct);
	}
}

int smm_yreport_write(const struct smm_run_cfg *cfg,
		      const struct smm_conditions *cond,
		      const struct smm_run_result *runs, unsigned int nruns,
		      int status, bool interrupted, const char *sng)
{
	const struct smm_run_result *last = &runs[nruns - 1];
	yaml_document_t out;
	struct utsname u;
	char scope[256];
	int root, sm;

	if (!yaml_document_initialize(&out, NULL, NULL, NULL, 0, 0))
		return -ENOMEM;
	root = yaml_document_add_mapping(&out, NULL, YAML_BLOCK_MAPPING_STYLE);
	copy_stress_ng(&out, root, cfg, last);
	sm = smm_yaml_map(&out, root, "stress-mm");
	smm_yaml_str(&out, sm, "version", SMM_VERSION);
	uname(&u);
	smm_yaml_str(&out, sm, "kernel-release", u.release);
	smm_yaml_str(&out, sm, "stress-ng", sng);
	smm_yaml_u64(&out, sm, "exit-status", (uint64_t)status);
	smm_yaml_str(&out, sm, "interrupted", interrupted ? "true" : "false");
	smm_yaml_dbl(&out, sm, "seconds", last->seconds);
	/* Short: libyaml folds long plain scalars over lines. */
	snprintf(
		scope, sizeof(scope),
		"run %u of %u (the last); all runs under runs, medians under summary",
		nruns, nruns);
	smm_yaml_str(&out, sm, "scope", scope);
	smm_conditions_write(&out, sm, cfg, cond);
	write_stressors(&out, sm, cfg, last);
	write_ng_stressors(&out, sm, last);
	write_counters(&out, sm, last);
	write_figures(&out, sm, &last->fig);
	write_vmstat_pcp(&out, sm, last);
	write_vmallocinfo(&out, sm, cfg, last);
	write_runs(&out, sm, runs, nruns, cfg->repeat);
	return smm_yaml_write(&out, cfg->yaml);
}
