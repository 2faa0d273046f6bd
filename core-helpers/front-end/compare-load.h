/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare-load.h - the reports stress-mm compare reads, read strictly.
 *
 * A report is not trusted input: it is read with smm_yaml_load_strict()
 * (at most SMM_REPORT_MAX_BYTES, SMM_REPORT_MAX_DEPTH levels, no
 * duplicate key), must be a stress-mm report with runs, a complete set of
 * runs that all exited 0 and were not interrupted, and its conditions
 * (conditions.h); every figure value is a finite decimal number in plain
 * style: digits, an optional fraction, no sign, no exponent, no hex, no
 * quotes ("0", "12.5"; never "+5", "-0", "1e400", "0x10", "'7'").
 * Every error is one line, in words, naming the file.
 */
#ifndef SMM_COMPARE_LOAD_H
#define SMM_COMPARE_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <yaml.h>

#define SMM_REPORT_MAX_BYTES (8L << 20)
#define SMM_REPORT_MAX_DEPTH 32
#define SMM_FIGURE_NAME_MAX 96

struct smm_report {
	const char *path;
	yaml_document_t doc;
	int sm; /* the stress-mm mapping */
	int runs; /* its runs sequence */
	char kernel[128];
	unsigned int nruns;
};

/*
 * smm_report_load() - read @path strictly and check it is a complete,
 * successful set of runs. Return: 0, or -errno with one line in @err.
 */
int smm_report_load(struct smm_report *rp, const char *path, char *err,
		    size_t len);

void smm_report_free(struct smm_report *rp);

/*
 * smm_report_values() - the values of figure @name over every run of @rp
 * into @v (@max at most), *n their count.
 * Return: 0; -ENOENT when no run has the figure (absent everywhere or
 * unknown); -EINVAL with the reason in @err when a value breaks the
 * number grammar, or when some runs have it and others not (a figure
 * absent in one run makes the set incomparable; the run's reason is
 * given).
 */
int smm_report_values(struct smm_report *rp, const char *name, double *v,
		      size_t max, size_t *n, char *err, size_t len);

/*
 * smm_report_figures() - append the names of figures with a value in any
 * run of @rp to @names (each once; @n used of @max), known to figures.h
 * and, when @default_only, compared by default. Returns the new count.
 */
int smm_report_figures(struct smm_report *rp,
		       char (*names)[SMM_FIGURE_NAME_MAX], int n, int max,
		       bool default_only);

/*
 * smm_report_diff() - print every difference between @b and @c on stderr
 * ("stress-mm compare: differs: ..."): per stressor the resolved workers,
 * ops limit and every parameter, and every condition. Returns how many
 * differ outside the kernel (release, command line), which must match
 * unless compare is given --allow-param-diff.
 */
int smm_report_diff(struct smm_report *b, struct smm_report *c);

/*
 * A side of a comparison: one report, or several of the same configuration
 * ("a.yaml,b.yaml": runs from several boots, interleaved with the other
 * side's so that drift of the machine falls on both). Their runs are
 * pooled; the reports of a side must not differ at all, the kernel
 * included (smm_report_diff()).
 */
#define SMM_SIDE_MAX_FILES 16

struct smm_side {
	const char *arg; /* as given */
	char *paths; /* a copy of @arg, cut at the commas: the reports' paths */
	struct smm_report r[SMM_SIDE_MAX_FILES];
	int n;
	unsigned int nruns; /* over all its reports */
	uint64_t hash[SMM_SIDE_MAX_FILES]; /* of each file's bytes (FNV-1a) */
};

/* smm_side_load() - load every report of @arg (comma-separated paths).
 * An empty entry, or a report whose bytes equal another's on the side (the
 * same file twice, or a copy: its runs would count twice), is refused.
 * Return: 0, or -errno with one line in @err. */
int smm_side_load(struct smm_side *s, const char *arg, char *err, size_t len);

/* smm_sides_share() - a report of @a whose bytes equal one of @b's, or
 * NULL. */
const char *smm_sides_share(const struct smm_side *a, const struct smm_side *b);

void smm_side_free(struct smm_side *s);

/* smm_side_values() - smm_report_values() over every report of @s, the
 * runs pooled; same returns. */
int smm_side_values(struct smm_side *s, const char *name, double *v, size_t max,
		    size_t *n, char *err, size_t len);

/* smm_side_figures() - smm_report_figures() over every report of @s. */
int smm_side_figures(struct smm_side *s, char (*names)[SMM_FIGURE_NAME_MAX],
		     int n, int max, bool default_only);

/* smm_decimal() - the number grammar above; 0 and *out, or -EINVAL. */
int smm_decimal(const char *s, double *out);

#endif /* SMM_COMPARE_LOAD_H */
