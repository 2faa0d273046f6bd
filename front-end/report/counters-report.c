// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * counters-report.c - the counters' engine and zone-lock facts in the YAML.
 */
#include <stdio.h>
#include <string.h>

#include "counters-report.h"
#include "yamldoc.h"

static bool wants_waits(const struct smm_counters *cs)
{
	for (size_t i = 0; i < cs->n; i++)
		if (cs->c[i].spec->ev == SMM_EV_CONTENTION)
			return true;
	return false;
}

void smm_counters_engine_line(const struct smm_counters *cs, char *buf,
			      size_t len)
{
	if (cs->engine == SMM_ENGINE_BPF)
		snprintf(buf, len, "engine bpf");
	else
		snprintf(buf, len, "engine perf (%.200s)", cs->engine_why);
}

void smm_counters_yaml(yaml_document_t *out, int node,
		       const struct smm_counters *cs)
{
	char buf[160];
	int zl, seq;

	smm_yaml_str(out, node, "engine",
		     cs->engine == SMM_ENGINE_BPF ? "bpf" : "perf");
	if (cs->engine != SMM_ENGINE_BPF) {
		smm_yaml_str(out, node, "engine-why", cs->engine_why);
		return;
	}
	smm_yaml_u64(out, node, "bpf-missed-events", cs->bpf_misses);
	if (!wants_waits(cs))
		return;
	zl = smm_yaml_map(out, node, "zone-lock");
	if (cs->waits_how[0])
		smm_yaml_str(out, zl, "waits-seen", cs->waits_how);
	seq = smm_yaml_seq(out, zl, "zones");
	for (int i = 0; i < SMM_BPF_ZONES && cs->bins.zones[i].lock; i++) {
		const struct smm_bpf_zone *z = &cs->bins.zones[i];

		snprintf(buf, sizeof(buf), "node %d zone %u %.16s", z->nid,
			 z->idx, z->name);
		smm_yaml_item_str(out, seq, buf);
	}
	for (int s = 0; s < SMM_NR_SIDES; s++) {
		int m = smm_yaml_map(out, zl, smm_side_names[s]);

		if (cs->ks.funcs[s][0])
			smm_yaml_str(out, m, "functions", cs->ks.funcs[s]);
		if (cs->ks.why[s][0])
			smm_yaml_str(out, m, "cannot-tell", cs->ks.why[s]);
	}
	smm_yaml_u64(out, zl, "unmatched-begins", cs->bins.zone_unmatched);
	smm_yaml_u64(out, zl, "stack-errors", cs->bins.stack_errors);
}
