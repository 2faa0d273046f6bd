// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * zl-proof - does the BPF engine put a zone-lock wait on the side that
 * waits? Workers (one per online CPU, each pinned to its CPU) repeat: all
 * take MB MiB of order-0 pages, then all give them back, with a barrier
 * between the phases. One phase is made to wait and the other not: in
 * "free" mode the workers allocate one at a time (a token) on CPU 0 and
 * free all at once on their own CPUs, so only frees meet on the zone lock
 * (free_pcppages_bulk: PCP lists over their high mark); in "alloc" mode
 * they allocate all at once on their CPUs, whose PCP lists are empty
 * (rmqueue_bulk refills), and free one at a time on CPU 0. The zone-lock
 * wait counters (counters.h, engine bpf) count around it.
 *
 * SOURCE says how the pages are taken and given back: "fault" (default)
 * write-faults private anonymous memory (THP off for it) and unmaps it;
 * every fault zeroes its page, so a refill holds the zone lock for one
 * batch between a batch's worth of page clearing. "fallocate" fallocate()s
 * a memfd (shmem: order-0 folios, cleared only when first read, which
 * never happens here) and truncates it: the allocation phase is mostly
 * the page allocator, and refills follow each other closely.
 *
 *   zl-proof MODE SECONDS [MB [SOURCE]]    MODE free or alloc
 *
 * The counters count the whole machine: a window as long without the
 * workload comes first and says what the rest of the machine waits.
 *
 *   zl-proof judge MODE ALLOC_WAITS FREE_WAITS [QUIET_OTHER]
 *
 * judges recorded counts the same way (judge() below).
 *
 * Prints "side alloc|free|other waits N ns N" lines, then one verdict
 * line: "PASS: <side> dominant (...)"; "FAIL: ..." only when the waits
 * landed on the other side, dominant there, more than the rest of the
 * machine explains; "SKIP: <reason>" when the waits cannot be counted here
 * (the counters' own reason) or are too few or mixed to judge (the
 * counts). Exit status 0 pass, 1 fail, 2 usage, 4 skip.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "counters.h"

#define LIST                                                                \
	"zone_lock_waits_alloc,zone_lock_waits_free,zone_lock_waits_other," \
	"zone_lock_wait_ns_alloc,zone_lock_wait_ns_free,"                   \
	"zone_lock_wait_ns_other,spinlock_waits"
#define DOMINANCE 3 /* the expected side's waits over the other's */
#define MIN_WAITS 10

struct shared {
	pthread_barrier_t bar;
	pthread_mutex_t token;
	volatile int stop;
};

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* The phase that must not wait runs one worker at a time, all on CPU 0:
 * its pages go through CPU 0's PCP lists only, so the other CPUs' lists
 * are left empty (alloc mode: every allocation on them refills) or full
 * (free mode: every free on them drains). */
static void phase(struct shared *sh, int serial, int cpu,
		  void (*fn)(void *, size_t), void *p, size_t len)
{
	if (serial) {
		pthread_mutex_lock(&sh->token);
		pin(0);
	}
	fn(p, len);
	if (serial) {
		pin(cpu);
		pthread_mutex_unlock(&sh->token);
	}
}

static void touch(void *p, size_t len)
{
	long pg = sysconf(_SC_PAGESIZE);

	for (size_t o = 0; o < len; o += (size_t)pg)
		((volatile char *)p)[o] = 1;
}

static void unmap(void *p, size_t len)
{
	munmap(p, len);
}

/* The memfd's pages, without touching them (@p: the fd). */
static void falloc(void *p, size_t len)
{
	if (fallocate((int)(intptr_t)p, 0, 0, (off_t)len))
		_exit(1);
}

static void truncate_all(void *p, size_t len)
{
	(void)len;
	if (ftruncate((int)(intptr_t)p, 0))
		_exit(1);
}

/* How a worker takes its pages and gives them back; @memfd: on a memfd
 * (passed as the pointer), else on a fresh private mapping each round. */
struct source {
	const char *name;
	void (*take)(void *, size_t);
	void (*give)(void *, size_t);
	int memfd;
};

static const struct source sources[] = {
	{ "fault", touch, unmap, 0 },
	{ "fallocate", falloc, truncate_all, 1 },
};

static void worker(struct shared *sh, int cpu, int free_mode, size_t len,
		   const struct source *src)
{
	int fd = -1;

	pin(cpu);
	if (src->memfd) {
		fd = memfd_create("zl-proof", MFD_CLOEXEC);
		if (fd < 0)
			_exit(1);
	}
	for (;;) {
		void *p = (void *)(intptr_t)fd;
		int stop;

		pthread_barrier_wait(&sh->bar);
		stop = sh->stop;
		pthread_barrier_wait(&sh->bar);
		if (stop)
			_exit(0);
		if (fd < 0) {
			p = mmap(NULL, len, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (p == MAP_FAILED)
				_exit(1);
			madvise(p, len, MADV_NOHUGEPAGE);
		}
		phase(sh, free_mode, cpu, src->take, p, len);
		pthread_barrier_wait(&sh->bar);
		phase(sh, !free_mode, cpu, src->give, p, len);
	}
}

static int shared_init(struct shared *sh, unsigned int n)
{
	pthread_barrierattr_t ba;
	pthread_mutexattr_t ma;

	pthread_barrierattr_init(&ba);
	pthread_barrierattr_setpshared(&ba, PTHREAD_PROCESS_SHARED);
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	/* the workers and the parent, which says when to stop */
	return pthread_barrier_init(&sh->bar, &ba, n + 1) ||
	       pthread_mutex_init(&sh->token, &ma);
}

/* Let the workers run for @secs, then stop them at a round's start. */
static void run(struct shared *sh, unsigned int n, double secs)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		sh->stop = (double)(t.tv_sec - t0.tv_sec) +
				   (double)(t.tv_nsec - t0.tv_nsec) / 1e9 >=
			   secs;
		pthread_barrier_wait(&sh->bar);
		pthread_barrier_wait(&sh->bar);
		if (sh->stop)
			break;
		pthread_barrier_wait(&sh->bar); /* between the phases */
	}
	for (unsigned int i = 0; i < n; i++)
		wait(NULL);
}

/* One window's waits: alloc, free, other; @ok false where the counters
 * could not count them, with the counters' reason in @skip. */
struct waits {
	uint64_t w[3], ns[3];
	bool ok;
	char skip[256];
};

static const char *const sides[] = { "alloc", "free", "other" };

static void take(const struct smm_counters *cs, struct waits *out)
{
	char name[64];

	memset(out, 0, sizeof(*out));
	out->ok = true;
	for (int s = 0; s < 3; s++) {
		const struct smm_counter *c;

		snprintf(name, sizeof(name), "zone_lock_waits_%s", sides[s]);
		c = smm_counters_get(cs, name);
		if (!c || c->skip[0]) {
			snprintf(out->skip, sizeof(out->skip), "%s",
				 c ? c->skip : "no counter");
			out->ok = false;
			return;
		}
		out->w[s] = c->value;
		snprintf(name, sizeof(name), "zone_lock_wait_ns_%s", sides[s]);
		c = smm_counters_get(cs, name);
		out->ns[s] = c && !c->skip[0] ? c->value : 0;
	}
}

/*
 * The judgement, from counts alone (so that recorded counts can be judged
 * too): @want and @other are the two sides' waits during the workload,
 * @quiet_other the other side's waits in a window as long without it (the
 * rest of the machine). PASS when the side that must wait has at least
 * MIN_WAITS and over DOMINANCE times the other's; FAIL only when the
 * attribution is inverted (the other side dominant in the same terms) and
 * the rest of the machine does not explain it; otherwise too few or mixed
 * waits to judge: SKIP with the counts.
 */
static int judge(int free_mode, uint64_t want, uint64_t other,
		 uint64_t quiet_other)
{
	const char *ws = sides[free_mode ? 1 : 0],
		   *os = sides[free_mode ? 0 : 1];

	if (want >= MIN_WAITS && want > DOMINANCE * other) {
		printf("PASS: %s side dominant (%llu waits against %llu on the %s side)\n",
		       ws, (unsigned long long)want, (unsigned long long)other,
		       os);
		return 0;
	}
	if (other >= MIN_WAITS && other > DOMINANCE * want) {
		if (DOMINANCE * quiet_other >= other) {
			printf("SKIP: the %s side dominant (%llu against %llu), but the machine waited %llu times there without the workload: too busy to judge\n",
			       os, (unsigned long long)other,
			       (unsigned long long)want,
			       (unsigned long long)quiet_other);
			return 4;
		}
		printf("FAIL: the waits landed on the %s side (%llu against %llu on the %s side, %llu there without the workload); expected the %s side dominant\n",
		       os, (unsigned long long)other, (unsigned long long)want,
		       ws, (unsigned long long)quiet_other, ws);
		return 1;
	}
	printf("SKIP: too few or mixed zone-lock waits to judge: %llu on the %s side against %llu on the %s side (needs %d and %dx on one side)\n",
	       (unsigned long long)want, ws, (unsigned long long)other, os,
	       MIN_WAITS, DOMINANCE);
	return 4;
}

static void report(const struct smm_counters *cs, const struct waits *wt)
{
	/* the zones whose locks waited, as the kernel names them */
	for (int i = 0; i < SMM_BPF_ZONES && cs->bins.zones[i].lock; i++)
		printf("zone: node %d, zone %s (index %u)\n",
		       cs->bins.zones[i].nid, cs->bins.zones[i].name,
		       cs->bins.zones[i].idx);
	if (cs->waits_how[0])
		printf("waits seen: %s\n", cs->waits_how);
	for (int s = 0; s < 3; s++)
		printf("side %s waits %llu ns %llu\n", sides[s],
		       (unsigned long long)wt->w[s],
		       (unsigned long long)wt->ns[s]);
}

/* Open the wait counters; @wt->skip says why not. */
static int open_waits(struct smm_counters *cs, struct waits *wt)
{
	char err[128];
	int rc = smm_counters_open(cs, LIST, SMM_ENGINE_BPF, err, sizeof(err));

	if (rc) {
		snprintf(wt->skip, sizeof(wt->skip), "counters: %s",
			 strerror(-rc));
		wt->ok = false;
	}
	return rc;
}

/* Stop counting and take the window's waits. */
static void close_waits(struct smm_counters *cs, struct waits *wt, bool show)
{
	smm_counters_disable(cs);
	smm_counters_read(cs);
	take(cs, wt);
	if (show)
		report(cs, wt);
	smm_counters_free(cs);
}

/* zl-proof judge free|alloc ALLOC_WAITS FREE_WAITS [QUIET_OTHER]: the
 * verdict on recorded counts. */
static int judge_recorded(int argc, char **argv)
{
	int free_mode;
	uint64_t a, f, q;

	if (argc < 5 || (strcmp(argv[2], "free") && strcmp(argv[2], "alloc")))
		return 2;
	free_mode = !strcmp(argv[2], "free");
	a = strtoull(argv[3], NULL, 10);
	f = strtoull(argv[4], NULL, 10);
	q = argc > 5 ? strtoull(argv[5], NULL, 10) : 0;
	return judge(free_mode, free_mode ? f : a, free_mode ? a : f, q);
}

int main(int argc, char **argv)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct smm_counters cs;
	struct waits quiet, busy;
	struct shared *sh;
	double secs;
	size_t len;
	const struct source *src = &sources[0];
	int free_mode, want, other;

	if (argc > 1 && !strcmp(argv[1], "judge")) {
		int rc = judge_recorded(argc, argv);

		if (rc == 2)
			fprintf(stderr,
				"usage: zl-proof judge free|alloc ALLOC_WAITS FREE_WAITS [QUIET_OTHER]\n");
		return rc;
	}
	if (argc > 4) {
		src = NULL;
		for (size_t i = 0; i < sizeof(sources) / sizeof(sources[0]);
		     i++)
			if (!strcmp(argv[4], sources[i].name))
				src = &sources[i];
	}
	if (argc < 3 || !src ||
	    (strcmp(argv[1], "free") != 0 && strcmp(argv[1], "alloc") != 0)) {
		fprintf(stderr,
			"usage: zl-proof free|alloc SECONDS [MB [fault|fallocate]]\n");
		return 2;
	}
	free_mode = !strcmp(argv[1], "free");
	secs = atof(argv[2]);
	len = (size_t)(argc > 3 ? atol(argv[3]) : 32) << 20;
	if (secs <= 0 || !len || ncpu < 1) {
		fprintf(stderr, "zl-proof: SECONDS and MB must be > 0\n");
		return 2;
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED || shared_init(sh, (unsigned int)ncpu))
		return 1;
	/* the rest of the machine, for as long, before the workload */
	memset(&quiet, 0, sizeof(quiet));
	if (open_waits(&cs, &quiet) == 0) {
		struct timespec ts = { (time_t)secs,
				       (long)((secs - (double)(time_t)secs) *
					      1e9) };

		smm_counters_enable(&cs);
		nanosleep(&ts, NULL);
		close_waits(&cs, &quiet, false);
	}
	if (!quiet.ok) {
		printf("SKIP: %s\n", quiet.skip);
		return 4;
	}
	printf("without the workload, %.0f s: alloc %llu, free %llu, other %llu waits\n",
	       secs, (unsigned long long)quiet.w[0],
	       (unsigned long long)quiet.w[1], (unsigned long long)quiet.w[2]);
	memset(&busy, 0, sizeof(busy));
	if (open_waits(&cs, &busy)) {
		printf("SKIP: %s\n", busy.skip);
		return 4;
	}
	printf("mode %s, %ld workers, %zu MiB each by %s, %.0f s\n", argv[1],
	       ncpu, len >> 20, src->name, secs);
	for (long i = 0; i < ncpu; i++)
		if (fork() == 0)
			worker(sh, (int)i, free_mode, len, src);
	smm_counters_enable(&cs);
	run(sh, (unsigned int)ncpu, secs);
	close_waits(&cs, &busy, true);
	if (!busy.ok) {
		printf("SKIP: %s\n", busy.skip);
		return 4;
	}
	want = free_mode ? 1 : 0;
	other = !want;
	return judge(free_mode, busy.w[want], busy.w[other], quiet.w[other]);
}
