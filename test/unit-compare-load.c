// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-compare-load.c - strict input for stress-mm compare: the number
 * grammars of figure values and integers; the strict YAML reader's limits
 * (bytes read, nesting, nodes, duplicate keys, one document, no tag,
 * anchor, alias or NUL); a FIFO read once and an endless one stopped at
 * the bound; and reports read into facts: 70 figures all collected, runs
 * pooled, a figure absent in one run named with its reason, integer
 * fields refused as "5.0", differences past 256 parameters and past 320
 * characters found (printed on stderr, as compare prints them).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "compare-sides.h"
#include "tap.h"
#include "yamlstrict.h"

static const struct {
	const char *s;
	int ok;
} nums[] = {
	{ "0", 1 },	{ "12", 1 },  { "12.5", 1 }, { "0.000001", 1 },
	{ "1e400", 0 }, { "1e3", 0 }, { "inf", 0 },  { "nan", 0 },
	{ "0x10", 0 },	{ "+5", 0 },  { "-0", 0 },   { "-1", 0 },
	{ "", 0 },	{ ".5", 0 },  { "5.", 0 },   { "01", 0 },
	{ "1.2.3", 0 }, { " 1", 0 },  { "1 ", 0 },   { "1,5", 0 },
};

static const struct {
	const char *s;
	int ok;
} ints[] = {
	{ "0", 1 },   { "5", 1 },  { "18446744073709551615", 1 },
	{ "5.0", 0 }, { "+5", 0 }, { "05", 0 },
	{ "-1", 0 },  { "", 0 },   { "18446744073709551616", 0 },
	{ "0x5", 0 }, { "5 ", 0 }, { "1e3", 0 },
};

#define NN (int)(sizeof(nums) / sizeof(nums[0]))
#define NI (int)(sizeof(ints) / sizeof(ints[0]))

static char path[64];

static int load_text(const char *text, size_t repeat, const char *tail,
		     char *err, size_t len)
{
	yaml_document_t d;
	FILE *f = fopen(path, "w");
	int rc;

	for (size_t i = 0; i < repeat; i++)
		fputs(text, f);
	fputs(tail, f);
	fclose(f);
	rc = smm_yaml_load_strict(path, &d, 1 << 20, 32, 1 << 16, err, len);
	if (rc == 0)
		yaml_document_delete(&d);
	return rc;
}

/* A FIFO at @fifo fed by a child: @text once, or forever. */
static pid_t feed(const char *fifo, const char *text, int forever)
{
	pid_t pid = fork();

	if (pid == 0) {
		int fd = open(fifo, O_WRONLY);
		size_t n = strlen(text);

		signal(SIGPIPE, SIG_DFL);
		do {
			if (write(fd, text, n) != (ssize_t)n)
				_exit(1);
		} while (forever);
		_exit(0);
	}
	return pid;
}

static void test_yaml(void)
{
	char err[300], fifo[80];
	clock_t t0;
	pid_t pid;
	int rc;

	tap_ok(load_text("a: 1\nb: {c: 2, d: 3}\n", 1, "", err, sizeof(err)) ==
		       0,
	       "a plain document loads");
	rc = load_text("a: 1\nb: 2\na: 3\n", 1, "", err, sizeof(err));
	tap_ok(rc == -EEXIST && strstr(err, "'a' appears twice"),
	       "a duplicate key is refused: %s", err);
	rc = load_text("m:\n  x: 1\n  x: 1\n", 1, "", err, sizeof(err));
	tap_ok(rc == -EEXIST,
	       "a duplicate key in a nested mapping is refused (%d)", rc);
	t0 = clock();
	rc = load_text("[", 100000, "", err, sizeof(err));
	tap_ok(rc == -ELOOP && clock() - t0 < 2 * CLOCKS_PER_SEC,
	       "100000 nested sequences are refused at once (%d, %.2f s): %s",
	       rc, (double)(clock() - t0) / CLOCKS_PER_SEC, err);
	rc = load_text("k: 0123456789012345678901234567890123456789\n", 30000,
		       "", err, sizeof(err));
	tap_ok(rc == -EFBIG, "a file over the size bound is refused: %s", err);
	rc = load_text("a:\n\tb: 1\n", 1, "", err, sizeof(err));
	tap_ok(rc == -EINVAL, "a tab where YAML allows none is refused: %s",
	       err);
	rc = load_text("- a\n", 70000, "", err, sizeof(err));
	tap_ok(rc == -E2BIG, "more nodes than the bound are refused: %s", err);
	rc = load_text("a: 1\n---\nb: 2\n", 1, "", err, sizeof(err));
	tap_ok(rc == -EINVAL, "two documents are refused: %s", err);
	rc = load_text("a: [1, 2\n", 1, "", err, sizeof(err));
	tap_ok(rc == -EINVAL, "broken YAML is refused: %s", err);
	rc = load_text("v: !!float 544.5\n", 1, "", err, sizeof(err));
	tap_ok(rc == -EINVAL && strstr(err, "tag"), "!!float is refused: %s",
	       err);
	rc = load_text("v: !mine {a: 1}\n", 1, "", err, sizeof(err));
	tap_ok(rc == -EINVAL && strstr(err, "tag"),
	       "a local tag on a mapping is refused: %s", err);
	rc = load_text("a: &x 1\nb: *x\n", 1, "", err, sizeof(err));
	tap_ok(rc == -EINVAL && strstr(err, "anchor"),
	       "an anchor and its alias are refused: %s", err);
	rc = load_text("a: \"x\\0y\"\n", 1, "", err, sizeof(err));
	tap_ok(rc == -EINVAL && strstr(err, "NUL"),
	       "a NUL byte in a scalar is refused: %s", err);
	rc = load_text("", 1, "", err, sizeof(err));
	tap_ok(rc == -EINVAL, "an empty file is refused: %s", err);

	snprintf(fifo, sizeof(fifo), "%s.fifo", path);
	if (mkfifo(fifo, 0600) != 0) {
		tap_skip("a FIFO is read once", "mkfifo: %s", strerror(errno));
		tap_skip("an endless FIFO stops at the bound", "no FIFO");
		return;
	}
	pid = feed(fifo, "a: 1\nb: [2, 3]\n", 0);
	{
		yaml_document_t d;

		rc = smm_yaml_load_strict(fifo, &d, 1 << 20, 32, 1 << 16, err,
					  sizeof(err));
		if (!rc)
			yaml_document_delete(&d);
	}
	waitpid(pid, NULL, 0);
	tap_ok(rc == 0, "a FIFO is read once and parsed (%d)", rc);
	pid = feed(fifo, "a: 1\n", 1);
	t0 = clock();
	{
		yaml_document_t d;

		rc = smm_yaml_load_strict(fifo, &d, 1 << 20, 32, 1 << 16, err,
					  sizeof(err));
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	tap_ok(rc == -EFBIG,
	       "an endless FIFO stops at the bound on bytes read: %s", err);
	unlink(fifo);
}

/* A report: @runs runs of @figs figures ("sN.bogo-ops-per-second-real-
 * time" = @base + N + run), @extra appended to run 1, repeat-requested
 * @req, @nparams parameters (the last one's value @last). */
static char *report(int runs, int figs, double base, const char *extra,
		    const char *req, int nparams, const char *last)
{
	size_t cap = 1 << 20, n = 0;
	char *s = malloc(cap);

	n += (size_t)snprintf(
		s + n, cap - n,
		"stress-mm:\n  kernel-release: k\n  conditions:\n    timeout-s: 1\n  stressors:\n    s0:\n      workers-resolved: 1\n      ops-limit: 0\n      parameters:\n");
	for (int p = 0; p < nparams; p++)
		n += (size_t)snprintf(s + n, cap - n, "        p%d: %s\n", p,
				      p == nparams - 1 ? last : "1");
	n += (size_t)snprintf(s + n, cap - n, "  runs:\n");
	for (int r = 0; r < runs; r++) {
		n += (size_t)snprintf(
			s + n, cap - n,
			"  - exit-status: 0\n    interrupted: false\n    metrics:\n");
		for (int f = 0; f < figs; f++)
			if (!(extra && !strcmp(extra, "absent") && r == 1 &&
			      f == 3))
				n += (size_t)snprintf(
					s + n, cap - n,
					"      s%d.bogo-ops-per-second-real-time: %g\n",
					f, base + f + r);
		if (extra && !strcmp(extra, "absent") && r == 1)
			n += (size_t)snprintf(
				s + n, cap - n,
				"    absent:\n      s3.bogo-ops-per-second-real-time: 'the reason'\n");
		else if (extra && strcmp(extra, "absent") != 0 && r == 0)
			n += (size_t)snprintf(s + n, cap - n, "%s", extra);
	}
	snprintf(s + n, cap - n, "  repeat-requested: %s\n", req);
	return s;
}

static int parse(struct smm_run_set *rp, const char *name, char *text,
		 char *err, size_t len)
{
	int rc = smm_run_set_parse(rp, name, (const unsigned char *)text,
				   strlen(text), err, len);

	free(text);
	return rc;
}

static void test_reports(void)
{
	static struct smm_side a, b;
	struct smm_cmp_figures fs;
	char err[400], lastb[400], lastc[400];
	struct smm_run_set r1, r2;
	int rc, d;

	/* Two sides of two reports each, 3 runs of 70 figures a report. */
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.arg = "a";
	b.arg = "b";
	a.n = b.n = 2;
	rc = parse(&a.r[0], "a1", report(3, 70, 10, NULL, "3", 1, "1"), err,
		   sizeof(err));
	rc |= parse(&a.r[1], "a2", report(3, 70, 20, NULL, "3", 1, "1"), err,
		    sizeof(err));
	rc |= parse(&b.r[0], "b1", report(3, 70, 30, NULL, "3", 1, "1"), err,
		    sizeof(err));
	rc |= parse(&b.r[1], "b2", report(3, 70, 40, NULL, "3", 1, "1"), err,
		    sizeof(err));
	a.nruns = b.nruns = 6;
	tap_ok(rc == 0 && a.r[0].nval == 210 && a.r[0].nruns == 3,
	       "a report of 3 runs and 70 figures is read (%zu values)",
	       a.r[0].nval);
	rc = smm_cmp_collect(&a, &b, NULL, 0, &fs, err, sizeof(err));
	tap_ok(rc == 0 && fs.n == 70 && fs.f[69].n[0] == 6 &&
		       fs.f[69].n[1] == 6 &&
		       !strcmp(fs.f[69].name,
			       "s69.bogo-ops-per-second-real-time") &&
		       fs.f[69].v[0][5] == 20 + 69 + 2 &&
		       fs.f[69].v[1][0] == 30 + 69,
	       "all 70 figures are compared, in order, 6 runs a side pooled (%zu figures; %s)",
	       fs.n, rc ? err : "");
	smm_cmp_figures_free(&fs);
	smm_side_free(&b);
	b.n = 1;
	b.nruns = 3;
	rc = parse(&b.r[0], "b1", report(3, 5, 30, "absent", "3", 1, "1"), err,
		   sizeof(err));
	rc |= smm_cmp_collect(&a, &b, NULL, 0, &fs, err, sizeof(err));
	tap_ok(rc == -EINVAL && strstr(err, "2 of 3 runs") &&
		       strstr(err, "absent in run 2: the reason"),
	       "a figure absent in one run is refused with its reason: %s",
	       err);
	smm_side_free(&a);
	smm_side_free(&b);

	rc = parse(&r1, "r", report(5, 1, 10, NULL, "5.0", 1, "1"), err,
		   sizeof(err));
	tap_ok(rc == -EINVAL &&
		       strstr(err, "repeat-requested '5.0' is not an integer"),
	       "repeat-requested 5.0 is not an integer: %s", err);
	rc = parse(&r1, "r",
		   report(2, 1, 10, "    exit-status-x: 0\n", "2", 1, "1"), err,
		   sizeof(err));
	tap_ok(rc == 0, "a report with an unknown key in a run is read (%s)",
	       rc ? err : "");
	if (!rc)
		smm_run_set_free(&r1);
	{
		char *t = report(2, 1, 10, NULL, "2", 1, "1");
		char *p = strstr(t, "exit-status: 0");

		memmove(p + 17, p + 15, strlen(p + 15) + 1);
		memcpy(p, "exit-status: 0.0\n", 17);
		rc = parse(&r1, "r", t, err, sizeof(err));
	}
	tap_ok(rc == -EINVAL && strstr(err, "'0.0' is not an integer"),
	       "exit-status 0.0 is not an integer: %s", err);
	rc = parse(&r1, "r",
		   report(2, 0, 10,
			  "      s.bogo-ops-per-second-real-time: '7'\n", "2",
			  1, "1"),
		   err, sizeof(err));
	tap_ok(rc == -EINVAL && strstr(err, "'7' is not a finite"),
	       "a quoted figure value is refused: %s", err);

	/* 300 parameters, the last one differing; values of 330 characters
	 * differing at the 325th. */
	rc = parse(&r1, "r", report(1, 1, 10, NULL, "1", 300, "1"), err,
		   sizeof(err));
	rc |= parse(&r2, "r", report(1, 1, 10, NULL, "1", 300, "2"), err,
		    sizeof(err));
	d = rc ? -1 : smm_run_set_diff(&r1, &r2, SMM_DIFF_SIDES, NULL);
	tap_ok(d == 2, "a difference in the 300th parameter is found (%d)", d);
	smm_run_set_free(&r1);
	smm_run_set_free(&r2);
	memset(lastb, 'x', 330);
	lastb[330] = 0;
	memcpy(lastc, lastb, sizeof(lastc));
	lastc[324] = 'y';
	rc = parse(&r1, "r", report(1, 1, 10, NULL, "1", 2, lastb), err,
		   sizeof(err));
	rc |= parse(&r2, "r", report(1, 1, 10, NULL, "1", 2, lastc), err,
		    sizeof(err));
	d = rc ? -1 : smm_run_set_diff(&r1, &r2, SMM_DIFF_SIDES, NULL);
	tap_ok(d == 2, "values differing at their 325th character differ (%d)",
	       d);
	smm_run_set_free(&r1);
	smm_run_set_free(&r2);
}

int main(void)
{
	double v;
	uint64_t u;
	int rc, fd;

	snprintf(path, sizeof(path), "/tmp/unit-compare-load.XXXXXX");
	fd = mkstemp(path);
	if (fd >= 0)
		close(fd);
	tap_plan(NN + NI + 16 + 9);
	for (int i = 0; i < NN; i++) {
		rc = smm_decimal(nums[i].s, &v);
		tap_ok((rc == 0) == nums[i].ok, "value '%s' is %s", nums[i].s,
		       nums[i].ok ? "a number" : "refused");
	}
	for (int i = 0; i < NI; i++) {
		rc = smm_uint(ints[i].s, &u);
		tap_ok((rc == 0) == ints[i].ok, "integer '%s' is %s", ints[i].s,
		       ints[i].ok ? "an integer" : "refused");
	}
	test_yaml();
	test_reports();
	unlink(path);
	return tap_done();
}
