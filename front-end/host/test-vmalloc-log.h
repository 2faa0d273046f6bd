/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-vmalloc-log.h - the results of the kernel's test_vmalloc module, read
 * from the kernel log. lib/test_vmalloc.c (Linux 7.2,
 * do_concurrent_test()) prints, per worker thread (nr_threads), one line
 * per test of run_test_mask, then one line of cycles:
 *
 *   Summary: <test> passed: <int> failed: <int> xfailed: <int> repeat: <int> loops: <int> avg: <u64> usec
 *   All test took worker<int>=<unsigned long> cycles
 *
 * avg is the mean time of one repeat of the test's loop in microseconds
 * (ktime), over test_repeat_count repeats; loops is test_loop_count.
 * Kernels whose test_vmalloc has no expected failures print no
 * "xfailed: <int>". test_vmalloc has no pr_fmt: the line carries whatever
 * the log adds in front (dmesg's "[    1.234567] ", /dev/kmsg's
 * "6,812,4567,-;", syslog's "... kernel: "), and that is skipped.
 *
 * The front end runs test_vmalloc with nr_pages, nr_threads,
 * test_loop_count and run_test_mask (from the names below) and reads the
 * lines back with this parser.
 */
#ifndef SMM_TEST_VMALLOC_LOG_H
#define SMM_TEST_VMALLOC_LOG_H

#include <stdint.h>
#include <stdio.h>

#define SMM_TV_NAME_MAX 64
#define SMM_TV_TESTS_MAX 32
#define SMM_TV_WORKERS_MAX 256

/* What smm_tv_parse_line() found (struct smm_tv_line.kind) */
enum smm_tv_kind {
	SMM_TV_NONE = 0,
	SMM_TV_SUMMARY, /* "Summary: ..." */
	SMM_TV_CYCLES, /* "All test took worker..." */
};

struct smm_tv_line {
	enum smm_tv_kind kind;
	/* SMM_TV_SUMMARY */
	char test[SMM_TV_NAME_MAX];
	int passed, failed;
	int xfailed; /* -1: the kernel's format has none */
	int repeat, loops;
	uint64_t avg_usec;
	/* SMM_TV_CYCLES */
	int worker;
	uint64_t cycles;
};

/*
 * smm_tv_parse_line() - one line of the kernel log (its newline, if any,
 * included). Numbers must be decimal, non-negative, in range (int fields
 * up to INT_MAX); fields come in the kernel's order, one space apart, and
 * nothing but a newline may follow.
 * Return: 1 and *out filled for a test_vmalloc line; 0 for any other line
 * (also another module's "Summary:" line: a word that is not one of
 * test_vmalloc's tests and no " passed: " after it); -EINVAL for a
 * test_vmalloc line that is malformed or truncated (*out then holds the
 * kind and what was read before the fault).
 */
int smm_tv_parse_line(const char *line, struct smm_tv_line *out);

/* The results of one test, over its workers' Summary lines. */
struct smm_tv_test {
	char name[SMM_TV_NAME_MAX];
	int workers; /* Summary lines read */
	long passed, failed, xfailed; /* sums; xfailed -1 if never printed */
	int repeat, loops; /* of the last line (the same for all workers) */
	uint64_t avg_usec_sum, avg_usec_min, avg_usec_max;
};

struct smm_tv_log {
	int ntests;
	struct smm_tv_test tests[SMM_TV_TESTS_MAX];
	int nworkers; /* cycles lines read */
	uint64_t cycles[SMM_TV_WORKERS_MAX]; /* by worker number */
	int malformed; /* lines smm_tv_parse_line() refused */
	int dropped; /* lines past the table sizes above */
};

/* smm_tv_log_add() - add one line. Return: smm_tv_parse_line()'s. */
int smm_tv_log_add(struct smm_tv_log *rep, const char *line);

/*
 * smm_tv_log_text() - every line of a log text (NUL-terminated,
 * newline-separated) into *rep, which is zeroed first. Return: the
 * number of test_vmalloc lines read.
 */
int smm_tv_log_text(struct smm_tv_log *rep, const char *text);

/* smm_tv_log_file() - the same for every line of @f, read to its end. */
int smm_tv_log_file(struct smm_tv_log *rep, FILE *f);

/* The test named name in *rep, or NULL. */
const struct smm_tv_test *smm_tv_log_find(const struct smm_tv_log *rep,
					  const char *name);

/*
 * smm_tv_ns_per_loop() - ns per loop of a test: mean avg_usec over its
 * workers x 1000 / loops (for fix_size_alloc_test: ns per vmalloc+vfree).
 * Return: 0 when nothing was read.
 */
double smm_tv_ns_per_loop(const struct smm_tv_test *t);

/*
 * smm_tv_test_bit() - test_vmalloc's test number of a name (its bit in
 * run_test_mask; the table of lib/test_vmalloc.c in 7.2). Return: 0..12,
 * or -1 for an unknown name.
 */
int smm_tv_test_bit(const char *name);

/* smm_tv_test_names() - every test's name, in bit order, ", "-separated
 * (truncated to @len). */
void smm_tv_test_names(char *buf, size_t len);

/*
 * smm_tv_mask() - run_test_mask for comma-separated test names.
 * Return: the mask, or 0 when a name is unknown or the list is empty.
 */
unsigned int smm_tv_mask(const char *names);

#endif /* SMM_TEST_VMALLOC_LOG_H */
