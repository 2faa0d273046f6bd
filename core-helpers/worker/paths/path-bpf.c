// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * path-bpf.c - classic BPF socket filters as a vmalloc path.
 */
#include <errno.h>
#include <linux/filter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "headroom.h"
#include "holder-fds.h"
#include "path-bpf.h"
#include "sysfacts.h"

/* eBPF cost model, measured on 6.18 (see path-bpf.h). */
#define EBPF_HEADER_BYTES 130
#define EBPF_PER_LD_ABS 13
#define CBPF_MAX_INSNS 4096 /* BPF_MAXINSNS, RET included */

static const char *const bpf_callers[] = { "bpf_prog_alloc_no_stats",
					   "bpf_prog_realloc", NULL };

struct bpf_ctx {
	struct smm_fds fds; /* first: the holder-fds ops use it */
	struct sock_fprog prog;
	uint64_t optmem; /* net.core.optmem_max, bytes */
};

/* Build a filter meant to land in the middle of @pages pages. */
static int build_filter(struct bpf_ctx *st, uint64_t pages, long page)
{
	uint64_t target = (pages - 1) * (uint64_t)page + (uint64_t)page / 2;
	uint64_t ebpf = (target - EBPF_HEADER_BYTES) / 8;
	uint64_t n_ld = 0, n_alu = ebpf, n;

	if (ebpf > (uint64_t)EBPF_PER_LD_ABS * (CBPF_MAX_INSNS - 1))
		return -E2BIG;
	if (ebpf > CBPF_MAX_INSNS - 1) {
		/* Each LD_ABS in place of an ALU adds EBPF_PER_LD_ABS - 1. */
		n_ld = (ebpf - (CBPF_MAX_INSNS - 1) + EBPF_PER_LD_ABS - 2) /
		       (EBPF_PER_LD_ABS - 1);
		n_alu = ebpf - n_ld * EBPF_PER_LD_ABS;
	}
	n = n_ld + n_alu + 1;
	if (n > CBPF_MAX_INSNS)
		return -E2BIG;
	free(st->prog.filter);
	st->prog.filter = calloc(n, sizeof(*st->prog.filter));
	if (!st->prog.filter)
		return -ENOMEM;
	for (uint64_t i = 0; i < n_ld; i++)
		st->prog.filter[i] = (struct sock_filter)BPF_STMT(
			BPF_LD | BPF_W | BPF_ABS, 0);
	for (uint64_t i = n_ld; i < n - 1; i++)
		st->prog.filter[i] = (struct sock_filter)BPF_STMT(
			BPF_ALU | BPF_ADD | BPF_K, 1);
	st->prog.filter[n - 1] =
		(struct sock_filter)BPF_STMT(BPF_RET | BPF_K, 0);
	st->prog.len = (unsigned short)n;
	return 0;
}

static int open_filtered(void *ctx)
{
	struct bpf_ctx *st = ctx;
	int fd, err;

	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &st->prog,
		       sizeof(st->prog)) < 0) {
		err = errno;
		close(fd);
		return -err;
	}
	return fd;
}

static void bpf_destroy(void *ctx)
{
	struct bpf_ctx *st = ctx;

	smm_fds_free(&st->fds);
	free(st->prog.filter);
	free(st);
}

/* Size mapping: the nearest page count, then down until a socket can hold
 * it (__sk_filter_charge() against net.core.optmem_max). */
static int bpf_prepare(void **ctx, const struct smm_vmpath_cfg *cfg, char *why,
		       size_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	struct bpf_ctx *st;
	uint64_t pages;
	int err = 0;

	st = calloc(1, sizeof(*st));
	if (!st) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	st->fds.open_one = open_filtered;
	smm_read_u64("/proc/sys/net/core/optmem_max", &st->optmem);
	pages = (cfg->bytes + (uint64_t)page - 1) / (uint64_t)page;
	for (; pages >= 1; pages--) {
		err = build_filter(st, pages, page);
		if (err == -E2BIG)
			continue;
		if (err)
			break;
		err = open_filtered(st);
		if (err >= 0) {
			close(err);
			err = 0;
			break;
		}
		if (err != -ENOMEM)
			break;
	}
	if (err) {
		snprintf(
			why, len,
			"cannot attach a classic BPF socket filter: errno=%d (%s); net.core.optmem_max %llu",
			-err, strerror(-err), (unsigned long long)st->optmem);
		bpf_destroy(st);
		return err;
	}
	*ctx = st;
	return 0;
}

static void bpf_describe(void *ctx, char *buf, size_t len)
{
	struct bpf_ctx *st = ctx;

	snprintf(
		buf, len,
		"classic BPF filters of %u instructions (net.core.optmem_max %llu)",
		st->prog.len, (unsigned long long)st->optmem);
}

static const struct smm_holder_ops bpf_ops = {
	.name = "bpf",
	.unit = "filtered sockets",
	.verb = "socket+SO_ATTACH_FILTER",
	.first = "open a filtered socket",
	.callers = bpf_callers,
	.per_item = 1,
	.resource = smm_fds_resource,
	.prepare = bpf_prepare,
	.destroy = bpf_destroy,
	.headroom = smm_headroom_fds,
	.room = smm_fds_room,
	.acquire = smm_fds_acquire,
	.release = smm_fds_release,
	.describe = bpf_describe,
};

static const struct smm_holder_ops *const bpf_kinds[] = { &bpf_ops, NULL };

const struct smm_vmpath smm_vmpath_bpf = {
	.name = "bpf",
	.kind = "vmalloc",
	.natural_bytes = 4096,
	.kinds = bpf_kinds,
};
