// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * options.c - the option table, and the command line read with
 * getopt_long(3) over it and the stressors' parameter tables.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "envname.h"
#include "errors.h"
#include "options-check.h"
#include "options.h"

#define FIELD(f) offsetof(struct smm_run_cfg, f)
#define OPT_FLAG(n, f, h)                                              \
	{                                                              \
		.name = (n), .kind = SMM_OPT_FLAG, .offset = FIELD(f), \
		.help = (h)                                            \
	}
#define OPT_STRING(n, a, f, h)                                   \
	{                                                        \
		.name = (n), .arg = (a), .kind = SMM_OPT_STRING, \
		.offset = FIELD(f), .help = (h)                  \
	}
#define OPT_ACTION(n, s, r, hide, h)                                    \
	{                                                               \
		.name = (n), .short_name = (s), .kind = SMM_OPT_ACTION, \
		.min = (r), .hidden = (hide), .help = (h)               \
	}

/* clang-format off */
const struct smm_option smm_options[] = {
	{ .name = "timeout", .short_name = 't', .arg = "T",
	  .kind = SMM_OPT_DURATION, .offset = FIELD(timeout_s),
	  .help = "stop after T seconds (one suffix s, m, h or d; 1s..365d; default: stress-ng's, 1 day)" },
	OPT_FLAG("metrics", metrics,
		 "print stress-ng's metrics lines (names restored)"),
	OPT_FLAG("metrics-brief", metrics_brief,
		 "print stress-ng's brief metrics lines"),
	OPT_FLAG("times", times,
		 "print run-time totals (what the kernel test robot parses needs it)"),
	OPT_STRING("yaml", "FILE", yaml,
		   "write one YAML report: stress-ng's own plus a stress-mm section"),
	OPT_STRING("stress-ng", "PATH", stress_ng,
		   "the stress-ng to run (default: build/stress-ng/stress-ng when make stress-ng built it, else stress-ng from PATH)"),
	OPT_STRING("integration", "I", integration,
		   "how stress-ng runs our stressors: auto (default) and plugin: the plugin, whose workers keep the records; native: built into that stress-ng (make stress-ng)"),
	OPT_STRING("counters", "LIST", counters,
		   "kernel counters: all (default), none, or a comma-separated list of names"),
	OPT_STRING("counters-engine", "E", counters_engine,
		   "who counts: auto (default: BPF, perf where BPF cannot load), bpf, perf"),
	{ .name = "vmallocinfo-interval", .arg = "S", .kind = SMM_OPT_INTERVAL,
	  .offset = FIELD(vm_interval),
	  .help = "sample /proc/vmallocinfo every S seconds (0 = off; 0.05..3600; default 1)" },
	{ .name = "repeat", .arg = "R", .kind = SMM_OPT_COUNT,
	  .offset = FIELD(repeat), .min = 1, .max = 100, .unit = "runs",
	  .help = "run R times back to back (1..100); the YAML keeps every run and median, min, max and relative half-range per figure" },
	OPT_STRING("vmalloc-order-tests", "NAMES", tv_tests,
		   "with --vmalloc-order-method test-vmalloc: test_vmalloc's tests to run, comma-separated (default fix_size_alloc_test)"),
	OPT_ACTION("help", 'h', SMM_PARSE_HELP, false, "show this help"),
	OPT_ACTION("version", 'V', SMM_PARSE_VERSION, false, "show the version"),
	OPT_ACTION("man", 0, SMM_PARSE_MAN, true, "print the man page"),
	OPT_ACTION("completion", 0, SMM_PARSE_COMPLETION, true,
		   "print the bash completion"),
};
/* clang-format on */
const size_t smm_nr_options = sizeof(smm_options) / sizeof(smm_options[0]);

#define DAY_S 86400ULL
#define DURATION_MAX_S (365 * DAY_S)

int smm_parse_duration(const char *v, uint64_t *secs, char *err, size_t len)
{
	static const struct {
		char c;
		uint64_t mult;
	} units[] = { { 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', DAY_S } };
	uint64_t n, mult = 1;
	char digits[32];
	size_t dl = strspn(v, "0123456789");
	int rc;

	if (dl == 0 || dl >= sizeof(digits) || strlen(v) > dl + 1)
		goto grammar;
	if (v[dl]) {
		size_t i;

		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (v[dl] == units[i].c)
				break;
		if (i == sizeof(units) / sizeof(units[0]))
			goto grammar;
		mult = units[i].mult;
	}
	memcpy(digits, v, dl);
	digits[dl] = '\0';
	rc = smm_parse_count(digits, &n);
	if (rc == -EINVAL)
		goto grammar;
	if (rc == 0 && n > 0 && n <= DURATION_MAX_S / mult) {
		*secs = n * mult;
		return 0;
	}
	snprintf(err, len,
		 "--timeout='%s' is out of range; valid range 1s..365d", v);
	return -ERANGE;
grammar:
	return smm_errmsg(
		err, len,
		"--timeout='%s' is not a duration; valid range 1s..365d (decimal digits with at most one suffix s, m, h or d)",
		v);
}

static int parse_interval(const char *v, double *out, char *err, size_t len)
{
	char *end = NULL;
	double d;

	/* Decimal digits with an optional fraction: no sign, hex, exponent. */
	if (strspn(v, "0123456789.") != strlen(v) || !v[0] || v[0] == '.' ||
	    strchr(v, '.') != strrchr(v, '.'))
		return smm_errmsg(
			err, len,
			"--vmallocinfo-interval='%s' is not a number of seconds; valid range 0 (off) or 0.05..3600",
			v);
	errno = 0;
	d = strtod(v, &end);
	if (end && *end == '\0' && !errno &&
	    (d == 0 || (d >= 0.05 && d <= 3600))) {
		*out = d;
		return 0;
	}
	return smm_errmsg(
		err, len,
		"--vmallocinfo-interval='%s' is out of range; valid range 0 (off) or 0.05..3600",
		v);
}

/* A count option (workers, ops, repeat): the params grammar. */
static int parse_count(const char *opt, const char *v, uint64_t min,
		       uint64_t max, const char *unit, uint64_t *out, char *err,
		       size_t len)
{
	char name[160];
	struct smm_param p = {
		.option = opt,
		.env = name,
		.type = SMM_P_COUNT,
		.unit = unit,
		.min = min,
		.max = max,
		.def = "0",
	};

	snprintf(name, sizeof(name), "--%s", opt);
	return smm_param_parse(&p, v, out, err, len);
}

/* One row of smm_options[] with its value. */
static int apply(const struct smm_option *o, const char *v,
		 struct smm_run_cfg *cfg, char *err, size_t len)
{
	void *field = (char *)cfg + o->offset;

	switch (o->kind) {
	case SMM_OPT_FLAG:
		if (v)
			return smm_errmsg(
				err, len,
				"option --%s takes no value (got '%s')",
				o->name, v);
		*(bool *)field = true;
		return 0;
	case SMM_OPT_DURATION:
		return smm_parse_duration(v, (uint64_t *)field, err, len)
			       ? -EINVAL
			       : 0;
	case SMM_OPT_COUNT:
		return parse_count(o->name, v, o->min, o->max, o->unit,
				   (uint64_t *)field, err, len)
			       ? -EINVAL
			       : 0;
	case SMM_OPT_STRING:
		*(const char **)field = v;
		return 0;
	case SMM_OPT_INTERVAL:
		return parse_interval(v, (double *)field, err, len);
	case SMM_OPT_ACTION:
		if (v)
			return smm_errmsg(
				err, len,
				"option --%s takes no value (got '%s')",
				o->name, v);
		return (int)o->min;
	}
	return -EINVAL;
}

/* What one long option sets. */
enum bind_kind { BIND_OPTION, BIND_WORKERS, BIND_OPS, BIND_PARAM };

struct binding {
	enum bind_kind kind;
	int s, p; /* stressor, parameter */
	const struct smm_option *o; /* BIND_OPTION */
};

/* Every stressor's --NAME, --NAME-ops and parameters, then smm_options[]:
 * getopt_long's table, and what each entry binds (its val: 256 + index). */
#define MAX_LONG (SMM_NR_STRESSORS * (2 + SMM_MAX_STRESSOR_PARAMS) + 32)
#define VAL_BASE 256

struct opt_table {
	struct option lo[MAX_LONG + 1];
	struct binding b[MAX_LONG];
	char ops_names[SMM_NR_STRESSORS][64];
	char shorts[32];
	int n;
};

static void bind(struct opt_table *t, const char *name, int has_arg,
		 struct binding b)
{
	if (t->n == MAX_LONG)
		return;
	t->lo[t->n] = (struct option){ name, has_arg, NULL, VAL_BASE + t->n };
	t->b[t->n++] = b;
}

static void build(struct opt_table *t)
{
	size_t ns = 0;

	memset(t, 0, sizeof(*t));
	for (int s = 0; s < SMM_NR_STRESSORS; s++) {
		const struct smm_stressor *st = &smm_stressors[s];

		snprintf(t->ops_names[s], sizeof(t->ops_names[s]), "%s-ops",
			 st->name);
		bind(t, st->name, required_argument,
		     (struct binding){ BIND_WORKERS, s, 0, NULL });
		bind(t, t->ops_names[s], required_argument,
		     (struct binding){ BIND_OPS, s, 0, NULL });
		for (int p = 0; p < st->nparams; p++)
			bind(t, st->params[p].option, required_argument,
			     (struct binding){ BIND_PARAM, s, p, NULL });
	}
	/* "+": stop at the first word that is not an option; ":": a
	 * missing value is told apart from an unknown option. */
	t->shorts[ns++] = '+';
	t->shorts[ns++] = ':';
	for (size_t i = 0; i < smm_nr_options; i++) {
		const struct smm_option *o = &smm_options[i];

		/* A flag's "--flag=value" must reach apply() to be refused. */
		bind(t, o->name, o->arg ? required_argument : optional_argument,
		     (struct binding){ BIND_OPTION, 0, 0, o });
		if (o->short_name && ns + 3 < sizeof(t->shorts)) {
			t->shorts[ns++] = o->short_name;
			if (o->arg)
				t->shorts[ns++] = ':';
		}
	}
}

/* One option with its value (NULL: none given). */
static int set(const struct binding *b, const char *name, const char *v,
	       struct smm_run_cfg *cfg, char *err, size_t len)
{
	struct smm_stressor_cfg *c = &cfg->st[b->s];
	char opt[160];
	uint64_t u;

	switch (b->kind) {
	case BIND_OPTION:
		return apply(b->o, v, cfg, err, len);
	case BIND_WORKERS:
		if (parse_count(name, v, 0, SMM_WORKERS_MAX, "workers", &u, err,
				len))
			return -EINVAL;
		c->workers = (int64_t)u;
		return 0;
	case BIND_OPS:
		if (parse_count(name, v, 1, SMM_OPS_MAX, "bogo-ops", &c->ops,
				err, len))
			return -EINVAL;
		return 0;
	case BIND_PARAM:
		snprintf(opt, sizeof(opt), "--%s",
			 smm_stressors[b->s].params[b->p].option);
		if (smm_param_set(&smm_stressors[b->s], c, b->p, v, opt, err,
				  len))
			return -EINVAL;
		return 0;
	}
	return -EINVAL;
}

/* An unknown --@opt, with the closest name of the table as a hint. */
static int unknown(const struct opt_table *t, const char *opt, char *err,
		   size_t len)
{
	const char *best = NULL;
	unsigned int bestd = 4;

	for (int i = 0; i < t->n; i++) {
		unsigned int d = smm_edit_distance(opt, t->lo[i].name);

		if (d < bestd) {
			bestd = d;
			best = t->lo[i].name;
		}
	}
	if (best)
		return smm_errmsg(
			err, len,
			"unknown option --%s (did you mean --%s? stress-ng options go after --)",
			opt, best);
	return smm_errmsg(
		err, len,
		"unknown option --%s (see --help; stress-ng options go after --)",
		opt);
}

/* getopt_long() said '?' or ':' for the word at argv[@at]. */
static int refused(const struct opt_table *t, int c, char **argv, int at,
		   char *err, size_t len)
{
	const char *a = argv[at];
	char name[128];

	if (c == ':') {
		int i = optopt - VAL_BASE;

		if (i >= 0 && i < t->n)
			return smm_errmsg(err, len, "option --%s needs a value",
					  t->lo[i].name);
		for (size_t k = 0; k < smm_nr_options; k++)
			if (smm_options[k].short_name == optopt)
				return smm_errmsg(err, len,
						  "option --%s needs a value",
						  smm_options[k].name);
	}
	if (strncmp(a, "--", 2) == 0) {
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(a + 2, "="),
			 a + 2);
		return unknown(t, name, err, len);
	}
	return smm_errmsg(
		err, len,
		"unknown option %s (see --help; stress-ng options go after --)",
		a);
}

/* The option at argv[@at] as long option @i: the whole name, not a
 * prefix (getopt_long takes abbreviations; stress-mm never has). */
static int check_word(const struct opt_table *t, int i, char **argv, int at,
		      char *err, size_t len)
{
	const char *a = argv[at], *name = t->lo[i].name;
	size_t n = strlen(name);
	char given[128];

	if (a[0] == '-' && a[1] != '-') { /* -t V, -tV, -h, -V */
		const struct smm_option *o = t->b[i].o;

		if (!o->arg && a[2])
			return smm_errmsg(
				err, len,
				"option -%c takes no value (got '%s')", a[1],
				a + 2);
		return 0;
	}
	if (strncmp(a + 2, name, n) == 0 && (!a[2 + n] || a[2 + n] == '='))
		return 0;
	snprintf(given, sizeof(given), "%.*s", (int)strcspn(a + 2, "="), a + 2);
	return unknown(t, given, err, len);
}

/* The index of the long option short option @c stands for. */
static int long_of(const struct opt_table *t, int c)
{
	for (int i = 0; i < t->n; i++)
		if (t->b[i].kind == BIND_OPTION && t->b[i].o->short_name == c)
			return i;
	return -1;
}

/* Everything after "--" goes to stress-ng; any other word is an error. */
static int rest(struct smm_run_cfg *cfg, int argc, char **argv, int end,
		char *err, size_t len)
{
	if (optind >= argc && !(optind == end + 1 && end < argc))
		return 0;
	if (optind != end + 1 || strcmp(argv[end], "--") != 0)
		return smm_errmsg(
			err, len,
			"unexpected argument '%s' (stress-ng options go after --)",
			argv[optind]);
	for (int i = optind; i < argc; i++) {
		if (cfg->npass == SMM_MAX_PASS)
			return smm_errmsg(err, len,
					  "more than %d arguments after --",
					  SMM_MAX_PASS);
		cfg->pass[cfg->npass++] = argv[i];
	}
	return 0;
}

int smm_opts_parse(int argc, char **argv, struct smm_run_cfg *cfg, char *err,
		   size_t len)
{
	static struct opt_table t;
	int end = 1; /* where the last option ended */

	memset(cfg, 0, sizeof(*cfg));
	for (int s = 0; s < SMM_NR_STRESSORS; s++)
		if (smm_stressor_cfg_init(&smm_stressors[s], &cfg->st[s]))
			return smm_errmsg(err, len,
					  "--%s: a default of its "
					  "parameter table does not parse",
					  smm_stressors[s].name);
	cfg->counters = "all";
	cfg->counters_engine = "auto";
	cfg->integration = "auto";
	cfg->vm_interval = 1.0;
	cfg->repeat = 1;
	build(&t);
	optind = 0; /* glibc: start over, whatever parsed before */
	opterr = 0;
	for (;;) {
		int at = end, c, i, rc;

		c = getopt_long(argc, argv, t.shorts, t.lo, NULL);
		if (c == -1)
			break;
		if (c == '?' || c == ':')
			return refused(&t, c, argv, at, err, len);
		i = c >= VAL_BASE ? c - VAL_BASE : long_of(&t, c);
		rc = check_word(&t, i, argv, at, err, len);
		if (!rc)
			rc = set(&t.b[i], t.lo[i].name, optarg, cfg, err, len);
		if (rc)
			return rc;
		end = optind;
	}
	if (rest(cfg, argc, argv, end, err, len))
		return -EINVAL;
	return smm_opts_check(cfg, err, len);
}
