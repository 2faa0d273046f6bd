// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * path-pty.c - /dev/ptmx opens as a vmalloc path (two n_tty_data areas each).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fdpath.h"
#include "path-pty.h"
#include "report.h"
#include "sysfacts.h"
#include "vmproof.h"

static const char *const pty_callers[] = { "n_tty_open", NULL };

static int open_pty(void *ctx)
{
	int fd;

	(void)ctx;
	fd = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static void pty_teardown(void *state)
{
	struct smm_fdpath *f = state;

	if (!f)
		return;
	smm_fdpath_free(f);
	free(f);
}

/* Half of the ptys an unprivileged open may still take. */
static uint64_t pty_headroom(uint64_t *max, uint64_t *reserve)
{
	uint64_t nr = 0;

	*max = 4096;
	*reserve = 1024;
	smm_read_u64("/proc/sys/kernel/pty/max", max);
	smm_read_u64("/proc/sys/kernel/pty/reserve", reserve);
	smm_read_u64("/proc/sys/kernel/pty/nr", &nr);
	if (*max <= *reserve + nr)
		return 0;
	return (*max - *reserve - nr) / 2;
}

static int pty_setup(void **state, const struct smm_vmpath_cfg *cfg, char *why,
		     size_t len)
{
	uint64_t room, max, reserve, made, probe;
	struct smm_vmproof_result r;
	struct smm_vmproof p;
	struct smm_fdpath *f;
	char txt[160];
	int err;

	f = calloc(1, sizeof(*f));
	if (!f || smm_fdpath_init(f, cfg->batch)) {
		pty_teardown(f);
		snprintf(why, len, "pty: out of memory");
		return -ENOMEM;
	}
	f->stressor = cfg->stressor;
	f->name = "pty";
	f->unit = "ptys";
	f->per_fd = 2; /* master and slave n_tty_data */
	f->open_one = open_pty;
	room = pty_headroom(&max, &reserve);
	if (f->batch > room && room > 0) {
		snprintf(
			txt, sizeof(txt),
			"half of what kernel.pty.max %llu less kernel.pty.reserve %llu leaves",
			(unsigned long long)max, (unsigned long long)reserve);
		smm_fdpath_clamp(f, room, txt);
	}

	probe = smm_probe_size(f->batch);
	smm_vmproof_begin(&p, pty_callers);
	made = smm_fdpath_open(f, probe, &err);
	smm_vmproof_end(&p, pty_callers, &r);
	smm_fdpath_close(f, made);
	if (made == 0) {
		snprintf(why, len, "pty: cannot open /dev/ptmx: errno=%d (%s)",
			 err, strerror(err));
		pty_teardown(f);
		return -err;
	}
	if (made < probe) {
		snprintf(txt, sizeof(txt), "posix_openpt errno=%d (%s)", err,
			 strerror(err));
		smm_fdpath_clamp(f, made, txt);
	}
	if (!r.err && !r.count) {
		snprintf(
			why, len,
			"pty: %llu open ptys added no n_tty_open area to /proc/vmallocinfo: this kernel does not vmalloc the N_TTY line discipline data",
			(unsigned long long)made);
		pty_teardown(f);
		return -EOPNOTSUPP;
	}
	smm_vmproof_report(cfg->stressor, "pty",
			   "N_TTY line disciplines (2 per pty)", &r, made,
			   "ptys", cfg->bytes);
	*state = f;
	return 0;
}

static int pty_batch(void *state, uint64_t *allocs, char *what, size_t len)
{
	return smm_fdpath_batch(state, allocs, what, len);
}

const struct smm_vmpath smm_vmpath_pty = {
	.name = "pty",
	.kind = "vmalloc",
	.callers = pty_callers,
	.natural_bytes = 12288,
	.setup = pty_setup,
	.batch = pty_batch,
	.teardown = pty_teardown,
};
