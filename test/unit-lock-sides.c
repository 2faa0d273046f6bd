// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-lock-sides.c - the sides of zone-lock waits from a kallsyms file
 * (lock-sides.h): each side function's range ends where the next text symbol
 * starts, whatever the file's order; compiler clones count, look-alike
 * names do not; a side whose functions are all inlined is told with the
 * reason, and so is "other", which would take its waits; hidden addresses
 * (kptr_restrict) and a missing file leave every side with a reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lock-sides.h"
#include "tap.h"

static char path[] = "/tmp/unit-lock-sides.XXXXXX";

static void write_file(const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static int has_range(const struct smm_lock_sides *ks, unsigned long long s,
		     unsigned long long e, int side)
{
	for (unsigned int i = 0; i < ks->n; i++)
		if (ks->r[i].start == s && ks->r[i].end == e &&
		    (int)ks->r[i].side == side)
			return 1;
	return 0;
}

int main(void)
{
	struct smm_lock_sides ks;
	int fd = mkstemp(path), rc;

	tap_plan(10);
	if (fd < 0)
		return 1;
	close(fd);
	/* 6.18's shape, out of order: rmqueue_bulk inlined */
	write_file("ffffffff81632aa0 t drain_pages_zone\n"
		   "ffffffff81631e20 t free_one_page\n"
		   "ffffffff81631fc0 t __free_pages_ok\n"
		   "ffffffff816327f0 t free_pcppages_bulk\n"
		   "ffffffff816368f0 t __rmqueue_pcplist\n"
		   "ffffffff81636f00 T rmqueue_bulky_lookalike\n"
		   "ffffffff81640000 D some_data\n"
		   "ffffffff81637000 t __rmqueue_pcplist.cold\n"
		   "ffffffff81638000 t free_one_page.isra.0\n"
		   "ffffffff81638100 T next_function\n");
	rc = smm_lock_sides_read(&ks, path);
	tap_ok(rc == 0, "read (%d)", rc);
	tap_ok(has_range(&ks, 0xffffffff816368f0ULL, 0xffffffff81636f00ULL,
			 SMM_SIDE_ALLOC),
	       "__rmqueue_pcplist stands for the inlined rmqueue_bulk, up to the next text symbol");
	tap_ok(has_range(&ks, 0xffffffff816327f0ULL, 0xffffffff81632aa0ULL,
			 SMM_SIDE_FREE) &&
		       has_range(&ks, 0xffffffff81631e20ULL,
				 0xffffffff81631fc0ULL, SMM_SIDE_FREE),
	       "free_pcppages_bulk and free_one_page are the free side");
	tap_ok(has_range(&ks, 0xffffffff81637000ULL, 0xffffffff81638000ULL,
			 SMM_SIDE_ALLOC) &&
		       has_range(&ks, 0xffffffff81638000ULL,
				 0xffffffff81638100ULL, SMM_SIDE_FREE),
	       "compiler clones (.cold, .isra.0) count as their function");
	tap_ok(ks.n == 5,
	       "nothing else: a look-alike name and data do not count (%u ranges)",
	       ks.n);
	tap_ok(!ks.why[0][0] && !ks.why[1][0] && !ks.why[2][0],
	       "every side can be told");

	write_file("ffffffff81631e20 t free_one_page\n"
		   "ffffffff81632000 t get_page_from_freelist\n");
	smm_lock_sides_read(&ks, path);
	tap_ok(strstr(ks.why[SMM_SIDE_ALLOC],
		      "rmqueue_bulk,__rmqueue_pcplist") &&
		       strstr(ks.why[SMM_SIDE_ALLOC], "inlined"),
	       "all allocation-side functions inlined: told why (%s)",
	       ks.why[SMM_SIDE_ALLOC]);
	tap_ok(ks.why[SMM_SIDE_OTHER][0] && !ks.why[SMM_SIDE_FREE][0],
	       "then \"other\" cannot be counted either, the free side can (%s)",
	       ks.why[SMM_SIDE_OTHER]);

	write_file("0000000000000000 t free_one_page\n"
		   "0000000000000000 t __rmqueue_pcplist\n"
		   "0000000000000000 t free_pcppages_bulk\n");
	smm_lock_sides_read(&ks, path);
	tap_ok(ks.n == 0 && strstr(ks.why[SMM_SIDE_FREE], "kptr_restrict"),
	       "hidden addresses: no range, every side says why (%s)",
	       ks.why[SMM_SIDE_FREE]);
	unlink(path);
	rc = smm_lock_sides_read(&ks, path);
	tap_ok(rc < 0 && strstr(ks.why[SMM_SIDE_OTHER], "unreadable"),
	       "no file: an errno and the reason (%d)", rc);
	return tap_done();
}
