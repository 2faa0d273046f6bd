// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-counters.c - counters that cannot count are skipped with their
 * reason and leave no descriptor open: a tracefs whose event id no kernel
 * has (perf_event_open fails on every CPU), one without the event, the
 * real tracefs with a name that is not a counter, and a real event that
 * opens on CPU 0 and fails on CPU 1 (RLIMIT_NOFILE leaves room for one
 * descriptor): closed, never half counted. The perf filters made from
 * the table are the ones `perf stat --filter` takes, and the BPF
 * engine's bins sum to the same counters.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
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

/* The filters perf sets, as written by hand before the table made them. */
static const char *const filters[][2] = {
	{ "page_alloc_order0", "order == 0" },
	{ "zone_locked_order0", "order == 0" },
	{ "zone_locked_order0_unmovable", "order == 0 && migratetype == 0" },
	{ "zone_locked_order0_movable", "order == 0 && migratetype == 1" },
	{ "zone_locked_order0_reclaimable", "order == 0 && migratetype == 2" },
	{ "zone_locked_order0_refill", "order == 0 && percpu_refill == 1" },
	{ "zone_locked_order0_movable_refill",
	  "order == 0 && migratetype == 1 && percpu_refill == 1" },
	{ "zone_locked_order0_unmovable_refill",
	  "order == 0 && migratetype == 0 && percpu_refill == 1" },
	{ "extfrag_order0", "alloc_order == 0" },
	{ "pcpu_drain_order0", "order == 0" },
	{ "pcpu_drain_order9", "order == 9" },
	{ "page_alloc_order2", "order == 2" },
	{ "zone_locked_order2_refill", "order == 2 && percpu_refill == 1" },
	{ "tlb_flush", "" },
};

static void check_filters(void)
{
	char buf[128], bad[256] = "";
	size_t n = sizeof(filters) / sizeof(filters[0]);

	for (size_t i = 0; i < n; i++) {
		const struct smm_counter_spec *s =
			smm_counter_spec_of(filters[i][0]);

		if (!s || strcmp(smm_counter_filter(s, buf, sizeof(buf)),
				 filters[i][1]))
			snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad),
				 " %s='%s'", filters[i][0], s ? buf : "?");
	}
	tap_ok(!bad[0],
	       "the table's perf filters are perf stat's (%zu checked;%s)", n,
	       bad[0] ? bad : " all equal");
}

static uint64_t of_bins(const char *name, const struct smm_bpf_counts *b)
{
	const struct smm_counter_spec *s = smm_counter_spec_of(name);

	return s ? smm_counter_of_bins(s, b) : (uint64_t)-1;
}

static void check_bins(void)
{
	static struct smm_bpf_counts b;

	b.zone_locked[0][1][1] = 7; /* order 0 MOVABLE refill */
	b.zone_locked[0][0][1] = 3; /* order 0 UNMOVABLE refill */
	b.zone_locked[0][1][0] = 2; /* order 0 MOVABLE, not a refill */
	b.zone_locked[0][SMM_BPF_MTS - 1][0] = 1; /* another migratetype */
	b.zone_locked[2][0][1] = 5;
	b.zone_locked[SMM_BPF_ORDERS - 1][1][1] = 100; /* order >= 15 */
	b.alloc[0] = 11;
	b.alloc[2] = 13;
	b.drain[9] = 4;
	b.extfrag[0] = 6;
	b.tlb_flush = 8;
	b.spin_waits = 21;
	b.zone_waits[SMM_SIDE_FREE] = 9;
	b.zone_wait_ns[SMM_SIDE_ALLOC] = 1234;
	tap_ok(of_bins("zone_locked_order0", &b) == 13 &&
		       of_bins("zone_locked_order0_movable", &b) == 9 &&
		       of_bins("zone_locked_order0_unmovable", &b) == 3 &&
		       of_bins("zone_locked_order0_reclaimable", &b) == 0 &&
		       of_bins("zone_locked_order0_refill", &b) == 10 &&
		       of_bins("zone_locked_order0_movable_refill", &b) == 7 &&
		       of_bins("zone_locked_order0_unmovable_refill", &b) ==
			       3 &&
		       of_bins("zone_locked_order2", &b) == 5 &&
		       of_bins("zone_locked_order2_refill", &b) == 5,
	       "zone-locked counters are the sums of their bins");
	tap_ok(of_bins("page_alloc_order0", &b) == 11 &&
		       of_bins("page_alloc_order2", &b) == 13 &&
		       of_bins("pcpu_drain_order9", &b) == 4 &&
		       of_bins("pcpu_drain_order0", &b) == 0 &&
		       of_bins("extfrag_order0", &b) == 6 &&
		       of_bins("tlb_flush", &b) == 8,
	       "the other events' counters are their order's bin");
	tap_ok(of_bins("spinlock_waits", &b) == 21 &&
		       of_bins("zone_lock_waits_free", &b) == 9 &&
		       of_bins("zone_lock_waits_alloc", &b) == 0 &&
		       of_bins("zone_lock_wait_ns_alloc", &b) == 1234,
	       "zone-lock waits and ns by side");
}

/*
 * The real tracefs (mounted by someone, or by us on a directory of our
 * own, which *@ours then names for unmounting), or NULL.
 */
static const char *real_tracefs(char *ours)
{
	static const char *const where[] = { "/sys/kernel/tracing",
					     "/sys/kernel/debug/tracing" };
	char ev[128];
	struct stat st;

	ours[0] = 0;
	for (int i = 0; i < 2; i++) {
		snprintf(ev, sizeof(ev), "%s/events/kmem", where[i]);
		if (stat(ev, &st) == 0)
			return where[i];
	}
	strcpy(ours, "/tmp/unit-counters-tracefs.XXXXXX");
	if (!mkdtemp(ours) || mount("tracefs", ours, "tracefs", 0, NULL)) {
		if (ours[0] == '/')
			rmdir(ours);
		ours[0] = 0;
		return NULL;
	}
	return ours;
}

/* A counter that opens on CPU 0 and fails on CPU 1 with EMFILE. */
static void test_later_cpu(void)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	const struct smm_counter *c;
	struct smm_counters cs;
	char ours[64], err[128];
	struct rlimit old, one;
	const char *tfs;
	int before, lowest, rc, full;

	tfs = real_tracefs(ours);
	if (!tfs || ncpu < 2) {
		tap_skip("a counter failing on a later CPU is closed", "%s",
			 tfs ? "one CPU: no later CPU" : "no tracefs");
		return;
	}
	rc = smm_counters_open_at(&cs, "page_alloc_order0", tfs, err,
				  sizeof(err));
	c = smm_counters_get(&cs, "page_alloc_order0");
	full = rc == 0 && c && !c->skip[0] && c->nfds == (int)ncpu;
	if (!full) {
		tap_skip("a counter failing on a later CPU is closed",
			 "it does not open here: %s", c ? c->skip : err);
		smm_counters_free(&cs);
		goto out;
	}
	smm_counters_free(&cs);
	before = open_fds();
	lowest = dup(0);
	close(lowest);
	getrlimit(RLIMIT_NOFILE, &old);
	one = old;
	one.rlim_cur = (rlim_t)lowest + 1; /* the id file, then CPU 0 */
	setrlimit(RLIMIT_NOFILE, &one);
	rc = smm_counters_open_at(&cs, "page_alloc_order0", tfs, err,
				  sizeof(err));
	setrlimit(RLIMIT_NOFILE, &old);
	c = smm_counters_get(&cs, "page_alloc_order0");
	tap_ok(rc == 0 && c && strstr(c->skip, "on CPU 1 errno=24") &&
		       c->nfds == 0 && !c->fds && open_fds() == before,
	       "opened on CPU 0, EMFILE on CPU 1: skipped (%s), %d descriptors kept, %d -> %d open",
	       c ? c->skip : "none", c ? c->nfds : -1, before, open_fds());
	smm_counters_free(&cs);
out:
	if (ours[0]) {
		umount(ours);
		rmdir(ours);
	}
}

int main(void)
{
	char dir[] = "/tmp/unit-counters.XXXXXX", err[128];
	const struct smm_counter *c;
	struct smm_counters cs;
	int before, rc;

	tap_plan(10);
	check_filters();
	check_bins();
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
	test_later_cpu();
	put(dir, "events/kmem/mm_page_alloc/id", "");
	snprintf(err, sizeof(err), "rm -rf %s", dir);
	if (system(err) != 0)
		tap_diag("could not remove %s", dir);
	return tap_done();
}
