// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare-cmd.c - `stress-mm compare BASE.yaml CAND.yaml`: the regression
 * gate over two sets of runs (stress-mm --repeat R --yaml ...).
 *
 *   stress-mm compare BASE.yaml[,BASE2.yaml...] CAND.yaml[,...] [--threshold PCT]
 *                     [--confidence PCT] [--metric NAME]...
 *                     [--allow-param-diff] [--strict] [--junit FILE]
 *                     [--format human|simple]
 *
 * A side may be several reports of one configuration and kernel, comma
 * separated (runs from several boots, interleaved with the other side's):
 * their runs are pooled. Reads every report strictly (compare-load.h),
 * lists every difference in
 * parameters and conditions and refuses them unless --allow-param-diff
 * (the kernel may differ: that is what is compared), then per figure
 * (figures.h; by default those marked for the gate) gives base and
 * candidate median [min, max], the change with its confidence interval,
 * the exact p and the verdict of gate.h.
 *
 * Exit status, diff-style as gates expect (unlike a run's stress-ng-style
 * statuses): 0 no regression (inconclusive included, unless --strict,
 * which makes it 1); 1 at least one regression; 2 usage error,
 * incomparable (parameters or conditions differ, a figure missing on one
 * side or absent in some runs, a failed, interrupted or incomplete set of
 * runs, too few runs for the confidence) or malformed input (see
 * compare-load.h). Every value is checked before anything is printed; with
 * --junit the file is written in every case (a failing "comparable" test
 * case when the comparison cannot be made).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare-cmd.h"
#include "compare-load.h"
#include "die.h"
#include "figures.h"
#include "gate.h"
#include "summary.h"

#define MAX_FIGURES 64
#define MAX_SELECT 32

enum { CMP_OK, CMP_REGRESSION, CMP_ERROR };

struct cmp_opts {
	const char *files[2];
	const char *select[MAX_SELECT];
	int nsel;
	double threshold, confidence;
	bool allow, strict, simple;
	const char *junit;
};

/* --junit FILE: also written when the comparison cannot be made, so that
 * CI never reads an older file as this result. */
static const char *junit_path;

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

/* One line, exit 2: usage, incomparable or malformed. */
static __attribute__((format(printf, 1, 2), noreturn)) void
cmp_error(const char *fmt, ...)
{
	char msg[700];
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (junit_path && (f = fopen(junit_path, "we"))) {
		fprintf(f,
			"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			"<testsuite name=\"stress-mm compare\" tests=\"1\" failures=\"1\">\n"
			"  <testcase classname=\"stress-mm\" name=\"comparable\"><failure message=\"");
		xml_text(f, msg);
		fprintf(f, "\"/></testcase>\n</testsuite>\n");
		fclose(f);
	}
	smm_die(CMP_ERROR, "stress-mm compare", "%s", msg);
}

/* A percentage option: a decimal number within [lo, hi]. */
static double parse_pct(const char *opt, const char *v, double lo, double hi)
{
	double d;

	if (smm_decimal(v, &d) || d < lo || d > hi)
		cmp_error("--%s='%s' is not a percentage; valid range %g..%g",
			  opt, v, lo, hi);
	return d;
}

static void usage(void)
{
	printf("usage: stress-mm compare BASE.yaml[,...] CAND.yaml[,...] [--threshold PCT] [--confidence PCT]\n"
	       "                         [--metric NAME]... [--allow-param-diff] [--strict]\n"
	       "                         [--junit FILE] [--format human|simple]\n\n"
	       "Compares two sets of runs (stress-mm --repeat R --yaml FILE; several reports of\n"
	       "one configuration and kernel, comma-separated, pool their runs) figure by figure:\n"
	       "median [min, max] of each side, the change of (value + floor) with its\n"
	       "confidence interval (Hodges-Lehmann, exact Mann-Whitney U; default 95%%),\n"
	       "and a verdict: regression or improvement (the interval excludes 0 and the\n"
	       "change is beyond the threshold, default 5%%), inconclusive (beyond it, the\n"
	       "interval includes 0), no change, too few runs (at 95%% at least 4 per side).\n"
	       "Figures (* compared by default; others with --metric):");
	for (size_t i = 0; i < smm_nr_figure_defs; i++) {
		const struct smm_figure_def *d = &smm_figure_defs[i];

		printf("\n  %s%s%s (%s better, floor %g)",
		       d->default_gate ? "* " : "  ",
		       d->per_stressor ? "STRESSOR." : "", d->name,
		       d->higher_better ? "higher" : "lower", d->floor);
	}
	printf("\n\nExit status, diff-style (unlike a run's stress-ng-style statuses): 0 no\n"
	       "regression (inconclusive included, unless --strict makes it 1), 1 at least\n"
	       "one regression, 2 usage error, incomparable or malformed input, or too few\n"
	       "runs for the confidence.\n");
}

/* The value of option @a, or exit 2 when it has none. */
static const char *value(const char *a, const char *v)
{
	if (!v)
		cmp_error("option %s needs a value (see --help)", a);
	return v;
}

static void parse(int argc, char **argv, struct cmp_opts *o)
{
	int nfiles = 0;

	memset(o, 0, sizeof(*o));
	o->threshold = 5;
	o->confidence = 95;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage();
			exit(CMP_OK);
		} else if (!strcmp(a, "--allow-param-diff")) {
			o->allow = true;
		} else if (!strcmp(a, "--strict")) {
			o->strict = true;
		} else if (!strcmp(a, "--threshold")) {
			o->threshold =
				parse_pct("threshold", value(a, v), 0, 1000);
			i++;
		} else if (!strcmp(a, "--confidence")) {
			o->confidence =
				parse_pct("confidence", value(a, v), 50, 99.9);
			i++;
		} else if (!strcmp(a, "--metric")) {
			v = value(a, v);
			if (!smm_figure_def_of(v))
				cmp_error(
					"--metric='%s' is not a figure (see --help)",
					v);
			if (o->nsel == MAX_SELECT)
				cmp_error("more than %d --metric options",
					  MAX_SELECT);
			for (int k = 0; k < o->nsel; k++)
				if (!strcmp(o->select[k], v))
					cmp_error("--metric %s given twice", v);
			o->select[o->nsel++] = v;
			i++;
		} else if (!strcmp(a, "--junit")) {
			o->junit = junit_path = value(a, v);
			i++;
		} else if (!strcmp(a, "--format")) {
			v = value(a, v);
			i++;
			if (strcmp(v, "simple") != 0 && strcmp(v, "human") != 0)
				cmp_error("--format='%s'; valid: human, simple",
					  v);
			o->simple = !strcmp(v, "simple");
		} else if (a[0] == '-' && a[1]) {
			cmp_error("unknown option %s (see --help)", a);
		} else if (nfiles < 2) {
			o->files[nfiles++] = a;
		} else {
			cmp_error("unexpected argument '%s' (see --help)", a);
		}
	}
	if (nfiles != 2)
		cmp_error("needs BASE.yaml and CAND.yaml (see --help)");
}

struct row {
	char name[SMM_FIGURE_NAME_MAX];
	const struct smm_figure_def *def;
	struct smm_summary b, c;
	struct smm_gate_result g;
	bool fail;
};

static void side(char *buf, size_t len, const struct smm_summary *st)
{
	snprintf(buf, len, "%.5g [%.5g, %.5g] (%zu)", st->median, st->min,
		 st->max, st->n);
}

/* Read every value and decide every verdict before printing anything. */
static int decide(struct smm_side *base, struct smm_side *cand,
		  const struct cmp_opts *o, struct row *rows)
{
	static char names[MAX_FIGURES][SMM_FIGURE_NAME_MAX];
	char err[600];
	int n = 0;

	if (o->nsel) {
		for (int i = 0; i < o->nsel; i++)
			snprintf(names[n++], SMM_FIGURE_NAME_MAX, "%s",
				 o->select[i]);
	} else {
		n = smm_side_figures(base, names, 0, MAX_FIGURES, true);
		n = smm_side_figures(cand, names, n, MAX_FIGURES, true);
	}
	if (!n)
		cmp_error(
			"no figure to compare (counters and stressors skipped on both sides?)");
	for (int i = 0; i < n; i++) {
		double *vb = malloc(base->nruns * sizeof(*vb));
		double *vc = malloc(cand->nruns * sizeof(*vc));
		size_t nb, nc;
		struct row *r = &rows[i];
		int rb, rc;

		if (!vb || !vc)
			cmp_error("out of memory");
		memcpy(r->name, names[i], sizeof(r->name));
		r->def = smm_figure_def_of(names[i]);
		rb = smm_side_values(base, names[i], vb, base->nruns, &nb, err,
				     sizeof(err));
		if (rb == -EINVAL)
			cmp_error("%s", err);
		rc = smm_side_values(cand, names[i], vc, cand->nruns, &nc, err,
				     sizeof(err));
		if (rc == -EINVAL)
			cmp_error("%s", err);
		if (rb || rc)
			cmp_error(
				"%s: no value in %s%s%s: incomparable (a skipped stressor or counter writes none, so it cannot pass a gate)",
				names[i], rb ? base->arg : "",
				rb && rc ? " nor in " : "",
				rc ? cand->arg : "");
		if (smm_gate(vb, nb, vc, nc, r->def->higher_better,
			     r->def->floor, o->threshold, o->confidence / 100,
			     &r->g))
			cmp_error("%s: values the gate cannot use", names[i]);
		smm_summary_of(vb, nb, &r->b);
		smm_summary_of(vc, nc, &r->c);
		r->fail = r->g.v == SMM_V_REGRESSION ||
			  r->g.v == SMM_V_TOO_FEW ||
			  (o->strict && r->g.v == SMM_V_INCONCLUSIVE);
		free(vb);
		free(vc);
	}
	return n;
}

static void print_rows(const struct cmp_opts *o, struct smm_side *base,
		       struct smm_side *cand, const struct row *rows, int n)
{
	if (!o->simple) {
		printf("# stress-mm compare: base %s (%s, %u runs) vs candidate %s (%s, %u runs), threshold %.1f%%, confidence %.1f%%\n",
		       base->arg, base->r[0].kernel, base->nruns, cand->arg,
		       cand->r[0].kernel, cand->nruns, o->threshold,
		       o->confidence);
		printf("%-44s %30s %30s %9s %19s %7s  %s\n", "figure",
		       "base median [min, max] (runs)", "candidate", "change",
		       "interval", "p", "verdict");
	}
	for (int i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		char bt[64], ct[64], iv[48], word[16];

		if (o->simple) {
			snprintf(word, sizeof(word), "%s",
				 smm_verdict_names[r->g.v]);
			for (char *p = word; *p; p++)
				if (*p == ' ')
					*p = '-';
			printf("%s %.10g %.10g %.2f %.2f %.2f %.4f %s\n",
			       r->name, r->b.median, r->c.median,
			       r->g.change_pct, r->g.lo_pct, r->g.hi_pct,
			       r->g.p, word);
			continue;
		}
		side(bt, sizeof(bt), &r->b);
		side(ct, sizeof(ct), &r->c);
		if (r->g.v == SMM_V_TOO_FEW)
			snprintf(iv, sizeof(iv), "(none)");
		else
			snprintf(iv, sizeof(iv), "[%+.1f%%, %+.1f%%]",
				 r->g.lo_pct, r->g.hi_pct);
		printf("%-44s %30s %30s %+8.1f%% %19s %7.4f  %s\n", r->name, bt,
		       ct, r->g.change_pct, iv, r->g.p,
		       smm_verdict_names[r->g.v]);
	}
}

static void write_junit(const struct cmp_opts *o, const struct row *rows, int n,
			int failures)
{
	FILE *jf = fopen(o->junit, "we");

	if (!jf)
		cmp_error("--junit %s: %s", o->junit, strerror(errno));
	fprintf(jf,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuite name=\"stress-mm compare\" tests=\"%d\" failures=\"%d\">\n",
		n, failures);
	for (int i = 0; i < n; i++) {
		fprintf(jf, "  <testcase classname=\"stress-mm\" name=\"");
		xml_text(jf, rows[i].name);
		fprintf(jf, "\">");
		if (rows[i].fail)
			fprintf(jf,
				"<failure message=\"%s: %+.1f%% [%+.1f%%, %+.1f%%]\"/>",
				smm_verdict_names[rows[i].g.v],
				rows[i].g.change_pct, rows[i].g.lo_pct,
				rows[i].g.hi_pct);
		fprintf(jf, "</testcase>\n");
	}
	fprintf(jf, "</testsuite>\n");
	if (fclose(jf) != 0)
		cmp_error("--junit %s: %s", o->junit, strerror(errno));
}

int smm_compare_main(int argc, char **argv)
{
	static struct row rows[MAX_FIGURES];
	static struct smm_side base, cand;
	int n, failures = 0, regressions = 0, too_few = 0;
	size_t need = 0;
	struct cmp_opts o;
	char err[700];

	parse(argc, argv, &o);
	if (smm_side_load(&base, o.files[0], err, sizeof(err)) ||
	    smm_side_load(&cand, o.files[1], err, sizeof(err)))
		cmp_error("%s", err);
	if (smm_sides_share(&base, &cand))
		cmp_error(
			"%s is on both sides: the same runs cannot be compared with themselves",
			smm_sides_share(&base, &cand));
	if (smm_report_diff(&base.r[0], &cand.r[0]) && !o.allow)
		cmp_error(
			"the parameters or conditions differ (listed above): not comparable; --allow-param-diff compares two configurations");
	n = decide(&base, &cand, &o, rows);
	for (int i = 0; i < n; i++) {
		regressions += rows[i].g.v == SMM_V_REGRESSION;
		too_few += rows[i].g.v == SMM_V_TOO_FEW;
		failures += rows[i].fail;
		if (rows[i].g.runs_needed > need)
			need = rows[i].g.runs_needed;
	}
	if (o.junit)
		write_junit(&o, rows, n, failures);
	print_rows(&o, &base, &cand, rows, n);
	if (!o.simple)
		printf("# %s\n",
		       regressions ? "regression"
		       : too_few   ? "cannot decide: too few runs"
		       : failures  ? "failed under --strict (inconclusive)"
				   : "no regression");
	smm_side_free(&base);
	smm_side_free(&cand);
	if (regressions)
		return CMP_REGRESSION;
	if (too_few) {
		fprintf(stderr,
			"stress-mm compare: %d figure%s had too few runs for %g%% confidence: the exact test needs %zu runs per side (--repeat %zu), or a lower --confidence\n",
			too_few, too_few == 1 ? "" : "s", o.confidence, need,
			need);
		return CMP_ERROR;
	}
	return failures ? CMP_REGRESSION : CMP_OK;
}
