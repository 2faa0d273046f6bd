// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stats-dump - print records (stats.h) as key:value lines, and their
 * sums: what a test compares with stress-ng's bogo-ops and the kernel's
 * counters.
 *
 *   stats-dump FILE...
 * Per file: "file: NAME", then stressor, pid, calls, allocs, pages,
 * churn_allocs, failures, skipped, skip_errno, fail_errno, cpu, slot,
 * companions, companion_cpus (comma-separated, "-" when none),
 * kernel_alloc_ns, kernel_free_ns, batch, bytes, crash_signal, exit_status
 * (smm_stats_exit_status()), skip_reason, fail_reason, and per used path
 * slot "path: NAME STATE err=N kind=K area_bytes=B pages=P order=O
 * caller=C reason=R". Then "sum_calls: N", "sum_allocs: N",
 * "sum_pages: N", "sum_churn_allocs: N", "files: N". Exit status 2 when a
 * file is not a record of this version (the reader's errno is printed on
 * stderr).
 */
#include <stdio.h>
#include <string.h>

#include "stats.h"

static void dump(const char *path, const struct smm_stats_file *s)
{
	printf("file: %s\nstressor: %s\npid: %d\ncalls: %llu\n"
	       "allocs: %llu\npages: %llu\nchurn_allocs: %llu\n"
	       "failures: %llu\nskipped: %llu\nskip_errno: %d\n"
	       "fail_errno: %d\ncpu: %d\nslot: %d\ncompanions: %u\n"
	       "companion_cpus: ",
	       path, s->stressor, s->pid, (unsigned long long)s->calls,
	       (unsigned long long)s->allocs, (unsigned long long)s->pages,
	       (unsigned long long)s->churn_allocs,
	       (unsigned long long)s->failures, (unsigned long long)s->skipped,
	       s->skip_errno, s->fail_errno, s->cpu, s->slot, s->companions);
	for (unsigned int i = 0; i < s->companions; i++)
		printf("%s%d", i ? "," : "", s->companion_cpu[i]);
	printf("%s\nkernel_alloc_ns: %llu\nkernel_free_ns: %llu\n"
	       "batch: %llu\nbytes: %llu\n"
	       "crash_signal: %d\nexit_status: %d\nskip_reason: %s\n"
	       "fail_reason: %s\n",
	       s->companions ? "" : "-", (unsigned long long)s->kernel_alloc_ns,
	       (unsigned long long)s->kernel_free_ns,
	       (unsigned long long)s->batch, (unsigned long long)s->bytes,
	       s->crash_signal, smm_stats_exit_status(s), s->skip_reason,
	       s->fail_reason);
	for (int i = 0; i < SMM_STATS_PATHS; i++) {
		const struct smm_stats_path *p = &s->paths[i];
		static const char *const states[] = { "unused", "proven",
						      "unproven", "left-out" };

		if (p->state == SMM_PATH_UNUSED)
			continue;
		printf("path: %s %s err=%d kind=%s area_bytes=%llu pages=%llu order=%d caller=%s reason=%s\n",
		       p->name, states[p->state], p->err,
		       smm_area_kind_name(p->kind),
		       (unsigned long long)p->area_bytes,
		       (unsigned long long)p->pages, p->order, p->caller,
		       p->reason);
	}
}

int main(int argc, char **argv)
{
	unsigned long long calls = 0, pages = 0, churn = 0, allocs = 0;
	int bad = 0;

	for (int i = 1; i < argc; i++) {
		struct smm_stats_file s;
		int rc = smm_stats_read(argv[i], &s);

		if (rc) {
			fprintf(stderr, "stats-dump: %s: %s\n", argv[i],
				strerror(-rc));
			bad = 1;
			continue;
		}
		dump(argv[i], &s);
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
