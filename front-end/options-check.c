// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * options-check.c - what the command line asks for, checked as a whole once
 * every option is read.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "counters.h"
#include "errors.h"
#include "options-check.h"
#include "options.h"
#include "params-table.h"
#include "sng-pick.h"
#include "test-vmalloc-log.h"

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

/* The report must be writable before anything runs: try it, without
 * blocking (a FIFO with no reader would hold the run), on a regular file
 * only (a FIFO, a device or a socket is not a report), with room on its
 * filesystem (statvfs(3): no free block refuses it). */
static int check_yaml_path(const char *path, char *err, size_t len)
{
	struct stat st;
	struct statvfs vfs;
	bool existed = stat(path, &st) == 0, full;
	int fd;

	if (!path[0])
		return smm_errmsg(err, len,
				  "--yaml='' is empty; valid: a file path");
	if (existed && S_ISDIR(st.st_mode))
		return smm_errmsg(
			err, len,
			"--yaml='%s' is a directory; valid: a writable file path",
			path);
	if (existed && !S_ISREG(st.st_mode))
		return smm_errmsg(
			err, len,
			"--yaml='%s' is not a regular file (%s); valid: a writable regular file path",
			path,
			S_ISFIFO(st.st_mode) ? "a FIFO" : "a device or socket");
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NONBLOCK | O_CLOEXEC,
		  0644);
	if (fd < 0)
		return smm_errmsg(err, len, "--yaml='%s' cannot be written: %s",
				  path, strerror(errno));
	/* root may use the reserved blocks */
	full = fstatvfs(fd, &vfs) == 0 &&
	       (geteuid() ? vfs.f_bavail : vfs.f_bfree) == 0;
	close(fd);
	if (!existed)
		unlink(path);
	if (full)
		return smm_errmsg(
			err, len,
			"--yaml='%s': its filesystem is full; valid: a file where the report fits",
			path);
	return 0;
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

			if (c->given[p] && c->workers < 0)
				return smm_errmsg(
					err, len,
					"--%s given, but --%s was not requested",
					st->params[p].option, st->name);
			if (c->given[p] || !env)
				continue;
			if (smm_param_set(st, c, p, env, NULL, err, len))
				return -EINVAL;
		}
	}
	return 0;
}

bool smm_opts_method(const struct smm_run_cfg *cfg, int s, const char *method)
{
	int lo = s < 0 ? 0 : s, hi = s < 0 ? SMM_NR_STRESSORS : s + 1;

	for (int i = lo; i < hi && i < SMM_NR_STRESSORS; i++) {
		const char *m = smm_param_word(&smm_stressors[i], &cfg->st[i],
					       "vmalloc-order-method");

		if (cfg->st[i].workers >= 0 && m && !strcmp(m, method))
			return true;
	}
	return false;
}

/* The option of a requested stressor whose word module runs the plugin's
 * path (plugin/vmalloc-module.h), or NULL. */
static const char *module_option(const struct smm_run_cfg *cfg)
{
	static const char *const uses[] = { "vmalloc-order-method",
					    "shm-pcp-mode" };

	for (int s = 0; s < SMM_NR_STRESSORS; s++)
		for (size_t u = 0; u < sizeof(uses) / sizeof(uses[0]); u++) {
			const char *m = smm_param_word(&smm_stressors[s],
						       &cfg->st[s], uses[u]);

			if (cfg->st[s].workers >= 0 && m &&
			    !strcmp(m, "module"))
				return uses[u];
		}
	return NULL;
}

bool smm_opts_module(const struct smm_run_cfg *cfg)
{
	return module_option(cfg) != NULL;
}

/* Whether a stressor runs the test-vmalloc runner: the one that takes
 * the method test-vmalloc (run/runner-test-vmalloc.c). */
static bool runs_test_vmalloc(const struct smm_run_cfg *cfg)
{
	return smm_opts_method(cfg, -1, "test-vmalloc");
}

/* --vmalloc-order-tests: only with the test-vmalloc runner; names from
 * test_vmalloc's table (default fix_size_alloc_test). */
static int check_tv_tests(struct smm_run_cfg *cfg, char *err, size_t len)
{
	char names[600];

	if (cfg->tv_tests && !runs_test_vmalloc(cfg))
		return smm_errmsg(err, len,
				  "--vmalloc-order-tests given, but not --%s "
				  "test-vmalloc",
				  smm_vmo_params[SMM_VMO_P_METHOD].option);
	if (!cfg->tv_tests)
		cfg->tv_tests = "fix_size_alloc_test";
	if (smm_tv_mask(cfg->tv_tests))
		return 0;
	smm_tv_test_names(names, sizeof(names));
	return smm_errmsg(
		err, len,
		"--vmalloc-order-tests '%s': not a comma-separated list of test_vmalloc tests (lib/test_vmalloc.c: %s)",
		cfg->tv_tests, names);
}

/*
 * stress-ng options after -- that stress-mm sets itself: given twice, the
 * report would read another run's YAML or another duration. The arguments
 * are scanned the way stress-ng reads them, by getopt_long(3) itself:
 * unique long prefixes (--timeo, --yam, --plugin-meth), "--name=value",
 * bundled short options (-vt4, -YF). Only the names stress-mm owns are in
 * the table; stress-ng's other options are unknown here and skipped, so
 * every letter of a bundle is taken for a flag: a 't' or 'Y' inside the
 * value of another short option (-ct) is refused too, where stress-ng
 * would refuse the value. A prefix ambiguous among these names is
 * ambiguous in stress-ng's larger table as well: stress-ng refuses it
 * (exit 1), so it is left to stress-ng, like every unknown option.
 */
static const struct option sng_own[] = {
	{ "timeout", required_argument, NULL, 1 },
	{ "yaml", required_argument, NULL, 2 },
	{ "plugin", required_argument, NULL, 3 },
	{ "plugin-so", required_argument, NULL, 4 },
	{ "plugin-method", required_argument, NULL, 5 },
	{ "plugin-ops", required_argument, NULL, 6 },
	{ "temp-path", required_argument, NULL, 7 }, /* allowed: noted */
	{ NULL, 0, NULL, 0 },
};

/* The stress-ng option a scan's return value @c stands for. */
static const char *sng_own_name(int c)
{
	if (c == 't')
		return "-t (--timeout)";
	if (c == 'Y')
		return "-Y (--yaml)";
	return sng_own[c - 1].name;
}

/*
 * stress-ng refuses a temp-path (its working directory, unless
 * --temp-path is given) it cannot read and write, after stress-mm has
 * started: checked first. A --temp-path is stress-ng's to check.
 */
static int check_temp_path(bool given, char *err, size_t len)
{
	char cwd[PATH_MAX];

	if (given || access(".", R_OK | W_OK) == 0)
		return 0;
	if (!getcwd(cwd, sizeof(cwd)))
		snprintf(cwd, sizeof(cwd), ".");
	return smm_errmsg(
		err, len,
		"the working directory %s is not readable and writable (%s): stress-ng keeps its temporary files there; cd to one that is, or give -- --temp-path DIR",
		cwd, strerror(errno));
}

static int check_pass(struct smm_run_cfg *cfg, char *err, size_t len)
{
	char *argv[SMM_MAX_PASS + 2];
	int c, rc = 0, saved_opterr = opterr;
	bool temp_path = false;

	if (!cfg->npass)
		return check_temp_path(false, err, len);
	argv[0] = "stress-ng";
	memcpy(argv + 1, cfg->pass, cfg->npass * sizeof(argv[0]));
	argv[cfg->npass + 1] = NULL;
	opterr = 0;
	optind = 0; /* glibc: start a new scan */
	for (;;) {
		const char *arg;
		int at;

		c = getopt_long(cfg->npass + 1, argv, ":t:Y:", sng_own, NULL);
		if (c == -1)
			break;
		if (c == '?')
			continue; /* stress-ng's other options, ambiguous prefixes */
		if (c == ':')
			c = optopt; /* ours, its value missing */
		if (c == 7) {
			temp_path = true;
			continue;
		}
		/* the argument that carried it: a separate value was taken */
		at = optarg && optind >= 2 && optarg == argv[optind - 1]
			     ? optind - 2
			     : optind - 1;
		arg = argv[at > 0 ? at : 1];
		rc = smm_errmsg(
			err, len,
			"'%s' after --: stress-ng reads it as %s%s, which stress-mm sets itself; give stress-mm's own option before -- (-t, --yaml, --vmalloc-order/--shm-pcp)",
			arg, c == 't' || c == 'Y' ? "" : "--", sng_own_name(c));
		break;
	}
	opterr = saved_opterr;
	optind = 0;
	return rc ? rc : check_temp_path(temp_path, err, len);
}

static int check_counters_opt(struct smm_run_cfg *cfg, char *err, size_t len)
{
	return check_counters(cfg->counters, err, len);
}

static int check_counters_engine(struct smm_run_cfg *cfg, char *err, size_t len)
{
	if (smm_engine_of(cfg->counters_engine) >= 0)
		return 0;
	return smm_errmsg(
		err, len,
		"--counters-engine='%s' is not an engine; valid: auto, bpf, perf",
		cfg->counters_engine);
}

static int check_yaml(struct smm_run_cfg *cfg, char *err, size_t len)
{
	return cfg->yaml ? check_yaml_path(cfg->yaml, err, len) : 0;
}

static int check_stress_ng(struct smm_run_cfg *cfg, char *err, size_t len)
{
	if (cfg->stress_ng && !cfg->stress_ng[0])
		return smm_errmsg(
			err, len,
			"--stress-ng='' is empty; valid: an executable file");
	return 0;
}

static int check_integration(struct smm_run_cfg *cfg, char *err, size_t len)
{
	const char *opt;
	int i;

	for (i = 0; smm_integrations[i]; i++)
		if (!strcmp(cfg->integration, smm_integrations[i]))
			break;
	if (!smm_integrations[i])
		return smm_errmsg(
			err, len,
			"--integration='%s' is not an integration; valid: auto, plugin, native",
			cfg->integration);
	opt = module_option(cfg);
	if (opt && !strcmp(cfg->integration, "native"))
		return smm_errmsg(
			err, len,
			"--%s=module with --integration=native: the module path is the plugin's, no stress-ng has it built in; valid: --integration=plugin or auto",
			opt);
	return 0;
}

static int check_any(struct smm_run_cfg *cfg, char *err, size_t len)
{
	for (int s = 0; s < SMM_NR_STRESSORS; s++)
		if (cfg->st[s].workers >= 0)
			return 0;
	if (cfg->npass)
		return 0;
	return smm_errmsg(
		err, len,
		"no stressor requested: use --vmalloc-order N and/or --shm-pcp N, or stress-ng's own after -- (see --help)");
}

int smm_opts_check(struct smm_run_cfg *cfg, char *err, size_t len)
{
	static int (*const checks[])(struct smm_run_cfg *, char *, size_t) = {
		check_counters_opt, check_counters_engine, check_pass,
		check_tv_tests,	    check_params,	   check_yaml,
		check_stress_ng,    check_integration,	   check_any,
	};

	for (size_t i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
		int rc = checks[i](cfg, err, len);

		if (rc)
			return rc;
	}
	return 0;
}

int64_t smm_workers(const struct smm_run_cfg *cfg, int s)
{
	int64_t w = cfg->st[s].workers;

	if (w != 0)
		return w;
	return sysconf(_SC_NPROCESSORS_ONLN);
}
