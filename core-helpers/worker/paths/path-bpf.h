/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * path-bpf.h - vmalloc-order path "bpf": classic BPF socket filters.
 *
 * Kernel source: net/core/filter.c and kernel/bpf/core.c. SO_ATTACH_FILTER
 * on any socket needs no privilege: __get_filter() vmallocs the program with
 * bpf_prog_alloc() (page-rounded), bpf_migrate_filter() converts it to eBPF
 * and bpf_prog_realloc()s it when the eBPF form needs more pages; closing
 * the socket frees it through RCU and a deferred vfree(). vmallocinfo names
 * bpf_prog_alloc_no_stats or bpf_prog_realloc, "pages=k vmalloc".
 *
 * Size control: an ALU instruction converts to one eBPF instruction, a
 * BPF_LD|BPF_W|BPF_ABS to about 13 (measured on 6.18: area bytes ~= 130 + 8
 * x (13 x ld_abs + alu) + guard page). The program is built to land in the
 * middle of the page count nearest cfg->bytes, 1 page up to what
 * net.core.optmem_max lets a socket charge (__sk_filter_charge(): 31-32
 * pages with the default 128 KiB); the proof verifies the result in
 * vmallocinfo and reports what it achieved. Programs have at most
 * BPF_MAXINSNS (4096) classic instructions.
 *
 * One batch: cfg->batch sockets (AF_UNIX datagram) each holding a filter,
 * all alive at once, then closed. Clamped to half the free descriptors
 * under RLIMIT_NOFILE.
 *
 * Setup errors (a SKIP): the errno of socket(2) or of the first
 * SO_ATTACH_FILTER (EPERM/EACCES under seccomp or LSM policy, ENOMEM when
 * even one page exceeds optmem_max); -EOPNOTSUPP when filters add no
 * bpf_prog area to /proc/vmallocinfo.
 */
#ifndef SMM_PATH_BPF_H
#define SMM_PATH_BPF_H

#include "vmpath.h"

extern const struct smm_vmpath smm_vmpath_bpf;

#endif /* SMM_PATH_BPF_H */
