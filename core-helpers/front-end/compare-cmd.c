// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare-cmd.c - `stress-mm compare BASE.yaml CAND.yaml`: the
 * regression gate over two sets of runs (stress-mm --repeat R --yaml ...).
 *
 *   stress-mm compare BASE.yaml CAND.yaml [--threshold PCT] [--metric NAME]...
 *                     [--allow-param-diff] [--strict] [--junit FILE]
 *                     [--format human|simple]
 *
 * Reads stress-mm.runs[].metrics of both reports (libyaml), computes per
 * metric the median ± relative half-range of each side and the verdict of
 * compare.h. Parameters (per stressor: workers, ops limit, every parameter)
 * must match unless --allow-param-diff; what differs is listed either way;
 * kernel releases may differ.
 *
 * Exit status, diff-style as gates expect (unlike a run's stress-ng-style
 * statuses): 0 no regression (noisy and unrepeated included, unless
 * --strict, which makes them 1); 1 at least one regression; 2 usage error,
 * incomparable (parameters differ, a figure missing on one side, a failed,
 * interrupted or incomplete set of runs) or malformed input (not YAML,
 * empty, not a stress-mm report, a value that is not a non-negative number).
 * Every value is checked before anything is printed; with --junit the file
 * is written in every case (a failing "comparable" test case when the
 * comparison cannot be made).
 */
#include <errno.h>
#include <sys/stat.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate.h"
#include "die.h"
#include "compare-cmd.h"
#include "yamldoc.h"

#define MAX_METRICS 64
#define MAX_RUNS 256
#define MAX_SELECT 32

enum { CMP_OK, CMP_REGRESSION, CMP_ERROR };

struct report {
	const char *path;
	yaml_document_t doc;
	int sm; /* the stress-mm mapping */
	int runs; /* its runs sequence */
	char kernel[128];
	unsigned int nruns;
};

/* --junit FILE: also written when the comparison cannot be made, so that
 * CI never reads an older file as this result. */
static const char *junit_path;

static void junit_error(const char *msg)
{
	FILE *f;

	if (!junit_path || !(f = fopen(junit_path, "w")))
		return;
	fprintf(f,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuite name=\"stress-mm compare\" tests=\"1\" failures=\"1\">\n"
		"  <testcase classname=\"stress-mm\" name=\"comparable\"><failure message=\"");
	for (; *msg; msg++)
		fputs(*msg == '"'   ? "&quot;"
		      : *msg == '<' ? "&lt;"
		      : *msg == '&' ? "&amp;"
				    : (char[2]){ *msg, 0 },
		      f);
	fprintf(f, "\"/></testcase>\n</testsuite>\n");
	fclose(f);
}

/* One line, exit 2: usage, incomparable or malformed. */
static __attribute__((format(printf, 1, 2), noreturn)) void
cmp_error(const char *fmt, ...)
{
	char msg[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	junit_error(msg);
	smm_die(CMP_ERROR, "stress-mm compare", "%s", msg);
}

static const char *scalar(yaml_document_t *d, int node)
{
	yaml_node_t *n = yaml_document_get_node(d, node);

	return n && n->type == YAML_SCALAR_NODE ? (char *)n->data.scalar.value
						: NULL;
}

static void load(struct report *rp, const char *path)
{
	yaml_node_t *seq;
	const char *k;
	int rc;

	struct stat st;

	rp->path = path;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		cmp_error("%s: is a directory", path);
	rc = smm_yaml_load(path, &rp->doc);
	if (rc == -EINVAL)
		cmp_error("%s: not YAML, or empty", path);
	if (rc)
		cmp_error("%s: %s", path, strerror(-rc));
	rp->sm = smm_yaml_get(&rp->doc, 1, "stress-mm");
	rp->runs = rp->sm ? smm_yaml_get(&rp->doc, rp->sm, "runs") : 0;
	seq = yaml_document_get_node(&rp->doc, rp->runs);
	if (!seq || seq->type != YAML_SEQUENCE_NODE)
		cmp_error(
			"%s: not a stress-mm report (no stress-mm.runs; a file stress-ng wrote itself?)",
			path);
	rp->nruns = (unsigned int)(seq->data.sequence.items.top -
				   seq->data.sequence.items.start);
	k = scalar(&rp->doc, smm_yaml_get(&rp->doc, rp->sm, "kernel-release"));
	snprintf(rp->kernel, sizeof(rp->kernel), "%s", k ? k : "unknown");
	/* Failed or interrupted runs are not measurements of the kernel. */
	for (unsigned int i = 0; i < rp->nruns; i++) {
		int run = seq->data.sequence.items.start[i];
		const char *es = scalar(
			&rp->doc, smm_yaml_get(&rp->doc, run, "exit-status"));
		const char *in = scalar(
			&rp->doc, smm_yaml_get(&rp->doc, run, "interrupted"));

		if (!es || strcmp(es, "0") != 0)
			cmp_error(
				"%s: run %u has exit-status %s: a failed run is not comparable",
				path, i + 1, es ? es : "(none)");
		if (in && strcmp(in, "false") != 0)
			cmp_error("%s: run %u was interrupted: not comparable",
				  path, i + 1);
	}
	{
		const char *req =
			scalar(&rp->doc, smm_yaml_get(&rp->doc, rp->sm,
						      "repeat-requested"));

		if (req && strtoul(req, NULL, 10) != rp->nruns)
			cmp_error(
				"%s: %u of %s requested runs: an incomplete set is not comparable",
				path, rp->nruns, req);
	}
}

/* Values of @metric over the runs of @rp; returns how many. */
static size_t values(struct report *rp, const char *metric, double *v)
{
	yaml_node_t *seq = yaml_document_get_node(&rp->doc, rp->runs);
	size_t n = 0;

	for (yaml_node_item_t *it = seq->data.sequence.items.start;
	     it < seq->data.sequence.items.top && n < MAX_RUNS; it++) {
		int m = smm_yaml_get(&rp->doc, *it, "metrics");
		const char *s = scalar(
			&rp->doc, m ? smm_yaml_get(&rp->doc, m, metric) : 0);
		char *end = NULL;

		if (!s)
			continue;
		v[n] = strtod(s, &end);
		if (end == s || *end || v[n] < 0 || v[n] != v[n])
			cmp_error("%s: %s: '%s' is not a non-negative number",
				  rp->path, metric, s);
		n++;
	}
	return n;
}

/* Metric names of the runs of @rp, added to @names once each. */
static int metric_names(struct report *rp, char names[][80], int n)
{
	yaml_node_t *seq = yaml_document_get_node(&rp->doc, rp->runs);

	for (yaml_node_item_t *it = seq->data.sequence.items.start;
	     it < seq->data.sequence.items.top; it++) {
		yaml_node_t *m = yaml_document_get_node(
			&rp->doc, smm_yaml_get(&rp->doc, *it, "metrics"));

		if (!m || m->type != YAML_MAPPING_NODE)
			continue;
		for (yaml_node_pair_t *p = m->data.mapping.pairs.start;
		     p < m->data.mapping.pairs.top && n < MAX_METRICS; p++) {
			const char *k = scalar(&rp->doc, p->key);
			int j;

			if (!k || !smm_metric_def_of(k))
				continue;
			for (j = 0; j < n; j++)
				if (strcmp(names[j], k) == 0)
					break;
			if (j == n)
				snprintf(names[n++], 80, "%s", k);
		}
	}
	return n;
}

/* "stressor.key=value" for workers, ops limit and every parameter. */
static int params(struct report *rp, char out[][160], int max)
{
	yaml_node_t *st = yaml_document_get_node(
		&rp->doc, smm_yaml_get(&rp->doc, rp->sm, "stressors"));
	int n = 0;

	if (!st || st->type != YAML_MAPPING_NODE)
		return 0;
	for (yaml_node_pair_t *p = st->data.mapping.pairs.start;
	     p < st->data.mapping.pairs.top; p++) {
		const char *name = scalar(&rp->doc, p->key);
		static const char *const keys[] = { "workers", "ops-limit" };
		yaml_node_t *pm;

		for (int k = 0; k < 2 && n < max; k++) {
			const char *v = scalar(
				&rp->doc,
				smm_yaml_get(&rp->doc, p->value, keys[k]));

			snprintf(out[n++], 160, "%s.%s=%s", name, keys[k],
				 v ? v : "");
		}
		pm = yaml_document_get_node(
			&rp->doc,
			smm_yaml_get(&rp->doc, p->value, "parameters"));
		if (!pm || pm->type != YAML_MAPPING_NODE)
			continue;
		for (yaml_node_pair_t *q = pm->data.mapping.pairs.start;
		     q < pm->data.mapping.pairs.top && n < max; q++) {
			const char *v = scalar(&rp->doc, q->value);

			snprintf(out[n++], 160, "%s.%s=%s", name,
				 scalar(&rp->doc, q->key), v ? v : "");
		}
	}
	return n;
}

static bool in_list(char list[][160], int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (strcmp(list[i], s) == 0)
			return true;
	return false;
}

/* List parameter differences; returns how many. */
static int param_diff(struct report *b, struct report *c)
{
	static char pb[256][160], pc[256][160];
	int nb = params(b, pb, 256), nc = params(c, pc, 256), diff = 0;

	for (int i = 0; i < nb; i++)
		if (!in_list(pc, nc, pb[i])) {
			fprintf(stderr,
				"stress-mm compare: parameter differs: base %s\n",
				pb[i]);
			diff++;
		}
	for (int i = 0; i < nc; i++)
		if (!in_list(pb, nb, pc[i])) {
			fprintf(stderr,
				"stress-mm compare: parameter differs: candidate %s\n",
				pc[i]);
			diff++;
		}
	return diff;
}

static double parse_threshold(const char *v)
{
	char *end = NULL;
	double d;

	errno = 0;
	d = strtod(v, &end);
	if (v[0] < '0' || v[0] > '9' || !end || *end || errno || d > 1000)
		cmp_error(
			"--threshold='%s' is not a percentage; valid range 0..1000",
			v);
	return d;
}

static void usage(void)
{
	printf("usage: stress-mm compare BASE.yaml CAND.yaml [--threshold PCT] [--metric NAME]...\n"
	       "                         [--allow-param-diff] [--strict] [--junit FILE]\n"
	       "                         [--format human|simple]\n\n"
	       "Compares two sets of runs (stress-mm --repeat R --yaml FILE) metric by metric:\n"
	       "median ± relative half-range of each side, %%change, verdict: regression or\n"
	       "improvement (beyond the threshold, default 5%%, and the ranges do not overlap),\n"
	       "noisy (beyond it, ranges overlap), no change, unrepeated (a side has fewer\n"
	       "than %d runs). Metrics:",
	       SMM_MIN_RUNS);
	for (size_t i = 0; i < smm_nr_metric_defs; i++)
		printf("%s%s%s (%s better)", i ? "," : "", i % 2 ? " " : "\n  ",
		       smm_metric_defs[i].name,
		       smm_metric_defs[i].higher_better ? "higher" : "lower");
	printf("\n  (per-stressor ones as STRESSOR.NAME, e.g. shm-pcp.bogo-ops-per-second-real-time)\n\n"
	       "Exit status, diff-style (unlike a run's stress-ng-style statuses): 0 no\n"
	       "regression (noisy and unrepeated included, unless --strict makes them 1),\n"
	       "1 at least one regression, 2 usage error, incomparable or malformed input.\n");
}

struct row {
	struct smm_summary b, c;
	double change;
	enum smm_verdict v;
	bool missing, fail;
};

/* "median ± half-range%", or "median (1 run)" without a range. */
static void side(char *buf, size_t len, const struct smm_summary *st)
{
	if (st->n < SMM_MIN_RUNS)
		snprintf(buf, len, "%.6g (%zu run%s)", st->median, st->n,
			 st->n == 1 ? "" : "s");
	else
		snprintf(buf, len, "%.6g ± %.1f%%", st->median,
			 st->half_range_pct);
}

static void xml_attr(FILE *f, const char *s)
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

int smm_compare_main(int argc, char **argv)
{
	static char names[MAX_METRICS][80];
	const char *files[2] = { NULL, NULL }, *junit = NULL;
	const char *select[MAX_SELECT];
	struct report base, cand;
	double threshold = 5.0;
	bool allow = false, strict = false, simple = false;
	int nsel = 0, nfiles = 0, n, result = CMP_OK, failures = 0;
	int missing = 0, regressions = 0;
	static struct row rows[MAX_METRICS];
	FILE *jf = NULL;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage();
			return CMP_OK;
		} else if (!strcmp(a, "--threshold") && i + 1 < argc) {
			threshold = parse_threshold(argv[++i]);
		} else if (!strcmp(a, "--metric") && i + 1 < argc) {
			if (!smm_metric_def_of(argv[i + 1]))
				cmp_error(
					"--metric='%s' is not a metric (see --help)",
					argv[i + 1]);
			if (nsel == MAX_SELECT)
				cmp_error("more than %d --metric options",
					  MAX_SELECT);
			for (int k = 0; k < nsel; k++)
				if (!strcmp(select[k], argv[i + 1]))
					cmp_error("--metric %s given twice",
						  argv[i + 1]);
			select[nsel++] = argv[i + 1];
			i++;
		} else if (!strcmp(a, "--allow-param-diff")) {
			allow = true;
		} else if (!strcmp(a, "--strict")) {
			strict = true;
		} else if (!strcmp(a, "--junit") && i + 1 < argc) {
			junit = argv[++i];
			junit_path = junit;
		} else if (!strcmp(a, "--format") && i + 1 < argc) {
			i++;
			if (strcmp(argv[i], "simple") != 0 &&
			    strcmp(argv[i], "human") != 0)
				cmp_error("--format='%s'; valid: human, simple",
					  argv[i]);
			simple = !strcmp(argv[i], "simple");
		} else if (a[0] == '-' && a[1]) {
			cmp_error(
				"unknown or incomplete option %s (see --help)",
				a);
		} else if (nfiles < 2) {
			files[nfiles++] = a;
		} else {
			cmp_error("unexpected argument '%s' (see --help)", a);
		}
	}
	if (nfiles != 2)
		cmp_error("needs BASE.yaml and CAND.yaml (see --help)");
	load(&base, files[0]);
	load(&cand, files[1]);
	if (param_diff(&base, &cand) && !allow)
		cmp_error(
			"the parameters differ (listed above): not comparable; --allow-param-diff compares two configurations");
	if (nsel) {
		n = 0;
		for (int i = 0; i < nsel; i++)
			snprintf(names[n++], 80, "%s", select[i]);
	} else {
		n = metric_names(&base, names, 0);
		n = metric_names(&cand, names, n);
	}
	/* Every value is read and checked before anything is printed. */
	for (int i = 0; i < n; i++) {
		const struct smm_metric_def *def = smm_metric_def_of(names[i]);
		double vb[MAX_RUNS], vc[MAX_RUNS];
		size_t nb = values(&base, names[i], vb);
		size_t nc = values(&cand, names[i], vc);

		rows[i].missing = !nb || !nc;
		if (rows[i].missing) {
			missing++;
			continue;
		}
		smm_summary_of(vb, nb, &rows[i].b);
		smm_summary_of(vc, nc, &rows[i].c);
		rows[i].v =
			smm_verdict(&rows[i].b, &rows[i].c, def->higher_better,
				    threshold, &rows[i].change);
		rows[i].fail = rows[i].v == SMM_V_REGRESSION ||
			       (strict && (rows[i].v == SMM_V_NOISY ||
					   rows[i].v == SMM_V_UNREPEATED));
		regressions += rows[i].v == SMM_V_REGRESSION;
		failures += rows[i].fail;
	}
	if (junit) {
		jf = fopen(junit, "w");
		if (!jf)
			cmp_error("--junit %s: %s", junit, strerror(errno));
		fprintf(jf,
			"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			"<testsuite name=\"stress-mm compare\" tests=\"%d\" failures=\"%d\">\n",
			n, failures + missing);
	}
	if (!simple) {
		printf("# stress-mm compare: base %s (%s, %u run%s) vs candidate %s (%s, %u run%s), threshold %.1f%%\n",
		       base.path, base.kernel, base.nruns,
		       base.nruns == 1 ? "" : "s", cand.path, cand.kernel,
		       cand.nruns, cand.nruns == 1 ? "" : "s", threshold);
		printf("%-44s %22s %22s %9s  %s\n", "metric", "base",
		       "candidate", "change", "verdict");
	}
	for (int i = 0; i < n; i++) {
		const struct row *rw = &rows[i];
		const char *verdict =
			rw->missing ? "missing" : smm_verdict_names[rw->v];
		char bt[40], ct[40], word[16];

		if (rw->missing) {
			printf(simple ? "%s - - - missing\n"
				      : "%-44s %22s %22s %9s  missing on one side\n",
			       names[i], "", "", "");
		} else if (simple) {
			snprintf(word, sizeof(word), "%s", verdict);
			for (char *p = word; *p; p++)
				if (*p == ' ')
					*p = '-';
			printf("%s %.10g %.10g %.2f %s\n", names[i],
			       rw->b.median, rw->c.median, rw->change, word);
		} else {
			side(bt, sizeof(bt), &rw->b);
			side(ct, sizeof(ct), &rw->c);
			printf("%-44s %22s %22s %+8.1f%%  %s\n", names[i], bt,
			       ct, rw->change, verdict);
		}
		if (jf) {
			fprintf(jf,
				"  <testcase classname=\"stress-mm\" name=\"");
			xml_attr(jf, names[i]);
			fprintf(jf, "\">");
			if (rw->fail || rw->missing)
				fprintf(jf,
					"<failure message=\"%s: %+.1f%%\"/>",
					verdict, rw->change);
			fprintf(jf, "</testcase>\n");
		}
	}
	if (jf) {
		fprintf(jf, "</testsuite>\n");
		if (fclose(jf) != 0)
			cmp_error("--junit %s: %s", junit, strerror(errno));
	}
	if (missing)
		result = CMP_ERROR;
	else if (failures)
		result = CMP_REGRESSION;
	if (!simple)
		printf("# %s\n",
		       missing ? "incomparable: a figure is missing on one side"
		       : regressions ? "regression"
		       : failures
			       ? "failed under --strict (noisy or unrepeated)"
			       : "no regression");
	yaml_document_delete(&base.doc);
	yaml_document_delete(&cand.doc);
	return result;
}
