/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plot.h - stress-mm compare --plot FILE.svg|FILE.png: the comparison as
 * a picture, drawn by gnuplot (Debian's gnuplot-nox, found in PATH).
 *
 * One panel per compared figure: every run of the base (filled circles,
 * at x 1) and of the candidate (filled squares, at x 2), spread sideways
 * so that equal values stay apart; each side's median as a bar and a
 * dashed line from median to median; in the panel's title the figure,
 * the change with its interval (or why there is none) and the verdict,
 * coloured when it is a regression or an improvement. Nothing else draws
 * a point: an SVG holds exactly one point mark (<use> of a gpPt symbol)
 * per run, which test/98-plots.t counts.
 *
 * gnuplot writes a temporary file beside FILE, renamed over FILE only when
 * gnuplot succeeded: a failure neither leaves half a picture nor removes
 * an older one. gnuplot's own messages go to stderr.
 */
#ifndef SMM_PLOT_H
#define SMM_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct smm_plot_panel {
	const char *figure; /* its name, the panel's first title line */
	const double *base, *cand; /* every run's value */
	size_t nb, nc; /* 1 or more each */
	double base_median, cand_median;
	bool has_interval; /* false: "too few runs", no interval */
	double change_pct, lo_pct, hi_pct; /* gate.h's change, interval */
	const char *verdict; /* smm_verdict_names[] */
};

struct smm_plot {
	const char *title; /* the picture's title */
	const char *base_label, *cand_label; /* what each side is */
	const struct smm_plot_panel *panels;
	size_t n; /* 1 or more */
};

/*
 * smm_plot_check() - whether --plot @file can be drawn: it ends in .svg or
 * .png (case-insensitive) and gnuplot is in PATH. Called before anything
 * is read or printed.
 * Return: 0, or -EINVAL with one line in @err naming the option, the
 * value and what is valid, or what to install.
 */
int smm_plot_check(const char *file, char *err, size_t len);

/* smm_plot_script() - the gnuplot script that draws @p into @out. */
void smm_plot_script(FILE *f, const struct smm_plot *p, const char *out);

/*
 * smm_plot_write() - draw @p into @file (SVG or PNG by its extension).
 * Return: 0, or a negative errno with one line in @err (the file cannot be
 * created, gnuplot cannot be run or failed: its status).
 */
int smm_plot_write(const char *file, const struct smm_plot *p, char *err,
		   size_t len);

#endif /* SMM_PLOT_H */
