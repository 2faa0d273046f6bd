/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pathreport.h - what a path achieved, read back from the report line the
 * worker prints once per run (worker/vmproof.c smm_vmproof_report()):
 *
 *   <stressor>: <path>: <what> are <vmalloc|vmap> areas of <N> bytes
 *       (<size> + guard page), <pages=P (order O)|pages=P|no pages=>,
 *       caller <function>; probe: ...
 *
 * "pages=P" without an order: P is not a power of two; "no pages=": a vmap
 * area, whose pages come from elsewhere. The YAML report writes the fields
 * (yreport.h) next to the line itself.
 */
#ifndef SMM_PATHREPORT_H
#define SMM_PATHREPORT_H

#include <stdbool.h>
#include <stdint.h>

struct smm_path_report {
	char path[48]; /* "stack", "io-uring rings", "churn: stack" */
	char kind[8]; /* "vmalloc" or "vmap" */
	uint64_t area_bytes; /* vmallocinfo's size, guard page included */
	uint64_t pages; /* 0: none counted (vmap) */
	int order; /* log2(pages); -1: not a power of two or no pages */
	char caller[64];
};

/*
 * smm_path_report_parse() - the fields of one line of the form above.
 * Return: true and *out filled; false when the line is not of that form
 * (a note, a clamp, a "leaving out" line).
 */
bool smm_path_report_parse(const char *line, struct smm_path_report *out);

#endif /* SMM_PATHREPORT_H */
