/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options.h - the front end's command line, stress-ng style:
 *
 *   stress-mm [OPTION]... [-- STRESS-NG-OPTION...]
 *
 * Per stressor (stressors.h): --NAME N starts N workers (0 = one per online
 * CPU; 0..4096), --NAME-ops N stops each worker after N bogo-ops
 * (1..2^40), and --NAME-<param> V for every row of its parameter table
 * (common/params-table.c). The front end's own options are rows of
 * smm_options[], each bound to its storage in struct smm_run_cfg the way
 * perf's OPT_* entries are: one row gives the name, the argument, the
 * grammar, the range, the field and the help line, and --help, the man
 * page and the completion are generated from the same rows. The command
 * line is read with getopt_long(3) over a table built from those rows and
 * the stressors' (stress-ng does the same with its own tables); names are
 * taken whole, never abbreviated.
 *
 * Everything is validated before anything starts; an error is one line
 * naming the option, the value and the valid range (exit status 1 in
 * stress-mm). Anything after "--" goes to stress-ng unchanged: to each
 * stress-ng that runs a stressor of ours, or, when none is asked for, to
 * one stress-ng of its own ("stress-mm -- --shm 0": stress-ng's stressors
 * with the kernel counters around them, reported under their own names and
 * never added to ours).
 */
#ifndef SMM_OPTIONS_H
#define SMM_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stressors.h"

#define SMM_MAX_PASS 256
/* --NAME N: workers (0: one per online CPU); --NAME-ops N: bogo-ops */
#define SMM_WORKERS_MAX 4096
#define SMM_OPS_MAX (1ULL << 40)

/* What the command line asks for. */
struct smm_run_cfg {
	struct smm_stressor_cfg st[SMM_NR_STRESSORS];
	uint64_t timeout_s; /* seconds; 0 = stress-ng's default */
	bool metrics, metrics_brief, times;
	const char *yaml; /* report path, or NULL */
	const char *stress_ng; /* --stress-ng PATH, or NULL (sng-pick.h) */
	const char *integration; /* "auto", "plugin" or "native" */
	bool native; /* resolved (sng-pick.h): built into the stress-ng */
	const char *counters; /* "all", "none" or a list of names */
	const char *counters_engine; /* "auto", "bpf" or "perf" */
	double vm_interval; /* seconds between vmallocinfo samples; 0 off */
	uint64_t repeat; /* runs back to back, 1..100 */
	const char *tv_tests; /* --vmalloc-order-tests: test_vmalloc names */
	char *pass[SMM_MAX_PASS]; /* arguments after -- */
	int npass;
};

enum smm_opt_kind {
	SMM_OPT_FLAG, /* bool, no value */
	SMM_OPT_DURATION, /* uint64_t seconds: smm_parse_duration() */
	SMM_OPT_COUNT, /* uint64_t within [min, max] */
	SMM_OPT_STRING, /* const char *, non-empty */
	SMM_OPT_INTERVAL, /* double seconds: 0 or 0.05..3600 */
	SMM_OPT_ACTION, /* prints something and exits: result in .min */
};

/* What smm_opts_parse() found the command line to ask for. */
enum smm_parse_result {
	SMM_PARSE_RUN,
	SMM_PARSE_HELP,
	SMM_PARSE_VERSION,
	SMM_PARSE_MAN,
	SMM_PARSE_COMPLETION,
};

struct smm_option {
	const char *name; /* long name, without "--" */
	char short_name; /* 0: none */
	const char *arg; /* value placeholder in the help; NULL: a flag */
	enum smm_opt_kind kind;
	size_t offset; /* of its field in struct smm_run_cfg */
	uint64_t min, max; /* COUNT range; ACTION: its result */
	const char *unit; /* COUNT unit, for messages */
	bool hidden; /* --man, --completion: not in --help */
	const char *help;
};

extern const struct smm_option smm_options[];
extern const size_t smm_nr_options;

/*
 * smm_parse_duration() - a --timeout value: decimal digits (no sign, no
 * leading zero) with at most one suffix s, m, h or d (none: seconds),
 * 1 s..365 d. "1ms", "1hs", "1.5s" and "0" are refused.
 * Return: 0 and *secs; -EINVAL (grammar) or -ERANGE, with one line in @err.
 */
int smm_parse_duration(const char *v, uint64_t *secs, char *err, size_t len);

/*
 * smm_opts_parse() - parse @argv into @cfg (zeroed first, defaults set),
 * check every value, the STRESS_MM_* variables the plugin would read
 * (recorded as the values used), the report path (it must be writable) and
 * the counter names, and that a stressor was asked for (ours, or
 * stress-ng's after --).
 * Return: an enum smm_parse_result; or -EINVAL with one line (no newline)
 * in @err naming the option, the value and the valid range.
 */
int smm_opts_parse(int argc, char **argv, struct smm_run_cfg *cfg, char *err,
		   size_t len);

#endif /* SMM_OPTIONS_H */
