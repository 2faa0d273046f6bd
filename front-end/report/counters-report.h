/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * counters-report.h - what the YAML says about how the counters counted:
 * under stress-mm.counters, "engine" (bpf or perf), "engine-why" (perf:
 * why not BPF), "bpf-missed-events" (BPF: events no program ran for), and
 * "zone-lock": how spinlock waits were known to be traced here, the zones
 * whose locks waited (node, zone name, as the kernel names them) and the
 * functions that told each side.
 */
#ifndef SMM_COUNTERS_REPORT_H
#define SMM_COUNTERS_REPORT_H

#include <yaml.h>

#include "counters.h"

/* smm_counters_yaml() - those keys into mapping @node of @out. */
void smm_counters_yaml(yaml_document_t *out, int node,
		       const struct smm_counters *cs);

/* smm_counters_engine_line() - one line for the terminal, e.g. "engine
 * bpf" or "engine perf (BPF programs do not load: ...)". */
void smm_counters_engine_line(const struct smm_counters *cs, char *buf,
			      size_t len);

#endif /* SMM_COUNTERS_REPORT_H */
