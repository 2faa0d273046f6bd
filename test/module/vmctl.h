/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmctl.h - what the parts of smm-vmctl share (smm-vmctl.c: helpers, info,
 * snap, bench, hold, main; vmctl-checks.c: checks and orders;
 * vmctl-fuzz.c: the fuzz loop and its model of the ABI).
 */
#ifndef SMM_VMCTL_H
#define SMM_VMCTL_H

#include <stdint.h>

#include "stress-mm-vmalloc.h"

typedef __u64 u64; /* unsigned long long: printed with %llu */

#define DEV "/dev/" SMM_VMALLOC_DEVICE
#define NFDS 4

extern int failed; /* a check failed */
extern int trace; /* SMM_VMCTL_TRACE: every ioctl on stderr */

/* "ok - ..." or "not ok - ..."; returns cond */
__attribute__((format(printf, 2, 3))) int check(int cond, const char *fmt, ...);
/* "# ..." */
__attribute__((format(printf, 1, 2))) void diag(const char *fmt, ...);
int dev_open(void);
/* ioctl(): 0 or -errno */
int xioctl(int fd, unsigned long cmd, void *arg);
/* a valid ALLOC (loops 0) or CYCLE request, any node */
void req_init(struct smm_vmalloc_req *r, uint32_t kind, u64 pages,
	      uint32_t count, uint32_t loops);
/* a FREE request */
void free_init(struct smm_vmalloc_req *r, uint32_t count, uint32_t flags);
int get_info(int fd, struct smm_vmalloc_info *info);
int get_stats(int fd, struct smm_vmalloc_stats *st, uint32_t flags);

/* Our areas in /proc/vmallocinfo: callers SMM_VMALLOC_CALLER+... */
struct ours {
	long areas;
	long pages;
	long with_pages[11]; /* areas with pages=2^order, order 0..10 */
	long size_ok[11]; /* ... whose size is (pages + 1) pages */
	char line[11][256]; /* one such line per order */
};

/* Our areas now. Return: 0 or -errno. */
int read_ours(struct ours *o);

int cmd_checks(void);
int cmd_orders(void);
int cmd_fuzz(long want_calls, u64 seed, int relaxed_global);

#endif /* SMM_VMCTL_H */
