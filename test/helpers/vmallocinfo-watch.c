// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vmallocinfo-watch - sample /proc/vmallocinfo while something runs, and say
 * which areas of the given callers (and size) appeared: the tests' proof of
 * path.
 *
 *   vmallocinfo-watch FOR_MS EVERY_MS SIZE CALLER[,CALLER...]
 *
 * FOR_MS -1 samples until SIGTERM or SIGINT (then prints), and prints
 * "watching: N" first, once the baseline is taken: a window tied to the
 * run it watches, not to a guess of how long that run takes to start on a
 * busy machine (lib.sh watch_start, watch_stop). SIZE 0 means any size. Prints key:value lines:
 *   baseline: areas of those callers at the start
 *   max:      most such areas seen in one sample
 *   new:      distinct areas seen that were not there at the start
 *   size:     size in bytes of the most common new area (0 if none)
 *   pages:    its pages= value
 *   kind:     vmalloc, vmap or other
 *   samples:  samples taken
 * Exit status: 0, or 2 when the file cannot be read (message on stderr).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core-vmallocinfo.h"

#define MAX_CALLERS 16

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

int main(int argc, char **argv)
{
	const char *callers[MAX_CALLERS + 1] = { 0 };
	stress_vmallocinfo_area_t *base = NULL, *seen = NULL;
	size_t nb = 0, nseen = 0, cap = 0, maxc = 0;
	long until, every;
	uint64_t size;
	char *list, *tok, *save = NULL;
	int rc, ncallers = 0, samples = 0;

	if (argc != 5) {
		fprintf(stderr,
			"usage: vmallocinfo-watch FOR_MS EVERY_MS SIZE CALLER[,CALLER...]\n");
		return 2;
	}
	until = atol(argv[1]) < 0 ? -1 : now_ms() + atol(argv[1]);
	signal(SIGTERM, on_stop);
	signal(SIGINT, on_stop);
	every = atol(argv[2]);
	size = strtoull(argv[3], NULL, 10);
	list = argv[4];
	for (tok = strtok_r(list, ",", &save); tok && ncallers < MAX_CALLERS;
	     tok = strtok_r(NULL, ",", &save))
		callers[ncallers++] = tok;

	rc = stress_vmallocinfo_read(NULL, callers, size, &base, &nb);
	if (rc) {
		fprintf(stderr, "vmallocinfo-watch: %s: %s\n",
			STRESS_VMALLOCINFO_PATH, strerror(-rc));
		return 2;
	}
	if (until < 0) {
		printf("watching: %zu\n", nb);
		fflush(stdout);
	}
	do {
		stress_vmallocinfo_area_t *cur = NULL;
		size_t nc = 0, fresh;

		sleep_ms(every);
		if (stress_vmallocinfo_read(NULL, callers, size, &cur, &nc))
			break;
		samples++;
		if (nc > maxc)
			maxc = nc;
		fresh = stress_vmallocinfo_new(base, nb, cur, nc);
		/* Keep the ones not seen yet. */
		fresh = stress_vmallocinfo_new(seen, nseen, cur, fresh);
		if (nseen + fresh > cap) {
			cap = (nseen + fresh) * 2;
			seen = realloc(seen, cap * sizeof(*seen));
			if (!seen)
				return 2;
		}
		memcpy(seen + nseen, cur, fresh * sizeof(*cur));
		nseen += fresh;
		free(cur);
	} while (!stop && (until < 0 || now_ms() < until));

	{
		size_t bestc, best = stress_vmallocinfo_mode(seen, nseen, 512,
							     &bestc);

		printf("baseline: %zu\nmax: %zu\nnew: %zu\n", nb, maxc, nseen);
		printf("size: %llu\npages: %lu\nkind: %s\nsamples: %d\n",
		       nseen ? (unsigned long long)seen[best].size : 0ULL,
		       nseen ? seen[best].pages : 0UL,
		       !nseen ? "none"
		       : (seen[best].flags & STRESS_VMALLOCINFO_VMALLOC)
			       ? "vmalloc"
		       : (seen[best].flags & STRESS_VMALLOCINFO_VMAP) ? "vmap"
								      : "other",
		       samples);
	}
	free(base);
	free(seen);
	return 0;
}
