/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bpf-counters.h - the kernel counters counted by BPF programs
 * (bpf/counters.bpf.c, loaded through the skeleton bpftool generates at
 * build time): one BTF-enabled raw tracepoint program per tracepoint
 * binning its events per CPU (bpf/smm-counts.h), and the zone-lock waits
 * from lock:contention_begin/_end. Read once, at the end of a run.
 *
 * Needs CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN) and the kernel's BTF
 * (/sys/kernel/btf/vmlinux, CONFIG_DEBUG_INFO_BTF) for CO-RE and tp_btf.
 * RLIMIT_MEMLOCK stays as it was: since 5.11 the kernel charges BPF memory
 * to the memory cgroup, and libbpf (1.1) leaves the limit alone there; on
 * older kernels it raises the limit when it may, and it is put back after
 * the load, so that stress-ng's workers never inherit it. The maps (a few
 * KiB per CPU) must then fit the limit in force, or the load fails with
 * its errno and the perf counters count instead (counters.h).
 */
#ifndef SMM_BPF_COUNTERS_H
#define SMM_BPF_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lock-sides.h"
#include "smm-counts.h"

/* The tracepoints, in the order of enum smm_event (counters.h). */
#define SMM_BPF_NR_EVENTS 6

struct smm_bpf;

/*
 * smm_bpf_open() - load the programs of the events @want[] asks for and
 * attach them, gated off. Zone-lock wait sides from @ks. An event whose
 * tracepoint this kernel lacks (not in its BTF) is left out with the
 * reason in @ev_why[ev]; the zone-lock programs are left out, with the
 * reason, when they cannot load (a kernel field they read is missing) and
 * the others still count.
 * Return: 0, or -errno with the reason in @why (BPF cannot count here:
 * no BTF, no privilege, no BPF syscall): nothing is left loaded.
 */
int smm_bpf_open(struct smm_bpf **out, const bool want[SMM_BPF_NR_EVENTS],
		 const struct smm_lock_sides *ks,
		 char ev_why[SMM_BPF_NR_EVENTS][200], char *why, size_t len);

/* smm_bpf_gate() - count (@on) or not, on every CPU at once. */
void smm_bpf_gate(struct smm_bpf *b, bool on);

/*
 * smm_bpf_read() - the counts summed over the CPUs into @sum (zones
 * merged), and @misses: events the kernel did not run a program for
 * because that program was already running on the CPU (its
 * recursion_misses; an interrupt's page allocation inside another's).
 * Return: 0 or -errno.
 */
int smm_bpf_read(struct smm_bpf *b, struct smm_bpf_counts *sum,
		 uint64_t *misses);

/*
 * smm_bpf_calibrate() - can this kernel show a spinlock wait at all? For
 * at most @ms milliseconds, @threads threads contend one spinlock (an
 * eventfd's wait-queue lock: fs/eventfd.c takes it in read and write)
 * with the programs gated on; @waits gets how many spinlock waits
 * lock:contention_begin showed. Run after the run's counts were read (it
 * counts into the same maps).
 * Return: 0 or -errno (no thread could start).
 */
int smm_bpf_calibrate(struct smm_bpf *b, unsigned int ms, unsigned int threads,
		      uint64_t *waits);

/*
 * smm_bpf_run_stats() - the programs' own run count and run time summed
 * over them (bpf_prog_info run_cnt, run_time_ns: the kernel measures them
 * only while someone holds BPF_ENABLE_STATS, e.g. bpf_enable_stats()).
 */
void smm_bpf_run_stats(struct smm_bpf *b, uint64_t *runs, uint64_t *ns);

/* smm_bpf_close() - detach and unload; NULL is fine. */
void smm_bpf_close(struct smm_bpf *b);

#endif /* SMM_BPF_COUNTERS_H */
