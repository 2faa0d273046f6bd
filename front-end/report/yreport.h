/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * yreport.h - the YAML report (--yaml FILE): stress-ng's own YAML of each
 * stressor (system-info once, metrics entries with the stressor names
 * restored, its other sections), then a "stress-mm" section: version,
 * kernel, stress-ng, exit status, the conditions (conditions.h), per
 * stressor its parameters and counts (workers as asked and resolved),
 * the kernel counters and figures, vmstat deltas, PCP state, vmallocinfo
 * growth, and with --repeat every run's figures ("runs") and their
 * summary ("summary"), which stress-mm compare reads. The top-level
 * counters and figures are the last run's and say so ("scope": the
 * stressors, counters, figures, vmstat-delta, pcp and vmallocinfo); every
 * figure names its numerator and denominator, or why it is absent.
 */
#ifndef SMM_YREPORT_H
#define SMM_YREPORT_H

#include "conditions.h"
#include "options.h"
#include "results.h"

/*
 * smm_yreport_write() - write the report of @nruns runs to cfg->yaml.
 * @status: the whole invocation's exit status; @interrupted: stopped by a
 * signal; @sng: the stress-ng that ran.
 * Return: 0, or -errno (-ENOMEM, -EIO, or that of fopen(3)).
 */
int smm_yreport_write(const struct smm_run_cfg *cfg,
		      const struct smm_conditions *cond,
		      const struct smm_run_result *runs, unsigned int nruns,
		      int status, bool interrupted, const char *sng);

#endif /* SMM_YREPORT_H */
