// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * placement.c - pin a worker and its companions; the run's round-robin.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "placement.h"
#include "shared-page.h"
#include "sysfacts.h"

static pid_t *slots; /* SMM_PLACEMENT_SLOTS pids, shared; or NULL */

int smm_placement_init(void)
{
	return smm_shared_map((void **)&slots,
			      SMM_PLACEMENT_SLOTS * sizeof(*slots));
}

void smm_placement_reset(void)
{
	smm_shared_unmap((void **)&slots, SMM_PLACEMENT_SLOTS * sizeof(*slots));
}

int smm_placement_claim(void)
{
	pid_t self = getpid();

	if (!slots)
		return -ENODEV;
	for (int i = 0; i < SMM_PLACEMENT_SLOTS; i++)
		if (__atomic_load_n(&slots[i], __ATOMIC_ACQUIRE) == self)
			return i;
	for (int i = 0; i < SMM_PLACEMENT_SLOTS; i++) {
		pid_t owner = __atomic_load_n(&slots[i], __ATOMIC_ACQUIRE);

		if (owner && !smm_pid_dead(owner))
			continue;
		if (__atomic_compare_exchange_n(&slots[i], &owner, self, false,
						__ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			return i;
	}
	return -ENOSPC;
}

int smm_pin_self(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) < 0 ? -errno : 0;
}

/* The worker's CPU: its slot's, or the one it runs on without a slot. */
static int worker_cpu(const int *allowed, int nallowed, int slot)
{
	if (slot >= 0)
		return allowed[slot % nallowed];
	return sched_getcpu();
}

int smm_placement_plan(enum smm_placement mode, unsigned int companions,
		       struct smm_plan *plan)
{
	int allowed[CPU_SETSIZE], others[CPU_SETSIZE];
	int nallowed = 0, nothers = 0, cpu, rc;
	cpu_set_t set;
	size_t used;

	memset(plan, 0, sizeof(*plan));
	if (companions > SMM_MAX_COMPANIONS)
		companions = SMM_MAX_COMPANIONS;
	plan->companions = companions;
	plan->mode = mode;
	plan->worker_cpu = -1;
	plan->slot = -1;
	for (unsigned int i = 0; i < companions; i++)
		plan->companion_cpu[i] = -1;
	if (mode == SMM_CPU_ANY) {
		snprintf(plan->text, sizeof(plan->text),
			 "any: worker and %u companions not pinned",
			 companions);
		return 0;
	}
	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return -errno;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			allowed[nallowed++] = c;
	if (nallowed == 0)
		return -EINVAL;
	rc = smm_placement_claim();
	plan->slot = rc >= 0 ? rc : -1;
	cpu = worker_cpu(allowed, nallowed, plan->slot);
	if (cpu < 0)
		return -errno;
	for (int i = 0; i < nallowed; i++)
		if (allowed[i] != cpu)
			others[nothers++] = allowed[i];
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
		"%s%s: worker on CPU %d (slot %d), %u companions%s",
		smm_placement_names[plan->mode],
		plan->mode != mode ? " (spread needs a second usable CPU)" : "",
		cpu, plan->slot, companions, companions ? " on CPU" : "");
	for (unsigned int i = 0; i < companions && used < sizeof(plan->text);
	     i++)
		used += (size_t)snprintf(plan->text + used,
					 sizeof(plan->text) - used, "%s%d",
					 i ? "," : " ", plan->companion_cpu[i]);
	return 0;
}
