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
 * Prints "side alloc|free|other waits N ns N" lines, then one verdict
 * line: "PASS: <side> dominant (...)", "FAIL: ...", or "SKIP: <reason>"
 * when the waits cannot be counted here (the counters' own reason).
 * Exit status 0 pass, 1 fail, 2 usage, 4 skip.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
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

static int report(const struct smm_counters *cs, int free_mode)
{
	const char *sides[] = { "alloc", "free", "other" };
	uint64_t w[3], ns[3];
	char name[64];

	/* the zones whose locks waited, as the kernel names them */
	for (int i = 0; i < SMM_BPF_ZONES && cs->bins.zones[i].lock; i++)
		printf("zone: node %d, zone %s (index %u)\n",
		       cs->bins.zones[i].nid, cs->bins.zones[i].name,
		       cs->bins.zones[i].idx);
	if (cs->waits_how[0])
		printf("waits seen: %s\n", cs->waits_how);

	for (int s = 0; s < 3; s++) {
		const struct smm_counter *c;

		snprintf(name, sizeof(name), "zone_lock_waits_%s", sides[s]);
		c = smm_counters_get(cs, name);
		if (!c || c->skip[0]) {
			printf("SKIP: %s\n", c ? c->skip : "no counter");
			return 4;
		}
		w[s] = c->value;
		snprintf(name, sizeof(name), "zone_lock_wait_ns_%s", sides[s]);
		c = smm_counters_get(cs, name);
		ns[s] = c && !c->skip[0] ? c->value : 0;
		printf("side %s waits %llu ns %llu\n", sides[s],
		       (unsigned long long)w[s], (unsigned long long)ns[s]);
	}
	{
		int want = free_mode ? 1 : 0, other = !want;

		if (w[want] >= MIN_WAITS && w[want] > DOMINANCE * w[other]) {
			printf("PASS: %s side dominant (%llu waits against %llu on the %s side)\n",
			       sides[want], (unsigned long long)w[want],
			       (unsigned long long)w[other], sides[other]);
			return 0;
		}
		printf("FAIL: expected the %s side dominant (at least %d waits, over %dx the %s side's): %llu against %llu\n",
		       sides[want], MIN_WAITS, DOMINANCE, sides[other],
		       (unsigned long long)w[want],
		       (unsigned long long)w[other]);
		return 1;
	}
}

int main(int argc, char **argv)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct smm_counters cs;
	struct shared *sh;
	char err[128];
	double secs;
	size_t len;
	const struct source *src = &sources[0];
	int free_mode, rc;

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
	rc = smm_counters_open(&cs, LIST, SMM_ENGINE_BPF, err, sizeof(err));
	if (rc) {
		printf("SKIP: counters: %s\n", strerror(-rc));
		return 4;
	}
	printf("mode %s, %ld workers, %zu MiB each by %s, %.0f s\n", argv[1],
	       ncpu, len >> 20, src->name, secs);
	for (long i = 0; i < ncpu; i++)
		if (fork() == 0)
			worker(sh, (int)i, free_mode, len, src);
	smm_counters_enable(&cs);
	run(sh, (unsigned int)ncpu, secs);
	smm_counters_disable(&cs);
	smm_counters_read(&cs);
	rc = report(&cs, free_mode);
	smm_counters_free(&cs);
	return rc;
}
