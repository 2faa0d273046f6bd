// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * placement.c - pin a worker and its companions.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "placement.h"

int smm_pin_self(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) < 0 ? -errno : 0;
}

int smm_placement_plan(enum smm_placement mode, unsigned int companions,
		       struct smm_plan *plan)
{
	int others[CPU_SETSIZE], nothers = 0, cpu, rc;
	cpu_set_t allowed;
	size_t used;

	memset(plan, 0, sizeof(*plan));
	if (companions > SMM_MAX_COMPANIONS)
		companions = SMM_MAX_COMPANIONS;
	plan->companions = companions;
	plan->mode = mode;
	plan->worker_cpu = -1;
	for (unsigned int i = 0; i < companions; i++)
		plan->companion_cpu[i] = -1;
	if (mode == SMM_CPU_ANY) {
		snprintf(plan->text, sizeof(plan->text),
			 "any: worker and %u companions not pinned",
			 companions);
		return 0;
	}
	cpu = sched_getcpu();
	if (cpu < 0)
		return -errno;
	if (sched_getaffinity(0, sizeof(allowed), &allowed) < 0)
		return -errno;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (c != cpu && CPU_ISSET(c, &allowed))
			others[nothers++] = c;
	if (mode == SMM_CPU_SPREAD && nothers == 0)
		plan->mode = SMM_CPU_SAME;
	rc = smm_pin_self(cpu);
	if (rc)
		return rc;
	plan->worker_cpu = cpu;
	for (unsigned int i = 0; i < companions; i++)
		plan->companion_cpu[i] =
			plan->mode == SMM_CPU_SAME
				? cpu
				: others[i % (unsigned int)nothers];
	used = (size_t)snprintf(
		plan->text, sizeof(plan->text),
		"%s%s: worker on CPU %d, %u companions%s",
		smm_placement_names[plan->mode],
		plan->mode != mode ? " (spread needs a second usable CPU)" : "",
		cpu, companions, companions ? " on CPU" : "");
	for (unsigned int i = 0; i < companions && used < sizeof(plan->text);
	     i++)
		used += (size_t)snprintf(plan->text + used,
					 sizeof(plan->text) - used, "%s%d",
					 i ? "," : " ", plan->companion_cpu[i]);
	return 0;
}
