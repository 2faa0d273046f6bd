// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-vmalloc-log.c - test_vmalloc's Summary and cycles lines from the kernel
 * log (the format is described in test-vmalloc-log.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-vmalloc-log.h"

#define SUMMARY "Summary: "
#define CYCLES "All test took worker"

/* lib/test_vmalloc.c test_case_array[] of 7.2: the index is the bit. */
static const char *const tv_tests[] = {
	"fix_size_alloc_test",
	"full_fit_alloc_test",
	"long_busy_list_alloc_test",
	"random_size_alloc_test",
	"fix_align_alloc_test",
	"random_size_align_alloc_test",
	"align_shift_alloc_test",
	"pcpu_alloc_test",
	"kvfree_rcu_1_arg_vmalloc_test",
	"kvfree_rcu_2_arg_vmalloc_test",
	"vm_map_ram_test",
	"no_block_alloc_test",
	"vrealloc_test",
};

#define NTESTS ((int)(sizeof(tv_tests) / sizeof(tv_tests[0])))

int smm_tv_test_bit(const char *name)
{
	int i;

	for (i = 0; i < NTESTS; i++)
		if (strcmp(name, tv_tests[i]) == 0)
			return i;
	return -1;
}

void smm_tv_test_names(char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (int i = 0; i < NTESTS && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
				 tv_tests[i]);

		if (n < 0)
			break;
		used += (size_t)n;
	}
}

/* Is s (n bytes) the start of a test's name? */
static int tv_name_prefix(const char *s, size_t n)
{
	int i;

	for (i = 0; i < NTESTS; i++)
		if (strncmp(s, tv_tests[i], n) == 0)
			return 1;
	return 0;
}

unsigned int smm_tv_mask(const char *names)
{
	char name[SMM_TV_NAME_MAX];
	unsigned int mask = 0;
	const char *p = names;
	size_t n;
	int bit;

	while (*p) {
		n = strcspn(p, ",");
		if (!n || n >= sizeof(name))
			return 0;
		memcpy(name, p, n);
		name[n] = '\0';
		bit = smm_tv_test_bit(name);
		if (bit < 0)
			return 0;
		mask |= 1U << bit;
		p += n;
		if (*p == ',' && !*++p)
			return 0; /* a trailing comma */
	}
	return mask;
}

/* Skip the literal s at *p. Return: 0, or -EINVAL when it is not there. */
static int tv_lit(const char **p, const char *s)
{
	size_t n = strlen(s);

	if (strncmp(*p, s, n) != 0)
		return -EINVAL;
	*p += n;
	return 0;
}

/* A decimal number up to max at *p: digits only. */
static int tv_num(const char **p, uint64_t max, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;
	unsigned int d;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++) {
		d = (unsigned int)(*s - '0');
		if (x > (max - d) / 10)
			return -EINVAL;
		x = x * 10 + d;
	}
	*v = x;
	*p = s;
	return 0;
}

static int tv_int(const char **p, int *v)
{
	uint64_t x;
	int rc = tv_num(p, INT_MAX, &x);

	if (!rc)
		*v = (int)x;
	return rc;
}

/* Nothing but the line's end (a newline, a console's carriage return). */
static int tv_end(const char *p)
{
	p += strspn(p, "\r\n");
	return *p ? -EINVAL : 0;
}

static int tv_summary(const char *p, struct smm_tv_line *out)
{
	size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyz"
			     "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
	int known;

	out->kind = SMM_TV_SUMMARY;
	out->xfailed = -1;
	if (n < sizeof(out->test)) {
		memcpy(out->test, p, n);
		out->test[n] = '\0';
		known = smm_tv_test_bit(out->test) >= 0;
	} else {
		known = 0;
	}
	if (strncmp(p + n, " passed: ", 9) != 0) {
		/* The line ends inside a test's name or just after it. */
		if (known || (!tv_end(p + n) && tv_name_prefix(p, n)))
			return -EINVAL;
		out->kind = SMM_TV_NONE;
		return 0; /* another module's Summary line */
	}
	if (n == 0 || n >= sizeof(out->test))
		return -EINVAL;
	p += n;
	if (tv_lit(&p, " passed: ") || tv_int(&p, &out->passed) ||
	    tv_lit(&p, " failed: ") || tv_int(&p, &out->failed))
		return -EINVAL;
	if (strncmp(p, " xfailed: ", 10) == 0) {
		p += 10;
		if (tv_int(&p, &out->xfailed))
			return -EINVAL;
	}
	if (tv_lit(&p, " repeat: ") || tv_int(&p, &out->repeat) ||
	    tv_lit(&p, " loops: ") || tv_int(&p, &out->loops) ||
	    tv_lit(&p, " avg: ") || tv_num(&p, UINT64_MAX, &out->avg_usec) ||
	    tv_lit(&p, " usec") || tv_end(p))
		return -EINVAL;
	return 1;
}

static int tv_cycles(const char *p, struct smm_tv_line *out)
{
	out->kind = SMM_TV_CYCLES;
	if (tv_int(&p, &out->worker) || tv_lit(&p, "=") ||
	    tv_num(&p, UINT64_MAX, &out->cycles) || tv_lit(&p, " cycles") ||
	    tv_end(p))
		return -EINVAL;
	return 1;
}

int smm_tv_parse_line(const char *line, struct smm_tv_line *out)
{
	const char *p;

	memset(out, 0, sizeof(*out));
	p = strstr(line, SUMMARY);
	if (p)
		return tv_summary(p + strlen(SUMMARY), out);
	p = strstr(line, CYCLES);
	if (p)
		return tv_cycles(p + strlen(CYCLES), out);
	return 0;
}

const struct smm_tv_test *smm_tv_log_find(const struct smm_tv_log *rep,
					  const char *name)
{
	int i;

	for (i = 0; i < rep->ntests; i++)
		if (strcmp(rep->tests[i].name, name) == 0)
			return &rep->tests[i];
	return NULL;
}

static void tv_add_summary(struct smm_tv_log *rep, const struct smm_tv_line *l)
{
	struct smm_tv_test *t =
		(struct smm_tv_test *)smm_tv_log_find(rep, l->test);

	if (!t) {
		if (rep->ntests == SMM_TV_TESTS_MAX) {
			rep->dropped++;
			return;
		}
		t = &rep->tests[rep->ntests++];
		snprintf(t->name, sizeof(t->name), "%s", l->test);
		t->xfailed = -1;
		t->avg_usec_min = UINT64_MAX;
	}
	t->workers++;
	t->passed += l->passed;
	t->failed += l->failed;
	if (l->xfailed >= 0)
		t->xfailed = (t->xfailed < 0 ? 0 : t->xfailed) + l->xfailed;
	t->repeat = l->repeat;
	t->loops = l->loops;
	t->avg_usec_sum += l->avg_usec;
	if (l->avg_usec < t->avg_usec_min)
		t->avg_usec_min = l->avg_usec;
	if (l->avg_usec > t->avg_usec_max)
		t->avg_usec_max = l->avg_usec;
}

int smm_tv_log_add(struct smm_tv_log *rep, const char *line)
{
	struct smm_tv_line l;
	int rc = smm_tv_parse_line(line, &l);

	if (rc < 0) {
		rep->malformed++;
	} else if (rc > 0 && l.kind == SMM_TV_SUMMARY) {
		tv_add_summary(rep, &l);
	} else if (rc > 0) {
		if (l.worker >= SMM_TV_WORKERS_MAX) {
			rep->dropped++;
		} else {
			rep->cycles[l.worker] = l.cycles;
			if (l.worker >= rep->nworkers)
				rep->nworkers = l.worker + 1;
		}
	}
	return rc;
}

/* One line of @n bytes (no newline) of a log; 1 when test_vmalloc's. */
static int add_log_line(struct smm_tv_log *rep, const char *p, size_t n)
{
	char line[1024];

	if (n >= sizeof(line)) {
		rep->dropped++;
		return 0;
	}
	memcpy(line, p, n);
	line[n] = '\0';
	return smm_tv_log_add(rep, line) > 0;
}

int smm_tv_log_text(struct smm_tv_log *rep, const char *text)
{
	const char *p = text;
	int found = 0;

	memset(rep, 0, sizeof(*rep));
	while (*p) {
		size_t n = strcspn(p, "\n");

		found += add_log_line(rep, p, n);
		p += n;
		if (*p == '\n')
			p++;
	}
	return found;
}

int smm_tv_log_file(struct smm_tv_log *rep, FILE *f)
{
	char *line = NULL;
	size_t cap = 0;
	int found = 0;

	memset(rep, 0, sizeof(*rep));
	while (getline(&line, &cap, f) > 0)
		found += add_log_line(rep, line, strcspn(line, "\n"));
	free(line);
	return found;
}

double smm_tv_ns_per_loop(const struct smm_tv_test *t)
{
	if (!t || t->workers <= 0 || t->loops <= 0)
		return 0;
	return (double)t->avg_usec_sum * 1000.0 / t->workers / t->loops;
}
