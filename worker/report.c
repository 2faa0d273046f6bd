// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report.c - notes, FAIL and SKIP lines; once per run through a shared page.
 */
#include <errno.h>
#include <stdbool.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report.h"
#include "shared-page.h"

#define ONCE_BITS 4096U
#define ONCE_WORDS (ONCE_BITS / 64U)
#define FAIL_PRINTED_MAX 32U

struct report_page {
	uint64_t once[ONCE_WORDS]; /* smm_once() bits */
	uint64_t fails; /* smm_fail() calls in the run */
};

static struct report_page *shared; /* shared page, or NULL */
static struct report_page local; /* per-process fallback */
static smm_line_sink sink; /* NULL: stderr */

void smm_report_sink(smm_line_sink to)
{
	sink = to;
}

int smm_report_init(void)
{
	return smm_shared_map((void **)&shared, sizeof(*shared));
}

void smm_report_reset(void)
{
	smm_shared_unmap((void **)&shared, sizeof(*shared));
	memset(&local, 0, sizeof(local));
}

/* FNV-1a, 32 bits: small, stable, good enough to spread short keys. */
static uint32_t key_hash(const char *key)
{
	uint32_t h = 2166136261U;

	for (; *key; key++) {
		h ^= (unsigned char)*key;
		h *= 16777619U;
	}
	return h;
}

uint64_t smm_fail_count(void)
{
	struct report_page *pg = shared ? shared : &local;

	return __atomic_load_n(&pg->fails, __ATOMIC_RELAXED);
}

bool smm_once(const char *key)
{
	uint32_t bit = key_hash(key) % ONCE_BITS;
	uint64_t *words = shared ? shared->once : local.once;
	uint64_t mask = 1ULL << (bit % 64U);
	uint64_t old;

	old = __atomic_fetch_or(&words[bit / 64U], mask, __ATOMIC_RELAXED);
	return !(old & mask);
}

/* One line, one write(2): concurrent workers never interleave. */
static void emit(enum smm_line_kind kind, const char *stressor,
		 const char *text)
{
	static const char *const tags[] = {
		[SMM_LINE_NOTE] = "",
		[SMM_LINE_FAIL] = "FAIL: ",
		[SMM_LINE_SKIP] = "SKIP: ",
	};
	const char *tag = tags[kind];
	char line[1024];
	int n;

	if (sink) {
		sink(kind, stressor, text);
		return;
	}

	n = snprintf(line, sizeof(line), "%s: %s%s\n", stressor, tag, text);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line)) {
		n = sizeof(line) - 1;
		line[n - 1] = '\n';
	}
	if (write(STDERR_FILENO, line, (size_t)n) < 0)
		return; /* nowhere left to report to */
}

void smm_note_once(const char *key, const char *stressor, const char *fmt, ...)
{
	char text[900];
	va_list ap;

	char full[960];

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	/* Keys are per stressor: both stressors may share one run. */
	snprintf(full, sizeof(full), "%s: %s", stressor, key ? key : text);
	if (smm_once(full))
		emit(SMM_LINE_NOTE, stressor, text);
}

void smm_fail(struct smm_stats_file *rec, const char *stressor, int err,
	      const char *fmt, ...)
{
	struct report_page *pg = shared ? shared : &local;
	char what[700], text[900], errtext[80] = "";
	uint64_t nth;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	smm_stats_fail(rec, err, what);
	nth = __atomic_add_fetch(&pg->fails, 1, __ATOMIC_RELAXED);
	if (nth > FAIL_PRINTED_MAX)
		return;
	if (err)
		snprintf(errtext, sizeof(errtext), " errno=%d (%s)", err,
			 strerror(err));
	snprintf(text, sizeof(text), "%s%s%s", what, errtext,
		 nth == FAIL_PRINTED_MAX
			 ? "; further failures in this run are not printed"
			 : "");
	emit(SMM_LINE_FAIL, stressor, text);
}

static void skip_line(const char *stressor, const char *text)
{
	char key[960];

	snprintf(key, sizeof(key), "SKIP %s %s", stressor, text);
	if (smm_once(key))
		emit(SMM_LINE_SKIP, stressor, text);
}

/* Signal only stress-ng's stressor process: a worker whose parent died has
 * been re-parented, and SIGALRM would kill a subreaper. Tests run smm_skip()
 * under a parent named "unit-report". */
static bool parent_is_stress_ng(void)
{
	char path[64], comm[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)getppid());
	f = fopen(path, "re");
	if (!f)
		return false;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	return strncmp(comm, "stress-ng", 9) == 0 ||
	       strncmp(comm, "unit-report", 11) == 0;
}

void smm_skip(struct smm_stats_file *rec, const char *stressor, int err,
	      const char *fmt, ...)
{
	char text[900];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	smm_stats_skip(rec, err, text);
	skip_line(stressor, text);
	if (parent_is_stress_ng())
		kill(getppid(), SIGALRM);
	_exit(0);
}
