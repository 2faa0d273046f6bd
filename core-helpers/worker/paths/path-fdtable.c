// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * path-fdtable.c - fd tables copied into forked children as a vmalloc path.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "forkpath.h"
#include "params.h"
#include "path-fdtable.h"
#include "report.h"
#include "sysfacts.h"
#include "vmproof.h"

#define FD_SLOT_BYTES 8
#define KMALLOC_MAX_BYTES (4ULL << 20)

static const char *const fdt_callers[] = { "alloc_fdtable", "dup_fd",
					   "expand_fdtable", NULL };

static void fdt_teardown(void *state)
{
	struct smm_forkpath *f = state;

	if (!f)
		return;
	smm_forkpath_free(f);
	free(f);
}

static int fdt_setup(void **state, const struct smm_vmpath_cfg *cfg, char *why,
		     size_t len)
{
	uint64_t slots = cfg->bytes / FD_SLOT_BYTES, made, nr_open = 0;
	char table[32], need[32], txt[200];
	struct smm_vmproof_result r;
	struct smm_forkpath *f;
	struct rlimit rl = { 0 };
	struct smm_vmproof p;
	int fd, err;

	getrlimit(RLIMIT_NOFILE, &rl);
	smm_read_u64("/proc/sys/fs/nr_open", &nr_open);
	if (slots > rl.rlim_cur)
		slots = rl.rlim_cur;
	fd = (int)slots - 1;
	if (fd < 3)
		fd = 3;
	smm_format_size(((uint64_t)fd + 1) * FD_SLOT_BYTES, table,
			sizeof(table));
	smm_format_size(KMALLOC_MAX_BYTES / FD_SLOT_BYTES, need, sizeof(need));
	if (dup2(STDERR_FILENO, fd) < 0) {
		err = errno;
		snprintf(why, len, "fdtable: dup2 to fd %d: errno=%d (%s)", fd,
			 err, strerror(err));
		return -err;
	}
	f = calloc(1, sizeof(*f));
	if (!f || smm_forkpath_init(f, cfg->batch)) {
		free(f);
		close(fd);
		snprintf(why, len, "fdtable: out of memory");
		return -ENOMEM;
	}
	f->stressor = cfg->stressor;
	f->name = "fdtable";
	smm_vmproof_begin(&p, fdt_callers);
	made = smm_forkpath_spawn(f, smm_probe_size(f->batch), &err);
	smm_vmproof_end(&p, fdt_callers, &r);
	smm_forkpath_release(f, made);
	if (made == 0) {
		snprintf(why, len, "fdtable: cannot fork: errno=%d (%s)", err,
			 strerror(err));
		fdt_teardown(f);
		close(fd);
		return -err;
	}
	if (!r.err && !r.count) {
		snprintf(
			why, len,
			"fdtable: %llu fd tables of about %s (highest fd %d, RLIMIT_NOFILE %llu) came from kmalloc, not vmalloc: kvmalloc falls back only when kmalloc fails or above 4 MiB (KMALLOC_MAX_SIZE), i.e. RLIMIT_NOFILE and fs.nr_open (%llu) above %s descriptors",
			(unsigned long long)made, table, fd,
			(unsigned long long)rl.rlim_cur,
			(unsigned long long)nr_open, need);
		fdt_teardown(f);
		close(fd);
		return -EOPNOTSUPP;
	}
	if (made < smm_probe_size(f->batch)) {
		snprintf(txt, sizeof(txt), "fork errno=%d (%s)", err,
			 strerror(err));
		smm_forkpath_clamp(f, made, txt);
	}
	snprintf(
		txt, sizeof(txt),
		"fd tables up to fd %d (one per forked child, which also gets a thread stack)",
		fd);
	smm_vmproof_report(cfg->stressor, "fdtable", txt, &r, made,
			   "forked children", cfg->bytes);
	*state = f;
	return 0;
}

static int fdt_batch(void *state, uint64_t *allocs, char *what, size_t len)
{
	return smm_forkpath_batch(state, allocs, what, len);
}

const struct smm_vmpath smm_vmpath_fdtable = {
	.name = "fdtable",
	.kind = "vmalloc (kvmalloc fallback)",
	.callers = fdt_callers,
	.natural_bytes = 262144,
	.setup = fdt_setup,
	.batch = fdt_batch,
	.teardown = fdt_teardown,
};
