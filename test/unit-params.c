// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-params.c - the strict size/count grammar, range checks, messages, and
 * a few hundred random strings checked against an independent oracle.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "params-table.h"
#include "params.h"
#include "tap.h"

#define N_RANDOM 600

static const struct {
	const char *s;
	int rc;
	uint64_t v;
} sizes[] = {
	{ "4096", 0, 4096 },
	{ "16K", 0, 16384 },
	{ "16k", 0, 16384 },
	{ "1M", 0, 1 << 20 },
	{ "1m", 0, 1 << 20 },
	{ "1G", 0, 1 << 30 },
	{ "1g", 0, 1 << 30 },
	{ "0", 0, 0 },
	{ "8589934591G", 0, 8589934591ULL << 30 },
	{ "", -EINVAL, 0 },
	{ "16KK", -EINVAL, 0 },
	{ "1e3", -EINVAL, 0 },
	{ "010", -EINVAL, 0 },
	{ "00", -EINVAL, 0 },
	{ "0x10", -EINVAL, 0 },
	{ "-1", -EINVAL, 0 },
	{ "+1", -EINVAL, 0 },
	{ " 16K", -EINVAL, 0 },
	{ "16K ", -EINVAL, 0 },
	{ "1.5K", -EINVAL, 0 },
	{ "16B", -EINVAL, 0 },
	{ "16KiB", -EINVAL, 0 },
	{ "K", -EINVAL, 0 },
	{ "1T", -EINVAL, 0 },
	{ "16\n", -EINVAL, 0 },
	{ "99999999999999999999", -ERANGE, 0 },
	{ "9223372036854775808", -ERANGE, 0 },
	{ "8589934592G", -ERANGE, 0 },
	{ "17179869184G", -ERANGE, 0 },
};

static const struct {
	const char *s;
	int rc;
	uint64_t v;
} counts[] = {
	{ "1", 0, 1 },
	{ "4096", 0, 4096 },
	{ "0", 0, 0 },
	{ "016", -EINVAL, 0 },
	{ "1K", -EINVAL, 0 },
	{ "", -EINVAL, 0 },
	{ "-3", -EINVAL, 0 },
	{ "3 ", -EINVAL, 0 },
	{ "0x3", -EINVAL, 0 },
	{ "9223372036854775807", 0, INT64_MAX },
	{ "9223372036854775808", -ERANGE, 0 },
};

/* Oracle: the grammar written out independently, with 128-bit arithmetic. */
static int oracle_size(const char *s, uint64_t *v)
{
	unsigned __int128 acc = 0;
	size_t i = 0, digits = 0;
	int shift = 0;

	while (s[i] >= '0' && s[i] <= '9') {
		acc = acc * 10 + (unsigned)(s[i] - '0');
		if (acc > ((unsigned __int128)1 << 100))
			acc = (unsigned __int128)1 << 100;
		i++;
		digits++;
	}
	if (digits == 0 || (digits > 1 && s[0] == '0'))
		return -EINVAL;
	switch (s[i]) {
	case '\0':
		break;
	case 'k':
	case 'K':
		shift = 10;
		break;
	case 'm':
	case 'M':
		shift = 20;
		break;
	case 'g':
	case 'G':
		shift = 30;
		break;
	default:
		return -EINVAL;
	}
	if (shift && s[i + 1] != '\0')
		return -EINVAL;
	acc <<= shift;
	if (acc > INT64_MAX)
		return -ERANGE;
	*v = (uint64_t)acc;
	return 0;
}

static void random_string(char *buf, size_t len, unsigned int *seed)
{
	static const char alphabet[] = "0123456789KkMmGgTtBeEx+-. \t\n";
	size_t n = (size_t)rand_r(seed) % (len - 1);

	/* One in four: a long run of digits with an optional suffix, around
	 * the 63-bit limit. */
	if (rand_r(seed) % 4 == 0) {
		n = 15 + (size_t)rand_r(seed) % 6;
		for (size_t i = 0; i < n; i++)
			buf[i] = (char)('1' + rand_r(seed) % 9);
		buf[n] = "\0KMGk"[rand_r(seed) % 5];
		buf[n + 1] = '\0';
		return;
	}
	for (size_t i = 0; i < n; i++) {
		int r = rand_r(seed);

		/* Mostly digits, so that valid and overflowing values occur. */
		if (r % 3)
			buf[i] = (char)('0' + r % 10);
		else if (r % 17 == 0)
			buf[i] = (char)(1 + r % 255);
		else
			buf[i] = alphabet[(size_t)r % (sizeof(alphabet) - 1)];
	}
	buf[n] = '\0';
}

/* Test descriptions must stay on one line. */
static const char *printable(const char *s)
{
	static char buf[64];
	size_t i;

	for (i = 0; s[i] && i < sizeof(buf) - 1; i++)
		buf[i] = (s[i] >= ' ' && s[i] < 127) ? s[i] : '?';
	buf[i] = '\0';
	return buf;
}

static void test_fixed(void)
{
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t v = 0;
		int rc = smm_parse_size(sizes[i].s, &v);

		tap_ok(rc == sizes[i].rc && (rc || v == sizes[i].v),
		       "size '%s' -> rc %d value %llu", printable(sizes[i].s),
		       rc, (unsigned long long)v);
	}
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		uint64_t v = 0;
		int rc = smm_parse_count(counts[i].s, &v);

		tap_ok(rc == counts[i].rc && (rc || v == counts[i].v),
		       "count '%s' -> rc %d value %llu", counts[i].s, rc,
		       (unsigned long long)v);
	}
	tap_ok(smm_parse_size(NULL, &(uint64_t){ 0 }) == -EINVAL,
	       "size NULL is a grammar error");
}

static void test_random(void)
{
	unsigned int seed = 20261130;
	int agree = 0, valid = 0, range = 0;
	char s[24];

	for (int i = 0; i < N_RANDOM; i++) {
		uint64_t v1 = 1, v2 = 2;
		int r1, r2;

		random_string(s, sizeof(s), &seed);
		r1 = smm_parse_size(s, &v1);
		r2 = oracle_size(s, &v2);
		if (r1 == r2 && (r1 != 0 || v1 == v2))
			agree++;
		else
			tap_diag(
				"disagree on '%s': parser %d/%llu oracle %d/%llu",
				printable(s), r1, (unsigned long long)v1, r2,
				(unsigned long long)v2);
		valid += r2 == 0;
		range += r2 == -ERANGE;
	}
	tap_diag("%d random strings: %d valid, %d overflowing", N_RANDOM, valid,
		 range);
	tap_ok(agree == N_RANDOM && valid > 20 && range > 5,
	       "parser agrees with the oracle on %d random strings", N_RANDOM);
}

static void test_params(void)
{
	const struct smm_param *bytes = &smm_vmo_params[SMM_VMO_P_BYTES];
	const struct smm_param *batch = &smm_vmo_params[SMM_VMO_P_BATCH];
	const struct smm_param *method = &smm_vmo_params[SMM_VMO_P_METHOD];
	char err[512], range[128];
	uint64_t v = 0;
	int rc;

	for (int i = 0; i < SMM_VMO_NR_PARAMS; i++) {
		rc = smm_param_parse(&smm_vmo_params[i], NULL, &v, err,
				     sizeof(err));
		tap_ok(rc == 0, "%s: default '%s' is valid",
		       smm_vmo_params[i].env, smm_vmo_params[i].def);
	}
	for (int i = 0; i < SMM_SHM_NR_PARAMS; i++) {
		rc = smm_param_parse(&smm_shm_params[i], NULL, &v, err,
				     sizeof(err));
		tap_ok(rc == 0, "%s: default '%s' is valid",
		       smm_shm_params[i].env, smm_shm_params[i].def);
	}
	rc = smm_param_parse(&smm_common_params[SMM_COMMON_P_STATS_DIR], NULL,
			     &v, err, sizeof(err));
	tap_ok(rc == 0 && v == 0, "STRESS_MM_STATS_DIR unset: off");
	rc = smm_param_parse(&smm_common_params[SMM_COMMON_P_STATS_DIR], "/tmp",
			     &v, err, sizeof(err));
	tap_ok(rc == 0 && v == 1, "STRESS_MM_STATS_DIR=/tmp: on");
	rc = smm_param_parse(&smm_common_params[SMM_COMMON_P_STATS_DIR], "tmp",
			     &v, err, sizeof(err));
	tap_ok(rc == -EINVAL && strstr(err, "not absolute"),
	       "STRESS_MM_STATS_DIR relative: %s", err);
	smm_param_parse(bytes, NULL, &v, err, sizeof(err));
	tap_ok(v == 16384, "BYTES default is 16K");
	smm_param_parse(batch, NULL, &v, err, sizeof(err));
	tap_ok(v == 16, "BATCH default is 16");

	rc = smm_param_parse(bytes, "", &v, err, sizeof(err));
	tap_ok(rc == -EINVAL && strstr(err, "STRESS_MM_VMALLOC_ORDER_BYTES=''"),
	       "set but empty is an error: %s", err);
	rc = smm_param_parse(bytes, "2G", &v, err, sizeof(err));
	tap_ok(rc == -ERANGE && strstr(err, "'2G'") &&
		       strstr(err,
			      "valid range 4K..1G (4096..1073741824 bytes)"),
	       "out of range names value and range: %s", err);
	rc = smm_param_parse(bytes, "4095", &v, err, sizeof(err));
	tap_ok(rc == -ERANGE, "4095 bytes is below the range");
	rc = smm_param_parse(bytes, "1G", &v, err, sizeof(err));
	tap_ok(rc == 0 && v == 1ULL << 30, "1G is the top of the range");
	rc = smm_param_parse(batch, "4097", &v, err, sizeof(err));
	tap_ok(rc == -ERANGE && strstr(err, "1..4096 allocations"),
	       "batch 4097 out of range: %s", err);
	rc = smm_param_parse(batch, "0", &v, err, sizeof(err));
	tap_ok(rc == -ERANGE, "batch 0 out of range");
	rc = smm_param_parse(bytes, "1\n6K\x01", &v, err, sizeof(err));
	tap_ok(rc == -EINVAL && !strchr(err, '\n') && !strchr(err, '\x01'),
	       "control characters are escaped: %s", err);
	rc = smm_param_parse(method, "stack", &v, err, sizeof(err));
	tap_ok(rc == 0 && strcmp(method->choices[v], "stack") == 0,
	       "method stack");
	rc = smm_param_parse(method, "Stack", &v, err, sizeof(err));
	smm_param_range(method, range, sizeof(range));
	tap_ok(rc == -EINVAL && strstr(err, range) &&
		       strstr(range, "all|stack"),
	       "method is case-sensitive: %s", err);
	memset(err, 'x', sizeof(err));
	err[sizeof(err) - 1] = '\0';
	{
		char longv[2000];

		memset(longv, '7', sizeof(longv) - 1);
		longv[sizeof(longv) - 1] = '\0';
		rc = smm_param_parse(bytes, longv, &v, err, sizeof(err));
		tap_ok(rc == -ERANGE && strstr(err, "valid range"),
		       "a very long value keeps the range in the message");
	}
}

static void test_format(void)
{
	static const uint64_t vals[] = { 4096,	     16384,
					 5000,	     1ULL << 20,
					 3ULL << 30, (1ULL << 20) + 1024 };
	char buf[32];
	int good = 1;

	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		uint64_t back = 0;

		smm_format_size(vals[i], buf, sizeof(buf));
		if (smm_parse_size(buf, &back) || back != vals[i])
			good = 0;
	}
	smm_format_size(16384, buf, sizeof(buf));
	tap_ok(good && strcmp(buf, "16K") == 0,
	       "formatted sizes read back to the same value");
}

/* Every row's default, formatted from its parsed value, parses back to
 * that value: the text the runners hand stress-ng is the value itself. */
static void test_param_format(void)
{
	const struct smm_param *rows[] = {
		&smm_vmo_params[SMM_VMO_P_BYTES],
		&smm_vmo_params[SMM_VMO_P_BATCH],
		&smm_vmo_params[SMM_VMO_P_METHOD],
		&smm_shm_params[SMM_SHM_P_CHURN_BYTES],
		&smm_shm_params[SMM_SHM_P_CPU],
	};
	char buf[64], err[256];
	int good = 1;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint64_t v = 0, back = 1;

		if (smm_param_parse(rows[i], NULL, &v, err, sizeof(err))) {
			good = 0;
			continue;
		}
		smm_param_format(rows[i], v, buf, sizeof(buf));
		if (smm_param_parse(rows[i], buf, &back, err, sizeof(err)) ||
		    back != v)
			good = 0;
	}
	tap_ok(good, "parameter values format to text that parses back");
	smm_param_format(&smm_vmo_params[SMM_VMO_P_METHOD], 999, buf,
			 sizeof(buf));
	tap_ok(!strcmp(buf, "?"), "a choice index past the words is '?'");
}

int main(void)
{
	tap_plan((int)(sizeof(sizes) / sizeof(sizes[0]) +
		       sizeof(counts) / sizeof(counts[0])) +
		 1 + 1 + SMM_VMO_NR_PARAMS + SMM_SHM_NR_PARAMS + 3 + 12 + 1 +
		 2);
	test_fixed();
	test_random();
	test_params();
	test_format();
	test_param_format();
	return tap_done();
}
