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

#include "fdpath.h"
#include "path-bpf.h"
#include "report.h"
#include "sysfacts.h"
#include "vmproof.h"

/* eBPF cost model, measured on 6.18 (see path-bpf.h). */
#define EBPF_HEADER_BYTES 130
#define EBPF_PER_LD_ABS 13
#define CBPF_MAX_INSNS 4096 /* BPF_MAXINSNS, RET included */

static const char *const bpf_callers[] = { "bpf_prog_alloc_no_stats",
					   "bpf_prog_realloc", NULL };

struct bpf_state {
	struct smm_fdpath f;
	struct sock_fprog prog;
	uint64_t pages; /* target pages of one program */
};

/* Build a filter meant to land in the middle of @pages pages. */
static int build_filter(struct bpf_state *st, uint64_t pages, long page)
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
	st->pages = pages;
	return 0;
}

static int open_filtered(void *ctx)
{
	struct bpf_state *st = ctx;
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

static void bpf_teardown(void *state)
{
	struct bpf_state *st = state;

	if (!st)
		return;
	smm_fdpath_free(&st->f);
	free(st->prog.filter);
	free(st);
}

static int bpf_setup(void **state, const struct smm_vmpath_cfg *cfg, char *why,
		     size_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t pages, limit, room, optmem = 0, made = 0, probe, t0;
	struct smm_vmproof_result r;
	struct smm_vmproof p;
	struct bpf_state *st;
	char txt[160];
	int err = 0;

	st = calloc(1, sizeof(*st));
	if (!st || smm_fdpath_init(&st->f, cfg->batch)) {
		bpf_teardown(st);
		snprintf(why, len, "bpf: out of memory");
		return -ENOMEM;
	}
	st->f.stressor = cfg->stressor;
	st->f.name = "bpf";
	st->f.unit = "filtered sockets";
	st->f.per_fd = 1;
	st->f.open_one = open_filtered;
	st->f.ctx = st;
	room = smm_fd_headroom(&limit);
	if (st->f.batch > room && room > 0) {
		snprintf(txt, sizeof(txt),
			 "half the free descriptors under RLIMIT_NOFILE %llu",
			 (unsigned long long)limit);
		smm_fdpath_clamp(&st->f, room, txt);
	}

	/* The nearest page count, then down until a socket can hold it. */
	smm_read_u64("/proc/sys/net/core/optmem_max", &optmem);
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
			"bpf: cannot attach a classic BPF socket filter: errno=%d (%s); net.core.optmem_max %llu",
			-err, strerror(-err), (unsigned long long)optmem);
		bpf_teardown(st);
		return err;
	}

	probe = smm_probe_size(st->f.batch);
	smm_vmproof_begin(&p, bpf_callers);
	t0 = smm_now_ns();
	made = smm_fdpath_open(&st->f, probe, &err);
	t0 = smm_now_ns() - t0;
	smm_vmproof_end(&p, bpf_callers, &r);
	smm_fdpath_close(&st->f, made);
	if (made == 0) {
		snprintf(why, len,
			 "bpf: cannot open a filtered socket: errno=%d (%s)",
			 err, strerror(err));
		bpf_teardown(st);
		return -err;
	}
	if (made < probe) {
		snprintf(txt, sizeof(txt), "errno=%d (%s)", err, strerror(err));
		smm_fdpath_clamp(&st->f, made, txt);
	}
	if (!r.err && !r.count) {
		snprintf(
			why, len,
			"bpf: %llu socket filters added no bpf_prog area to /proc/vmallocinfo",
			(unsigned long long)made);
		bpf_teardown(st);
		return -EOPNOTSUPP;
	}
	snprintf(
		txt, sizeof(txt),
		"classic BPF filters of %u instructions (net.core.optmem_max %llu)",
		st->prog.len, (unsigned long long)optmem);
	smm_vmproof_report(cfg->stressor, "bpf", txt, &r, made,
			   "filtered sockets", cfg->bytes);
	smm_batch_estimate(cfg->stressor, "bpf", t0, made, st->f.batch);
	*state = st;
	return 0;
}

static int bpf_batch(void *state, uint64_t *allocs, char *what, size_t len)
{
	struct bpf_state *st = state;

	return smm_fdpath_batch(&st->f, allocs, what, len);
}

const struct smm_vmpath smm_vmpath_bpf = {
	.name = "bpf",
	.kind = "vmalloc",
	.callers = bpf_callers,
	.natural_bytes = 4096,
	.setup = bpf_setup,
	.batch = bpf_batch,
	.teardown = bpf_teardown,
};
