// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare-opts.c - the options of stress-mm compare: one table of
 * {name, has_arg, setter}, getopt_long over it, and the usage text.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare-load.h"
#include "compare-opts.h"
#include "errors.h"
#include "figures.h"
#include "mwu.h"
#include "plot.h"

/* A percentage option: a decimal number within [lo, hi]. */
static int pct_opt(const char *opt, const char *v, double lo, double hi,
		   double *out, char *err, size_t len)
{
	const char *why = NULL;

	if (smm_decimal(v, out))
		why = "not a percentage";
	else if (*out < lo || *out > hi)
		why = "out of range";
	if (why)
		return smm_errmsg(err, len,
				  "--%s='%s' is %s; valid range %g..%g", opt, v,
				  why, lo, hi);
	return 0;
}

static int set_threshold(struct smm_compare_opts *o, const char *v, char *err,
			 size_t len)
{
	return pct_opt("threshold", v, 0, 1000, &o->threshold, err, len);
}

static int set_confidence(struct smm_compare_opts *o, const char *v, char *err,
			  size_t len)
{
	return pct_opt("confidence", v, 50, 99.9, &o->confidence, err, len);
}

static int set_metric(struct smm_compare_opts *o, const char *v, char *err,
		      size_t len)
{
	if (!smm_figure_def_of(v))
		return smm_errmsg(err, len,
				  "--metric='%s' is not a figure (see --help)",
				  v);
	for (size_t k = 0; k < o->nsel; k++)
		if (!strcmp(o->select[k], v))
			return smm_errmsg(err, len, "--metric %s given twice",
					  v);
	o->select[o->nsel++] = v;
	return 0;
}

static int set_junit(struct smm_compare_opts *o, const char *v, char *err,
		     size_t len)
{
	if (o->junit)
		return smm_errmsg(err, len, "--junit given twice (%s, %s)",
				  o->junit, v);
	if (!*v)
		return smm_errmsg(err, len, "--junit needs a file name");
	o->junit = v;
	return 0;
}

static int set_plot(struct smm_compare_opts *o, const char *v, char *err,
		    size_t len)
{
	if (o->plot)
		return smm_errmsg(err, len, "--plot given twice (%s, %s)",
				  o->plot, v);
	o->plot = v;
	return smm_plot_check(v, err, len);
}

static int set_format(struct smm_compare_opts *o, const char *v, char *err,
		      size_t len)
{
	if (strcmp(v, "simple") != 0 && strcmp(v, "human") != 0)
		return smm_errmsg(err, len,
				  "--format='%s'; valid: human, simple", v);
	o->simple = !strcmp(v, "simple");
	return 0;
}

/* The options: getopt_long's table is built from this one. An option
 * without a value sets the bool at @flag of struct smm_compare_opts. */
static const struct cmp_option {
	const char *name;
	int has_arg;
	int (*set)(struct smm_compare_opts *o, const char *v, char *err,
		   size_t len);
	size_t flag;
} cmp_options[] = {
	{ "threshold", required_argument, set_threshold, 0 },
	{ "confidence", required_argument, set_confidence, 0 },
	{ "metric", required_argument, set_metric, 0 },
	{ "allow-param-diff", no_argument, NULL,
	  offsetof(struct smm_compare_opts, allow) },
	{ "strict", no_argument, NULL,
	  offsetof(struct smm_compare_opts, strict) },
	{ "junit", required_argument, set_junit, 0 },
	{ "format", required_argument, set_format, 0 },
	{ "plot", required_argument, set_plot, 0 },
	{ "help", no_argument, NULL, offsetof(struct smm_compare_opts, help) },
};

#define NOPTS (sizeof(cmp_options) / sizeof(cmp_options[0]))
#define OPT_BASE 256 /* getopt_long's val of option i: OPT_BASE + i */
#define HELP_INDEX (NOPTS - 1)

/*
 * One getopt_long pass over a copy of @argv: @each(option index, value,
 * @arg) for every option in order, @operand(text, @arg) for every operand;
 * either may stop the pass with non-zero. Malformed options go to
 * @bad(the option, what is wrong or NULL when it is unknown, @arg).
 */
struct pass {
	int (*each)(size_t i, const char *v, void *arg);
	int (*operand)(const char *s, void *arg);
	int (*bad)(const char *text, const char *what, void *arg);
	void *arg;
};

static int walk(int argc, char **argv, const struct pass *p)
{
	struct option lo[NOPTS + 1];
	char **av = calloc((size_t)argc + 1, sizeof(*av));
	int rc = 0, c;

	if (!av)
		return -ENOMEM;
	memcpy(av, argv, (size_t)argc * sizeof(*av));
	memset(lo, 0, sizeof(lo));
	for (size_t i = 0; i < NOPTS; i++)
		lo[i] = (struct option){ cmp_options[i].name,
					 cmp_options[i].has_arg, NULL,
					 (int)(OPT_BASE + i) };
	opterr = 0;
	optind = 0; /* GNU: start over, whatever an earlier pass left */
	while (!rc && (c = getopt_long(argc, av, ":h", lo, NULL)) != -1) {
		char text[64];

		if (c == 'h') {
			rc = p->each(HELP_INDEX, NULL, p->arg);
			continue;
		}
		if (c >= OPT_BASE) {
			rc = p->each((size_t)(c - OPT_BASE), optarg, p->arg);
			continue;
		}
		if (optopt >= OPT_BASE)
			snprintf(text, sizeof(text), "--%s",
				 cmp_options[optopt - OPT_BASE].name);
		else if (optopt)
			snprintf(text, sizeof(text), "-%c", optopt);
		else
			snprintf(text, sizeof(text), "%.60s", av[optind - 1]);
		rc = p->bad(text,
			    c == ':'		 ? "needs a value"
			    : optopt >= OPT_BASE ? "takes no value"
						 : NULL,
			    p->arg);
	}
	for (int i = optind; !rc && i < argc; i++)
		rc = p->operand(av[i], p->arg);
	free(av);
	return rc;
}

struct parse_state {
	struct smm_compare_opts *o;
	int nfiles;
	char *err;
	size_t len;
};

static int parse_each(size_t i, const char *v, void *arg)
{
	struct parse_state *s = arg;
	const struct cmp_option *opt = &cmp_options[i];
	int rc = 0;

	if (opt->set)
		rc = opt->set(s->o, v, s->err, s->len);
	else
		*(bool *)((char *)s->o + opt->flag) = true;
	/* --help ends the parse: nothing after it is looked at. */
	return rc ? rc : s->o->help ? 1 : 0;
}

static int parse_operand(const char *a, void *arg)
{
	struct parse_state *s = arg;

	if (s->nfiles == 2)
		return smm_errmsg(s->err, s->len,
				  "unexpected argument '%s' (see --help)", a);
	s->o->files[s->nfiles++] = a;
	return 0;
}

static int parse_bad(const char *text, const char *what, void *arg)
{
	struct parse_state *s = arg;

	if (!what)
		return smm_errmsg(s->err, s->len,
				  "unknown option %s (see --help)", text);
	return smm_errmsg(s->err, s->len, "option %s %s (see --help)", text,
			  what);
}

int smm_compare_parse(int argc, char **argv, struct smm_compare_opts *o,
		      char *err, size_t len)
{
	struct parse_state s = { .o = o, .err = err, .len = len };
	struct pass p = { parse_each, parse_operand, parse_bad, &s };
	int rc;

	memset(o, 0, sizeof(*o));
	o->threshold = 5;
	o->confidence = 95;
	o->select = calloc((size_t)argc + 1, sizeof(*o->select));
	if (!o->select)
		return -ENOMEM;
	rc = walk(argc, argv, &p);
	if (rc == 1 && o->help)
		return 0;
	if (rc)
		return rc < 0 ? rc : -EINVAL;
	if (s.nfiles != 2)
		return smm_errmsg(err, len,
				  "needs BASE.yaml and CAND.yaml (see --help)");
	return 0;
}

void smm_compare_opts_free(struct smm_compare_opts *o)
{
	free(o->select);
	o->select = NULL;
	o->nsel = 0;
}

struct junit_scan {
	const char **paths;
	size_t n, max;
};

static int scan_each(size_t i, const char *v, void *arg)
{
	struct junit_scan *s = arg;

	if (strcmp(cmp_options[i].name, "junit") != 0 || !v || !*v)
		return 0;
	if (s->n < s->max)
		s->paths[s->n] = v;
	s->n++;
	return 0;
}

static int scan_operand(const char *a, void *arg)
{
	(void)a, (void)arg;
	return 0;
}

static int scan_bad(const char *text, const char *what, void *arg)
{
	(void)text, (void)what, (void)arg;
	return 0;
}

size_t smm_compare_junit_paths(int argc, char **argv, const char **paths,
			       size_t max)
{
	struct junit_scan s = { .paths = paths, .max = max };
	struct pass p = { scan_each, scan_operand, scan_bad, &s };

	if (walk(argc, argv, &p))
		return 0;
	return s.n;
}

void smm_compare_usage(void)
{
	printf("usage: stress-mm compare BASE.yaml[,...] CAND.yaml[,...] [--threshold PCT] [--confidence PCT]\n"
	       "                         [--metric NAME]... [--allow-param-diff] [--strict]\n"
	       "                         [--junit FILE] [--format human|simple]\n"
	       "                         [--plot FILE.svg|FILE.png]\n\n"
	       "Compares two sets of runs (stress-mm --repeat R --yaml FILE; several reports of\n"
	       "one configuration and kernel, comma-separated, pool all their runs) figure by\n"
	       "figure: median [min, max] (runs) of each side, the change of (value + floor)\n"
	       "with its confidence interval (Hodges-Lehmann; default 95%%) and the p of the\n"
	       "Mann-Whitney U test: exact while C(m+n, m) < 2^127 and m*n <= %u (up to 65\n"
	       "runs against 65), normal approximation with tie and continuity correction\n"
	       "beyond. Verdicts: regression or improvement (the interval excludes 0 and the\n"
	       "change is beyond the threshold, default 5%%), inconclusive (beyond it, the\n"
	       "interval includes 0), no change, too few runs (at 95%% at least 4 per side).\n"
	       "--plot draws every run, the medians, the change and the verdict per figure\n"
	       "with gnuplot (gnuplot-nox).\n"
	       "Figures (* compared by default; others with --metric):",
	       SMM_MWU_EXACT_CELLS);
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
	       "runs for the confidence. --junit FILE holds this result on every exit but\n"
	       "--help (a failing \"comparable\" case when nothing could be compared).\n");
}
