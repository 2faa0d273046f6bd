/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * conditions.h - what makes two runs comparable, recorded in every report
 * (stress-mm.conditions) and checked by stress-mm compare: the timeout, the
 * online CPUs, the arguments passed to stress-ng after --, the THP modes,
 * vm.percpu_pagelist_high_fraction, the stress-ng version, and the kernel
 * (release and command line: the kernel may differ, that is what is
 * compared; the rest must not, unless compare is given --allow-param-diff).
 */
#ifndef SMM_CONDITIONS_H
#define SMM_CONDITIONS_H

#include <yaml.h>

#include "options.h"

struct smm_conditions {
	long online_cpus; /* sysconf(_SC_NPROCESSORS_ONLN) */
	char thp_enabled[32]; /* /sys/kernel/mm/transparent_hugepage/enabled,
			       * the selected word, or "unavailable" */
	char thp_shmem[32]; /* .../shmem_enabled */
	char high_fraction[32]; /* vm.percpu_pagelist_high_fraction */
	char cmdline[1024]; /* /proc/cmdline */
	char release[128]; /* uname -r */
	char stress_ng_version[64]; /* "0.15.06", from stress-ng --version */
};

/* smm_conditions_read() - read them now; @sng is the stress-ng to run
 * (asked for its version). Never fails: what cannot be read says so. */
void smm_conditions_read(struct smm_conditions *c, const char *sng);

/* smm_conditions_write() - the "conditions" mapping of @c and @cfg under
 * mapping @sm. */
void smm_conditions_write(yaml_document_t *d, int sm,
			  const struct smm_run_cfg *cfg,
			  const struct smm_conditions *c);

/* Keys of "conditions" that describe the kernel: compare lists a
 * difference in them but does not refuse it. NULL-terminated. */
extern const char *const smm_kernel_conditions[];

#endif /* SMM_CONDITIONS_H */
