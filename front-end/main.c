// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * main.c - the front end: stress-ng's option style for the stress-mm
 * stressors, kernel counters around the run, one report.
 *
 *   stress-mm --vmalloc-order 4 --shm-pcp 4 -t 60s --metrics --yaml run.yaml
 *   stress-mm compare BASE.yaml CAND.yaml ...   (compare-cmd.h)
 *
 * main() validates every option before starting anything (options.h),
 * sweeps shm-pcp leftovers, raises the limits the paths need (rlimits.h),
 * then runs R times: counters opened and enabled system-wide (counters.h),
 * /proc/vmstat and /proc/zoneinfo snapshots, each requested stressor by
 * its runner, together (supervise.h, runner.h), vmallocinfo sampled while
 * they run (sampler.h); then the workers' records (results.h), what each
 * runner left, the exit status (exit-status.h), the figures (figures.h), the
 * counters on the terminal, and at the end one YAML report (yreport.h).
 * The code of each step lives in the module named; this file is the
 * order of the steps.
 *
 * Exit status: stress-ng's table, the worst stressor's (exit-status.h); 1 for
 * a bad option (one line, nothing started); 128 + N when stopped by
 * signal N (SIGINT, SIGTERM): the children are stopped, nothing is left
 * behind, and the report says "interrupted".
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compare-cmd.h"
#include "deadline.h"
#include "errors.h"
#include "docgen.h"
#include "kmodule.h"
#include "locate.h"
#include "sng-pick.h"
#include "options-check.h"
#include "options.h"
#include "owner.h"
#include "path-module-name.h"
#include "results.h"
#include "disk-space.h"
#include "rlimits.h"
#include "run-figures.h"
#include "shm.h"
#include "stats.h"
#include "supervise.h"
#include "exit-status.h"
#include "yreport.h"

/* Set by the stop signals' handler: the one global. */
static volatile sig_atomic_t stop_signal;

/* What every run of one invocation shares. */
struct session {
	struct smm_run_cfg cfg;
	struct smm_exec_env env;
	struct smm_located plugin;
	struct smm_owner owner; /* the run's directory and watchdog */
	struct smm_kmodule kmod; /* path module: what to undo */
	struct smm_conditions cond;
};

static void on_stop(int sig)
{
	stop_signal = sig;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Before the run: counters, snapshots, the first vmallocinfo sample. */
static void measure_start(struct session *ss, struct smm_run_result *res)
{
	if (strcmp(ss->cfg.counters, "none") == 0) {
		snprintf(res->counters_skip, sizeof(res->counters_skip),
			 "--counters none");
	} else {
		/* options-check.c checked the name */
		enum smm_engine e =
			(enum smm_engine)smm_engine_of(ss->cfg.counters_engine);
		char err[128];
		int rc = smm_counters_open(&res->cs, ss->cfg.counters, e, err,
					   sizeof(err));

		if (rc)
			snprintf(res->counters_skip, sizeof(res->counters_skip),
				 "cannot open counters: %s", strerror(-rc));
		else
			res->counters_on = true;
		if (res->cs.mounted_tracefs)
			smm_owner_note_mount(&ss->owner, res->cs.tracefs);
	}
	res->vm_err = smm_vmstat_snap(&res->vm0);
	smm_zoneinfo_read(&res->z0);
	if (ss->cfg.vm_interval > 0)
		smm_sample(&res->vs, true);
	if (res->counters_on)
		smm_counters_enable(&res->cs);
}

static void measure_end(struct smm_run_result *res)
{
	int rc;

	if (res->counters_on) {
		smm_counters_disable(&res->cs);
		smm_counters_read(&res->cs);
	}
	rc = smm_vmstat_snap(&res->vm1);
	if (rc && !res->vm_err)
		res->vm_err = rc;
	smm_zoneinfo_read(&res->z1);
}

static void sample(void *arg)
{
	smm_sample(arg, false);
}

/* Every requested stressor, or stress-ng's own alone. */
static void mark_asked(const struct smm_run_cfg *cfg,
		       struct smm_run_result *res)
{
	bool ours = false;

	for (int s = 0; s < SMM_NR_STRESSORS; s++) {
		res->st[s].asked = cfg->st[s].workers >= 0;
		ours |= res->st[s].asked;
	}
	res->st[SMM_PASS_CHILD].asked = !ours;
}

/* One run: measured, supervised, collected, judged. Return: 0, or the
 * -errno of a stress-ng that could not start. */
static int run_once(struct session *ss, struct smm_run_result *res)
{
	const struct smm_run_cfg *cfg = &ss->cfg;
	struct smm_supervision sv = {
		.env = &ss->env,
		.dir = ss->owner.dir,
		.owner = &ss->owner,
		.stop = &stop_signal,
		.deadline_s =
			cfg->timeout_s ? smm_deadline_s(cfg->timeout_s) : 0,
		.tick_s = cfg->vm_interval,
		.tick = sample,
		.arg = &res->vs,
	};
	double t0;
	int rc;

	/* the previous run's stacks and areas are freed by now (sampler.h) */
	smm_settle(2000);
	measure_start(ss, res);
	mark_asked(cfg, res);
	t0 = now_s();
	rc = smm_supervise(cfg, res, &sv);
	res->seconds = now_s() - t0;
	/* Nothing of this run outlives it (stress-ng's own processes are
	 * gone by now; companions or parked children that lag are not). */
	smm_owner_kill_groups(&ss->owner);
	smm_owner_forget_groups(&ss->owner);
	measure_end(res);
	smm_read_records(ss->owner.records, res);
	smm_shm_sweep(NULL, NULL, NULL);
	for (int s = 0; s <= SMM_NR_STRESSORS; s++)
		if (res->st[s].asked && res->st[s].runner)
			res->st[s].runner->collect(cfg, res, s);
	if (!stop_signal)
		smm_deadline_early(cfg, res);
	smm_run_status(cfg, res, rc != 0, stop_signal);
	smm_figures_compute(cfg, res);
	smm_print_counters(res);
	if (res->counters_on || res->cs.mounted_tracefs)
		smm_counters_close(&res->cs);
	return rc;
}

/* Exits for --help and friends, and on a usage error (status 1). */
static void parse_or_exit(int argc, char **argv, struct smm_run_cfg *cfg)
{
	char err[600];
	int rc = smm_opts_parse(argc, argv, cfg, err, sizeof(err));

	switch (rc) {
	case SMM_PARSE_RUN:
		return;
	case SMM_PARSE_HELP:
		smm_print_help();
		break;
	case SMM_PARSE_VERSION:
		printf("stress-mm " SMM_VERSION "\n");
		smm_locate_print(stdout);
		break;
	case SMM_PARSE_MAN:
		smm_print_man();
		break;
	case SMM_PARSE_COMPLETION:
		smm_print_completion();
		break;
	default:
		smm_die(SMM_EX_USAGE, "stress-mm", "%s", err);
	}
	exit(SMM_EX_OK);
}

static void progress(const struct smm_run_cfg *cfg, unsigned int i,
		     double start)
{
	double el = now_s() - start;

	if (cfg->repeat < 2)
		return;
	fprintf(stderr,
		"stress-mm: run %u of %llu, elapsed %.0f s, remaining about %.0f s\n",
		i + 1, (unsigned long long)cfg->repeat, el,
		i ? el / i * (double)(cfg->repeat - i)
		  : (double)cfg->timeout_s * (double)cfg->repeat);
}

/* Whatever ends stress-mm ends its run: these stop the children and still
 * write the report; SIGKILL is the watchdog's (owner.h). A closed pipe or
 * terminal (SIGPIPE, SIGHUP) ends it like SIGTERM. */
static void catch_stops(void)
{
	smm_stop_signals_handle(on_stop);
}

/* Options, stress-ng, the plugin, leftovers, the run's directory, the
 * module, the limits; exits on what makes a run impossible. */
static void set_up(int argc, char **argv, struct session *ss)
{
	unsigned int swept_p = 0, swept_s = 0;
	const char *tmp;
	char err[600];
	int rc;

	parse_or_exit(argc, argv, &ss->cfg);
	ss->env.sng = smm_sng_pick(ss->cfg.stress_ng, ss->cfg.integration,
				   &ss->cfg.native, err, sizeof(err));
	if (!ss->env.sng)
		smm_die(SMM_EX_USAGE, "stress-mm", "%s", err);
	if (smm_locate(SMM_LOC_PLUGIN, &ss->plugin, err, sizeof(err)))
		smm_die(SMM_EX_USAGE, "stress-mm", "%s", err);
	ss->env.so = ss->plugin.path;
	tmp = smm_tmpdir(err, sizeof(err));
	if (!tmp)
		smm_die(SMM_EX_USAGE, "stress-mm", "%s", err);
	catch_stops();
	smm_owner_clean_stale(tmp);
	smm_shm_sweep(NULL, &swept_p, &swept_s);
	if (swept_p || swept_s)
		fprintf(stderr,
			"stress-mm: info: removed %u POSIX and %u SysV leftovers of dead shm-pcp workers\n",
			swept_p, swept_s);
	if (smm_space_check(&ss->cfg, tmp, err, sizeof(err)))
		smm_die(SMM_EX_NORES, "stress-mm", "%s", err);
	rc = smm_owner_start(&ss->owner, tmp);
	if (rc)
		smm_die(rc == -ENOSPC || rc == -EDQUOT ? SMM_EX_NORES
						       : SMM_EX_FAIL,
			"stress-mm",
			"cannot set up the run's directory in %s: %s", tmp,
			strerror(-rc));
	setenv(SMM_STATS_ENV, ss->owner.records, 1);
	if (smm_opts_module(&ss->cfg)) {
		rc = smm_kmodule_prepare(&ss->kmod, err, sizeof(err));
		if (rc)
			fprintf(stderr,
				"stress-mm: module: %s; path module and churn module will skip\n",
				err);
		else if (ss->kmod.loaded_by_us)
			smm_owner_note_module(&ss->owner, SMM_KMOD_NAME);
	}
	smm_raise_limits(&ss->cfg);
	smm_conditions_read(&ss->cond, ss->env.sng);
}

/* The report of @done runs, then nothing of the run left. */
static int finish(struct session *ss, struct smm_run_result *runs,
		  unsigned int done, int status)
{
	struct smm_run_result *last = &runs[done ? done - 1 : 0];

	bool cut = stop_signal != 0;

	for (unsigned int i = 0; i < done; i++)
		cut |= runs[i].interrupted;
	if (ss->cfg.yaml && done &&
	    smm_yreport_write(&ss->cfg, &ss->cond, runs, done, status, cut,
			      ss->env.sng) != 0) {
		fprintf(stderr, "stress-mm: cannot write %s: %s\n",
			ss->cfg.yaml, strerror(errno));
		if (status == SMM_EX_OK)
			status = SMM_EX_FAIL;
	}
	for (int s = 0; s <= SMM_NR_STRESSORS; s++)
		if (last->st[s].out_path[0])
			unlink(last->st[s].out_path);
	smm_read_records(ss->owner.records, last); /* late ones: removed */
	if (smm_kmodule_finish(&ss->kmod) == 0)
		smm_owner_forget_module(&ss->owner);
	smm_owner_finish(&ss->owner);
	for (unsigned int i = 0; i < done; i++)
		smm_counters_free(&runs[i].cs);
	free(runs);
	return status;
}

/* Which integration runs each of our stressors asked for, and which
 * stress-ng (the YAML's "integration"), said once before the first run. */
static void say_integrations(const struct session *ss)
{
	for (int s = 0; s < SMM_NR_STRESSORS; s++) {
		const struct smm_runner *r;

		if (ss->cfg.st[s].workers < 0)
			continue;
		r = smm_runner_for(&ss->cfg, s);
		if (r == &smm_runner_plugin)
			fprintf(stderr,
				"stress-mm: info: %s: integration plugin (%s) in %s\n",
				smm_stressors[s].name, ss->env.so, ss->env.sng);
		else if (r == &smm_runner_native)
			fprintf(stderr,
				"stress-mm: info: %s: integration native, built into %s\n",
				smm_stressors[s].name, ss->env.sng);
	}
}

int main(int argc, char **argv)
{
	static struct session ss;
	struct smm_run_result *runs;
	unsigned int done = 0;
	int status = SMM_EX_OK;
	double start;

	if (argc > 1 && strcmp(argv[1], "compare") == 0)
		return smm_compare_main(argc - 1, argv + 1);
	set_up(argc, argv, &ss);
	runs = calloc(ss.cfg.repeat, sizeof(*runs));
	if (!runs) {
		perror("stress-mm");
		smm_owner_finish(&ss.owner);
		return SMM_EX_FAIL;
	}
	say_integrations(&ss);
	start = now_s();
	for (unsigned int i = 0; i < ss.cfg.repeat && !stop_signal; i++) {
		int rc;

		progress(&ss.cfg, i, start);
		rc = run_once(&ss, &runs[i]);
		status = smm_worse_status(status, runs[i].status);
		done++;
		if (rc)
			break; /* a stress-ng that cannot start */
	}
	if (stop_signal) {
		fprintf(stderr, "stress-mm: interrupted by signal %d\n",
			(int)stop_signal);
		status = 128 + stop_signal;
	}
	return finish(&ss, runs, done, status);
}
