/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * path-ldt.h - vmalloc-order path "ldt": x86 local descriptor tables.
 *
 * Kernel source: arch/x86/kernel/ldt.c. alloc_ldt_struct() __vmalloc()s the
 * table when it is larger than a page (more than 512 8-byte entries; at
 * most LDT_ENTRIES 8192, 16 pages); vmallocinfo names alloc_ldt_struct,
 * "pages=2..16 vmalloc". modify_ldt(1, ...) writing entry N-1 gives the
 * worker a table of N entries. The table belongs to the mm, so one process
 * holds one: ldt_dup_context() copies it, with a new vmalloc, into every
 * child forked, and the child's exit frees it (free_ldt_struct()).
 *
 * One batch: cfg->batch forked children (holder-children.h) alive at once, each
 * holding a copy of the worker's table, then reaped. Each child also costs
 * a thread stack and page tables, which the report says. Size:
 * cfg->bytes / 8 entries, within 513..8192 (2..16 pages).
 *
 * Setup errors (a SKIP): -EOPNOTSUPP off x86; the errno of modify_ldt
 * (ENOSYS without CONFIG_MODIFY_LDT_SYSCALL, EPERM under a seccomp profile
 * such as Docker's); the errno of the first fork; -EOPNOTSUPP when children
 * add no alloc_ldt_struct area to /proc/vmallocinfo.
 */
#ifndef SMM_PATH_LDT_H
#define SMM_PATH_LDT_H

#include "vmpath.h"

extern const struct smm_vmpath smm_vmpath_ldt;

#endif /* SMM_PATH_LDT_H */
