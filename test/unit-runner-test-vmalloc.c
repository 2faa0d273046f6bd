// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-runner-test-vmalloc.c - the test-vmalloc runner's pieces that run
 * without the module: the module parameter string, the parameters from the options
 * (nr_pages rounded up from the size, nr_threads from the workers, 0
 * workers = online CPUs, loops from --vmalloc-order-ops), the runner
 * chosen once per stressor (runner.h), what collect() makes of a record
 * and a recorded log (bogo-ops from the record's calls, the log's tests
 * and cycles), and, on a kernel without module support, the runner's
 * child writing a SKIP with ENOSYS into its record and exiting 0.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "options.h"
#include "results.h"
#include "runner.h"
#include "stats.h"
#include "tap.h"
#include "runner-test-vmalloc.h"

static const char log_text[] =
	"Summary: fix_size_alloc_test passed: 1 failed: 0 xfailed: 0 repeat: 1 loops: 500 avg: 2100 usec\n"
	"Summary: long_busy_list_alloc_test passed: 1 failed: 0 xfailed: 0 repeat: 1 loops: 500 avg: 90000 usec\n"
	"All test took worker0=123456 cycles\n"
	"Summary: fix_size_alloc_test passed: 1 failed: 0 xfailed: 0 repeat: 1 loops: 500 avg: 2300 usec\n"
	"Summary: long_busy_list_alloc_test passed: 1 failed: 0 xfailed: 0 repeat: 1 loops: 500 avg: 91000 usec\n"
	"All test took worker1=123999 cycles\n";

static char dir[] = "/tmp/unit-runner-test-vmalloc.XXXXXX";
static struct smm_run_result res;

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* collect(): a record of 2000 loops and the log above. */
static void collect(const struct smm_run_cfg *cfg)
{
	struct smm_stressor_result *r = &res.st[0];
	struct smm_stats_file *s = smm_stats_open(dir, "vmalloc-order");

	smm_stats_add(s, calls, 2000);
	if (s)
		munmap(s, sizeof(*s));
	smm_read_records(dir, &res);
	snprintf(r->out_path, sizeof(r->out_path), "%s/vmalloc-order.tvlog",
		 dir);
	write_text(r->out_path, log_text);
	res.seconds = 2;
	smm_runner_test_vmalloc.collect(cfg, &res, 0);
	unlink(r->out_path);
	tap_ok(r->tv.ntests == 2 && r->tv.nworkers == 2,
	       "the recorded log: 2 tests, 2 workers' cycles");
	tap_ok(r->bogo_ops == 2000 && r->ops_real == 1000,
	       "bogo-ops: the record's calls (%llu), per wall-clock second",
	       (unsigned long long)r->bogo_ops);
	tap_ok(smm_tv_ns_per_loop(&r->tv.tests[0]) == 4400,
	       "fix_size_alloc_test: mean avg 2200 usec over 500 loops is 4400 ns per loop (%.1f)",
	       smm_tv_ns_per_loop(&r->tv.tests[0]));
}

/* The child on a kernel without module support: a SKIP in its record. */
static void child_skips(const struct smm_run_cfg *cfg)
{
	struct smm_stats_file rec;
	char path[300];
	int st = 0, rc;
	pid_t pid;

	if (access("/proc/modules", F_OK) == 0) {
		tap_skip(
			"the child's SKIP record",
			"this kernel has module support: the child would load test_vmalloc");
		return;
	}
	snprintf(path, sizeof(path), "%s/vmalloc-order.tvlog", dir);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		setenv(SMM_STATS_ENV, dir, 1);
		if (!freopen("/dev/null", "w", stdout))
			_exit(3);
		smm_runner_test_vmalloc.start(cfg, 0, NULL, path);
	}
	waitpid(pid, &st, 0);
	snprintf(path, sizeof(path), "%s/vmalloc-order.%d.stats", dir,
		 (int)pid);
	rc = smm_stats_read(path, &rec);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0 && rc == 0 &&
		       rec.skipped && rec.skip_errno == ENOSYS &&
		       strstr(rec.skip_reason, "test-vmalloc: "),
	       "no module support: the child records a SKIP with ENOSYS and exits 0 (%s)",
	       rc ? strerror(-rc) : rec.skip_reason);
	unlink(path);
	snprintf(path, sizeof(path), "%s/vmalloc-order.tvlog", dir);
	unlink(path);
}

int main(void)
{
	struct smm_tv_params p = { 4, 2, 0, 5 };
	char buf[256], err[512] = "";
	char *args[] = { "stress-mm",
			 "--vmalloc-order",
			 "0",
			 "--vmalloc-order-bytes",
			 "16385",
			 "--vmalloc-order-ops",
			 "500",
			 "--vmalloc-order-method",
			 "test-vmalloc",
			 "--shm-pcp",
			 "1",
			 NULL };
	struct smm_run_cfg cfg;

	tap_plan(9);
	if (!mkdtemp(dir))
		return 1;
	smm_tv_options(&p, buf, sizeof(buf));
	tap_ok(!strcmp(buf, "nr_pages=4 nr_threads=2 run_test_mask=5"),
	       "options without loops: the module's default count (%s)", buf);
	p.loops = 1000;
	smm_tv_options(&p, buf, sizeof(buf));
	tap_ok(!strcmp(buf,
		       "nr_pages=4 nr_threads=2 run_test_mask=5 test_loop_count=1000"),
	       "options with loops (%s)", buf);

	tap_ok(smm_opts_parse(11, args, &cfg, err, sizeof(err)) == 0 &&
		       smm_runner_for(&cfg, 0) == &smm_runner_test_vmalloc &&
		       smm_runner_for(&cfg, 1) == &smm_runner_plugin &&
		       smm_runner_for(&cfg, SMM_PASS_CHILD) ==
			       &smm_runner_stress_ng,
	       "runners: test-vmalloc for vmalloc-order with the method, the plugin for shm-pcp, stress-ng for its own (%s)",
	       err);
	smm_tv_params_of(&cfg, 0, &p);
	tap_ok(p.nr_pages == 5 && p.loops == 500 && p.mask == 1 &&
		       p.nr_threads ==
			       (unsigned int)sysconf(_SC_NPROCESSORS_ONLN),
	       "parameters: 16385 bytes are 5 pages, 0 workers one thread per online CPU, loops 500, default test fix_size_alloc_test (mask %u)",
	       p.mask);
	collect(&cfg);
	child_skips(&cfg);
	{
		char *plain[] = { "stress-mm", "--vmalloc-order", "1", NULL };

		tap_ok(smm_opts_parse(3, plain, &cfg, err, sizeof(err)) == 0 &&
			       smm_runner_for(&cfg, 0) == &smm_runner_plugin,
		       "runners: the plugin for vmalloc-order without the method");
	}
	rmdir(dir);
	return tap_done();
}
