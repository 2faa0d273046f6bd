// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stats-dump - print stats files (stats.h) as key:value lines, and their
 * sums: what a test compares with stress-ng's bogo-ops.
 *
 *   stats-dump FILE...
 * Per file: "file: NAME", then stressor, pid, calls, allocs, pages,
 * churn_allocs, failures, skipped, skip_reason. Then "sum_calls: N",
 * "sum_pages: N", "sum_churn_allocs: N", "files: N". Exit status 2 when a
 * file is not a version-1 stats file.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "stats.h"

int main(int argc, char **argv)
{
	unsigned long long calls = 0, pages = 0, churn = 0, allocs = 0;
	int bad = 0;

	for (int i = 1; i < argc; i++) {
		struct smm_stats_file s;
		int fd = open(argv[i], O_RDONLY);

		if (fd < 0 || read(fd, &s, sizeof(s)) != (ssize_t)sizeof(s) ||
		    memcmp(s.magic, SMM_STATS_MAGIC, sizeof(s.magic)) != 0 ||
		    s.version != SMM_STATS_VERSION) {
			fprintf(stderr, "stats-dump: %s: not a stats file\n",
				argv[i]);
			bad = 1;
			if (fd >= 0)
				close(fd);
			continue;
		}
		close(fd);
		s.stressor[sizeof(s.stressor) - 1] = '\0';
		s.skip_reason[sizeof(s.skip_reason) - 1] = '\0';
		printf("file: %s\nstressor: %s\npid: %d\ncalls: %llu\n"
		       "allocs: %llu\npages: %llu\nchurn_allocs: %llu\n"
		       "failures: %llu\nskipped: %llu\nskip_reason: %s\n",
		       argv[i], s.stressor, s.pid, (unsigned long long)s.calls,
		       (unsigned long long)s.allocs,
		       (unsigned long long)s.pages,
		       (unsigned long long)s.churn_allocs,
		       (unsigned long long)s.failures,
		       (unsigned long long)s.skipped, s.skip_reason);
		calls += s.calls;
		pages += s.pages;
		churn += s.churn_allocs;
		allocs += s.allocs;
	}
	printf("sum_calls: %llu\nsum_allocs: %llu\nsum_pages: %llu\n"
	       "sum_churn_allocs: %llu\nfiles: %d\n",
	       calls, allocs, pages, churn, argc - 1);
	return bad ? 2 : 0;
}
