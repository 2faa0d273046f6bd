/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare-sides.h - the two sides of stress-mm compare: each one report or
 * several of one configuration and kernel, their runs pooled; what differs
 * between reports; and the figures compared, with every run's value.
 * A side holds at most SMM_SIDE_MAX_FILES reports (more is refused);
 * there is no limit on runs or figures.
 */
#ifndef SMM_COMPARE_SIDES_H
#define SMM_COMPARE_SIDES_H

#include <stddef.h>

#include "compare-load.h"
#include "figures.h"

#define SMM_SIDE_MAX_FILES 16

/* What two reports are to each other, and so what may differ. */
enum smm_diff_scope {
	/* Base against candidate: the kernel (release, command line) and
	 * the integration (plugin or native, runner.h) may differ. */
	SMM_DIFF_SIDES,
	/* Two reports pooled on one side: nothing may differ. */
	SMM_DIFF_ONE_SIDE,
};

/* A difference smm_run_set_diff() printed; the strings are the reports'
 * (valid while they are loaded) or static. */
struct smm_diff {
	const char *who; /* "base", "candidate", or a report's path */
	const char *entry; /* e.g. "shm-pcp.shm-pcp-bytes=2M" */
	const char *allowed; /* "" or e.g. " (the kernel: allowed)" */
};

struct smm_diffs {
	struct smm_diff *d; /* free() it */
	size_t n;
};

/*
 * smm_run_set_diff() - print every difference between @b and @c on stderr,
 * one line each: per stressor the integration, resolved workers, ops limit
 * and every parameter, and every condition. With SMM_DIFF_SIDES a line
 * names the side ("stress-mm compare: differs: candidate
 * conditions.timeout-s=2"), and a difference allowed between the sides
 * says so ("differs (the integration: allowed): base
 * shm-pcp.integration=plugin"); with SMM_DIFF_ONE_SIDE it names the
 * report's path and nothing is allowed.
 * Each is also appended to @out unless it is NULL (for the JUnit file
 * and the plot).
 * Return: how many differences are not allowed (they must match unless
 * compare is given --allow-param-diff, which applies between the sides
 * only); -ENOMEM.
 */
int smm_run_set_diff(const struct smm_run_set *b, const struct smm_run_set *c,
		     enum smm_diff_scope scope, struct smm_diffs *out);

/*
 * A side of a comparison: one report, or several of the same configuration
 * ("a.yaml,b.yaml": runs from several boots, interleaved with the other
 * side's so that drift of the machine falls on both). Their runs are
 * pooled; the reports of a side must not differ at all, the kernel
 * included (smm_run_set_diff()).
 */
struct smm_side {
	const char *arg; /* as given */
	char *paths; /* a copy of @arg, cut at the commas: the reports' paths */
	struct smm_run_set r[SMM_SIDE_MAX_FILES];
	int n;
	size_t nruns; /* over all its reports */
};

/* smm_side_load() - load every report of @arg (comma-separated paths).
 * An empty entry, more than SMM_SIDE_MAX_FILES reports, or a report whose
 * bytes equal another's on the side (the same file twice, or a copy: its
 * runs would count twice), is refused.
 * Return: 0, or -errno with one line in @err. */
int smm_side_load(struct smm_side *s, const char *arg, char *err, size_t len);

/* smm_sides_share() - a report of @a whose bytes equal one of @b's, or
 * NULL. */
const char *smm_sides_share(const struct smm_side *a, const struct smm_side *b);

void smm_side_free(struct smm_side *s);

/* A figure of a comparison: every run's value, side by side. */
struct smm_cmp_figure {
	const char *name; /* a report's (valid while the sides are loaded) */
	const struct smm_figure_def *def;
	double *v[2]; /* base, candidate: n[i] values each */
	size_t n[2];
};

struct smm_cmp_figures {
	struct smm_cmp_figure *f;
	size_t n;
};

/*
 * smm_cmp_collect() - the figures to compare and their values: those named
 * in @select (@nsel, in that order), or else every figure compared by
 * default that either side has a value of, in order of appearance.
 * Return: 0; -ENOENT (no figure to compare), -EINVAL (a figure missing on
 * one side, or with a value in some runs or reports of a side and not in
 * others: not comparable; the run's reason is given), -ENOMEM; one line in
 * @err.
 */
int smm_cmp_collect(const struct smm_side *base, const struct smm_side *cand,
		    const char *const *select, size_t nsel,
		    struct smm_cmp_figures *out, char *err, size_t len);

void smm_cmp_figures_free(struct smm_cmp_figures *fs);

#endif /* SMM_COMPARE_SIDES_H */
