/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sampler.h - /proc/vmallocinfo sampled over a run (core-vmallocinfo.h):
 * per caller, the areas and pages at the start and the most seen in any
 * sample, so that the report shows which kernel callers grew while the
 * stressors ran (the proof of path, system-wide). Reading the file needs
 * uid 0 (mode 0400); without it the sampler records the errno.
 */
#ifndef SMM_SAMPLER_H
#define SMM_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>

#define SMM_MAX_CALLERS 512

struct smm_caller_tally {
	char caller[64]; /* function name; "(none)" for areas without one */
	uint64_t base_areas, base_pages; /* at the first sample */
	uint64_t max_areas, max_pages; /* the most in any sample */
	bool seen_base;
};

struct smm_sampler {
	struct smm_caller_tally t[SMM_MAX_CALLERS];
	int n, samples;
	int err; /* 0, or -errno of reading /proc/vmallocinfo */
};

/* smm_sample() - one sample; @base: the first one of the run (zero the
 * sampler before it). Errors are kept in ->err. */
void smm_sample(struct smm_sampler *vs, bool base);

/*
 * smm_settle() - wait until the number of vmalloc areas has not changed
 * for 300 ms, at most @max_ms: what the previous run's processes held
 * (thread stacks go back through deferred vfree after the task is reaped,
 * kernel/fork.c, mm/vmalloc.c) is gone before the next run's counters and
 * its paths' proofs start. A proof that cannot see addresses (kptr_restrict
 * for capability-less workers) counts areas per caller and size, and areas
 * that vanish meanwhile would hide the new ones (core-vmalloc.c's proof).
 * Return: ms waited, or -errno of reading /proc/vmallocinfo.
 */
int smm_settle(int max_ms);

#endif /* SMM_SAMPLER_H */
