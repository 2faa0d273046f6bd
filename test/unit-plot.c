// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-plot.c - stress-mm compare --plot's pictures (plot.h) from
 * synthetic panels, drawn by the real gnuplot: one point mark per run in
 * the SVG (counted by symbol: base circles, candidate squares), each
 * figure's title with its change, interval and verdict, equal values
 * and quotes in a name, a PNG, and the failures: a wrong extension, no
 * gnuplot in PATH, and a gnuplot that fails (no file left, an older
 * picture kept).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plot.h"
#include "tap.h"

static char dir[PATH_MAX];

static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	long sz;

	*n = 0;
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (sz = ftell(f)) > 0) {
		rewind(f);
		buf = calloc(1, (size_t)sz + 1);
		if (buf)
			*n = fread(buf, 1, (size_t)sz, f);
	}
	fclose(f);
	return buf;
}

/* Point marks drawn with symbol @sym (gnuplot's SVG: <use> of #gpPtN
 * with a translate; the symbols' own definitions have none). */
static int marks(const char *svg, const char *sym)
{
	char pat[64];
	int n = 0;

	snprintf(pat, sizeof(pat), "<use xlink:href='#%s' transform=", sym);
	for (const char *p = svg; (p = strstr(p, pat)); p++)
		n++;
	return n;
}

static int all_marks(const char *svg)
{
	int n = 0;

	for (const char *p = svg; (p = strstr(p, "<use xlink:href='#gpPt"));
	     p++) {
		const char *q = strchr(p + strlen("<use xlink:href='#"), '\'');

		n += q && !strncmp(q, "' transform=", 12);
	}
	return n;
}

/* Files in dir whose name starts with @prefix. */
static int files_like(const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += !strncmp(e->d_name, prefix, strlen(prefix));
	closedir(d);
	return n;
}

static const double b1[] = { 100, 101, 99, 100.5, 98 },
		    c1[] = { 80, 81, 79, 80.5, 78, 82 }, b2[] = { 5, 5, 5, 5 },
		    c2[] = { 5, 5, 5, 5 }, b3[] = { 0, 1, 2 },
		    c3[] = { 3, 4, 5 };

static const struct smm_plot_panel panels[] = {
	{ "shm-pcp.bogo-ops-per-second-real-time", b1, c1, 5, 6, 100, 80, true,
	  -20.1, -21.5, -18.9, "regression" },
	{ "a \"quoted\" and back\\slashed name", b2, c2, 4, 4, 5, 5, true, 0,
	  -1, 1, "no change" },
	{ "movable-refills-per-1000-pgfault", b3, c3, 3, 3, 1, 4, false, 120.5,
	  0, 0, "too few runs" },
};

int main(void)
{
	struct smm_plot p = { "unit-plot", "base.yaml (A, 12 runs)",
			      "cand.yaml (B, 13 runs)", panels, 3 };
	char tmpl[] = "/tmp/smm-unit-plot.XXXXXX", svg[PATH_MAX + 32],
	     png[PATH_MAX + 32], fake[PATH_MAX + 64], err[700], *buf;
	const char *path = getenv("PATH");
	char *saved_path = strdup(path ? path : "/usr/bin:/bin");
	size_t n;
	FILE *f;
	int rc;

	if (!mkdtemp(tmpl) || !realpath(tmpl, dir) || !saved_path)
		return 1;
	snprintf(svg, sizeof(svg), "%s/c.svg", dir);
	snprintf(png, sizeof(png), "%s/c.png", dir);
	tap_plan(12);

	tap_ok(smm_plot_check("x.pdf", err, sizeof(err)) == -EINVAL &&
		       strstr(err, "--plot='x.pdf'") &&
		       strstr(err, ".svg or .png"),
	       "a name that is not .svg or .png is refused with the option, the value and what is valid (%s)",
	       err);
	if (smm_plot_check(svg, err, sizeof(err))) {
		for (int i = 0; i < 11; i++)
			tap_skip("a plot", "%s", err);
		return tap_done();
	}
	tap_ok(!smm_plot_check("X.SVG", err, sizeof(err)) &&
		       !smm_plot_check("x.png", err, sizeof(err)),
	       ".svg and .png in any case are accepted");

	rc = smm_plot_write(svg, &p, err, sizeof(err));
	tap_ok(rc == 0, "an SVG of 3 panels is drawn (%s)", rc ? err : "ok");
	buf = slurp(svg, &n);
	tap_ok(buf && n > 1000 && strstr(buf, "<svg") && strstr(buf, "</svg>"),
	       "it is an SVG document (%zu bytes)", n);
	tap_ok(buf && marks(buf, "gpPt6") == 5 + 4 + 3 &&
		       marks(buf, "gpPt4") == 6 + 4 + 3 && all_marks(buf) == 25,
	       "one mark per run: %d base circles (12), %d candidate squares (13), %d in all (25)",
	       buf ? marks(buf, "gpPt6") : -1, buf ? marks(buf, "gpPt4") : -1,
	       buf ? all_marks(buf) : -1);
	tap_ok(buf &&
		       strstr(buf,
			      "change -20.1% [-21.5%, -18.9%]: regression") &&
		       strstr(buf,
			      "change +120.5%, no interval: too few runs") &&
		       strstr(buf, "base.yaml (A, 12 runs)"),
	       "titles carry each change, its interval or its absence, the verdict, and what each side is");
	tap_ok(buf && strstr(buf, "a \"quoted\" and back\\slashed name"),
	       "a name with quotes and a backslash comes through whole");
	free(buf);

	rc = smm_plot_write(png, &p, err, sizeof(err));
	buf = slurp(png, &n);
	tap_ok(rc == 0 && buf && n > 1000 && !memcmp(buf, "\x89PNG\r\n", 6),
	       "a PNG is drawn (%zu bytes)", n);
	free(buf);
	tap_ok(files_like("c.tmp-") == 0,
	       "no temporary file is left beside them");

	/* A gnuplot that fails: the older picture stays, nothing is left. */
	snprintf(fake, sizeof(fake), "%s/gnuplot", dir);
	f = fopen(fake, "we");
	if (f) {
		fputs("#!/bin/sh\nexit 3\n", f);
		fclose(f);
	}
	chmod(fake, 0755);
	setenv("PATH", dir, 1);
	rc = smm_plot_write(svg, &p, err, sizeof(err));
	buf = slurp(svg, &n);
	tap_ok(rc < 0 && strstr(err, "gnuplot failed (exit status 3)") && buf &&
		       all_marks(buf) == 25 && files_like("c.tmp-") == 0,
	       "a failing gnuplot: an error (%s), the older picture kept, no temporary file",
	       err);
	free(buf);

	unlink(fake);
	tap_ok(smm_plot_check(svg, err, sizeof(err)) == -EINVAL &&
		       strstr(err, "gnuplot-nox"),
	       "no gnuplot in PATH: refused, naming the package (%s)", err);
	rc = smm_plot_write(svg, &p, err, sizeof(err));
	tap_ok(rc < 0 && strstr(err, "gnuplot could not be run"),
	       "and drawing says so too (%s)", err);
	setenv("PATH", saved_path, 1);
	free(saved_path);

	snprintf(fake, sizeof(fake), "rm -rf '%s'", dir);
	if (system(fake) != 0)
		return 1;
	return tap_done();
}
