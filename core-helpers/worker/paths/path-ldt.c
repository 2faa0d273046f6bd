// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * path-ldt.c - x86 LDT copies in forked children as a vmalloc path.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "config.h"
#include "forkpath.h"
#include "path-ldt.h"
#include "report.h"
#include "sysfacts.h"
#include "vmproof.h"

#if defined(HAVE_MODIFY_LDT)
#include <asm/ldt.h>
#endif

static const char *const ldt_callers[] = { "alloc_ldt_struct", NULL };

#if defined(HAVE_MODIFY_LDT)

#define LDT_MIN_VMALLOC_ENTRIES 513 /* one page holds 512 */

static void ldt_teardown(void *state)
{
	struct smm_forkpath *f = state;

	if (!f)
		return;
	smm_forkpath_free(f);
	free(f);
}

/* Give this process an LDT of @entries entries. Return 0 or -errno. */
static int ldt_grow(uint64_t entries)
{
	struct user_desc d;

	memset(&d, 0, sizeof(d));
	d.entry_number = (unsigned int)(entries - 1);
	d.seg_32bit = 1;
	d.useable = 1;
	if (syscall(SYS_modify_ldt, 1, &d, sizeof(d)) != 0)
		return -errno;
	return 0;
}

static int ldt_setup(void **state, const struct smm_vmpath_cfg *cfg, char *why,
		     size_t len)
{
	uint64_t entries = cfg->bytes / LDT_ENTRY_SIZE, made, room, tmax, pmax;
	uint64_t probe, t0;
	struct smm_vmproof_result r;
	struct smm_forkpath *f;
	struct smm_vmproof p;
	char txt[200];
	int err;

	if (entries < LDT_MIN_VMALLOC_ENTRIES)
		entries = LDT_MIN_VMALLOC_ENTRIES;
	if (entries > LDT_ENTRIES)
		entries = LDT_ENTRIES;
	err = ldt_grow(entries);
	if (err) {
		snprintf(
			why, len,
			"ldt: modify_ldt errno=%d (%s): no CONFIG_MODIFY_LDT_SYSCALL, or forbidden by seccomp",
			-err, strerror(-err));
		return err;
	}
	f = calloc(1, sizeof(*f));
	if (!f || smm_forkpath_init(f, cfg->batch)) {
		free(f);
		snprintf(why, len, "ldt: out of memory");
		return -ENOMEM;
	}
	f->stressor = cfg->stressor;
	f->name = "ldt";
	if (smm_task_headroom(&room, &tmax, &pmax) == 0 &&
	    f->batch > room / 2 && room > 1) {
		snprintf(
			txt, sizeof(txt),
			"half the task headroom (threads-max %llu, pid_max %llu)",
			(unsigned long long)tmax, (unsigned long long)pmax);
		smm_forkpath_clamp(f, room / 2, txt);
	}

	probe = smm_probe_size(f->batch);
	smm_vmproof_begin(&p, ldt_callers);
	t0 = smm_now_ns();
	made = smm_forkpath_spawn(f, probe, &err);
	smm_vmproof_end(&p, ldt_callers, &r);
	smm_forkpath_release(f, made);
	t0 = smm_now_ns() - t0;
	if (made == 0) {
		snprintf(why, len, "ldt: cannot fork: errno=%d (%s)", err,
			 strerror(err));
		ldt_teardown(f);
		return -err;
	}
	if (made < probe) {
		snprintf(txt, sizeof(txt), "fork errno=%d (%s)", err,
			 strerror(err));
		smm_forkpath_clamp(f, made, txt);
	}
	if (!r.err && !r.count) {
		snprintf(
			why, len,
			"ldt: %llu children with a %llu-entry LDT added no alloc_ldt_struct area to /proc/vmallocinfo",
			(unsigned long long)made, (unsigned long long)entries);
		ldt_teardown(f);
		return -EOPNOTSUPP;
	}
	snprintf(
		txt, sizeof(txt),
		"LDT copies of %llu entries (one per forked child, which also gets a thread stack)",
		(unsigned long long)entries);
	smm_vmproof_report(cfg->stressor, "ldt", txt, &r, made,
			   "forked children", cfg->bytes);
	smm_batch_estimate(cfg->stressor, "ldt", t0, made, f->batch);
	*state = f;
	return 0;
}

static int ldt_batch(void *state, uint64_t *allocs, char *what, size_t len)
{
	return smm_forkpath_batch(state, allocs, what, len);
}

#else /* !HAVE_MODIFY_LDT */

static int ldt_setup(void **state, const struct smm_vmpath_cfg *cfg, char *why,
		     size_t len)
{
	(void)state;
	(void)cfg;
	snprintf(why, len, "ldt: modify_ldt(2) is x86 only");
	return -EOPNOTSUPP;
}

static int ldt_batch(void *state, uint64_t *allocs, char *what, size_t len)
{
	(void)state;
	(void)allocs;
	snprintf(what, len, "ldt: not built");
	return -EOPNOTSUPP;
}

static void ldt_teardown(void *state)
{
	(void)state;
}

#endif /* HAVE_MODIFY_LDT */

const struct smm_vmpath smm_vmpath_ldt = {
	.name = "ldt",
	.kind = "vmalloc",
	.callers = ldt_callers,
	.natural_bytes = 8192,
	.setup = ldt_setup,
	.batch = ldt_batch,
	.teardown = ldt_teardown,
};
