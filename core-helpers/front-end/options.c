// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * options.c - the option table and its parser.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "counters.h"
#include "die.h"
#include "options.h"
#include "runner.h"
#include "test-vmalloc.h"

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
	  .help = "stop after T seconds (one suffix s, m, h or d; 1s..365d)" },
	OPT_FLAG("metrics", metrics,
		 "print stress-ng's metrics lines (names restored)"),
	OPT_FLAG("metrics-brief", metrics_brief,
		 "print stress-ng's brief metrics lines"),
	OPT_FLAG("times", times,
		 "print run-time totals (what the kernel test robot parses needs it)"),
	OPT_STRING("yaml", "FILE", yaml,
		   "write one YAML report: stress-ng's own plus a stress-mm section"),
	OPT_STRING("stress-ng", "PATH", stress_ng,
		   "the stress-ng to run (default: stress-ng from PATH)"),
	OPT_STRING("counters", "LIST", counters,
		   "kernel counters: all (default), none, or a comma-separated list of names"),
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

#define WORKERS_MAX 4096
#define OPS_MAX (1ULL << 40)
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

static int check_counters(const char *list, char *err, size_t len)
{
	char *copy, *tok, *save = NULL;
	int rc = 0;

	if (!list[0])
		return smm_errmsg(
			err, len,
			"--counters='' is empty; valid: all, none, or names from --help");
	if (!strcmp(list, "none") || !strcmp(list, "all"))
		return 0;
	if (list[0] == ',' || list[strlen(list) - 1] == ',' ||
	    strstr(list, ",,"))
		return smm_errmsg(
			err, len,
			"--counters='%s' has an empty name; valid: all, none, or names from --help",
			list);
	copy = strdup(list);
	if (!copy)
		return smm_errmsg(err, len, "out of memory");
	for (tok = strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save))
		if (!smm_counter_spec_of(tok))
			rc = smm_errmsg(
				err, len,
				"--counters='%s': unknown counter '%s'; valid: all, none, or names from --help",
				list, tok);
	free(copy);
	return rc;
}

/* The report must be writable before anything runs: try it. */
static int check_yaml_path(const char *path, char *err, size_t len)
{
	struct stat st;
	bool existed = stat(path, &st) == 0;
	int fd;

	if (!path[0])
		return smm_errmsg(err, len,
				  "--yaml='' is empty; valid: a file path");
	if (existed && S_ISDIR(st.st_mode))
		return smm_errmsg(
			err, len,
			"--yaml='%s' is a directory; valid: a writable file path",
			path);
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return smm_errmsg(err, len, "--yaml='%s' cannot be written: %s",
				  path, strerror(errno));
	close(fd);
	if (!existed)
		unlink(path);
	return 0;
}

/* Edit distance, for the "did you mean" hint. */
static int distance(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b), d[64][64];

	if (la > 63 || lb > 63)
		return 99;
	for (int i = 0; i <= la; i++)
		d[i][0] = i;
	for (int j = 0; j <= lb; j++)
		d[0][j] = j;
	for (int i = 1; i <= la; i++)
		for (int j = 1; j <= lb; j++) {
			int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < c)
				c = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < c)
				c = d[i][j - 1] + 1;
			d[i][j] = c;
		}
	return d[la][lb];
}

static void closer(const char *opt, const char *cand, const char **best,
		   int *bestd)
{
	int dd = distance(opt, cand);

	if (dd < *bestd) {
		*bestd = dd;
		*best = cand;
	}
}

static int unknown(const char *opt, char *err, size_t len)
{
	const char *best = NULL;
	int bestd = 4;

	for (int s = 0; s < SMM_NR_STRESSORS; s++) {
		const struct smm_stressor *st = &smm_stressors[s];
		char ops[128];

		closer(opt, st->name, &best, &bestd);
		snprintf(ops, sizeof(ops), "%s-ops", st->name);
		if (distance(opt, ops) < bestd) {
			bestd = distance(opt, ops);
			best = st->name;
		}
		for (int i = 0; i < st->nparams; i++)
			closer(opt, st->params[i].option, &best, &bestd);
	}
	for (size_t i = 0; i < smm_nr_options; i++)
		closer(opt, smm_options[i].name, &best, &bestd);
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

/* The value of the option at argv[*i]: "--name=v", "-tV" or the next
 * argument. NULL with @err set when there is none. */
static const char *value_of(int argc, char **argv, int *i, const char *name,
			    const char *inline_v, char *err, size_t len)
{
	if (inline_v)
		return inline_v;
	if (*i + 1 >= argc) {
		smm_errmsg(err, len, "option --%s needs a value", name);
		return NULL;
	}
	return argv[++*i];
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

/* A stressor option (--NAME, --NAME-ops, --NAME-<param>); 1 when @name is
 * none of them. */
static int stressor_option(int argc, char **argv, int *i, const char *name,
			   const char *eq, struct smm_run_cfg *cfg, char *err,
			   size_t len)
{
	for (int s = 0; s < SMM_NR_STRESSORS; s++) {
		const struct smm_stressor *st = &smm_stressors[s];
		struct smm_stressor_cfg *c = &cfg->st[s];
		size_t nl = strlen(st->name);
		const char *v;
		uint64_t u;

		if (strncmp(name, st->name, nl) != 0)
			continue;
		if (!name[nl] || !strcmp(name + nl, "-ops")) {
			bool ops = name[nl] != '\0';

			v = value_of(argc, argv, i, name, eq, err, len);
			if (!v || parse_count(name, v, ops ? 1 : 0,
					      ops ? OPS_MAX : WORKERS_MAX,
					      ops ? "bogo-ops" : "workers", &u,
					      err, len))
				return -EINVAL;
			if (ops)
				c->ops = u;
			else
				c->workers = (int64_t)u;
			return 0;
		}
		for (int p = 0; p < st->nparams; p++) {
			struct smm_param named = st->params[p];
			char opt[160];

			if (strcmp(name, named.option) != 0)
				continue;
			v = value_of(argc, argv, i, name, eq, err, len);
			if (!v)
				return -EINVAL;
			snprintf(opt, sizeof(opt), "--%s", named.option);
			named.env = opt;
			if (smm_param_parse(&named, v, &u, err, len))
				return -EINVAL;
			c->text[p] = v;
			return 0;
		}
	}
	return 1;
}

/* After parsing: parameters only for requested stressors; the STRESS_MM_*
 * variables the plugin would read are checked now and recorded. */
static int check_params(struct smm_run_cfg *cfg, char *err, size_t len)
{
	for (int s = 0; s < SMM_NR_STRESSORS; s++) {
		const struct smm_stressor *st = &smm_stressors[s];
		struct smm_stressor_cfg *c = &cfg->st[s];

		for (int p = 0; p < st->nparams; p++) {
			const char *env = getenv(st->params[p].env);
			uint64_t v;

			if (c->text[p] && c->workers < 0)
				return smm_errmsg(
					err, len,
					"--%s given, but --%s was not requested",
					st->params[p].option, st->name);
			if (c->text[p] || !env)
				continue;
			if (smm_param_parse(&st->params[p], env, &v, err, len))
				return -EINVAL;
			c->text[p] = env;
		}
	}
	return 0;
}

bool smm_opts_method(const struct smm_run_cfg *cfg, int s, const char *method)
{
	int lo = s < 0 ? 0 : s, hi = s < 0 ? SMM_NR_STRESSORS : s + 1;

	for (int i = lo; i < hi && i < SMM_NR_STRESSORS; i++) {
		const char *m = smm_param_value(&smm_stressors[i], &cfg->st[i],
						"vmalloc-order-method");

		if (cfg->st[i].workers >= 0 && m && !strcmp(m, method))
			return true;
	}
	return false;
}

/* Whether a stressor runs the test-vmalloc runner (runner.h). */
static bool runs_test_vmalloc(const struct smm_run_cfg *cfg)
{
	for (int s = 0; s < SMM_NR_STRESSORS; s++)
		if (smm_runner_for(cfg, s) == &smm_runner_test_vmalloc)
			return true;
	return false;
}

/* stress-ng options after -- that stress-mm sets itself: given twice, the
 * report would read another run's YAML or another duration. */
static int check_pass(const struct smm_run_cfg *cfg, char *err, size_t len)
{
	static const char *const own[] = { "-t",
					   "--timeout",
					   "-Y",
					   "--yaml",
					   "--plugin",
					   "--plugin-so",
					   "--plugin-method",
					   "--plugin-ops" };

	for (int i = 0; i < cfg->npass; i++)
		for (size_t k = 0; k < sizeof(own) / sizeof(own[0]); k++) {
			size_t n = strlen(own[k]);
			const char *a = cfg->pass[i];

			if (strncmp(a, own[k], n) == 0 &&
			    (a[n] == '\0' || a[n] == '=' ||
			     (n == 2 && isdigit((unsigned char)a[n]))))
				return smm_errmsg(
					err, len,
					"'%s' after --: stress-mm sets stress-ng's %s itself; give stress-mm's own option before -- (-t, --yaml, --vmalloc-order/--shm-pcp)",
					a, own[k]);
		}
	return 0;
}

int smm_opts_parse(int argc, char **argv, struct smm_run_cfg *cfg, char *err,
		   size_t len)
{
	bool any = false;
	int rc;

	memset(cfg, 0, sizeof(*cfg));
	for (int s = 0; s < SMM_NR_STRESSORS; s++)
		cfg->st[s].workers = -1;
	cfg->counters = "all";
	cfg->vm_interval = 1.0;
	cfg->repeat = 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *eq = NULL, *v = NULL;
		const struct smm_option *o = NULL;
		char name[128];

		if (strcmp(a, "--") == 0) {
			while (++i < argc && cfg->npass < SMM_MAX_PASS)
				cfg->pass[cfg->npass++] = argv[i];
			if (i < argc)
				return smm_errmsg(
					err, len,
					"more than %d arguments after --",
					SMM_MAX_PASS);
			break;
		}
		if (a[0] == '-' && a[1] && a[1] != '-') {
			/* -t V, -tV, -h, -V */
			for (size_t k = 0; k < smm_nr_options; k++)
				if (smm_options[k].short_name == a[1])
					o = &smm_options[k];
			if (!o)
				return smm_errmsg(
					err, len,
					"unknown option %s (see --help; stress-ng options go after --)",
					a);
			snprintf(name, sizeof(name), "%s", o->name);
			eq = a[2] ? a + 2 : NULL;
			if (eq && !o->arg)
				return smm_errmsg(
					err, len,
					"option -%c takes no value (got '%s')",
					a[1], eq);
		} else if (strncmp(a, "--", 2) == 0) {
			const char *e = strchr(a + 2, '=');

			snprintf(name, sizeof(name), "%.*s",
				 e ? (int)(e - a - 2) : (int)strlen(a + 2),
				 a + 2);
			eq = e ? e + 1 : NULL;
			rc = stressor_option(argc, argv, &i, name, eq, cfg, err,
					     len);
			if (rc <= 0) {
				if (rc)
					return rc;
				continue;
			}
			for (size_t k = 0; k < smm_nr_options; k++)
				if (!strcmp(smm_options[k].name, name))
					o = &smm_options[k];
			if (!o)
				return unknown(name, err, len);
		} else {
			return smm_errmsg(
				err, len,
				"unexpected argument '%s' (stress-ng options go after --)",
				a);
		}
		if (o->arg) {
			v = value_of(argc, argv, &i, name, eq, err, len);
			if (!v)
				return -EINVAL;
		} else {
			v = eq;
		}
		rc = apply(o, v, cfg, err, len);
		if (rc)
			return rc;
	}
	rc = check_counters(cfg->counters, err, len);
	if (!rc)
		rc = check_pass(cfg, err, len);
	if (!rc && cfg->tv_tests && !runs_test_vmalloc(cfg))
		rc = smm_errmsg(
			err, len,
			"--vmalloc-order-tests given, but not --vmalloc-order-method test-vmalloc");
	if (!rc && !cfg->tv_tests)
		cfg->tv_tests = "fix_size_alloc_test";
	if (!rc && !smm_tv_mask(cfg->tv_tests))
		rc = smm_errmsg(
			err, len,
			"--vmalloc-order-tests '%s': not a comma-separated list of test_vmalloc tests (lib/test_vmalloc.c: fix_size_alloc_test, full_fit_alloc_test, long_busy_list_alloc_test, random_size_alloc_test, fix_align_alloc_test, random_size_align_alloc_test, align_shift_alloc_test, pcpu_alloc_test, kvfree_rcu_1_arg_vmalloc_test, kvfree_rcu_2_arg_vmalloc_test, vm_map_ram_test, no_block_alloc_test, vrealloc_test)",
			cfg->tv_tests);
	if (!rc)
		rc = check_params(cfg, err, len);
	if (!rc && cfg->yaml)
		rc = check_yaml_path(cfg->yaml, err, len);
	if (!rc && cfg->stress_ng && !cfg->stress_ng[0])
		rc = smm_errmsg(
			err, len,
			"--stress-ng='' is empty; valid: an executable file");
	if (rc)
		return rc;
	for (int s = 0; s < SMM_NR_STRESSORS; s++)
		any |= cfg->st[s].workers >= 0;
	if (!any && !cfg->npass)
		return smm_errmsg(
			err, len,
			"no stressor requested: use --vmalloc-order N and/or --shm-pcp N, or stress-ng's own after -- (see --help)");
	return SMM_PARSE_RUN;
}

int64_t smm_workers(const struct smm_run_cfg *cfg, int s)
{
	int64_t w = cfg->st[s].workers;

	if (w != 0)
		return w;
	return sysconf(_SC_NPROCESSORS_ONLN);
}
