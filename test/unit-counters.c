// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-counters.c - counters that cannot count are skipped with their
 * reason and leave no descriptor open: a tracefs whose event id no kernel
 * has (perf_event_open fails on every CPU), one without the event, and the
 * real tracefs with a name that is not a counter.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "counters.h"
#include "tap.h"

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

static void put(const char *dir, const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

int main(void)
{
	char dir[] = "/tmp/unit-counters.XXXXXX", err[128];
	const struct smm_counter *c;
	struct smm_counters cs;
	int before, rc;

	tap_plan(5);
	if (!mkdtemp(dir))
		return 1;
	mkdir(strcat(strcpy(err, dir), "/events"), 0755);
	snprintf(err, sizeof(err), "%s/events/kmem", dir);
	mkdir(err, 0755);
	snprintf(err, sizeof(err), "%s/events/kmem/mm_page_alloc", dir);
	mkdir(err, 0755);
	put(dir, "events/kmem/mm_page_alloc/id", "4000000000\n");

	before = open_fds();
	rc = smm_counters_open_at(&cs, "page_alloc_order0", dir, err,
				  sizeof(err));
	c = smm_counters_get(&cs, "page_alloc_order0");
	tap_ok(rc == 0 && c && c->skip[0] && strstr(c->skip, "perf_event_open"),
	       "an event id no kernel has: skipped with the reason (%s)",
	       c ? c->skip : "none");
	tap_ok(open_fds() == before && c && c->nfds == 0,
	       "no descriptor is left open for it (%d -> %d)", before,
	       open_fds());
	smm_counters_free(&cs);

	rc = smm_counters_open_at(&cs, "tlb_flush", dir, err, sizeof(err));
	c = smm_counters_get(&cs, "tlb_flush");
	tap_ok(rc == 0 && c && strstr(c->skip, "not available"),
	       "an event the tracefs lacks: skipped (%s)", c ? c->skip : "");
	smm_counters_free(&cs);

	rc = smm_counters_open_at(&cs, "nope", dir, err, sizeof(err));
	tap_ok(rc == -EINVAL && !strcmp(err, "nope"),
	       "an unknown counter name is -EINVAL, named");
	smm_counters_free(&cs);

	rc = smm_counters_open_at(&cs, "all", dir, err, sizeof(err));
	{
		size_t skipped = 0;

		for (size_t i = 0; i < cs.n; i++)
			skipped += cs.c[i].skip[0] != 0;
		tap_ok(rc == 0 && cs.n == smm_nr_counter_specs &&
			       skipped == cs.n && open_fds() == before,
		       "all: every counter opened or skipped, none half open (%zu of %zu skipped)",
		       skipped, cs.n);
	}
	smm_counters_free(&cs);
	put(dir, "events/kmem/mm_page_alloc/id", "");
	snprintf(err, sizeof(err), "rm -rf %s", dir);
	if (system(err) != 0)
		tap_diag("could not remove %s", dir);
	return tap_done();
}
