/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * path-fdtable.h - vmalloc-order path "fdtable": file descriptor tables.
 *
 * Kernel source: fs/file.c. Installing a descriptor above the table's size
 * (fcntl(F_DUPFD) at a high number) makes expand_files() -> alloc_fdtable()
 * kvmalloc() a pointer array of 8 bytes per slot (slots rounded up to a
 * power of two, at most fs.nr_open) plus bitmaps; fork() copies the table
 * at the same size (dup_fd()). kvmalloc tries kmalloc first and falls back
 * to vmalloc only when that fails or above KMALLOC_MAX_SIZE (4 MiB, more
 * than 524288 slots), so on an unfragmented machine with RLIMIT_NOFILE
 * 20000 (a 256 KiB table) the kernel serves it from kmalloc: the proof finds
 * no vmalloc area and reports SKIP with the limit that would be needed.
 *
 * One batch: cfg->batch forked children (holder-children.h), each with a
 * copy of the worker's table, then reaped; clamped to half the task
 * headroom (threads-max, pid_max) and to the children fork(2) allowed on
 * EAGAIN/ENOMEM. Highest descriptor: the one whose table is nearest
 * cfg->bytes, below RLIMIT_NOFILE.
 *
 * The high descriptor is a duplicate of the path's own /dev/null
 * descriptor, made by F_DUPFD_CLOEXEC at the lowest free number at or above
 * that one (never replacing a descriptor that is open there, as dup2(2)
 * would), and closed after every batch: dup_fd() sizes a child's table by
 * the highest open descriptor, so the forks of other paths in the same
 * worker (vmalloc-order "all" cycles through them) copy a small table
 * again. The worker's own table stays grown: tables never shrink.
 *
 * Setup errors (a SKIP): the errno of F_DUPFD or of the first fork;
 * -EOPNOTSUPP when the tables add no alloc_fdtable area to vmallocinfo.
 */
#ifndef SMM_PATH_FDTABLE_H
#define SMM_PATH_FDTABLE_H

#include "vmpath.h"

extern const struct smm_vmpath smm_vmpath_fdtable;

#endif /* SMM_PATH_FDTABLE_H */
