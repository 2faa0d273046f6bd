// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * path-pty.c - /dev/ptmx opens as a vmalloc path (two n_tty_data areas each).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>

#include "headroom.h"
#include "holder-fds.h"
#include "path-pty.h"
#include "sysfacts.h"

static const char *const pty_callers[] = { "n_tty_open", NULL };

static int open_pty(void *ctx)
{
	int fd;

	(void)ctx;
	fd = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static int pty_prepare(void **ctx, const struct smm_vmpath_cfg *cfg, char *why,
		       size_t len)
{
	struct smm_fds *f = calloc(1, sizeof(*f));

	(void)cfg;
	if (!f) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	f->open_one = open_pty;
	*ctx = f;
	return 0;
}

static void pty_destroy(void *ctx)
{
	smm_fds_free(ctx);
	free(ctx);
}

/* The lower of two limits: half of the ptys an unprivileged open may
 * still take (drivers/tty/pty.c, fs/devpts/inode.c devpts_new_index()),
 * and half the free descriptors (each pty is one), so that the proof can
 * still open /proc/vmallocinfo while the ptys are held. */
static uint64_t pty_headroom(void *ctx, char *why, size_t len)
{
	uint64_t max = 4096, reserve = 1024, nr = 0, ptys, fds;

	smm_read_u64("/proc/sys/kernel/pty/max", &max);
	smm_read_u64("/proc/sys/kernel/pty/reserve", &reserve);
	smm_read_u64("/proc/sys/kernel/pty/nr", &nr);
	ptys = max <= reserve + nr ? 0 : (max - reserve - nr) / 2;
	fds = smm_headroom_fds(ctx, why, len);
	if (fds < ptys)
		return fds;
	snprintf(
		why, len,
		"half of what kernel.pty.max %llu less kernel.pty.reserve %llu leaves",
		(unsigned long long)max, (unsigned long long)reserve);
	return ptys;
}

static const struct smm_holder_ops pty_ops = {
	.name = "pty",
	.unit = "ptys",
	.verb = "posix_openpt",
	.first = "open /dev/ptmx",
	.callers = pty_callers,
	.per_item = 2, /* master and slave n_tty_data */
	.resource = smm_fds_resource,
	.what = "N_TTY line disciplines (2 per pty)",
	.cannot = "no devpts, a sandbox, or no pty left",
	.no_area =
		"this kernel does not vmalloc the N_TTY line discipline data",
	.prepare = pty_prepare,
	.destroy = pty_destroy,
	.headroom = pty_headroom,
	.room = smm_fds_room,
	.acquire = smm_fds_acquire,
	.release = smm_fds_release,
};

static const struct smm_holder_ops *const pty_kinds[] = { &pty_ops, NULL };

const struct smm_vmpath smm_vmpath_pty = {
	.name = "pty",
	.kind = "vmalloc",
	.natural_bytes = 12288,
	.kinds = pty_kinds,
};
