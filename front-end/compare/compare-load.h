/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare-load.h - the reports stress-mm compare reads, read strictly and
 * once into the facts compare needs (compare-sides.h puts them together).
 *
 * A report is not trusted input. Each file is read once (yamlstrict.h: a
 * FIFO or a process substitution works; at most SMM_REPORT_MAX_BYTES bytes
 * read, SMM_REPORT_MAX_DEPTH levels, SMM_REPORT_MAX_NODES nodes, no tag,
 * anchor, alias or duplicate key), the facts compare needs are taken out
 * and the YAML tree is freed before the next file is read. It must be a
 * stress-mm report with runs, a complete set of runs (repeat-requested
 * equal to their number) that all exited 0 and were not interrupted, and
 * its conditions (conditions.h). exit-status and repeat-requested are
 * integers in plain digits ("5", never "5.0", "+5" or "05"). Every value
 * of a figure (figures.h) in any run is a finite decimal number in plain
 * style: digits, an optional fraction, no sign, no exponent, no hex, no
 * quotes ("0", "12.5"; never "+5", "-0", "1e400", "0x10", "'7'"), and its
 * name is made of [A-Za-z0-9._-]. Parameters and conditions are scalars.
 * There is no limit on runs, figures or parameters but the bounds above.
 * Every error is one line, in words, naming the file.
 */
#ifndef SMM_COMPARE_LOAD_H
#define SMM_COMPARE_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SMM_REPORT_MAX_BYTES ((size_t)8 << 20)
#define SMM_REPORT_MAX_DEPTH 32
#define SMM_REPORT_MAX_NODES ((size_t)1 << 21)

/* One figure's value in one run of a report. */
struct smm_rvalue {
	char *name;
	size_t run; /* 0-based */
	double v;
};

/* Why a figure has no value in one run (the run's "absent" mapping). */
struct smm_rabsent {
	char *name, *why;
	size_t run;
};

/*
 * A run set: the facts compare takes out of one report file (its runs'
 * figures, their absences, parameters and conditions), the YAML tree
 * itself freed.
 */
struct smm_run_set {
	const char *path;
	char *kernel; /* conditions.kernel-release (what is compared), else the
		       * top-level kernel-release, else "unknown" */
	size_t nruns;
	struct smm_rvalue *val; /* in document order */
	size_t nval;
	struct smm_rabsent *abs;
	size_t nabs;
	/* "stressor.key=value" (workers-resolved, ops-limit, parameters),
	 * then "conditions.key=value", in document order */
	char **params;
	size_t nparams;
	uint64_t hash; /* FNV-1a of the file's bytes */
};

/*
 * smm_run_set_load() - read @path once and take its facts.
 * smm_run_set_parse() - the same from @len bytes at @buf, named @path.
 * Return: 0, or -errno with one line in @err.
 */
int smm_run_set_load(struct smm_run_set *rp, const char *path, char *err,
		     size_t len);
int smm_run_set_parse(struct smm_run_set *rp, const char *path,
		      const unsigned char *buf, size_t n, char *err,
		      size_t len);

void smm_run_set_free(struct smm_run_set *rp);

/* smm_decimal() - the figure value grammar above; 0 and *out, or
 * -EINVAL. */
int smm_decimal(const char *s, double *out);

/* smm_uint() - plain digits, no leading zero, at most UINT64_MAX; 0 and
 * *out, or -EINVAL. */
int smm_uint(const char *s, uint64_t *out);

#endif /* SMM_COMPARE_LOAD_H */
