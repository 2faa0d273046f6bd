// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * runner-test-vmalloc.c - run the kernel's test_vmalloc and collect what
 * it printed.
 */
#include <errno.h>
#include <fcntl.h>
#include <libkmod.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "figures.h"
#include "kmodule.h"
#include "options-check.h"
#include "params-table.h"
#include "results.h"
#include "runner.h"
#include "stats.h"
#include "runner-test-vmalloc.h"
#include "yamldoc.h"

void smm_tv_options(const struct smm_tv_params *p, char *buf, size_t len)
{
	int n = snprintf(
		buf, len, "nr_pages=%llu nr_threads=%u run_test_mask=%u",
		(unsigned long long)p->nr_pages, p->nr_threads, p->mask);

	if (p->loops && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " test_loop_count=%llu",
			 (unsigned long long)p->loops);
}

/* Every record /dev/kmsg holds past @fd's position, text only. */
static void copy_log(int fd, int out)
{
	char rec[8192];
	ssize_t n;

	while ((n = read(fd, rec, sizeof(rec) - 1)) > 0 ||
	       (n < 0 && errno == EPIPE)) {
		char *text;

		if (n <= 0)
			continue; /* EPIPE: records overwritten, go on */
		rec[n] = '\0';
		text = strchr(rec, ';');
		text = text ? text + 1 : rec;
		/* continuation lines (" KEY=value") follow the text */
		text[strcspn(text, "\n")] = '\0';
		if (dprintf(out, "%s\n", text) < 0)
			break;
	}
}

static int load(struct kmod_ctx *ctx, const char *opts, char *why, size_t len)
{
	struct kmod_module *mod;
	int rc;

	mod = smm_kmodule_lookup(ctx, "test_vmalloc");
	if (!mod) {
		snprintf(
			why, len,
			"no test_vmalloc module for this kernel (CONFIG_TEST_VMALLOC=m; Debian's kernels build none, the lab's do)");
		return -ENOENT;
	}
	if (kmod_module_get_initstate(mod) >= 0) {
		kmod_module_unref(mod);
		snprintf(why, len, "test_vmalloc is loaded already");
		return -EEXIST;
	}
	rc = kmod_module_insert_module(mod, 0, opts);
	kmod_module_unref(mod);
	if (rc == -EAGAIN || rc == 0) /* -EAGAIN: done, by design */
		return 0;
	snprintf(why, len, "loading test_vmalloc %s: errno=%d (%s)", opts, -rc,
		 strerror(-rc));
	return rc;
}

int smm_tv_run(const struct smm_tv_params *p, int log_fd, char *why, size_t len)
{
	struct kmod_ctx *ctx;
	char opts[256];
	int kfd, rc;

	rc = smm_kmodule_may_load("test_vmalloc", why, len);
	if (rc)
		return rc;
	kfd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kfd < 0) {
		rc = -errno;
		snprintf(why, len, "/dev/kmsg: errno=%d (%s)", -rc,
			 strerror(-rc));
		return rc;
	}
	lseek(kfd, 0, SEEK_END); /* only what the load prints */
	ctx = kmod_new(NULL, NULL);
	if (!ctx) {
		close(kfd);
		snprintf(why, len, "libkmod: kmod_new failed");
		return -ENOMEM;
	}
	smm_tv_options(p, opts, sizeof(opts));
	rc = load(ctx, opts, why, len);
	kmod_unref(ctx);
	if (rc == 0)
		copy_log(kfd, log_fd);
	close(kfd);
	return rc;
}

void smm_tv_params_of(const struct smm_run_cfg *cfg, int s,
		      struct smm_tv_params *p)
{
	uint64_t bytes = cfg->st[s].val[SMM_VMO_P_BYTES];
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);

	p->nr_pages = (bytes + page - 1) / page;
	p->nr_threads = cfg->st[s].workers
				? (unsigned int)cfg->st[s].workers
				: (unsigned int)sysconf(_SC_NPROCESSORS_ONLN);
	p->loops = cfg->st[s].ops;
	p->mask = smm_tv_mask(cfg->tv_tests);
}

/* vmalloc-order with --vmalloc-order-method test-vmalloc: the one place
 * that asks. */
static bool tv_takes(const struct smm_run_cfg *cfg, int s)
{
	return s < SMM_NR_STRESSORS && smm_opts_method(cfg, s, "test-vmalloc");
}

/* The load's errors that mean "cannot run here": the SKIP's errno. */
static int skip_errno(int rc)
{
	switch (rc) {
	case -ENOSYS: /* no module support */
	case -EPERM: /* not root */
		return -rc;
	case -ENOENT: /* no test_vmalloc for this kernel */
	case -EEXIST: /* test_vmalloc loaded already */
		return EOPNOTSUPP;
	default:
		return 0;
	}
}

/* After the load: its loops into the record, or why there are none. */
static void record_log(struct smm_stats_file *rec, const char *name,
		       const char *log)
{
	struct smm_tv_log rep;
	FILE *f = fopen(log, "re");
	int lines = f ? smm_tv_log_file(&rep, f) : 0;
	uint64_t ops;

	if (f)
		fclose(f);
	ops = lines > 0 ? smm_tv_bogo_ops(&rep) : 0;
	smm_stats_add(rec, calls, ops);
	if (ops)
		return;
	printf("%s: FAIL: test-vmalloc: test_vmalloc printed no passed test (%d of its lines read) errno=%d (%s)\n",
	       name, lines, ENODATA, strerror(ENODATA));
	smm_stats_fail(rec, ENODATA,
		       "test-vmalloc: test_vmalloc printed no passed test");
}

/* The child: the record, the load, its log into @out. */
static __attribute__((noreturn)) void tv_start(const struct smm_run_cfg *cfg,
					       int s,
					       const struct smm_exec_env *env,
					       const char *out)
{
	const char *name = smm_stressors[s].name;
	struct smm_stats_file *rec =
		smm_stats_open(getenv(SMM_STATS_ENV), name);
	struct smm_tv_params p;
	char why[512], opts[256], what[600];
	struct timespec t0, t1;
	int fd, rc;

	(void)env;
	smm_tv_params_of(cfg, s, &p);
	smm_tv_options(&p, opts, sizeof(opts));
	printf("%s: test-vmalloc: loading test_vmalloc %s\n", name, opts);
	fflush(stdout);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		rc = errno;
		printf("%s: FAIL: test-vmalloc: %s: errno=%d (%s)\n", name, out,
		       rc, strerror(rc));
		smm_stats_fail(rec, rc, out);
		exit(0);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = smm_tv_run(&p, fd, why, sizeof(why));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	close(fd);
	snprintf(what, sizeof(what), "test-vmalloc: %s", why);
	if (rc && skip_errno(rc)) {
		snprintf(what, sizeof(what), "test-vmalloc: %s: errno=%d", why,
			 skip_errno(rc));
		printf("%s: SKIP: %s\n", name, what);
		smm_stats_skip(rec, skip_errno(rc), what);
	} else if (rc) {
		printf("%s: FAIL: %s\n", name, what);
		smm_stats_fail(rec, -rc, what);
	} else {
		printf("%s: test-vmalloc: the tests ran in %.1f s\n", name,
		       (double)(t1.tv_sec - t0.tv_sec) +
			       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
		record_log(rec, name, out);
	}
	exit(0);
}

/* What test_vmalloc printed into res->st[s].tv; its loops, counted in
 * the record, over the run's wall-clock seconds. */
static void tv_collect(const struct smm_run_cfg *cfg,
		       struct smm_run_result *res, int s)
{
	struct smm_stressor_result *r = &res->st[s];
	FILE *f = fopen(r->out_path, "re");

	(void)cfg;
	if (f) {
		smm_tv_log_file(&r->tv, f);
		fclose(f);
	}
	r->bogo_ops = r->calls;
	r->wall_s = res->seconds;
	r->ops_real = res->seconds > 0 ? (double)r->calls / res->seconds : 0;
}

static void tv_figures(const struct smm_run_result *res, int s,
		       struct smm_figures *fs)
{
	const struct smm_stressor_result *r = &res->st[s];
	const char *name = smm_stressors[s].name;
	struct smm_figure *f;

	f = smm_figure_rates(fs, name, r->ops_real, r->ops_usr_sys);
	smm_figure_absent(
		f,
		"test-vmalloc runs in kernel threads: no user+system time of the workers");
	f = smm_figure_add(fs, name, "test-vmalloc-ns-per-loop");
	if (f && r->tv.ntests)
		f->value = smm_tv_ns_per_loop(&r->tv.tests[0]);
	else
		smm_figure_absent(f, "test_vmalloc printed no Summary line");
}

/* Per test over its workers, and each worker's cycles. */
static void tv_yaml(yaml_document_t *out, int m, const struct smm_run_cfg *cfg,
		    const struct smm_run_result *res, int s)
{
	const struct smm_tv_log *rep = &res->st[s].tv;
	struct smm_tv_params p;
	char opts[256];
	int tm, tests, cyc;

	smm_tv_params_of(cfg, s, &p);
	smm_tv_options(&p, opts, sizeof(opts));
	tm = smm_yaml_map(out, m, "test-vmalloc");
	smm_yaml_str(out, tm, "module-parameters", opts);
	smm_yaml_str(out, tm, "tests-asked", cfg->tv_tests);
	tests = smm_yaml_map(out, tm, "tests");
	for (int i = 0; i < rep->ntests; i++) {
		const struct smm_tv_test *t = &rep->tests[i];
		int x = smm_yaml_map(out, tests, t->name);

		smm_yaml_i64(out, x, "workers", t->workers);
		smm_yaml_i64(out, x, "passed", t->passed);
		smm_yaml_i64(out, x, "failed", t->failed);
		if (t->xfailed >= 0)
			smm_yaml_i64(out, x, "xfailed", t->xfailed);
		smm_yaml_i64(out, x, "repeat", t->repeat);
		smm_yaml_i64(out, x, "loops", t->loops);
		smm_yaml_dbl(out, x, "avg-usec-mean",
			     t->workers ? (double)t->avg_usec_sum / t->workers
					: 0);
		smm_yaml_u64(out, x, "avg-usec-min", t->avg_usec_min);
		smm_yaml_u64(out, x, "avg-usec-max", t->avg_usec_max);
		smm_yaml_dbl(out, x, "ns-per-loop", smm_tv_ns_per_loop(t));
	}
	cyc = smm_yaml_seq(out, tm, "cycles-per-worker");
	for (int w = 0; w < rep->nworkers && w < SMM_TV_WORKERS_MAX; w++) {
		char buf[32];

		snprintf(buf, sizeof(buf), "%llu",
			 (unsigned long long)rep->cycles[w]);
		smm_yaml_item_str(out, cyc, buf);
	}
	smm_yaml_i64(out, tm, "malformed-lines", rep->malformed);
	smm_yaml_i64(out, tm, "dropped-lines", rep->dropped);
}

const struct smm_runner smm_runner_test_vmalloc = {
	.name = "test-vmalloc",
	.takes = tv_takes,
	.out_ext = "tvlog",
	.ng_yaml = false,
	.ng_name = NULL,
	.start = tv_start,
	.collect = tv_collect,
	.figures = tv_figures,
	.yaml = tv_yaml,
};

uint64_t smm_tv_bogo_ops(const struct smm_tv_log *rep)
{
	uint64_t ops = 0;

	for (int i = 0; i < rep->ntests; i++)
		ops += (uint64_t)rep->tests[i].passed *
		       (uint64_t)rep->tests[i].loops;
	return ops;
}
