// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-tv-run.c - the test-vmalloc method's pieces that run without the
 * module: the module parameter string, the parameters from the options
 * (nr_pages rounded up from the size, nr_threads from the workers, 0
 * workers = online CPUs, loops from --vmalloc-order-ops), and a recorded
 * log read back as bogo-ops (passed x loops over workers) and a report.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "options.h"
#include "results.h"
#include "tap.h"
#include "tv-run.h"

static const char log_text[] =
	"Summary: fix_size_alloc_test passed: 1 failed: 0 xfailed: 0 repeat: 1 loops: 500 avg: 2100 usec\n"
	"Summary: long_busy_list_alloc_test passed: 1 failed: 0 xfailed: 0 repeat: 1 loops: 500 avg: 90000 usec\n"
	"All test took worker0=123456 cycles\n"
	"Summary: fix_size_alloc_test passed: 1 failed: 0 xfailed: 0 repeat: 1 loops: 500 avg: 2300 usec\n"
	"Summary: long_busy_list_alloc_test passed: 1 failed: 0 xfailed: 0 repeat: 1 loops: 500 avg: 91000 usec\n"
	"All test took worker1=123999 cycles\n";

int main(int argc, char **argv)
{
	static struct smm_run_result res;
	struct smm_tv_params p = { 4, 2, 0, 5 };
	struct smm_stressor_result *r = &res.st[0];
	char buf[256], path[] = "/tmp/unit-tv-run.XXXXXX", err[512] = "";
	char *args[] = { "stress-mm",
			 "--vmalloc-order",
			 "0",
			 "--vmalloc-order-bytes",
			 "16385",
			 "--vmalloc-order-ops",
			 "500",
			 "--vmalloc-order-method",
			 "test-vmalloc",
			 NULL };
	struct smm_run_cfg cfg;
	FILE *f;
	int fd;

	(void)argc;
	(void)argv;
	tap_plan(7);
	smm_tv_options(&p, buf, sizeof(buf));
	tap_ok(!strcmp(buf, "nr_pages=4 nr_threads=2 run_test_mask=5"),
	       "options without loops: the module's default count (%s)", buf);
	p.loops = 1000;
	smm_tv_options(&p, buf, sizeof(buf));
	tap_ok(!strcmp(buf,
		       "nr_pages=4 nr_threads=2 run_test_mask=5 test_loop_count=1000"),
	       "options with loops (%s)", buf);

	tap_ok(smm_opts_parse(9, args, &cfg, err, sizeof(err)) == 0 &&
		       smm_tv_asked(&cfg, 0) && !smm_tv_asked(&cfg, 1),
	       "--vmalloc-order-method test-vmalloc is asked for vmalloc-order only (%s)",
	       err);
	smm_tv_params_of(&cfg, 0, &p);
	tap_ok(p.nr_pages == 5 && p.loops == 500 && p.mask == 1 &&
		       p.nr_threads ==
			       (unsigned int)sysconf(_SC_NPROCESSORS_ONLN),
	       "parameters: 16385 bytes are 5 pages, 0 workers one thread per online CPU, loops 500, default test fix_size_alloc_test (mask %u)",
	       p.mask);

	fd = mkstemp(path);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (f) {
		fputs(log_text, f);
		fclose(f);
	}
	res.seconds = 2;
	smm_read_tv_log(path, r, &res);
	unlink(path);
	tap_ok(res.tv_ran && r->tv && res.tv.ntests == 2 &&
		       res.tv.nworkers == 2,
	       "the recorded log: 2 tests, 2 workers' cycles");
	tap_ok(r->bogo_ops == 2000 && r->ops_real == 1000,
	       "bogo-ops: passed x loops over workers and tests (%llu), per wall-clock second",
	       (unsigned long long)r->bogo_ops);
	tap_ok(smm_tv_ns_per_loop(&res.tv.tests[0]) == 4400,
	       "fix_size_alloc_test: mean avg 2200 usec over 500 loops is 4400 ns per loop (%.1f)",
	       smm_tv_ns_per_loop(&res.tv.tests[0]));
	return tap_done();
}
