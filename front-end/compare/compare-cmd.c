// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare-cmd.c - `stress-mm compare BASE.yaml CAND.yaml`: the regression
 * gate over two sets of runs (stress-mm --repeat R --yaml ...).
 *
 *   stress-mm compare BASE.yaml[,BASE2.yaml...] CAND.yaml[,...] [--threshold PCT]
 *                     [--confidence PCT] [--metric NAME]...
 *                     [--allow-param-diff] [--strict] [--junit FILE]
 *                     [--format human|simple] [--plot FILE.svg|FILE.png]
 *
 * A side may be several reports of one configuration and kernel, comma
 * separated (runs from several boots, interleaved with the other side's):
 * all their runs are pooled, whatever their number. Reads every report
 * once and strictly (compare-load.h), lists every difference in
 * parameters and conditions and refuses them unless --allow-param-diff
 * (the kernel may differ: that is what is compared), then per figure
 * (figures.h; by default those marked for the gate, all of them, however
 * many) gives base and candidate median [min, max] (runs), the change with
 * its confidence interval, the p of the U test and the verdict of gate.h
 * (exact Mann-Whitney or its normal approximation: mwu.h has the rule).
 *
 * Exit status, diff-style as gates expect (unlike a run's stress-ng-style
 * statuses): 0 no regression (inconclusive included, unless --strict,
 * which makes it 1); 1 at least one regression; 2 usage error,
 * incomparable (parameters or conditions differ, a figure missing on one
 * side or absent in some runs, a failed, interrupted or incomplete set of
 * runs, too few runs for the confidence) or malformed input (see
 * compare-load.h). Every value is checked before anything is printed.
 *
 * --junit FILE is this comparison's result on every exit but --help: the
 * verdicts; or one failing "comparable" test case with the error line
 * (usage errors included, wherever --junit stands among the arguments);
 * a failing "did not finish" test case is written before the reports are
 * read, so that a compare killed midway leaves no older file either. When
 * FILE cannot be written and is a regular file, it is removed. A FILE that
 * holds something other than XML (a report named by mistake) is never
 * written: exit 2. --help prints the usage, exits 0 and touches nothing.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compare-cmd.h"
#include "compare-opts.h"
#include "compare-sides.h"
#include "errors.h"
#include "gate.h"
#include "mwu.h"
#include "plot.h"
#include "summary.h"

enum { CMP_OK, CMP_REGRESSION, CMP_ERROR };

#define WHO "stress-mm compare"

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else if ((unsigned char)*s < 0x20 && *s != '\t')
			fputc('?', f);
		else
			fputc(*s, f);
	}
}

/* A file that could not be written must not be read as a result: remove
 * it when it is a regular file (never a device or a FIFO). */
static void junit_drop(const char *path)
{
	struct stat st;

	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
		unlink(path);
}

/*
 * Whether @path may be written as a JUnit file: it does not exist, is not
 * a regular file (/dev/stdout), is empty, or begins as XML. Anything else
 * (a report named by mistake) is never overwritten or removed.
 */
static bool junit_ours(const char *path)
{
	char head[5] = "";
	struct stat st;
	FILE *f;
	size_t n;

	if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode) || !st.st_size)
		return true;
	f = fopen(path, "re");
	if (!f)
		return true;
	n = fread(head, 1, sizeof(head), f);
	fclose(f);
	return n == sizeof(head) && !memcmp(head, "<?xml", sizeof(head));
}

/* One failing "comparable" test case saying @msg. Return: 0 (also when
 * @path is not ours to write), or -errno when it could not be written. */
static int junit_fail(const char *path, const char *msg)
{
	FILE *f;
	int bad, err;

	if (!junit_ours(path))
		return 0;
	f = fopen(path, "we");
	if (!f) {
		err = errno;
		junit_drop(path);
		return -err;
	}
	errno = 0; /* what a failed write leaves is the cause */
	fprintf(f,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuite name=\"stress-mm compare\" tests=\"1\" failures=\"1\">\n"
		"  <testcase classname=\"stress-mm\" name=\"comparable\"><failure message=\"");
	xml_text(f, msg);
	fprintf(f, "\"/></testcase>\n</testsuite>\n");
	bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		err = errno ? errno : EIO;
		junit_drop(path);
		return -err;
	}
	return 0;
}

struct row {
	const struct smm_cmp_figure *f;
	struct smm_summary b, c;
	struct smm_gate_result g;
	bool fail;
};

/* Every verdict before anything is printed. */
static int decide(const struct smm_compare_opts *o,
		  const struct smm_cmp_figures *fs, struct row *rows, char *err,
		  size_t len)
{
	for (size_t i = 0; i < fs->n; i++) {
		const struct smm_cmp_figure *f = &fs->f[i];
		struct row *r = &rows[i];
		int rc;

		r->f = f;
		rc = smm_gate(f->v[0], f->n[0], f->v[1], f->n[1],
			      f->def->higher_better, f->def->floor,
			      o->threshold, o->confidence / 100, &r->g);
		if (rc == -ENOMEM)
			return smm_errmsg(err, len, "out of memory");
		if (rc)
			return smm_errmsg(err, len,
					  "%s: values the gate cannot use (%s)",
					  f->name, strerror(-rc));
		smm_summary_of(f->v[0], f->n[0], &r->b);
		smm_summary_of(f->v[1], f->n[1], &r->c);
		r->fail = r->g.v == SMM_V_REGRESSION ||
			  r->g.v == SMM_V_TOO_FEW ||
			  (o->strict && r->g.v == SMM_V_INCONCLUSIVE);
	}
	return 0;
}

static void side_text(char *buf, size_t len, const struct smm_summary *st)
{
	snprintf(buf, len, "%.5g [%.5g, %.5g] (%zu)", st->median, st->min,
		 st->max, st->n);
}

static void print_simple(const struct row *r)
{
	char word[16];

	snprintf(word, sizeof(word), "%s", smm_verdict_names[r->g.v]);
	for (char *p = word; *p; p++)
		if (*p == ' ')
			*p = '-';
	if (r->g.v == SMM_V_TOO_FEW) /* no interval exists at these counts */
		printf("%s %.10g %.10g %.2f - - %.4f %s\n", r->f->name,
		       r->b.median, r->c.median, r->g.change_pct, r->g.p, word);
	else
		printf("%s %.10g %.10g %.2f %.2f %.2f %.4f %s\n", r->f->name,
		       r->b.median, r->c.median, r->g.change_pct, r->g.lo_pct,
		       r->g.hi_pct, r->g.p, word);
}

static void print_rows(const struct smm_compare_opts *o,
		       const struct smm_side *base, const struct smm_side *cand,
		       const struct row *rows, size_t n)
{
	if (!o->simple) {
		printf("# " WHO
		       ": base %s (%s, %zu runs) vs candidate %s (%s, %zu runs), threshold %.1f%%, confidence %.1f%%, U test %s\n",
		       base->arg, base->r[0].kernel, base->nruns, cand->arg,
		       cand->r[0].kernel, cand->nruns, o->threshold,
		       o->confidence,
		       smm_mwu_exact(base->nruns, cand->nruns)
			       ? "exact"
			       : "normal approximation (ties, continuity)");
		printf("%-44s %30s %30s %9s %19s %7s  %s\n", "figure",
		       "base median [min, max] (runs)", "candidate", "change",
		       "interval", "p", "verdict");
	}
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		char bt[80], ct[80], iv[48];

		if (o->simple) {
			print_simple(r);
			continue;
		}
		side_text(bt, sizeof(bt), &r->b);
		side_text(ct, sizeof(ct), &r->c);
		if (r->g.v == SMM_V_TOO_FEW)
			snprintf(iv, sizeof(iv), "(none)");
		else
			snprintf(iv, sizeof(iv), "[%+.1f%%, %+.1f%%]",
				 r->g.lo_pct, r->g.hi_pct);
		printf("%-44s %30s %30s %+8.1f%% %19s %7.4f  %s\n", r->f->name,
		       bt, ct, r->g.change_pct, iv, r->g.p,
		       smm_verdict_names[r->g.v]);
	}
}

static int write_junit(const char *path, const struct row *rows, size_t n,
		       size_t failures, const struct smm_diffs *diffs,
		       char *err, size_t len)
{
	FILE *jf = fopen(path, "we");
	int bad;

	if (!jf)
		return smm_errmsg(err, len, "--junit %s: %s", path,
				  strerror(errno));
	fprintf(jf,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuite name=\"stress-mm compare\" tests=\"%zu\" failures=\"%zu\">\n",
		n, failures);
	/* what differs between the sides: the kernel, the integration, and
	 * under --allow-param-diff the configuration */
	if (diffs->n)
		fprintf(jf, "  <properties>\n");
	for (size_t i = 0; i < diffs->n; i++) {
		fprintf(jf, "    <property name=\"differs");
		xml_text(jf, diffs->d[i].allowed);
		fprintf(jf, "\" value=\"");
		xml_text(jf, diffs->d[i].who);
		fputc(' ', jf);
		xml_text(jf, diffs->d[i].entry);
		fprintf(jf, "\"/>\n");
	}
	if (diffs->n)
		fprintf(jf, "  </properties>\n");
	for (size_t i = 0; i < n; i++) {
		fprintf(jf, "  <testcase classname=\"stress-mm\" name=\"");
		xml_text(jf, rows[i].f->name);
		fprintf(jf, "\">");
		if (rows[i].fail && rows[i].g.v == SMM_V_TOO_FEW)
			/* no interval exists at these run counts */
			fprintf(jf,
				"<failure message=\"%s: %+.1f%% (no interval)\"/>",
				smm_verdict_names[rows[i].g.v],
				rows[i].g.change_pct);
		else if (rows[i].fail)
			fprintf(jf,
				"<failure message=\"%s: %+.1f%% [%+.1f%%, %+.1f%%]\"/>",
				smm_verdict_names[rows[i].g.v],
				rows[i].g.change_pct, rows[i].g.lo_pct,
				rows[i].g.hi_pct);
		fprintf(jf, "</testcase>\n");
	}
	fprintf(jf, "</testsuite>\n");
	bad = ferror(jf);
	if (fclose(jf) != 0 || bad)
		return smm_errmsg(err, len, "--junit %s: %s", path,
				  strerror(errno ? errno : EIO));
	return 0;
}

/* The verdicts' summary; the exit status. */
static int conclude(const struct smm_compare_opts *o, const struct row *rows,
		    size_t n)
{
	size_t failures = 0, regressions = 0, too_few = 0, need = 0;

	for (size_t i = 0; i < n; i++) {
		regressions += rows[i].g.v == SMM_V_REGRESSION;
		too_few += rows[i].g.v == SMM_V_TOO_FEW;
		failures += rows[i].fail;
		if (rows[i].g.runs_needed > need)
			need = rows[i].g.runs_needed;
	}
	if (!o->simple)
		printf("# %s\n",
		       regressions ? "regression"
		       : too_few   ? "cannot decide: too few runs"
		       : failures  ? "failed under --strict (inconclusive)"
				   : "no regression");
	if (regressions)
		return CMP_REGRESSION;
	if (too_few) {
		fprintf(stderr,
			WHO
			": %zu figure%s had too few runs for %g%% confidence: the exact test needs %zu runs per side (--repeat %zu), or a lower --confidence\n",
			too_few, too_few == 1 ? "" : "s", o->confidence, need,
			need);
		return CMP_ERROR;
	}
	return failures ? CMP_REGRESSION : CMP_OK;
}

/* A side for the picture's title: its report, or its first and how many
 * more (a pooled side can name dozens), its kernel and runs. */
static void plot_side(char *buf, size_t len, const struct smm_side *sd)
{
	if (sd->n > 1)
		snprintf(buf, len, "%s and %d more reports (%s, %zu runs)",
			 sd->r[0].path, sd->n - 1, sd->r[0].kernel, sd->nruns);
	else
		snprintf(buf, len, "%s (%s, %zu runs)", sd->arg,
			 sd->r[0].kernel, sd->nruns);
}

/* --plot: one panel per row (plot.h). */
static int write_plot(const struct smm_compare_opts *o,
		      const struct smm_side *base, const struct smm_side *cand,
		      const struct row *rows, size_t n,
		      const struct smm_diffs *diffs, char *err, size_t len)
{
	struct smm_plot_panel *panels = calloc(n, sizeof(*panels));
	char title[1024], bl[600], cl[600];
	size_t used;
	struct smm_plot p = { title, bl, cl, panels, n };
	int rc;

	if (!panels)
		return smm_errmsg(err, len, "out of memory");
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &rows[i];

		panels[i] = (struct smm_plot_panel){
			.figure = r->f->name,
			.base = r->f->v[0],
			.cand = r->f->v[1],
			.nb = r->f->n[0],
			.nc = r->f->n[1],
			.base_median = r->b.median,
			.cand_median = r->c.median,
			.has_interval = r->g.v != SMM_V_TOO_FEW,
			.change_pct = r->g.change_pct,
			.lo_pct = r->g.lo_pct,
			.hi_pct = r->g.hi_pct,
			.verdict = smm_verdict_names[r->g.v],
		};
	}
	used = (size_t)snprintf(
		title, sizeof(title),
		"stress-mm compare, threshold %.1f%%, confidence %.1f%%",
		o->threshold, o->confidence);
	/* two configurations (--allow-param-diff): say which differences */
	for (size_t i = 0, k = 0; i < diffs->n && used < sizeof(title); i++) {
		if (diffs->d[i].allowed[0])
			continue;
		used += (size_t)snprintf(
			title + used, sizeof(title) - used, "%s%s %s",
			k++ ? "; " : "\nconfigurations differ: ",
			diffs->d[i].who, diffs->d[i].entry);
	}
	if (used >= sizeof(title))
		memcpy(title + sizeof(title) - 4, "...", 4);
	plot_side(bl, sizeof(bl), base);
	plot_side(cl, sizeof(cl), cand);
	rc = smm_plot_write(o->plot, &p, err, len);
	free(panels);
	return rc;
}

/* Load, check, decide, write, print. Returns the exit status; on
 * CMP_ERROR the line is in @err unless it was printed already. */
static int compare(const struct smm_compare_opts *o, struct smm_side *base,
		   struct smm_side *cand, char *err, size_t len)
{
	struct smm_cmp_figures fs = { 0 };
	struct smm_diffs diffs = { 0 };
	struct row *rows = NULL;
	size_t failures = 0;
	int rc, d, status;

	rc = smm_side_load(base, o->files[0], err, len);
	if (!rc)
		rc = smm_side_load(cand, o->files[1], err, len);
	if (rc)
		return CMP_ERROR;
	if (smm_sides_share(base, cand)) {
		smm_errmsg(
			err, len,
			"%s is on both sides: the same runs cannot be compared with themselves",
			smm_sides_share(base, cand));
		return CMP_ERROR;
	}
	d = smm_run_set_diff(&base->r[0], &cand->r[0], SMM_DIFF_SIDES, &diffs);
	if (d < 0 || (d && !o->allow)) {
		smm_errmsg(
			err, len, "%s",
			d < 0 ? "out of memory"
			      : "the parameters or conditions differ (listed above): not comparable; --allow-param-diff compares two configurations");
		free(diffs.d);
		return CMP_ERROR;
	}
	rc = smm_cmp_collect(base, cand, o->select, o->nsel, &fs, err, len);
	if (!rc) {
		rows = calloc(fs.n, sizeof(*rows));
		if (!rows) {
			smm_errmsg(err, len, "out of memory");
			rc = -ENOMEM;
		}
	}
	if (!rc)
		rc = decide(o, &fs, rows, err, len);
	for (size_t i = 0; !rc && rows && i < fs.n; i++)
		failures += rows[i].fail;
	if (!rc && o->junit)
		rc = write_junit(o->junit, rows, fs.n, failures, &diffs, err,
				 len);
	if (!rc && o->plot)
		rc = write_plot(o, base, cand, rows, fs.n, &diffs, err, len);
	status = CMP_ERROR;
	if (!rc) {
		print_rows(o, base, cand, rows, fs.n);
		status = conclude(o, rows, fs.n);
		err[0] = 0;
	}
	free(rows);
	free(diffs.d);
	smm_cmp_figures_free(&fs);
	return status;
}

int smm_compare_main(int argc, char **argv)
{
	/* the JUnit file until the comparison ends */
	static const char pending[] =
		"stress-mm compare did not finish (killed, or out of memory)";
	const char **junits = calloc((size_t)argc + 1, sizeof(*junits));
	struct smm_side base = { 0 }, cand = { 0 };
	struct smm_compare_opts o;
	size_t nj;
	char err[900] = "";
	int status, rc;

	if (!junits) {
		fprintf(stderr, WHO ": out of memory\n");
		return CMP_ERROR;
	}
	nj = smm_compare_junit_paths(argc, argv, junits, (size_t)argc);
	if (smm_compare_parse(argc, argv, &o, err, sizeof(err))) {
		for (size_t i = 0; i < nj && i < (size_t)argc; i++)
			(void)junit_fail(junits[i], err);
		status = CMP_ERROR;
	} else if (o.help) {
		smm_compare_usage();
		status = CMP_OK;
	} else if (o.junit && !junit_ours(o.junit)) {
		smm_errmsg(
			err, sizeof(err),
			"--junit %s holds something other than XML (a report?): not overwritten",
			o.junit);
		status = CMP_ERROR;
	} else {
		/* the result must have somewhere to go before comparing */
		rc = o.junit ? junit_fail(o.junit, pending) : 0;
		if (rc < 0) {
			smm_errmsg(err, sizeof(err), "--junit %s: %s", o.junit,
				   strerror(-rc));
			status = CMP_ERROR;
		} else {
			status = compare(&o, &base, &cand, err, sizeof(err));
			if (status == CMP_ERROR && err[0] && o.junit)
				(void)junit_fail(o.junit, err);
		}
	}
	if (status == CMP_ERROR && err[0])
		fprintf(stderr, WHO ": %s\n", err);
	smm_side_free(&base);
	smm_side_free(&cand);
	smm_compare_opts_free(&o);
	free(junits);
	return status;
}
