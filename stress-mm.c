// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stress-mm.c - the front end: stress-ng's option style for the stress-mm
 * stressors, kernel counters around the run, one report.
 *
 *   stress-mm --vmalloc-order 4 --shm-pcp 4 -t 60s --metrics --yaml run.yaml
 *   stress-mm compare BASE.yaml CAND.yaml ...   (compare-cmd.h)
 *
 * main() validates every option before starting anything (options.h),
 * sweeps shm-pcp leftovers, raises the limits the paths need (rlimits.h),
 * then runs R times: counters opened and enabled system-wide (counters.h),
 * /proc/vmstat and /proc/zoneinfo snapshots, one real stress-ng per
 * requested stressor, together (supervise.h), vmallocinfo sampled while
 * they run (sampler.h); then the counts of the workers' stats files, the
 * figures (figures.h), the counters on the terminal, and at the end one
 * YAML report (yreport.h). The code of each step lives in the module
 * named; this file is the order of the steps.
 *
 * Exit status (stress-ng's table; the worst of all stressors wins):
 *   0 success; 1 usage error (bad option: one line, nothing started);
 *   2 failure: stress-ng failed, a worker counted a failure in its stats
 *     file, a worker crashed, or no work was done without a SKIP
 *     (stress-ng itself reports the last three as success);
 *   3 a stressor skipped for lack of a resource (the SKIP's errno in the
 *     stats file: ENOMEM, ENOSPC, EAGAIN, EMFILE, ENFILE);
 *   4 a stressor skipped as not implemented here (any other errno);
 *   128 + N when stopped by signal N (SIGINT, SIGTERM): the children are
 *     stopped, nothing is left behind, and the report says "interrupted".
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "compare-cmd.h"
#include "die.h"
#include "docgen.h"
#include "kmodule.h"
#include "rlimits.h"
#include "options.h"
#include "owner.h"
#include "path-module-name.h"
#include "results.h"
#include "shm.h"
#include "stats.h"
#include "supervise.h"
#include "tv-run.h"
#include "verdict.h"
#include "yreport.h"

static volatile sig_atomic_t stop_signal;
static bool start_failed; /* a stress-ng could not be started */
static struct smm_owner owner; /* the run's directory and watchdog */
static struct smm_kmodule kmod; /* path module: what to undo */

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
static void measure_start(const struct smm_run_cfg *cfg,
			  struct smm_run_result *res)
{
	if (strcmp(cfg->counters, "none") == 0) {
		snprintf(res->counters_skip, sizeof(res->counters_skip),
			 "--counters none");
	} else {
		char err[128];
		int rc = smm_counters_open(&res->cs, cfg->counters, err,
					   sizeof(err));

		if (rc)
			snprintf(res->counters_skip, sizeof(res->counters_skip),
				 "cannot open counters: %s", strerror(-rc));
		else
			res->counters_on = true;
		if (res->cs.mounted_tracefs)
			smm_owner_note_mount(&owner, res->cs.tracefs);
	}
	res->vm_err = smm_vmstat_snap(&res->vm0);
	smm_zoneinfo_read(&res->z0);
	if (cfg->vm_interval > 0)
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

/* Start every requested stressor (or stress-ng's own alone); on a failure
 * stop those started. */
static int start_all(const struct smm_run_cfg *cfg, const char *sng,
		     const char *so, const char *tmp,
		     struct smm_run_result *res)
{
	res->pass_only = true;
	for (int s = 0; s < SMM_NR_STRESSORS; s++)
		if (cfg->st[s].workers >= 0)
			res->pass_only = false;
	for (int s = 0; s <= SMM_NR_STRESSORS; s++) {
		int rc;

		res->ch[s].out = -1;
		if (s < SMM_NR_STRESSORS ? cfg->st[s].workers < 0
					 : !res->pass_only)
			continue;
		if (s < SMM_NR_STRESSORS)
			res->st[s].asked = true;
		rc = smm_child_start(&res->ch[s], cfg, s, sng, so, tmp);
		if (rc == 0) {
			smm_owner_add_group(&owner, res->ch[s].pid);
			continue;
		}
		fprintf(stderr,
			"stress-mm: cannot start stress-ng for %s: %s; stopping the others\n",
			res->ch[s].name, strerror(-rc));
		start_failed = true;
		return rc;
	}
	return 0;
}

/* Read the children's output and reap them; sample vmallocinfo. */
static void supervise(const struct smm_run_cfg *cfg, struct smm_run_result *res)
{
	double next_sample = now_s() + cfg->vm_interval;
	bool running = true;

	while (running) {
		struct pollfd pfd[SMM_NR_STRESSORS + 1];
		int np = 0, idx[SMM_NR_STRESSORS + 1];

		running = false;
		for (int s = 0; s <= SMM_NR_STRESSORS; s++) {
			struct smm_child *c = &res->ch[s];

			if (c->pid <= 0 || smm_child_reap(c))
				continue;
			running = true;
			if (stop_signal || start_failed)
				kill(c->pid, SIGINT);
			if (c->out >= 0) {
				pfd[np].fd = c->out;
				pfd[np].events = POLLIN;
				idx[np++] = s;
			}
		}
		if (np && poll(pfd, (nfds_t)np, 200) > 0) {
			for (int i = 0; i < np; i++)
				if (pfd[i].revents)
					smm_child_read(&res->ch[idx[i]], cfg);
		} else if (running && !np) {
			usleep(100000);
		}
		if (cfg->vm_interval > 0 && now_s() >= next_sample) {
			smm_sample(&res->vs, false);
			next_sample += cfg->vm_interval;
		}
	}
}

static void run_once(const struct smm_run_cfg *cfg, const char *sng,
		     const char *so, const char *tmp, const char *stats,
		     struct smm_run_result *res)
{
	double t0;

	/* the previous run's stacks and areas are freed by now (sampler.h) */
	smm_settle(2000);
	measure_start(cfg, res);
	t0 = now_s();
	start_all(cfg, sng, so, tmp, res);
	supervise(cfg, res);
	res->seconds = now_s() - t0;
	/* Nothing of this run outlives it (stress-ng's own processes are
	 * gone by now; companions or parked children that lag are not). */
	smm_owner_kill_groups(&owner);
	smm_owner_forget_groups(&owner);
	measure_end(res);
	smm_read_stats_dir(stats, res);
	smm_shm_sweep(NULL, NULL, NULL);

	for (int s = 0; s < SMM_NR_STRESSORS; s++) {
		if (!res->st[s].asked)
			continue;
		res->st[s].wait_status = res->ch[s].status;
		if (smm_tv_asked(cfg, s))
			smm_read_tv_log(res->ch[s].yaml, &res->st[s], res);
		else
			smm_read_ng_yaml(res->ch[s].yaml, &res->st[s], NULL);
	}
	if (res->pass_only) {
		struct smm_stressor_result *r = &res->st[SMM_PASS_CHILD];

		r->asked = true;
		r->stats_status = -1;
		r->wait_status = res->ch[SMM_PASS_CHILD].status;
		smm_read_ng_yaml(res->ch[SMM_PASS_CHILD].yaml, NULL, res);
		for (int i = 0; i < res->nng; i++)
			r->bogo_ops += res->ng[i].bogo_ops;
	}
	smm_run_verdict(cfg, res, start_failed, stop_signal);
	smm_figures_compute(cfg, res);
	smm_print_counters(res);
	if (res->counters_on || res->cs.mounted_tracefs)
		smm_counters_close(&res->cs);
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

int main(int argc, char **argv)
{
	char so[PATH_MAX], err[600];
	struct smm_run_result *runs;
	unsigned int swept_p = 0, swept_s = 0, done = 0;
	struct smm_conditions cond;
	struct smm_run_cfg cfg;
	struct sigaction sa;
	const char *sng;
	int status = SMM_EX_OK, rc;
	double start;

	if (argc > 1 && strcmp(argv[1], "compare") == 0)
		return smm_compare_main(argc - 1, argv + 1);
	parse_or_exit(argc, argv, &cfg);
	sng = smm_find_stress_ng(cfg.stress_ng, err, sizeof(err));
	if (!sng)
		smm_die(SMM_EX_USAGE, "stress-mm", "%s", err);
	smm_plugin_path(so, sizeof(so));
	if (access(so, R_OK) != 0)
		smm_die(SMM_EX_USAGE, "stress-mm",
			"plugin %s not readable: %s (run make)", so,
			strerror(errno));
	runs = calloc(cfg.repeat, sizeof(*runs));
	if (!runs) {
		perror("stress-mm");
		return SMM_EX_FAIL;
	}

	/* Whatever ends stress-mm ends its run: these stop the children and
	 * still write the report; SIGKILL is the watchdog's (owner.h). A
	 * closed pipe or terminal (SIGPIPE, SIGHUP) ends it like SIGTERM. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);

	smm_owner_clean_stale(NULL);
	smm_shm_sweep(NULL, &swept_p, &swept_s);
	if (swept_p || swept_s)
		fprintf(stderr,
			"stress-mm: info: removed %u POSIX and %u SysV leftovers of dead shm-pcp workers\n",
			swept_p, swept_s);
	rc = smm_owner_start(&owner, NULL);
	if (rc) {
		fprintf(stderr,
			"stress-mm: cannot set up the run's directory: %s\n",
			strerror(-rc));
		free(runs);
		return SMM_EX_FAIL;
	}
	setenv(SMM_STATS_ENV, owner.stats, 1);
	if (smm_opts_method(&cfg, -1, "module")) {
		rc = smm_kmodule_prepare(&kmod, err, sizeof(err));
		if (rc)
			fprintf(stderr,
				"stress-mm: module: %s; path module will skip\n",
				err);
		else if (kmod.loaded_by_us)
			smm_owner_note_module(&owner, SMM_KMOD_NAME);
	}
	smm_raise_limits(&cfg);
	smm_conditions_read(&cond, sng);

	start = now_s();
	for (unsigned int i = 0;
	     i < cfg.repeat && !stop_signal && !start_failed; i++) {
		progress(&cfg, i, start);
		run_once(&cfg, sng, so, owner.dir, owner.stats, &runs[i]);
		status = smm_worse_status(status, runs[i].status);
		done++;
	}
	if (stop_signal) {
		fprintf(stderr, "stress-mm: interrupted by signal %d\n",
			(int)stop_signal);
		status = 128 + stop_signal;
	}
	if (cfg.yaml && done &&
	    smm_yreport_write(&cfg, &cond, runs, done, status, stop_signal != 0,
			      sng) != 0) {
		fprintf(stderr, "stress-mm: cannot write %s: %s\n", cfg.yaml,
			strerror(errno));
		if (status == SMM_EX_OK)
			status = SMM_EX_FAIL;
	}
	for (int s = 0; s <= SMM_NR_STRESSORS; s++)
		if (runs[done ? done - 1 : 0].ch[s].yaml[0])
			unlink(runs[done ? done - 1 : 0].ch[s].yaml);
	smm_read_stats_dir(owner.stats, &runs[done ? done - 1 : 0]); /* late */
	if (smm_kmodule_finish(&kmod) == 0)
		smm_owner_forget_module(&owner);
	smm_owner_finish(&owner);
	for (unsigned int i = 0; i < done; i++)
		smm_counters_free(&runs[i].cs);
	free(runs);
	return status;
}
