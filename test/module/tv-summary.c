// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tv-summary - test_vmalloc's results in a kernel log (stdin, e.g. dmesg),
 * read with the front end's parser
 * (front-end/host/test-vmalloc-log.h), one line per test and one summary line:
 *
 *   test=fix_size_alloc_test workers=2 passed=2 failed=0 xfailed=0 repeat=1 loops=1000 avg_usec_min=.. avg_usec_max=.. ns_per_loop=..
 *   lines=5 tests=2 workers_with_cycles=2 malformed=0 dropped=0
 *
 * Built static for the lab's busybox initramfs. Exit status 0, or 1 when
 * no test_vmalloc line was read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-vmalloc-log.h"

int main(void)
{
	static struct smm_tv_log rep;
	char line[1024];
	int i, n = 0;

	while (fgets(line, sizeof(line), stdin))
		if (smm_tv_log_add(&rep, line) > 0)
			n++;
	for (i = 0; i < rep.ntests; i++) {
		const struct smm_tv_test *t = &rep.tests[i];

		printf("test=%s workers=%d passed=%ld failed=%ld xfailed=%ld repeat=%d loops=%d avg_usec_min=%llu avg_usec_max=%llu ns_per_loop=%.0f\n",
		       t->name, t->workers, t->passed, t->failed, t->xfailed,
		       t->repeat, t->loops, (unsigned long long)t->avg_usec_min,
		       (unsigned long long)t->avg_usec_max,
		       smm_tv_ns_per_loop(t));
	}
	printf("lines=%d tests=%d workers_with_cycles=%d malformed=%d dropped=%d\n",
	       n, rep.ntests, rep.nworkers, rep.malformed, rep.dropped);
	return n ? 0 : 1;
}
