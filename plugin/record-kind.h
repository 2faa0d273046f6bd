/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plugin/record-kind.h - what one kind of a vmalloc path achieved
 * (core-vmalloc.h stress_vmalloc_kind_info_t) as a path slot of the
 * worker's record (stats.h): proven with its kind, sizes, order and
 * caller; unproven or left out with its errno and reason; how set-up
 * decided it, whatever its state. The first
 * record of a name wins. Included after core-vmalloc.h.
 */
#ifndef SMM_PLUGIN_RECORD_KIND_H
#define SMM_PLUGIN_RECORD_KIND_H

#include "stats.h"

static inline void smm_plugin_record_kind(struct smm_stats_file *rec,
					  const stress_vmalloc_kind_info_t *k)
{
	static const uint32_t decided[] = {
		[STRESS_VMALLOC_BY_NOTHING] = SMM_DECIDED_NOTHING,
		[STRESS_VMALLOC_BY_AREAS] = SMM_DECIDED_AREAS,
		[STRESS_VMALLOC_BY_VMALLOCUSED] = SMM_DECIDED_VMALLOCUSED,
		[STRESS_VMALLOC_BY_RULE] = SMM_DECIDED_RULE,
	};
	struct smm_stats_path p = { .err = k->err, .order = -1 };

	if ((size_t)k->decided < SIZEOF_ARRAY(decided))
		p.decided = decided[k->decided];

	switch (k->state) {
	case STRESS_VMALLOC_PROVEN:
		p.state = SMM_PATH_PROVEN;
		p.kind = k->vmap ? SMM_AREA_VMAP : SMM_AREA_VMALLOC;
		p.order = k->order;
		p.area_bytes = k->area_bytes;
		p.pages = k->pages;
		p.requested = k->requested;
		break;
	case STRESS_VMALLOC_UNPROVEN:
		p.state = SMM_PATH_UNPROVEN;
		break;
	case STRESS_VMALLOC_LEFT_OUT:
		p.state = SMM_PATH_LEFT_OUT;
		break;
	default:
		return;
	}
	(void)shim_strscpy(p.name, k->name, sizeof(p.name));
	(void)shim_strscpy(p.caller, k->caller, sizeof(p.caller));
	smm_stats_text(p.reason, sizeof(p.reason), k->reason);
	(void)smm_stats_path_add(rec, &p);
}

#endif /* SMM_PLUGIN_RECORD_KIND_H */
