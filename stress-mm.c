// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stress-mm.c - the front end: stress-ng's option style for the stress-mm
 * stressors, kernel counters around the run, one report.
 *
 *   stress-mm --vmalloc-order 4 --shm-pcp 4 -t 60s --metrics --yaml run.yaml
 *
 * It validates every option before starting anything, sweeps shm-pcp
 * leftovers, turns parameters into the plugin's environment, runs one real
 * stress-ng per requested stressor (together, same timeout, each with its
 * own YAML), counts kernel tracepoints system-wide over the run
 * (counters.h), takes /proc/vmstat and /proc/zoneinfo deltas (procstat.h),
 * samples /proc/vmallocinfo, prints stress-ng's metrics lines with the
 * stressor names restored, then the counters, and writes one YAML.
 *
 * Exit status (stress-ng's table; the worst of all stressors wins):
 *   0 success; 1 usage error (bad option: one line, nothing started);
 *   2 failure: stress-ng failed, or a plugin printed FAIL, crashed, or did
 *     no bogo-op without a SKIP (stress-ng itself reports those as success);
 *   3 a stressor skipped for lack of a resource (limits, memory);
 *   4 a stressor skipped as not implemented here (kernel, config, policy);
 *   128 + N when stopped by signal N (SIGINT, SIGTERM): the children are
 *     stopped, nothing is left behind, and the report says "interrupted".
 * The options, their environment variables, --help, the bash completion
 * (--completion) and the man page (--man) come from the parameter tables
 * (core-helpers/params-table.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "compare.h"
#include "config.h"
#include "counters.h"
#include "params-table.h"
#include "params.h"
#include "vmstat.h"
#include "zoneinfo.h"
#include "die.h"
#include "shm.h"
#include "stats.h"
#include "compare-cmd.h"
#include "sysfacts.h"
#include "vmallocinfo.h"
#include "yamldoc.h"

#define SMM_VERSION "0.1.0"
#define MAX_PASS 256
#define MAX_CALLERS 512
#define MAX_STRESSOR_PARAMS 16
#define LINE_MAX_LEN 1024

enum { EX_OK, EX_USAGE, EX_FAIL, EX_NORES, EX_NOTIMPL };

/* The stressors, as stress-ng options. */
struct stressor {
	const char *name; /* option and report name: "vmalloc-order" */
	const char *method; /* plugin method */
	const struct smm_param *params;
	int nparams;
	const char *help;
};

static const struct stressor stressors[] = {
	{ "vmalloc-order", "vmalloc_order", smm_vmo_params, SMM_VMO_NR_PARAMS,
	  "start N workers making vmalloc-backed kernel allocations (0: one per online CPU)" },
	{ "shm-pcp", "shm_pcp", smm_shm_params, SMM_SHM_NR_PARAMS,
	  "start N workers faulting shared memory against vmalloc churn (0: one per online CPU)" },
};

#define NR_STRESSORS (int)(sizeof(stressors) / sizeof(stressors[0]))

/* Front-end options that take no parameter-table entry. */
struct fe_option {
	const char *name; /* long name */
	char short_name; /* 0: none */
	const char *arg; /* NULL: a flag */
	const char *help;
};

static const struct fe_option fe_options[] = {
	{ "timeout", 't', "T",
	  "stop after T seconds (suffix s, m, h or d; 1s..365d)" },
	{ "metrics", 0, NULL,
	  "print stress-ng's metrics lines (names restored)" },
	{ "metrics-brief", 0, NULL, "print stress-ng's brief metrics lines" },
	{ "times", 0, NULL,
	  "print run-time totals (what the kernel test robot parses needs it)" },
	{ "yaml", 0, "FILE",
	  "write one YAML report: stress-ng's own plus a stress-mm section" },
	{ "stress-ng", 0, "PATH",
	  "the stress-ng to run (default: stress-ng from PATH)" },
	{ "counters", 0, "LIST",
	  "kernel counters: all (default), none, or a comma-separated list of names" },
	{ "vmallocinfo-interval", 0, "S",
	  "sample /proc/vmallocinfo every S seconds (0 = off; 0.05..3600; default 1)" },
	{ "repeat", 0, "R",
	  "run R times back to back (1..100); the YAML keeps every run and median, min, max and relative half-range per figure" },
	{ "help", 'h', NULL, "show this help" },
	{ "version", 'V', NULL, "show the version" },
};

#define NR_FE (int)(sizeof(fe_options) / sizeof(fe_options[0]))

struct run {
	int64_t workers[NR_STRESSORS]; /* -1: not requested */
	uint64_t ops[NR_STRESSORS]; /* 0: no limit */
	const char *text[NR_STRESSORS][MAX_STRESSOR_PARAMS];
	uint64_t timeout_s;
	bool metrics, metrics_brief, times;
	const char *yaml;
	const char *stress_ng;
	const char *counters;
	double vm_interval;
	char *pass[MAX_PASS];
	int npass;
	unsigned int repeat; /* runs back to back, 1..100 */
};

struct child {
	pid_t pid;
	int out; /* its stdout+stderr */
	char yaml[PATH_MAX]; /* its own --yaml */
	char buf[LINE_MAX_LEN];
	size_t used;
	int status;
	bool done, failed, skipped, skip_noresource, crashed;
	char skip_reason[512];
	char fail_line[512];
};

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

/* One line, exit 1: nothing has started yet. */
#define usage_error(...) smm_die(EX_USAGE, "stress-mm", __VA_ARGS__)

/* ---------------------------------------------------------------------
 * Help, completion and man page, from the tables.
 */

static void print_help(void)
{
	char range[256];

	printf("usage: stress-mm [OPTION]... [-- STRESS-NG-OPTION...]\n\n"
	       "Runs the stress-mm stressors through the real stress-ng and counts\n"
	       "the kernel events that explain them.\n\n");
	for (int s = 0; s < NR_STRESSORS; s++) {
		printf("  --%s N\n      %s\n", stressors[s].name,
		       stressors[s].help);
		printf("  --%s-ops N\n      stop each worker after N bogo-ops\n",
		       stressors[s].name);
		for (int i = 0; i < stressors[s].nparams; i++) {
			const struct smm_param *p = &stressors[s].params[i];

			smm_param_range(p, range, sizeof(range));
			printf("  --%s %s\n      %s; %s, default %s (%s)\n",
			       p->option,
			       p->type == SMM_P_SIZE	? "B"
			       : p->type == SMM_P_COUNT ? "N"
							: "M",
			       p->help, range, p->def, p->env);
		}
	}
	for (int i = 0; i < NR_FE; i++) {
		if (fe_options[i].short_name)
			printf("  -%c, --%s%s%s\n      %s\n",
			       fe_options[i].short_name, fe_options[i].name,
			       fe_options[i].arg ? " " : "",
			       fe_options[i].arg ? fe_options[i].arg : "",
			       fe_options[i].help);
		else
			printf("  --%s%s%s\n      %s\n", fe_options[i].name,
			       fe_options[i].arg ? " " : "",
			       fe_options[i].arg ? fe_options[i].arg : "",
			       fe_options[i].help);
	}
	printf("\nCounters:");
	for (size_t i = 0; i < smm_nr_counter_specs; i++)
		printf("%s%s", i % 3 ? " " : "\n  ", smm_counter_specs[i].name);
	printf("\n\nAnything after -- goes to stress-ng unchanged.\n"
	       "Exit status: 0 ok, 1 usage, 2 failure (also a plugin failure that\n"
	       "stress-ng reports as success), 3 skipped for lack of a resource,\n"
	       "4 skipped as not implemented here, 128+N stopped by signal N.\n");
}

static void print_completion(void)
{
	printf("# bash completion for stress-mm (generated by stress-mm --completion)\n"
	       "_stress_mm()\n{\n\tlocal cur prev\n"
	       "\tcur=\"${COMP_WORDS[COMP_CWORD]}\"\n"
	       "\tprev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n"
	       "\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
	       "\t\t[ \"${COMP_WORDS[i]}\" = -- ] && return\n\tdone\n"
	       "\tcase \"$prev\" in\n");
	for (int s = 0; s < NR_STRESSORS; s++)
		for (int i = 0; i < stressors[s].nparams; i++) {
			const struct smm_param *p = &stressors[s].params[i];

			if (p->type != SMM_P_CHOICE)
				continue;
			printf("\t--%s)\n\t\tCOMPREPLY=($(compgen -W \"",
			       p->option);
			for (int c = 0; p->choices[c]; c++)
				printf("%s%s", c ? " " : "", p->choices[c]);
			printf("\" -- \"$cur\"))\n\t\treturn ;;\n");
		}
	printf("\t--yaml | --stress-ng)\n\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n\t\treturn ;;\n"
	       "\t--counters)\n\t\tCOMPREPLY=($(compgen -W \"all none");
	for (size_t i = 0; i < smm_nr_counter_specs; i++)
		printf(" %s", smm_counter_specs[i].name);
	printf("\" -- \"$cur\"))\n\t\treturn ;;\n\tesac\n"
	       "\tCOMPREPLY=($(compgen -W \"");
	for (int s = 0; s < NR_STRESSORS; s++) {
		printf("--%s --%s-ops ", stressors[s].name, stressors[s].name);
		for (int i = 0; i < stressors[s].nparams; i++)
			printf("--%s ", stressors[s].params[i].option);
	}
	for (int i = 0; i < NR_FE; i++)
		printf("--%s%s", fe_options[i].name, i + 1 < NR_FE ? " " : "");
	printf("\" -- \"$cur\"))\n}\ncomplete -F _stress_mm stress-mm\n");
}

static void man_escape(const char *s)
{
	for (; *s; s++) {
		if (*s == '-')
			fputs("\\-", stdout);
		else if (*s == '\\')
			fputs("\\e", stdout);
		else
			putchar(*s);
	}
}

static void print_man(void)
{
	char range[256];

	printf(".TH STRESS-MM 1 \"\" \"stress-mm " SMM_VERSION
	       "\" \"User Commands\"\n"
	       ".SH NAME\nstress\\-mm \\- stress\\-ng plugin stressors for "
	       "memory\\-management performance work\n"
	       ".SH SYNOPSIS\n.B stress\\-mm\n[\\fIOPTION\\fR]... "
	       "[\\fB\\-\\-\\fR \\fISTRESS\\-NG\\-OPTION\\fR...]\n"
	       ".SH DESCRIPTION\nRuns the stress\\-mm stressors through the real "
	       "stress\\-ng with its \\-\\-plugin\\-so interface, counts kernel "
	       "tracepoints system\\-wide over the run and writes one report.\n"
	       ".SH OPTIONS\n");
	for (int s = 0; s < NR_STRESSORS; s++) {
		printf(".TP\n.B \\-\\-");
		man_escape(stressors[s].name);
		printf(" \\fIN\\fR\n");
		man_escape(stressors[s].help);
		printf(".\n.TP\n.B \\-\\-");
		man_escape(stressors[s].name);
		printf("\\-ops \\fIN\\fR\nstop each worker after N bogo\\-ops.\n");
		for (int i = 0; i < stressors[s].nparams; i++) {
			const struct smm_param *p = &stressors[s].params[i];

			smm_param_range(p, range, sizeof(range));
			printf(".TP\n.B \\-\\-");
			man_escape(p->option);
			printf(" \\fIVALUE\\fR\n");
			man_escape(p->help);
			printf("; ");
			man_escape(range);
			printf(", default ");
			man_escape(p->def);
			printf(". Environment: ");
			man_escape(p->env);
			printf(".\n");
		}
	}
	for (int i = 0; i < NR_FE; i++) {
		printf(".TP\n.B ");
		if (fe_options[i].short_name)
			printf("\\-%c, ", fe_options[i].short_name);
		printf("\\-\\-");
		man_escape(fe_options[i].name);
		if (fe_options[i].arg) {
			printf(" \\fI");
			man_escape(fe_options[i].arg);
			printf("\\fR");
		}
		printf("\n");
		man_escape(fe_options[i].help);
		printf(".\n");
	}
	printf(".SH ENVIRONMENT\n");
	for (int i = 0; i < SMM_COMMON_NR_PARAMS; i++) {
		printf(".TP\n.B ");
		man_escape(smm_common_params[i].env);
		printf("\n");
		man_escape(smm_common_params[i].help);
		printf(".\n");
	}
	printf(".SH EXIT STATUS\n0 success; 1 usage error; 2 failure, including a "
	       "plugin failure that stress\\-ng reports as success; 3 a "
	       "stressor skipped for lack of a resource; 4 a stressor skipped "
	       "as not implemented here; 128+N stopped by signal N.\n"
	       ".SH SEE ALSO\n.BR stress\\-ng (1),\n.BR perf\\-stat (1)\n");
}

/* ---------------------------------------------------------------------
 * Option parsing.
 */

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

static void hint_unknown(const char *opt)
{
	const char *best = NULL;
	char name[128];
	int bestd = 4;

	for (int s = 0; s < NR_STRESSORS; s++) {
		int dd = distance(opt, stressors[s].name);

		if (dd < bestd) {
			bestd = dd;
			best = stressors[s].name;
		}
		for (int i = 0; i < stressors[s].nparams; i++) {
			dd = distance(opt, stressors[s].params[i].option);
			if (dd < bestd) {
				bestd = dd;
				best = stressors[s].params[i].option;
			}
		}
		snprintf(name, sizeof(name), "%s-ops", stressors[s].name);
		if (distance(opt, name) < bestd) {
			bestd = distance(opt, name);
			best = stressors[s].name;
		}
	}
	for (int i = 0; i < NR_FE; i++) {
		int dd = distance(opt, fe_options[i].name);

		if (dd < bestd) {
			bestd = dd;
			best = fe_options[i].name;
		}
	}
	if (best)
		usage_error(
			"unknown option --%s (did you mean --%s? stress-ng options go after --)",
			opt, best);
	usage_error(
		"unknown option --%s (see --help; stress-ng options go after --)",
		opt);
}

/* A count option of the front end (workers, ops): the params grammar. */
static uint64_t parse_count_opt(const char *opt, const char *v, uint64_t min,
				uint64_t max, const char *unit)
{
	struct smm_param p = { .option = opt,
			       .env = opt,
			       .type = SMM_P_COUNT,
			       .unit = unit,
			       .min = min,
			       .max = max,
			       .def = "0" };
	char err[512], name[160];
	uint64_t out;

	snprintf(name, sizeof(name), "--%s", opt);
	p.env = name;
	if (smm_param_parse(&p, v, &out, err, sizeof(err)) != 0)
		usage_error("%s", err);
	return out;
}

static uint64_t parse_timeout(const char *v)
{
	static const struct {
		char c;
		uint64_t mult;
	} units[] = { { 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 } };
	char digits[32];
	uint64_t n = 0, mult = 1;
	size_t len = strlen(v);

	if (len > 0 && len < sizeof(digits)) {
		memcpy(digits, v, len + 1);
		for (size_t i = 0; i < 4; i++)
			if (digits[len - 1] == units[i].c) {
				mult = units[i].mult;
				digits[--len] = '\0';
			}
		int rc = smm_parse_count(digits, &n);

		if (rc == 0 && n > 0 && n <= 365ULL * 86400 / mult)
			return n * mult;
		if (rc == 0 || rc == -ERANGE)
			usage_error(
				"--timeout='%s' is out of range; valid range 1s..365d",
				v);
	}
	usage_error(
		"--timeout='%s' is not a duration; valid range 1s..365d (digits with an optional s, m, h or d suffix)",
		v);
}

static double parse_interval(const char *v)
{
	char *end = NULL;
	double d;

	/* Decimal digits with an optional fraction: no sign, hex, exponent. */
	if (strspn(v, "0123456789.") != strlen(v) || !v[0] || v[0] == '.' ||
	    strchr(v, '.') != strrchr(v, '.'))
		usage_error(
			"--vmallocinfo-interval='%s' is not a number of seconds; valid range 0 (off) or 0.05..3600",
			v);
	errno = 0;
	d = strtod(v, &end);
	if (end && *end == '\0' && !errno &&
	    (d == 0 || (d >= 0.05 && d <= 3600)))
		return d;
	usage_error(
		"--vmallocinfo-interval='%s' is out of range; valid range 0 (off) or 0.05..3600",
		v);
}

static void check_counters(const char *list)
{
	char *copy = strdup(list), *tok, *save = NULL;

	if (!copy || !list[0])
		usage_error(
			"--counters='%s' is empty; valid: all, none, or names from --help",
			list);
	if (strcmp(list, "none") == 0 || strcmp(list, "all") == 0) {
		free(copy);
		return;
	}
	if (list[0] == ',' || list[strlen(list) - 1] == ',' ||
	    strstr(list, ",,"))
		usage_error(
			"--counters='%s' has an empty name; valid: all, none, or names from --help",
			list);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!smm_counter_spec_of(tok))
			usage_error(
				"--counters='%s': unknown counter '%s'; valid: all, none, or names from --help",
				list, tok);
	}
	free(copy);
}

/* The value of option @name at argv[*i] ("--name=v" or "--name v"). */
static const char *option_value(int argc, char **argv, int *i, const char *name,
				const char *eq)
{
	if (eq)
		return eq + 1;
	if (*i + 1 >= argc)
		usage_error("option --%s needs a value", name);
	return argv[++*i];
}

/* The report must be writable before anything runs: try it. */
static void check_yaml_path(const char *path)
{
	struct stat st;
	bool existed = stat(path, &st) == 0;
	int fd;

	if (existed && S_ISDIR(st.st_mode))
		usage_error(
			"--yaml='%s' is a directory; valid: a writable file path",
			path);
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		usage_error("--yaml='%s' cannot be written: %s", path,
			    strerror(errno));
	close(fd);
	if (!existed)
		unlink(path);
}

static void parse_args(int argc, char **argv, struct run *r)
{
	memset(r, 0, sizeof(*r));
	for (int s = 0; s < NR_STRESSORS; s++)
		r->workers[s] = -1;
	r->counters = "all";
	r->vm_interval = 1.0;
	r->repeat = 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *eq;
		char name[128];
		bool matched = false;

		if (strcmp(a, "--") == 0) {
			while (++i < argc && r->npass < MAX_PASS)
				r->pass[r->npass++] = argv[i];
			break;
		}
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			print_help();
			exit(EX_OK);
		}
		if (strcmp(a, "-V") == 0 || strcmp(a, "--version") == 0) {
			printf("stress-mm " SMM_VERSION "\n");
			exit(EX_OK);
		}
		if (strcmp(a, "--completion") == 0) {
			print_completion();
			exit(EX_OK);
		}
		if (strcmp(a, "--man") == 0) {
			print_man();
			exit(EX_OK);
		}
		if (strcmp(a, "-t") == 0) {
			r->timeout_s = parse_timeout(
				option_value(argc, argv, &i, "timeout", NULL));
			continue;
		}
		if (strncmp(a, "-t", 2) == 0 && a[2]) {
			r->timeout_s = parse_timeout(a + 2);
			continue;
		}
		if (strncmp(a, "--", 2) != 0)
			usage_error(
				"unexpected argument '%s' (stress-ng options go after --)",
				a);
		a += 2;
		eq = strchr(a, '=');
		snprintf(name, sizeof(name), "%.*s",
			 eq ? (int)(eq - a) : (int)strlen(a), a);
		for (int s = 0; s < NR_STRESSORS && !matched; s++) {
			char ops[128];

			snprintf(ops, sizeof(ops), "%s-ops", stressors[s].name);
			if (strcmp(name, stressors[s].name) == 0) {
				r->workers[s] = (int64_t)parse_count_opt(
					name,
					option_value(argc, argv, &i, name, eq),
					0, 4096, "workers");
				matched = true;
			} else if (strcmp(name, ops) == 0) {
				r->ops[s] = parse_count_opt(
					name,
					option_value(argc, argv, &i, name, eq),
					1, 1ULL << 40, "bogo-ops");
				matched = true;
			}
			for (int p = 0; p < stressors[s].nparams && !matched;
			     p++) {
				const struct smm_param *pp =
					&stressors[s].params[p];
				struct smm_param named = *pp;
				char err[512], opt[160];
				uint64_t v;

				if (strcmp(name, pp->option) != 0)
					continue;
				r->text[s][p] =
					option_value(argc, argv, &i, name, eq);
				snprintf(opt, sizeof(opt), "--%s", pp->option);
				named.env = opt;
				if (smm_param_parse(&named, r->text[s][p], &v,
						    err, sizeof(err)) != 0)
					usage_error("%s", err);
				matched = true;
			}
		}
		if (matched)
			continue;
		if (strcmp(name, "timeout") == 0)
			r->timeout_s = parse_timeout(
				option_value(argc, argv, &i, name, eq));
		else if ((strcmp(name, "metrics") == 0 ||
			  strcmp(name, "metrics-brief") == 0 ||
			  strcmp(name, "times") == 0) &&
			 eq)
			usage_error("option --%s takes no value (got '%s')",
				    name, eq + 1);
		else if (strcmp(name, "metrics") == 0)
			r->metrics = true;
		else if (strcmp(name, "metrics-brief") == 0)
			r->metrics_brief = true;
		else if (strcmp(name, "times") == 0)
			r->times = true;
		else if (strcmp(name, "yaml") == 0)
			r->yaml = option_value(argc, argv, &i, name, eq);
		else if (strcmp(name, "stress-ng") == 0)
			r->stress_ng = option_value(argc, argv, &i, name, eq);
		else if (strcmp(name, "counters") == 0)
			r->counters = option_value(argc, argv, &i, name, eq);
		else if (strcmp(name, "repeat") == 0)
			r->repeat = (unsigned int)parse_count_opt(
				name, option_value(argc, argv, &i, name, eq), 1,
				100, "runs");
		else if (strcmp(name, "vmallocinfo-interval") == 0)
			r->vm_interval = parse_interval(
				option_value(argc, argv, &i, name, eq));
		else
			hint_unknown(name);
	}
	check_counters(r->counters);
	for (int s = 0; s < NR_STRESSORS; s++)
		for (int p = 0; p < stressors[s].nparams; p++) {
			const struct smm_param *pp = &stressors[s].params[p];
			const char *env = getenv(pp->env);
			char err[512];
			uint64_t v;

			if (r->text[s][p] && r->workers[s] < 0)
				usage_error(
					"--%s given, but --%s was not requested",
					pp->option, stressors[s].name);
			if (r->text[s][p] || !env)
				continue;
			/* The plugin would read it: check it now, and
			 * record it as the value used. */
			if (smm_param_parse(pp, env, &v, err, sizeof(err)))
				usage_error("%s", err);
			r->text[s][p] = env;
		}
	if (r->yaml && !r->yaml[0])
		usage_error("--yaml='' is empty; valid: a file path");
	if (r->yaml)
		check_yaml_path(r->yaml);
	for (int s = 0; s < NR_STRESSORS; s++)
		if (r->workers[s] >= 0)
			return;
	usage_error(
		"no stressor requested: use --vmalloc-order N and/or --shm-pcp N (see --help)");
}

/* ---------------------------------------------------------------------
 * Running stress-ng.
 */

static const char *find_stress_ng(const char *given)
{
	static char found[PATH_MAX];
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL;

	if (given) {
		struct stat st;

		if (stat(given, &st) != 0)
			usage_error(
				"--stress-ng='%s' is not an executable file: %s",
				given, strerror(errno));
		if (!S_ISREG(st.st_mode) || access(given, X_OK) != 0)
			usage_error(
				"--stress-ng='%s' is not an executable file",
				given);
		return given;
	}
	copy = strdup(path ? path : "/usr/bin:/bin");
	for (dir = strtok_r(copy, ":", &save); dir;
	     dir = strtok_r(NULL, ":", &save)) {
		snprintf(found, sizeof(found), "%s/stress-ng", dir);
		if (access(found, X_OK) == 0) {
			free(copy);
			return found;
		}
	}
	free(copy);
	usage_error(
		"stress-ng not found in PATH (apt-get install stress-ng, or --stress-ng PATH)");
}

static void plugin_path(char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n < 0)
		n = 0;
	exe[n] = '\0';
	snprintf(buf, len, "%s/stress-mm.so", dirname(exe));
}

/*
 * Raise @res to @need (soft and hard) when it is lower. Succeeds only with
 * CAP_SYS_RESOURCE (kernel/sys.c do_prlimit()); says what it did or why
 * not. The children inherit the limit.
 */
static void raise_limit(int res, const char *name, uint64_t need,
			const char *why)
{
	struct rlimit rl;

	if (getrlimit(res, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
	    rl.rlim_cur >= need)
		return;
	{
		struct rlimit nl = { need,
				     need > rl.rlim_max ? need : rl.rlim_max };

		if (setrlimit(res, &nl) == 0) {
			fprintf(stderr,
				"stress-mm: info: raised %s from %llu to %llu for this run (%s)\n",
				name, (unsigned long long)rl.rlim_cur,
				(unsigned long long)need, why);
			return;
		}
	}
	fprintf(stderr,
		"stress-mm: info: %s is %llu, below the %llu that %s needs; raising it needs CAP_SYS_RESOURCE: errno=%d (%s)\n",
		name, (unsigned long long)rl.rlim_cur, (unsigned long long)need,
		why, errno, strerror(errno));
}

/* RLIMIT_MEMLOCK and RLIMIT_NOFILE for the vmalloc-order paths that need
 * them to reach vmalloc space (path-io-uring.h, path-fdtable.h). */
static void raise_limits(const struct run *r)
{
	const int s = 0; /* vmalloc-order */
	const char *method = r->text[s][SMM_VMO_P_METHOD];
	const char *iou = r->text[s][SMM_VMO_P_IO_URING];
	uint64_t bytes = 16384, workers;
	uint64_t nr_open = 1048576;

	if (r->workers[s] < 0)
		return;
	if (r->text[s][SMM_VMO_P_BYTES])
		smm_parse_size(r->text[s][SMM_VMO_P_BYTES], &bytes);
	workers = r->workers[s] ? (uint64_t)r->workers[s]
				: (uint64_t)sysconf(_SC_NPROCESSORS_ONLN);
	if ((!method || !strcmp(method, "all") ||
	     !strcmp(method, "io-uring")) &&
	    (!iou || strcmp(iou, "rings") != 0))
		/* a bvec table of BYTES describes BYTES / 16 pages */
		raise_limit(RLIMIT_MEMLOCK, "RLIMIT_MEMLOCK",
			    bytes * 256 * workers * 2 + (16ULL << 20),
			    "the io-uring buffers path");
	if (!method || !strcmp(method, "all") || !strcmp(method, "fdtable")) {
		smm_read_u64("/proc/sys/fs/nr_open", &nr_open);
		raise_limit(RLIMIT_NOFILE, "RLIMIT_NOFILE",
			    bytes / 8 + 64 < nr_open ? bytes / 8 + 64 : nr_open,
			    "the fdtable path");
	}
}

static void start_child(struct child *c, const struct run *r, int s,
			const char *sng, const char *so, const char *tmp)
{
	const struct stressor *st = &stressors[s];
	char workers[32], ops[32], timeout[32], *argv[MAX_PASS + 32];
	int fds[2], n = 0;

	snprintf(c->yaml, sizeof(c->yaml), "%s/%s.yaml", tmp, st->name);
	if (pipe2(fds, O_CLOEXEC) < 0) {
		perror("stress-mm: pipe");
		exit(EX_FAIL);
	}
	c->pid = fork();
	if (c->pid < 0) {
		perror("stress-mm: fork");
		exit(EX_FAIL);
	}
	if (c->pid > 0) {
		close(fds[1]);
		c->out = fds[0];
		return;
	}
	dup2(fds[1], STDOUT_FILENO);
	dup2(fds[1], STDERR_FILENO);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	for (int p = 0; p < st->nparams; p++)
		if (r->text[s][p])
			setenv(st->params[p].env, r->text[s][p], 1);
	snprintf(workers, sizeof(workers), "%lld", (long long)r->workers[s]);
	argv[n++] = (char *)sng;
	argv[n++] = "--plugin";
	argv[n++] = workers;
	argv[n++] = "--plugin-so";
	argv[n++] = (char *)so;
	argv[n++] = "--plugin-method";
	argv[n++] = (char *)st->method;
	if (r->ops[s]) {
		snprintf(ops, sizeof(ops), "%llu",
			 (unsigned long long)r->ops[s]);
		argv[n++] = "--plugin-ops";
		argv[n++] = ops;
	}
	if (r->timeout_s) {
		snprintf(timeout, sizeof(timeout), "%llus",
			 (unsigned long long)r->timeout_s);
		argv[n++] = "-t";
		argv[n++] = timeout;
	}
	/* Always metrics, for the YAML; the lines are filtered below. */
	argv[n++] = r->metrics_brief && !r->metrics ? "--metrics-brief"
						    : "--metrics";
	if (r->times)
		argv[n++] = "--times";
	argv[n++] = "--yaml";
	argv[n++] = c->yaml;
	for (int i = 0; i < r->npass; i++)
		argv[n++] = r->pass[i];
	argv[n] = NULL;
	execv(sng, argv);
	fprintf(stderr, "stress-mm: exec %s: %s\n", sng, strerror(errno));
	_exit(127);
}

/* One line of a child's output: restore the name, note what it says. */
static void child_line(struct child *c, const struct run *r, const char *name,
		       char *line)
{
	const char *p;
	char *m;

	if ((p = strstr(line, ": SKIP: "))) {
		c->skipped = true;
		snprintf(c->skip_reason, sizeof(c->skip_reason), "%s", p + 8);
		if (strstr(p, "errno=11") || strstr(p, "errno=12") ||
		    strstr(p, "errno=28") || strstr(p, "RLIMIT") ||
		    strstr(p, "out of memory"))
			c->skip_noresource = true;
	}
	if (strstr(line, ": FAIL: ") && !c->failed) {
		c->failed = true;
		snprintf(c->fail_line, sizeof(c->fail_line), "%s", line);
	}
	if (strstr(line, "Caught unexpected signal") ||
	    strstr(line, "double free") || strstr(line, "Segmentation")) {
		c->crashed = true;
		snprintf(c->fail_line, sizeof(c->fail_line), "%s", line);
	}
	if ((m = strstr(line, "dispatching hogs: ")) && strstr(m, " plugin")) {
		char *pl = strstr(m, " plugin");

		fprintf(stderr, "%.*s %s%s\n", (int)(pl - line), line, name,
			pl + strlen(" plugin"));
		return;
	}
	m = strstr(line, "] plugin ");
	if (strstr(line, "metrc:")) {
		if (!r->metrics && !r->metrics_brief)
			return;
		if (m) {
			/* stress-ng prints the name as %-13s: keep columns. */
			char out[LINE_MAX_LEN];
			size_t head = (size_t)(m - line) + 2;
			const char *rest = m + 2 + strlen("plugin");
			/* Take from the padding what the longer name needs. */
			int extra = (int)strlen(name) - (int)strlen("plugin");

			while (extra > 0 && rest[0] == ' ' && rest[1] == ' ') {
				rest++;
				extra--;
			}
			snprintf(out, sizeof(out), "%.*s%s%s", (int)head, line,
				 name, rest);
			fprintf(stderr, "%s\n", out);
			return;
		}
	}
	fprintf(stderr, "%s\n", line);
}

static void child_read(struct child *c, const struct run *r, const char *name)
{
	ssize_t n =
		read(c->out, c->buf + c->used, sizeof(c->buf) - 1 - c->used);
	char *nl;

	if (n <= 0) {
		if (c->used) {
			c->buf[c->used] = '\0';
			child_line(c, r, name, c->buf);
			c->used = 0;
		}
		close(c->out);
		c->out = -1;
		return;
	}
	c->used += (size_t)n;
	c->buf[c->used] = '\0';
	while ((nl = strchr(c->buf, '\n'))) {
		*nl = '\0';
		child_line(c, r, name, c->buf);
		c->used -= (size_t)(nl + 1 - c->buf);
		memmove(c->buf, nl + 1, c->used + 1);
	}
	if (c->used == sizeof(c->buf) - 1) { /* a very long line */
		child_line(c, r, name, c->buf);
		c->used = 0;
	}
}

/* ---------------------------------------------------------------------
 * vmallocinfo sampling: areas and pages per caller, the most seen.
 */

struct caller_tally {
	char caller[64];
	uint64_t base_areas, base_pages, max_areas, max_pages;
	bool seen_base;
};

struct vm_sampler {
	struct caller_tally t[MAX_CALLERS];
	int n, samples;
	int err;
};

static struct caller_tally *tally_of(struct vm_sampler *vs, const char *c)
{
	for (int i = 0; i < vs->n; i++)
		if (strcmp(vs->t[i].caller, c) == 0)
			return &vs->t[i];
	if (vs->n == MAX_CALLERS)
		return NULL;
	snprintf(vs->t[vs->n].caller, sizeof(vs->t[0].caller), "%s", c);
	return &vs->t[vs->n++];
}

static void vm_sample(struct vm_sampler *vs, bool base)
{
	struct smm_vmarea *v = NULL;
	size_t n = 0;
	int rc = smm_vmallocinfo_read(NULL, NULL, 0, &v, &n);

	if (rc) {
		vs->err = rc;
		return;
	}
	for (int i = 0; i < vs->n; i++) {
		vs->t[i].max_areas = base ? 0 : vs->t[i].max_areas;
		vs->t[i].base_areas = base ? 0 : vs->t[i].base_areas;
	}
	{
		uint64_t areas[MAX_CALLERS] = { 0 }, pages[MAX_CALLERS] = { 0 };

		for (size_t i = 0; i < n; i++) {
			struct caller_tally *t = tally_of(
				vs, v[i].caller[0] ? v[i].caller : "(none)");

			if (!t)
				continue;
			areas[t - vs->t]++;
			pages[t - vs->t] += v[i].pages;
		}
		for (int i = 0; i < vs->n; i++) {
			struct caller_tally *t = &vs->t[i];

			if (base) {
				t->base_areas = areas[i];
				t->base_pages = pages[i];
				t->seen_base = true;
			}
			if (areas[i] > t->max_areas)
				t->max_areas = areas[i];
			if (pages[i] > t->max_pages)
				t->max_pages = pages[i];
		}
	}
	vs->samples++;
	free(v);
}

/* ---------------------------------------------------------------------
 * Report.
 */

static double per(uint64_t a, uint64_t b, double scale)
{
	return b ? scale * (double)a / (double)b : 0.0;
}

static uint64_t counter_value(const struct smm_counters *cs, const char *name,
			      bool *ok)
{
	const struct smm_counter *c = smm_counters_get(cs, name);

	if (!c || c->skip[0]) {
		*ok = false;
		return 0;
	}
	return c->value;
}

struct results {
	struct smm_vmstat_snap vm0, vm1;
	struct smm_zoneinfo z0, z1;
	struct smm_counters cs;
	bool counters_on;
	char counters_skip[256];
	struct vm_sampler vs;
	uint64_t bogo_ops[NR_STRESSORS];
	uint64_t stats_calls[NR_STRESSORS], stats_allocs[NR_STRESSORS];
	uint64_t stats_pages[NR_STRESSORS], stats_churn[NR_STRESSORS];
	int stats_files[NR_STRESSORS];
	double seconds;
};

/* Sum the workers' stats files (stats.h) per stressor, then remove them. */
static void read_stats(const char *dir, struct results *res)
{
	struct dirent *d;
	DIR *dp = opendir(dir);

	if (!dp)
		return;
	while ((d = readdir(dp))) {
		struct smm_stats_file st;
		char path[PATH_MAX];
		int fd, s;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (read(fd, &st, sizeof(st)) == (ssize_t)sizeof(st) &&
		    memcmp(st.magic, SMM_STATS_MAGIC, 8) == 0) {
			st.stressor[sizeof(st.stressor) - 1] = '\0';
			for (s = 0; s < NR_STRESSORS; s++) {
				if (strcmp(st.stressor, stressors[s].name) != 0)
					continue;
				res->stats_calls[s] += st.calls;
				res->stats_allocs[s] += st.allocs;
				res->stats_pages[s] += st.pages;
				res->stats_churn[s] += st.churn_allocs;
				res->stats_files[s]++;
			}
		}
		close(fd);
		unlink(path);
	}
	closedir(dp);
}

static void print_counters(const struct results *res, uint64_t total_ops)
{
	bool ok = true;
	uint64_t pa0, zl0, ef0, pgalloc;

	if (!res->counters_on) {
		fprintf(stderr, "stress-mm: kcntr: skipped: %s\n",
			res->counters_skip);
		return;
	}
	fprintf(stderr, "stress-mm: kcntr: %-32s %14s %14s\n", "counter",
		"count", "per bogo-op");
	for (size_t i = 0; i < res->cs.n; i++) {
		const struct smm_counter *c = &res->cs.c[i];

		if (c->skip[0])
			fprintf(stderr, "stress-mm: kcntr: %-32s %14s   (%s)\n",
				c->spec->name, "skipped", c->skip);
		else
			fprintf(stderr,
				"stress-mm: kcntr: %-32s %14llu %14.2f\n",
				c->spec->name, (unsigned long long)c->value,
				per(c->value, total_ops, 1));
	}
	pa0 = counter_value(&res->cs, "page_alloc_order0", &ok);
	zl0 = counter_value(&res->cs, "zone_locked_order0", &ok);
	ef0 = counter_value(&res->cs, "extfrag_order0", &ok);
	pgalloc = (uint64_t)smm_vmstat_delta(&res->vm0, &res->vm1, "pgalloc_");
	if (ok) {
		fprintf(stderr, "stress-mm: kcntr: %-32s %14.2f   (%%)\n",
			"linux-mm zone-locked ratio", per(ef0 + zl0, pa0, 100));
		fprintf(stderr, "stress-mm: kcntr: %-32s %14.2f\n",
			"zone-locked/1000 pages alloc",
			per(zl0, pgalloc, 1000));
	}
}

/* What one run leaves: its children, results and figures. */
#define MAX_RUN_METRICS 24

struct one_run {
	struct child ch[NR_STRESSORS];
	struct results res;
	int status;
	bool interrupted;
	int nmetrics;
	char mname[MAX_RUN_METRICS][80];
	double mval[MAX_RUN_METRICS];
};

/* stress-ng's other top-level sections (times, ...), once each. */
static void copy_other_sections(yaml_document_t *out, int root,
				yaml_document_t *in, int src_root)
{
	yaml_node_t *top = yaml_document_get_node(in, src_root);

	if (!top || top->type != YAML_MAPPING_NODE)
		return;
	for (yaml_node_pair_t *p = top->data.mapping.pairs.start;
	     p < top->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(in, p->key);
		const char *key;

		if (!k || k->type != YAML_SCALAR_NODE)
			continue;
		key = (const char *)k->data.scalar.value;
		if (!strcmp(key, "system-info") || !strcmp(key, "metrics") ||
		    smm_yaml_get(out, root, key))
			continue;
		yaml_document_append_mapping_pair(
			out, root, smm_yaml_copy(out, in, p->key, NULL, NULL),
			smm_yaml_copy(out, in, p->value, NULL, NULL));
	}
}

/* stress-mm.runs (every run's figures) and stress-mm.summary (per figure:
 * median, min, max, relative half-range), what stress-mm compare reads. */
static void write_runs(yaml_document_t *out, int sm, const struct one_run *runs,
		       unsigned int nruns, unsigned int requested)
{
	int seq = smm_yaml_seq(out, sm, "runs"), sum;

	smm_yaml_u64(out, sm, "repeat", nruns);
	smm_yaml_u64(out, sm, "repeat-requested", requested);
	for (unsigned int i = 0; i < nruns; i++) {
		int m = yaml_document_add_mapping(out, NULL,
						  YAML_BLOCK_MAPPING_STYLE);
		int mm;

		yaml_document_append_sequence_item(out, seq, m);
		smm_yaml_u64(out, m, "exit-status", (uint64_t)runs[i].status);
		smm_yaml_str(out, m, "interrupted",
			     runs[i].interrupted ? "true" : "false");
		smm_yaml_dbl(out, m, "seconds", runs[i].res.seconds);
		mm = smm_yaml_map(out, m, "metrics");
		for (int k = 0; k < runs[i].nmetrics; k++)
			smm_yaml_dbl(out, mm, runs[i].mname[k],
				     runs[i].mval[k]);
	}
	sum = smm_yaml_map(out, sm, "summary");
	for (int k = 0; k < runs[0].nmetrics; k++) {
		double v[256];
		size_t n = 0;
		struct smm_stats st;
		int m;

		for (unsigned int i = 0; i < nruns && n < 256; i++)
			for (int j = 0; j < runs[i].nmetrics; j++)
				if (strcmp(runs[i].mname[j],
					   runs[0].mname[k]) == 0)
					v[n++] = runs[i].mval[j];
		smm_stats_of(v, n, &st);
		m = smm_yaml_map(out, sum, runs[0].mname[k]);
		smm_yaml_u64(out, m, "runs", st.n);
		smm_yaml_dbl(out, m, "median", st.median);
		smm_yaml_dbl(out, m, "min", st.min);
		smm_yaml_dbl(out, m, "max", st.max);
		smm_yaml_dbl(out, m, "half-range-pct", st.half_range_pct);
	}
}

static int write_report(const struct run *r, const struct one_run *runs,
			unsigned int nruns, int status, int interrupted,
			const char *sng)
{
	const struct child *ch = runs[nruns - 1].ch;
	const struct results *res = &runs[nruns - 1].res;
	yaml_document_t out, in;
	int root, sm, node, metrics = 0, have_sysinfo = 0;
	char buf[256];
	struct utsname u;

	if (!yaml_document_initialize(&out, NULL, NULL, NULL, 0, 0))
		return -ENOMEM;
	root = yaml_document_add_mapping(&out, NULL, YAML_BLOCK_MAPPING_STYLE);
	for (int s = 0; s < NR_STRESSORS; s++) {
		int src_root, si, mt;

		if (r->workers[s] < 0 || smm_yaml_load(ch[s].yaml, &in) != 0)
			continue;
		src_root = 1;
		si = smm_yaml_get(&in, src_root, "system-info");
		if (si && !have_sysinfo) {
			int k = yaml_document_add_scalar(
				&out, NULL, (yaml_char_t *)"system-info", -1,
				YAML_PLAIN_SCALAR_STYLE);

			yaml_document_append_mapping_pair(
				&out, root, k,
				smm_yaml_copy(&out, &in, si, NULL, NULL));
			have_sysinfo = 1;
		}
		copy_other_sections(&out, root, &in, src_root);
		mt = smm_yaml_get(&in, src_root, "metrics");
		if (mt) {
			yaml_node_t *seq = yaml_document_get_node(&in, mt);

			if (!metrics)
				metrics = smm_yaml_seq(&out, root, "metrics");
			for (yaml_node_item_t *it =
				     seq->data.sequence.items.start;
			     seq->type == YAML_SEQUENCE_NODE &&
			     it < seq->data.sequence.items.top;
			     it++)
				yaml_document_append_sequence_item(
					&out, metrics,
					smm_yaml_copy(&out, &in, *it, "plugin",
						      stressors[s].name));
		}
		yaml_document_delete(&in);
	}
	sm = smm_yaml_map(&out, root, "stress-mm");
	smm_yaml_str(&out, sm, "version", SMM_VERSION);
	uname(&u);
	smm_yaml_str(&out, sm, "kernel-release", u.release);
	smm_yaml_str(&out, sm, "stress-ng", sng);
	smm_yaml_u64(&out, sm, "exit-status", (uint64_t)status);
	smm_yaml_str(&out, sm, "interrupted", interrupted ? "true" : "false");
	smm_yaml_dbl(&out, sm, "seconds", res->seconds);
	node = smm_yaml_map(&out, sm, "stressors");
	for (int s = 0; s < NR_STRESSORS; s++) {
		int m, pm;

		if (r->workers[s] < 0)
			continue;
		m = smm_yaml_map(&out, node, stressors[s].name);
		smm_yaml_i64(&out, m, "workers", r->workers[s]);
		smm_yaml_u64(&out, m, "ops-limit", r->ops[s]);
		pm = smm_yaml_map(&out, m, "parameters");
		for (int p = 0; p < stressors[s].nparams; p++)
			smm_yaml_str(&out, pm, stressors[s].params[p].option,
				     r->text[s][p]
					     ? r->text[s][p]
					     : stressors[s].params[p].def);
		smm_yaml_u64(&out, m, "bogo-ops", res->bogo_ops[s]);
		smm_yaml_u64(&out, m, "stats-files",
			     (uint64_t)res->stats_files[s]);
		smm_yaml_u64(&out, m, "calls", res->stats_calls[s]);
		smm_yaml_u64(&out, m, "allocations", res->stats_allocs[s]);
		smm_yaml_u64(&out, m, "pages-faulted", res->stats_pages[s]);
		smm_yaml_u64(&out, m, "churn-allocations", res->stats_churn[s]);
		smm_yaml_str(&out, m, "skipped",
			     ch[s].skipped ? ch[s].skip_reason : "");
		smm_yaml_str(&out, m, "failed",
			     ch[s].failed || ch[s].crashed ? ch[s].fail_line
							   : "");
	}
	node = smm_yaml_map(&out, sm, "counters");
	if (!res->counters_on) {
		smm_yaml_str(&out, node, "skipped", res->counters_skip);
	} else {
		bool ok = true;
		uint64_t total = 0, pa0, zl0, ef0, pgalloc;
		int d;

		for (size_t i = 0; i < res->cs.n; i++) {
			const struct smm_counter *c = &res->cs.c[i];

			if (c->skip[0]) {
				snprintf(buf, sizeof(buf), "skipped: %s",
					 c->skip);
				smm_yaml_str(&out, node, c->spec->name, buf);
			} else {
				smm_yaml_u64(&out, node, c->spec->name,
					     c->value);
			}
		}
		for (int s = 0; s < NR_STRESSORS; s++)
			total += res->bogo_ops[s];
		pa0 = counter_value(&res->cs, "page_alloc_order0", &ok);
		zl0 = counter_value(&res->cs, "zone_locked_order0", &ok);
		ef0 = counter_value(&res->cs, "extfrag_order0", &ok);
		pgalloc = (uint64_t)smm_vmstat_delta(&res->vm0, &res->vm1,
						     "pgalloc_");
		d = smm_yaml_map(&out, sm, "derived");
		if (ok) {
			smm_yaml_dbl(&out, d, "linux-mm-zone-locked-ratio-pct",
				     per(ef0 + zl0, pa0, 100));
			smm_yaml_dbl(&out, d,
				     "zone-locked-order0-per-1000-pages",
				     per(zl0, pgalloc, 1000));
			smm_yaml_dbl(&out, d, "zone-locked-order0-per-bogo-op",
				     per(zl0, total, 1));
		} else {
			smm_yaml_str(&out, d, "skipped",
				     "a counter they need was skipped");
		}
	}
	node = smm_yaml_map(&out, sm, "vmstat-delta");
	{
		static const char *const keys[] = {
			"pgalloc_",	  "pgalloc_dma",     "pgalloc_dma32",
			"pgalloc_normal", "pgalloc_movable", "pgfree",
			"pgfault",	  "nr_kernel_stack"
		};

		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			smm_yaml_i64(&out, node,
				     strcmp(keys[k], "pgalloc_")
					     ? keys[k]
					     : "pgalloc_total",
				     smm_vmstat_delta(&res->vm0, &res->vm1,
						      keys[k]));
	}
	node = smm_yaml_seq(&out, sm, "pcp");
	for (int z = 0; z < res->z1.n; z++) {
		int m = yaml_document_add_mapping(&out, NULL,
						  YAML_BLOCK_MAPPING_STYLE);

		yaml_document_append_sequence_item(&out, node, m);
		smm_yaml_str(&out, m, "zone", res->z1.z[z].zone);
		if (z < res->z0.n) {
			smm_yaml_u64(&out, m, "count-start",
				     res->z0.z[z].count);
			smm_yaml_u64(&out, m, "high-start", res->z0.z[z].high);
		}
		smm_yaml_u64(&out, m, "count-end", res->z1.z[z].count);
		smm_yaml_u64(&out, m, "high-end", res->z1.z[z].high);
		smm_yaml_u64(&out, m, "batch", res->z1.z[z].batch);
	}
	node = smm_yaml_map(&out, sm, "vmallocinfo");
	if (r->vm_interval == 0) {
		smm_yaml_str(&out, node, "skipped", "--vmallocinfo-interval 0");
	} else if (res->vs.err) {
		snprintf(buf, sizeof(buf), "skipped: /proc/vmallocinfo: %s",
			 strerror(-res->vs.err));
		smm_yaml_str(&out, node, "skipped", buf);
	} else {
		int callers;

		smm_yaml_u64(&out, node, "samples", (uint64_t)res->vs.samples);
		callers = smm_yaml_map(&out, node, "callers-grown");
		for (int i = 0; i < res->vs.n; i++) {
			const struct caller_tally *t = &res->vs.t[i];
			int m;

			if (t->max_areas <= t->base_areas)
				continue;
			m = smm_yaml_map(&out, callers, t->caller);
			smm_yaml_u64(&out, m, "areas-start", t->base_areas);
			smm_yaml_u64(&out, m, "areas-max", t->max_areas);
			smm_yaml_u64(&out, m, "pages-start", t->base_pages);
			smm_yaml_u64(&out, m, "pages-max", t->max_pages);
		}
	}
	write_runs(&out, sm, runs, nruns, r->repeat);
	return smm_yaml_write(&out, r->yaml);
}

/* Sum of @key over the metrics entries of a stress-ng --yaml file. */
static double yaml_metric_sum(const char *path, const char *key)
{
	yaml_document_t d;
	double total = 0;
	int mt;

	if (smm_yaml_load(path, &d) != 0)
		return 0;
	mt = smm_yaml_get(&d, 1, "metrics");
	if (mt) {
		yaml_node_t *seq = yaml_document_get_node(&d, mt);

		for (yaml_node_item_t *it = seq->data.sequence.items.start;
		     seq->type == YAML_SEQUENCE_NODE &&
		     it < seq->data.sequence.items.top;
		     it++) {
			int v = smm_yaml_get(&d, *it, key);
			yaml_node_t *n = yaml_document_get_node(&d, v);

			if (n && n->type == YAML_SCALAR_NODE)
				total += strtod((char *)n->data.scalar.value,
						NULL);
		}
	}
	yaml_document_delete(&d);
	return total;
}

static uint64_t yaml_bogo_ops(const char *path)
{
	return (uint64_t)yaml_metric_sum(path, "bogo-ops");
}

/* Worst wins: failure, then no resource, then not implemented. */
static int worse_status(int a, int b)
{
	static const int rank[] = { [EX_OK] = 0,
				    [EX_USAGE] = 4,
				    [EX_FAIL] = 3,
				    [EX_NORES] = 2,
				    [EX_NOTIMPL] = 1 };

	return rank[b] > rank[a] ? b : a;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void add_metric(struct one_run *o, const char *stressor,
		       const char *name, double v)
{
	if (o->nmetrics == MAX_RUN_METRICS)
		return;
	snprintf(o->mname[o->nmetrics], sizeof(o->mname[0]), "%s%s%s",
		 stressor ? stressor : "", stressor ? "." : "", name);
	o->mval[o->nmetrics++] = v;
}

/* The figures stress-mm compare reads (compare.h smm_metric_defs). */
static void run_metrics(const struct run *r, struct one_run *o)
{
	const struct results *res = &o->res;
	bool ok = true;
	uint64_t pa0, zl0, ef0, pgalloc;

	for (int s = 0; s < NR_STRESSORS; s++) {
		double wall;

		if (r->workers[s] < 0 || o->ch[s].skipped)
			continue;
		add_metric(o, stressors[s].name,
			   "bogo-ops-per-second-real-time",
			   yaml_metric_sum(o->ch[s].yaml,
					   "bogo-ops-per-second-real-time"));
		add_metric(o, stressors[s].name,
			   "bogo-ops-per-second-usr-sys-time",
			   yaml_metric_sum(o->ch[s].yaml,
					   "bogo-ops-per-second-usr-sys-time"));
		/* Rates over stress-ng's own wall-clock time, as its
		 * bogo-ops/s; always written, zero included, so that a
		 * candidate that stops faulting cannot pass a gate. */
		wall = yaml_metric_sum(o->ch[s].yaml, "wall-clock-time");
		if (wall <= 0)
			wall = res->seconds;
		if (s == 1)
			add_metric(o, stressors[s].name,
				   "pages-faulted-per-second",
				   (double)res->stats_pages[s] / wall);
		else
			add_metric(o, stressors[s].name,
				   "allocations-per-second",
				   (double)res->stats_allocs[s] / wall);
	}
	if (!res->counters_on)
		return;
	pa0 = counter_value(&res->cs, "page_alloc_order0", &ok);
	zl0 = counter_value(&res->cs, "zone_locked_order0", &ok);
	ef0 = counter_value(&res->cs, "extfrag_order0", &ok);
	pgalloc = (uint64_t)smm_vmstat_delta(&res->vm0, &res->vm1, "pgalloc_");
	if (!ok)
		return;
	add_metric(o, NULL, "zone-locked-order0-per-1000-pages",
		   per(zl0, pgalloc, 1000));
	add_metric(o, NULL, "linux-mm-zone-locked-ratio-pct",
		   per(ef0 + zl0, pa0, 100));
}

static void run_once(const struct run *r, const char *sng, const char *so,
		     const char *tmp, const char *stats, struct one_run *o)
{
	struct child *ch = o->ch;
	struct results *res = &o->res;
	double t0, next_sample;
	int running = 0;

	if (strcmp(r->counters, "none") == 0) {
		snprintf(res->counters_skip, sizeof(res->counters_skip),
			 "--counters none");
	} else {
		char err[128];
		int rc = smm_counters_open(&res->cs, r->counters, err,
					   sizeof(err));

		if (rc)
			snprintf(res->counters_skip, sizeof(res->counters_skip),
				 "cannot open counters: %s", strerror(-rc));
		else
			res->counters_on = true;
	}
	smm_vmstat_snap(&res->vm0);
	smm_zoneinfo_read(&res->z0);
	if (r->vm_interval > 0)
		vm_sample(&res->vs, true);
	if (res->counters_on)
		smm_counters_enable(&res->cs);

	t0 = now_s();
	next_sample = t0 + r->vm_interval;
	for (int s = 0; s < NR_STRESSORS; s++) {
		ch[s].out = -1;
		if (r->workers[s] < 0)
			continue;
		start_child(&ch[s], r, s, sng, so, tmp);
		running++;
	}
	while (running) {
		struct pollfd pfd[NR_STRESSORS];
		int np = 0, idx[NR_STRESSORS];

		for (int s = 0; s < NR_STRESSORS; s++)
			if (ch[s].out >= 0) {
				pfd[np].fd = ch[s].out;
				pfd[np].events = POLLIN;
				idx[np++] = s;
			}
		if (stop_signal)
			for (int s = 0; s < NR_STRESSORS; s++)
				if (ch[s].pid > 0 && !ch[s].done)
					kill(ch[s].pid, SIGINT);
		if (np && poll(pfd, (nfds_t)np, 200) > 0) {
			for (int i = 0; i < np; i++)
				if (pfd[i].revents)
					child_read(&ch[idx[i]], r,
						   stressors[idx[i]].name);
		} else if (!np) {
			usleep(100000);
		}
		for (int s = 0; s < NR_STRESSORS; s++) {
			if (ch[s].pid <= 0 || ch[s].done || ch[s].out >= 0)
				continue;
			if (waitpid(ch[s].pid, &ch[s].status, WNOHANG) ==
			    ch[s].pid) {
				ch[s].done = true;
				running--;
			}
		}
		if (r->vm_interval > 0 && now_s() >= next_sample) {
			vm_sample(&res->vs, false);
			next_sample += r->vm_interval;
		}
	}
	res->seconds = now_s() - t0;
	if (res->counters_on) {
		smm_counters_disable(&res->cs);
		smm_counters_read(&res->cs);
	}
	smm_vmstat_snap(&res->vm1);
	smm_zoneinfo_read(&res->z1);
	read_stats(stats, res);
	smm_shm_sweep(NULL, NULL, NULL);

	o->status = EX_OK;
	for (int s = 0; s < NR_STRESSORS; s++) {
		int st = EX_OK;

		if (r->workers[s] < 0)
			continue;
		res->bogo_ops[s] = yaml_bogo_ops(ch[s].yaml);
		if (!WIFEXITED(ch[s].status) ||
		    WEXITSTATUS(ch[s].status) != 0) {
			int code = WIFEXITED(ch[s].status)
					   ? WEXITSTATUS(ch[s].status)
					   : 128 + WTERMSIG(ch[s].status);

			/* stress-ng's own table: 1 usage (a bad option after
			 * --), 2 failure, 3 no resource, 4 not implemented */
			st = code >= 1 && code <= 4 ? code : EX_FAIL;
			if (!ch[s].failed && !ch[s].crashed)
				snprintf(
					ch[s].fail_line,
					sizeof(ch[s].fail_line),
					"stress-ng exited with status %d (see its messages above)",
					code);
			ch[s].failed = true;
		} else if (ch[s].failed || ch[s].crashed) {
			st = EX_FAIL;
		}
		if (ch[s].skipped && st == EX_OK)
			st = ch[s].skip_noresource ? EX_NORES : EX_NOTIMPL;
		if (!ch[s].skipped && !ch[s].failed && !ch[s].crashed &&
		    res->bogo_ops[s] == 0 && !stop_signal) {
			st = EX_FAIL;
			snprintf(ch[s].fail_line, sizeof(ch[s].fail_line),
				 "0 bogo-ops without a SKIP");
		}
		if (st == EX_FAIL || st == EX_USAGE)
			fprintf(stderr, "stress-mm: %s failed: %s\n",
				stressors[s].name,
				ch[s].fail_line[0]
					? ch[s].fail_line
					: "stress-ng exited non-zero");
		else if (st != EX_OK)
			fprintf(stderr, "stress-mm: %s skipped: %s\n",
				stressors[s].name, ch[s].skip_reason);
		o->status = worse_status(o->status, st);
	}
	{
		uint64_t total = 0;

		for (int s = 0; s < NR_STRESSORS; s++)
			total += res->bogo_ops[s];
		print_counters(res, total);
	}
	run_metrics(r, o);
	o->interrupted = stop_signal != 0;
	if (res->counters_on || res->cs.mounted_tracefs)
		smm_counters_close(&res->cs);
}

int main(int argc, char **argv)
{
	char so[PATH_MAX], tmp[] = "/tmp/stress-mm.XXXXXX", stats[PATH_MAX];
	struct one_run *runs;
	struct sigaction sa;
	const char *sng;
	struct run r;
	unsigned int swept_p = 0, swept_s = 0, done = 0;
	int status = EX_OK;
	double start;

	if (argc > 1 && strcmp(argv[1], "compare") == 0)
		return smm_compare_main(argc - 1, argv + 1);
	parse_args(argc, argv, &r);
	sng = find_stress_ng(r.stress_ng);
	plugin_path(so, sizeof(so));
	if (access(so, R_OK) != 0)
		usage_error("plugin %s not readable: %s (run make)", so,
			    strerror(errno));
	runs = calloc(r.repeat, sizeof(*runs));
	if (!runs) {
		perror("stress-mm");
		return EX_FAIL;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	smm_shm_sweep(NULL, &swept_p, &swept_s);
	if (swept_p || swept_s)
		fprintf(stderr,
			"stress-mm: info: removed %u POSIX and %u SysV leftovers of dead shm-pcp workers\n",
			swept_p, swept_s);
	if (!mkdtemp(tmp)) {
		perror("stress-mm: mkdtemp");
		free(runs);
		return EX_FAIL;
	}
	snprintf(stats, sizeof(stats), "%s/stats", tmp);
	mkdir(stats, 0755);
	setenv(SMM_STATS_ENV, stats, 1);
	raise_limits(&r);

	start = now_s();
	for (unsigned int i = 0; i < r.repeat && !stop_signal; i++) {
		if (r.repeat > 1) {
			double el = now_s() - start;

			fprintf(stderr,
				"stress-mm: run %u of %u, elapsed %.0f s, remaining about %.0f s\n",
				i + 1, r.repeat, el,
				i ? el / i * (r.repeat - i)
				  : (double)r.timeout_s * r.repeat);
		}
		run_once(&r, sng, so, tmp, stats, &runs[i]);
		status = worse_status(status, runs[i].status);
		done++;
	}
	if (stop_signal) {
		fprintf(stderr, "stress-mm: interrupted by signal %d\n",
			(int)stop_signal);
		status = 128 + stop_signal;
	}
	if (r.yaml && done &&
	    write_report(&r, runs, done, status, stop_signal != 0, sng) != 0) {
		fprintf(stderr, "stress-mm: cannot write %s: %s\n", r.yaml,
			strerror(errno));
		if (status == EX_OK)
			status = EX_FAIL;
	}
	for (int s = 0; s < NR_STRESSORS; s++)
		if (r.workers[s] >= 0)
			unlink(runs[done ? done - 1 : 0].ch[s].yaml);
	read_stats(stats, &runs[done ? done - 1 : 0].res); /* late files */
	if (rmdir(stats) != 0 || rmdir(tmp) != 0)
		fprintf(stderr, "stress-mm: could not remove %s: %s\n", tmp,
			strerror(errno));
	for (unsigned int i = 0; i < done; i++)
		smm_counters_free(&runs[i].res.cs);
	free(runs);
	return status;
}
