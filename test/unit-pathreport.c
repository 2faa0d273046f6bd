// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-pathreport.c - a path's report line (worker/vmproof.c) into its
 * fields (front-end/pathreport.h): vmalloc with an order, a page count
 * that is not a power of two, a vmap area, a churn path whose name holds
 * ": ", and lines that are not reports.
 */
#include <string.h>

#include "pathreport.h"
#include "tap.h"

int main(void)
{
	struct smm_path_report r;

	tap_plan(6);
	tap_ok(smm_path_report_parse(
		       "vmalloc-order: stack: kernel thread stacks are vmalloc areas of 20480 bytes (16K + guard page), pages=4 (order 2), caller kernel_clone; probe: 24 live threads, 24 new areas system-wide",
		       &r) &&
		       !strcmp(r.path, "stack") && !strcmp(r.kind, "vmalloc") &&
		       r.area_bytes == 20480 && r.pages == 4 && r.order == 2 &&
		       !strcmp(r.caller, "kernel_clone"),
	       "stack: vmalloc, 20480 bytes, 4 pages, order 2, kernel_clone");
	tap_ok(smm_path_report_parse(
		       "vmalloc-order: pty: N_TTY line disciplines (2 per pty) are vmalloc areas of 16384 bytes (12K + guard page), pages=3, caller n_tty_open; probe: 16 live ptys, 32 new areas system-wide",
		       &r) &&
		       r.pages == 3 && r.order == -1 &&
		       !strcmp(r.caller, "n_tty_open"),
	       "pty: 3 pages, not a power of two");
	tap_ok(smm_path_report_parse(
		       "vmalloc-order: io-uring rings: provided-buffer rings of 1024 entries in user memory are vmap areas of 20480 bytes (16K + guard page), no pages=, caller io_create_region; probe: 16 live rings, 16 new areas system-wide",
		       &r) &&
		       !strcmp(r.path, "io-uring rings") &&
		       !strcmp(r.kind, "vmap") && r.pages == 0 &&
		       r.order == -1 && !strcmp(r.caller, "io_create_region"),
	       "io-uring rings: vmap, no pages, io_create_region");
	tap_ok(smm_path_report_parse(
		       "shm-pcp: churn: stack: kernel thread stacks are vmalloc areas of 20480 bytes (16K + guard page), pages=4 (order 2), caller kernel_clone; probe: 32 live threads, 30 new areas system-wide",
		       &r) &&
		       !strcmp(r.path, "churn: stack"),
	       "a churn path keeps its whole name (%s)", r.path);
	tap_ok(!smm_path_report_parse(
		       "vmalloc-order: all: leaving out fdtable: 16 forked children added no alloc_fdtable area to /proc/vmallocinfo",
		       &r),
	       "a leaving-out line is not a report");
	tap_ok(!smm_path_report_parse(
		       "shm-pcp: posix object of 8388608 bytes per bogo-op, churn stack x 1 (batch 32), placement same: worker on CPU 0 (slot 0), 1 companions on CPU 0",
		       &r) &&
		       !smm_path_report_parse(
			       "vmalloc-order: x are vmalloc areas of 12", &r),
	       "the placement line and a truncated line are not reports");
	return tap_done();
}
