// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-compare-load.c - strict input for stress-mm compare: the number
 * grammar of figure values, and the strict YAML loader's limits (size,
 * nesting, duplicate keys, one document).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compare-load.h"
#include "tap.h"
#include "yamldoc.h"

static const struct {
	const char *s;
	int ok;
} nums[] = {
	{ "0", 1 },	{ "12", 1 },  { "12.5", 1 }, { "0.000001", 1 },
	{ "1e400", 0 }, { "1e3", 0 }, { "inf", 0 },  { "nan", 0 },
	{ "0x10", 0 },	{ "+5", 0 },  { "-0", 0 },   { "-1", 0 },
	{ "", 0 },	{ ".5", 0 },  { "5.", 0 },   { "01", 0 },
	{ "1.2.3", 0 }, { " 1", 0 },  { "1 ", 0 },   { "1,5", 0 },
};

#define NN (int)(sizeof(nums) / sizeof(nums[0]))

static char path[64];

static int load_text(const char *text, size_t repeat, const char *tail,
		     char *err, size_t len)
{
	yaml_document_t d;
	FILE *f = fopen(path, "w");
	int rc;

	for (size_t i = 0; i < repeat; i++)
		fputs(text, f);
	fputs(tail, f);
	fclose(f);
	rc = smm_yaml_load_strict(path, &d, 1 << 20, 32, err, len);
	if (rc == 0)
		yaml_document_delete(&d);
	return rc;
}

int main(void)
{
	char err[300];
	double v;
	clock_t t0;
	int rc, fd;

	snprintf(path, sizeof(path), "/tmp/unit-compare-load.XXXXXX");
	fd = mkstemp(path);
	if (fd >= 0)
		close(fd);
	tap_plan(NN + 7);
	for (int i = 0; i < NN; i++) {
		rc = smm_decimal(nums[i].s, &v);
		tap_ok((rc == 0) == nums[i].ok, "'%s' is %s", nums[i].s,
		       nums[i].ok ? "a number" : "refused");
	}
	tap_ok(load_text("a: 1\nb: {c: 2, d: 3}\n", 1, "", err, sizeof(err)) ==
		       0,
	       "a plain document loads");
	tap_ok(load_text("a: 1\nb: 2\na: 3\n", 1, "", err, sizeof(err)) ==
			       -EEXIST &&
		       strstr(err, "'a' appears twice"),
	       "a duplicate key is refused: %s", err);
	tap_ok(load_text("m:\n  x: 1\n  x: 1\n", 1, "", err, sizeof(err)) ==
		       -EEXIST,
	       "a duplicate key in a nested mapping is refused");
	t0 = clock();
	rc = load_text("[", 100000, "", err, sizeof(err));
	tap_ok(rc == -ELOOP && clock() - t0 < 2 * CLOCKS_PER_SEC,
	       "100000 nested sequences are refused at once (%d, %.2f s): %s",
	       rc, (double)(clock() - t0) / CLOCKS_PER_SEC, err);
	tap_ok(load_text("k: 0123456789012345678901234567890123456789\n", 30000,
			 "", err, sizeof(err)) == -EFBIG,
	       "a file over the size bound is refused: %s", err);
	tap_ok(load_text("a: 1\n---\nb: 2\n", 1, "", err, sizeof(err)) ==
		       -EINVAL,
	       "two documents are refused: %s", err);
	tap_ok(load_text("a: [1, 2\n", 1, "", err, sizeof(err)) == -EINVAL,
	       "broken YAML is refused: %s", err);
	unlink(path);
	return tap_done();
}
