// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * event-cost - what one counted tracepoint event costs, per engine (not a
 * test). A single thread on one CPU maps 64 pages with MAP_POPULATE and
 * unmaps them in a loop: each round allocates and frees 64 order-0 pages
 * through the PCP lists, firing kmem:mm_page_alloc per page (and, per PCP
 * batch, zone_locked and pcpu_drain events). For each setting the loop
 * runs for -t seconds, RUNS times interleaved:
 *
 *   off          no counters
 *   perf         all tracepoint counters by perf_event_open (counters.h)
 *   bpf          the same by BPF, without the zone-lock wait programs
 *   bpf+waits    BPF with them (lock:contention_begin/_end attached too)
 *
 * and it prints, per setting, the median CPU ns per round [min, max] (the
 * thread's user + system time: a busy host changes how long a round takes
 * on the clock, not how much CPU it costs) and the
 * cost per counted event: (ns per round - off's) / events per round,
 * events being the tracepoint hits the setting counted (page_alloc_order0
 * + zone_locked_order0 + pcpu_drain_order0 + tlb_flush, each hit once
 * whatever the number of counters on it). For the BPF settings it also
 * prints the programs' own ns per run as the kernel measures it
 * (bpf_enable_stats(BPF_STATS_RUN_TIME) held during those runs): the cost
 * of the program body without the loop's noise.
 *
 *   event-cost [-t SECONDS] [-r RUNS]        root (CAP_BPF, CAP_PERFMON)
 */
#include <bpf/bpf.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "counters.h"

#define EVENTS_ALL                                                           \
	"page_alloc_order0,zone_locked_order0,zone_locked_order0_unmovable," \
	"zone_locked_order0_movable,zone_locked_order0_reclaimable,"         \
	"zone_locked_order0_refill,zone_locked_order0_movable_refill,"       \
	"zone_locked_order0_unmovable_refill,extfrag_order0,"                \
	"pcpu_drain_order0,pcpu_drain_order1,pcpu_drain_order2,"             \
	"pcpu_drain_order3,pcpu_drain_order9,page_alloc_order2,"             \
	"zone_locked_order2,zone_locked_order2_refill,tlb_flush"

static const struct {
	const char *name, *list;
	enum smm_engine engine;
} settings[] = {
	{ "off", NULL, SMM_ENGINE_AUTO },
	{ "perf", EVENTS_ALL, SMM_ENGINE_PERF },
	{ "bpf", EVENTS_ALL, SMM_ENGINE_BPF },
	{ "bpf+waits", "all", SMM_ENGINE_BPF },
};
#define NS (sizeof(settings) / sizeof(settings[0]))
#define MAX_RUNS 15

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#define ROUND_BYTES ((size_t)64 * 4096)

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Rounds of map-populate + unmap for @secs of wall-clock time; returns
 * the CPU ns (user + system, this thread's) per round: what the host's
 * other work does not change, and where the tracepoints' cost lands. */
static double loop(double secs, unsigned long *rounds)
{
	double t0 = now(), c0 = cpu_now(), t;
	unsigned long n = 0;

	do {
		for (int i = 0; i < 100; i++) {
			void *p =
				mmap(NULL, ROUND_BYTES, PROT_READ | PROT_WRITE,
				     MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
				     -1, 0);

			if (p != MAP_FAILED)
				munmap(p, ROUND_BYTES);
		}
		n += 100;
		t = now();
	} while (t - t0 < secs);
	*rounds = n;
	return (cpu_now() - c0) * 1e9 / (double)n;
}

static uint64_t hits(const struct smm_counters *cs)
{
	const char *names[] = { "page_alloc_order0", "zone_locked_order0",
				"pcpu_drain_order0", "tlb_flush" };
	uint64_t v = 0;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct smm_counter *c = smm_counters_get(cs, names[i]);

		if (c && !c->skip[0])
			v += c->value;
	}
	return v;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	double secs = 2, ns[NS][MAX_RUNS], ev[NS][MAX_RUNS], med[NS];
	double prog_ns[NS] = { 0 }, prog_runs[NS] = { 0 };
	int runs = 5, opt, stats_fd;
	char err[128];
	cpu_set_t set;

	while ((opt = getopt(argc, argv, "t:r:")) != -1) {
		if (opt == 't')
			secs = atof(optarg);
		else if (opt == 'r')
			runs = atoi(optarg);
		else
			return 2;
	}
	if (secs <= 0 || runs < 1 || runs > MAX_RUNS) {
		fprintf(stderr, "usage: event-cost [-t SECONDS] [-r 1..15]\n");
		return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	for (int r = 0; r < runs; r++) {
		for (size_t s = 0; s < NS; s++) {
			struct smm_counters cs;
			unsigned long n;

			memset(&cs, 0, sizeof(cs));
			if (settings[s].list &&
			    smm_counters_open(&cs, settings[s].list,
					      settings[s].engine, err,
					      sizeof(err)))
				return 1;
			if (settings[s].list)
				smm_counters_enable(&cs);
			ns[s][r] = loop(secs, &n);
			if (settings[s].list) {
				smm_counters_disable(&cs);
				smm_counters_read(&cs);
				if (cs.engine != settings[s].engine)
					fprintf(stderr, "event-cost: %s: %s\n",
						settings[s].name,
						cs.engine_why);
				ev[s][r] = (double)hits(&cs) / (double)n;
				smm_counters_free(&cs);
			} else {
				ev[s][r] = 0;
			}
		}
	}
	/* Then once more each BPF setting with the kernel timing its
	 * programs (while this descriptor is open; it costs two clock reads
	 * per run, so the runs above go without it). */
	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	for (size_t s = 0; s < NS && stats_fd >= 0; s++) {
		struct smm_counters cs;
		unsigned long n;
		uint64_t pr, pn;

		if (settings[s].engine != SMM_ENGINE_BPF ||
		    smm_counters_open(&cs, settings[s].list, settings[s].engine,
				      err, sizeof(err)))
			continue;
		smm_counters_enable(&cs);
		loop(secs, &n);
		smm_counters_disable(&cs);
		if (cs.bpf) {
			smm_bpf_run_stats(cs.bpf, &pr, &pn);
			prog_runs[s] = (double)pr;
			prog_ns[s] = (double)pn;
		}
		smm_counters_free(&cs);
	}
	if (stats_fd >= 0)
		close(stats_fd);
	printf("# event-cost: 1 thread on CPU 0, map 64 pages (MAP_POPULATE) and unmap them per round, %d runs x %.1f s per setting, interleaved; ns are the thread's CPU time\n",
	       runs, secs);
	printf("# %-10s %12s %22s %14s %16s %16s\n", "setting", "ns/round",
	       "[min, max]", "events/round", "ns per event", "prog ns/run");
	for (size_t s = 0; s < NS; s++) {
		double v[MAX_RUNS], e[MAX_RUNS];

		memcpy(v, ns[s], sizeof(v));
		memcpy(e, ev[s], sizeof(e));
		qsort(v, (size_t)runs, sizeof(double), cmp);
		qsort(e, (size_t)runs, sizeof(double), cmp);
		med[s] = v[runs / 2];
		printf("  %-10s %12.1f [%8.1f, %8.1f] %14.3f", settings[s].name,
		       med[s], v[0], v[runs - 1], e[runs / 2]);
		if (s && e[runs / 2] > 0)
			printf(" %16.1f", (med[s] - med[0]) / e[runs / 2]);
		else
			printf(" %16s", "-");
		if (prog_runs[s] > 0)
			printf(" %16.1f\n", prog_ns[s] / prog_runs[s]);
		else
			printf(" %16s\n", stats_fd >= 0 ? "-" : "no stats");
	}
	return 0;
}
