// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * engines - both counter engines (counters.h) over one workload: BPF and
 * perf opened on the same counters, enabled one right after the other,
 * a child that maps and unmaps MB MiB ROUNDS times (order-0 allocations
 * and frees through the PCP lists, zone-locked refills and drains), both
 * disabled, read. Prints one line per counter both count:
 *   "<name> <perf> <bpf>"
 * and "engine-bpf: bpf|perf (why)" first. Exit 0, or 1 when an engine
 * cannot open at all.
 *
 *   engines [MB] [ROUNDS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "counters.h"

static void workload(size_t len, int rounds)
{
	for (int r = 0; r < rounds; r++) {
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			_exit(1);
		madvise(p, len, MADV_NOHUGEPAGE);
		for (size_t o = 0; o < len; o += 4096)
			p[o] = 1;
		munmap(p, len);
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	size_t len = (size_t)(argc > 1 ? atol(argv[1]) : 64) << 20;
	int rounds = argc > 2 ? atoi(argv[2]) : 20;
	struct smm_counters bpf, perf;
	char err[128];
	pid_t pid;

	if (smm_counters_open(&bpf, "all", SMM_ENGINE_BPF, err, sizeof(err)) ||
	    smm_counters_open(&perf, "all", SMM_ENGINE_PERF, err, sizeof(err)))
		return 1;
	printf("engine-bpf: %s (%s)\n",
	       bpf.engine == SMM_ENGINE_BPF && bpf.bpf ? "bpf" : "none",
	       bpf.engine_why);
	smm_counters_enable(&bpf);
	smm_counters_enable(&perf);
	pid = fork();
	if (pid == 0)
		workload(len, rounds);
	waitpid(pid, NULL, 0);
	smm_counters_disable(&perf);
	smm_counters_disable(&bpf);
	smm_counters_read(&perf);
	smm_counters_read(&bpf);
	for (size_t i = 0; i < perf.n; i++) {
		const struct smm_counter *p = &perf.c[i];
		const struct smm_counter *b =
			smm_counters_get(&bpf, p->spec->name);

		if (p->skip[0] || !b || b->skip[0])
			continue;
		printf("%s %llu %llu\n", p->spec->name,
		       (unsigned long long)p->value,
		       (unsigned long long)b->value);
	}
	smm_counters_free(&bpf);
	smm_counters_free(&perf);
	return 0;
}
