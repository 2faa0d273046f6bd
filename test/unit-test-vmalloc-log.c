// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-test-vmalloc-log.c - the parser of test_vmalloc's kernel log lines
 * (front-end/host/test-vmalloc-log.h) on the formats of
 * lib/test_vmalloc.c, with and without xfailed, behind the prefixes the
 * log adds; malformed lines; every truncation of a line; another module's
 * Summary line; a whole log with two workers; test names to
 * run_test_mask.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "test-vmalloc-log.h"

#define LINE72 \
	"Summary: fix_size_alloc_test passed: 1 failed: 0 xfailed: 0 repeat: 1 loops: 1000000 avg: 1440123 usec"
#define LINE_OLD \
	"Summary: random_size_alloc_test passed: 3 failed: 1 repeat: 4 loops: 1000 avg: 98 usec"
#define CYC "All test took worker1=123456789012 cycles"

static void test_good(void)
{
	struct smm_tv_line l;
	int rc;

	rc = smm_tv_parse_line("[   12.345678] " LINE72 "\n", &l);
	tap_ok(rc == 1 && l.kind == SMM_TV_SUMMARY &&
		       !strcmp(l.test, "fix_size_alloc_test") &&
		       l.passed == 1 && l.failed == 0 && l.xfailed == 0 &&
		       l.repeat == 1 && l.loops == 1000000 &&
		       l.avg_usec == 1440123,
	       "7.2 Summary line behind dmesg's prefix: every field");
	rc = smm_tv_parse_line(LINE_OLD, &l);
	tap_ok(rc == 1 && !strcmp(l.test, "random_size_alloc_test") &&
		       l.passed == 3 && l.failed == 1 && l.xfailed == -1 &&
		       l.repeat == 4 && l.loops == 1000 && l.avg_usec == 98,
	       "Summary line without xfailed (older kernels): xfailed -1");
	rc = smm_tv_parse_line("6,812,4567123,-;" LINE72, &l);
	tap_ok(rc == 1 && l.avg_usec == 1440123, "behind /dev/kmsg's prefix");
	rc = smm_tv_parse_line("Dec  1 10:00:00 host kernel: " LINE72 "\r\n",
			       &l);
	tap_ok(rc == 1 && l.loops == 1000000,
	       "behind syslog's prefix, with a console's \\r\\n");
	rc = smm_tv_parse_line("[    3.1] " CYC, &l);
	tap_ok(rc == 1 && l.kind == SMM_TV_CYCLES && l.worker == 1 &&
		       l.cycles == 123456789012ULL,
	       "cycles line: worker and cycles");
	rc = smm_tv_parse_line(
		"Summary: vrealloc_test passed: 2147483647 failed: 0 repeat: 1 loops: 1 avg: 18446744073709551615 usec",
		&l);
	tap_ok(rc == 1 && l.passed == 2147483647 &&
		       l.avg_usec == 18446744073709551615ULL,
	       "largest values: INT_MAX and UINT64_MAX");
}

static void test_not_ours(void)
{
	struct smm_tv_line l;

	tap_ok(smm_tv_parse_line("", &l) == 0 &&
		       smm_tv_parse_line("[    1.0] Freeing unused memory",
					 &l) == 0 &&
		       smm_tv_parse_line("Summary: total 12 tests", &l) == 0 &&
		       smm_tv_parse_line("# Summary: other_suite ok", &l) ==
			       0 &&
		       smm_tv_parse_line("Summ", &l) == 0 &&
		       smm_tv_parse_line("All test took", &l) == 0,
	       "other lines, and other modules' Summary lines, are not ours (0)");
}

static void test_malformed(void)
{
	static const char *const bad[] = {
		"Summary: fix_size_alloc_test passed: x failed: 0 repeat: 1 loops: 1 avg: 1 usec",
		"Summary: fix_size_alloc_test passed: -1 failed: 0 repeat: 1 loops: 1 avg: 1 usec",
		"Summary: fix_size_alloc_test passed: +1 failed: 0 repeat: 1 loops: 1 avg: 1 usec",
		"Summary: fix_size_alloc_test passed: 1 failed: 0 repeat: 1 loops: 2147483648 avg: 1 usec",
		"Summary: fix_size_alloc_test passed: 1 failed: 0 repeat: 1 loops: 1 avg: 18446744073709551616 usec",
		"Summary: fix_size_alloc_test passed: 1 failed: 0 repeat: 1 loops: 1 avg: 1 msec",
		"Summary: fix_size_alloc_test passed: 1 failed: 0 repeat: 1 loops: 1 avg: 1 usec trailing",
		"Summary: fix_size_alloc_test passed: 1 repeat: 1 failed: 0 loops: 1 avg: 1 usec",
		"Summary: fix_size_alloc_test passed:  1 failed: 0 repeat: 1 loops: 1 avg: 1 usec",
		"Summary: fix_size_alloc_test passed: 1 failed: 0 xfailed: repeat: 1 loops: 1 avg: 1 usec",
		"Summary: fix_size_alloc_test failed: 0 repeat: 1 loops: 1 avg: 1 usec",
		"Summary:  passed: 1 failed: 0 repeat: 1 loops: 1 avg: 1 usec",
		"Summary: unknown_test passed: 1 failed: 0 repeat: 1 loops: 1 avg: usec",
		"Summary: fix_size_alloc_test passed: 1 failed: 0 repeat: 1 loops: 1 avg: 1 usec\nX",
		"All test took worker=5 cycles",
		"All test took worker1=5",
		"All test took worker1=-5 cycles",
		"All test took worker1=5 cycles extra",
	};
	struct smm_tv_line l;
	unsigned int i, n = sizeof(bad) / sizeof(bad[0]), refused = 0;

	for (i = 0; i < n; i++) {
		if (smm_tv_parse_line(bad[i], &l) == -EINVAL)
			refused++;
		else
			tap_diag("accepted: %s", bad[i]);
	}
	tap_ok(refused == n,
	       "malformed lines are refused with -EINVAL (%u of %u)", refused,
	       n);
}

/* Every cut of a line after its marker is -EINVAL; the whole line is 1. */
static void test_truncated(const char *line, size_t marker, const char *what)
{
	char buf[256];
	size_t len = strlen(line), cut, bad = 0;
	struct smm_tv_line l;

	for (cut = marker; cut < len; cut++) {
		snprintf(buf, sizeof(buf), "%.*s\n", (int)cut, line);
		if (smm_tv_parse_line(buf, &l) != -EINVAL) {
			if (bad++ < 3)
				tap_diag("cut at %zu accepted: %s", cut, buf);
		}
	}
	tap_ok(bad == 0 && smm_tv_parse_line(line, &l) == 1,
	       "%s: each of its %zu truncations is -EINVAL, the whole line 1",
	       what, len - marker);
}

static void test_report(void)
{
	static const char log[] =
		"[    5.0] test_vmalloc: loading\n"
		"[    5.1] Summary: fix_size_alloc_test passed: 1 failed: 0 xfailed: 0 repeat: 1 loops: 1000 avg: 2000 usec\n"
		"[    5.1] Summary: long_busy_list_alloc_test passed: 1 failed: 0 xfailed: 0 repeat: 1 loops: 1000 avg: 9000 usec\n"
		"[    5.1] All test took worker0=5000 cycles\n"
		"[    5.2] Summary: fix_size_alloc_test passed: 0 failed: 1 xfailed: 0 repeat: 1 loops: 1000 avg: 4000 usec\n"
		"[    5.2] Summary: long_busy_list_alloc_test passed: 1 failed: 0 xfailed: 0 repeat: 1 loops: 1000 avg: 11000 usec\n"
		"[    5.2] Summary: fix_size_alloc_test passed: 1 failed: 0 xfailed: 0 repeat: 1 loops: 10\n"
		"[    5.2] All test took worker1=7000 cycles\n"
		"[    5.3] unrelated";
	struct smm_tv_log rep;
	const struct smm_tv_test *t;
	int n = smm_tv_log_text(&rep, log);

	t = smm_tv_log_find(&rep, "fix_size_alloc_test");
	tap_ok(n == 6 && rep.ntests == 2 && rep.malformed == 1 &&
		       rep.nworkers == 2 && rep.cycles[0] == 5000 &&
		       rep.cycles[1] == 7000,
	       "a log of two workers: 6 lines read, 2 tests, 1 malformed, cycles per worker");
	tap_ok(t && t->workers == 2 && t->passed == 1 && t->failed == 1 &&
		       t->xfailed == 0 && t->loops == 1000 &&
		       t->avg_usec_min == 2000 && t->avg_usec_max == 4000,
	       "fix_size_alloc_test over its workers: passed, failed, min and max");
	tap_ok(t && smm_tv_ns_per_loop(t) == 3000.0,
	       "ns per loop: mean avg (3000 usec) x 1000 / 1000 loops = 3000 ns");
	tap_ok(smm_tv_log_find(&rep, "vrealloc_test") == NULL &&
		       smm_tv_ns_per_loop(NULL) == 0,
	       "a test that did not run: not found, 0 ns");
}

static void test_names(void)
{
	tap_ok(smm_tv_test_bit("fix_size_alloc_test") == 0 &&
		       smm_tv_test_bit("long_busy_list_alloc_test") == 2 &&
		       smm_tv_test_bit("vrealloc_test") == 12 &&
		       smm_tv_test_bit("fix_size") == -1,
	       "test names to their bits (lib/test_vmalloc.c test_case_array)");
	tap_ok(smm_tv_mask("fix_size_alloc_test") == 1 &&
		       smm_tv_mask(
			       "fix_size_alloc_test,long_busy_list_alloc_test") ==
			       5 &&
		       smm_tv_mask("fix_size_alloc_test,nope") == 0 &&
		       smm_tv_mask("") == 0 &&
		       smm_tv_mask("fix_size_alloc_test,") == 0 &&
		       smm_tv_mask(",fix_size_alloc_test") == 0,
	       "run_test_mask from names; unknown names and empty items give 0");
}

int main(void)
{
	tap_plan(17);
	test_good();
	test_not_ours();
	test_malformed();
	test_truncated(LINE72, strlen("Summary: "), "7.2 Summary line");
	test_truncated(LINE_OLD, strlen("Summary: "),
		       "Summary line without xfailed");
	test_truncated(CYC, strlen("All test took worker"), "cycles line");
	test_report();
	test_names();
	return tap_done();
}
