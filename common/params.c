// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * params.c - strict parameter grammar, then libbsd conversion.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIBBSD_NETBSD_VIS 1 /* strnvis(dst, dlen, src, flags) */
#include <bsd/libutil.h>
#include <bsd/stdlib.h>
#include <bsd/string.h>
#include <bsd/vis.h>

#include "params.h"
#include "stats.h"

/* Length of the leading run of digits that forms a valid decimal number:
 * "0" or [1-9][0-9]*. Returns 0 when @s does not start that way. */
static size_t decimal_prefix(const char *s)
{
	size_t n = 0;

	if (s[0] == '0')
		return (s[1] >= '0' && s[1] <= '9') ? 0 : 1;
	while (s[n] >= '0' && s[n] <= '9')
		n++;
	return n;
}

int smm_parse_size(const char *s, uint64_t *out)
{
	size_t n;
	int64_t v = 0;
	char c;

	if (!s)
		return -EINVAL;
	n = decimal_prefix(s);
	if (n == 0)
		return -EINVAL;
	c = s[n];
	if (c != '\0') {
		if (!strchr("KkMmGg", c) || s[n + 1] != '\0')
			return -EINVAL;
	}
	/* 20 digits already exceed 63 bits: keep dehumanize_number's
	 * internal strtoll from seeing anything it could misread. */
	if (n > 19)
		return -ERANGE;
	errno = 0;
	if (dehumanize_number(s, &v) != 0)
		return errno == ERANGE ? -ERANGE : -EINVAL;
	if (v < 0)
		return -ERANGE;
	*out = (uint64_t)v;
	return 0;
}

int smm_parse_count(const char *s, uint64_t *out)
{
	const char *errstr = NULL;
	long long v;
	size_t n;

	if (!s)
		return -EINVAL;
	n = decimal_prefix(s);
	if (n == 0 || s[n] != '\0')
		return -EINVAL;
	if (n > 19)
		return -ERANGE;
	v = strtonum(s, 0, INT64_MAX, &errstr);
	if (errstr)
		return -ERANGE;
	*out = (uint64_t)v;
	return 0;
}

void smm_format_size(uint64_t bytes, char *buf, size_t len)
{
	static const char sfx[] = { 'G', 'M', 'K' };
	int shift = 30;

	for (size_t i = 0; i < sizeof(sfx); i++, shift -= 10) {
		uint64_t unit = 1ULL << shift;

		if (bytes >= unit && bytes % unit == 0) {
			snprintf(buf, len, "%llu%c",
				 (unsigned long long)(bytes / unit), sfx[i]);
			return;
		}
	}
	snprintf(buf, len, "%llu", (unsigned long long)bytes);
}

void smm_param_range(const struct smm_param *p, char *buf, size_t len)
{
	char lo[32], hi[32];
	size_t used = 0;

	if (len == 0)
		return;
	buf[0] = '\0';
	switch (p->type) {
	case SMM_P_SIZE:
		smm_format_size(p->min, lo, sizeof(lo));
		smm_format_size(p->max, hi, sizeof(hi));
		snprintf(buf, len, "%s..%s (%llu..%llu %s)", lo, hi,
			 (unsigned long long)p->min, (unsigned long long)p->max,
			 p->unit);
		break;
	case SMM_P_COUNT:
		snprintf(buf, len, "%llu..%llu %s", (unsigned long long)p->min,
			 (unsigned long long)p->max, p->unit);
		break;
	case SMM_P_DIR:
		snprintf(buf, len, "an absolute path to a writable directory");
		break;
	case SMM_P_CHOICE:
		for (size_t i = 0; p->choices[i] && used < len; i++) {
			int w = snprintf(buf + used, len - used, "%s%s",
					 i ? "|" : "", p->choices[i]);
			if (w < 0)
				break;
			used += (size_t)w;
		}
		break;
	}
}

static const char *grammar_of(const struct smm_param *p)
{
	switch (p->type) {
	case SMM_P_SIZE:
		return "is not a size (decimal digits with at most one K, M or G suffix)";
	case SMM_P_COUNT:
		return "is not a count (decimal digits only)";
	case SMM_P_CHOICE:
		return "is not one of the choices";
	case SMM_P_DIR:
		return "is not usable";
	}
	return "is invalid";
}

/* Shown values are escaped (one line, whatever the input) and cut to
 * SHOWN_MAX input bytes so that the range always fits in the message. */
#define SHOWN_MAX 48

static void shown_value(const char *s, char *buf, size_t len)
{
	char cut[SHOWN_MAX + 1];
	size_t n = strlen(s);

	snprintf(cut, sizeof(cut), "%s", s);
	if (strnvis(buf, len, cut, VIS_CSTYLE | VIS_NL | VIS_TAB | VIS_OCTAL) <
	    0)
		snprintf(buf, len, "?");
	if (n > SHOWN_MAX)
		strlcat(buf, "...", len);
}

int smm_param_parse(const struct smm_param *p, const char *text, uint64_t *out,
		    char *err, size_t errlen)
{
	const char *s = text ? text : p->def;
	char range[256], shown[4 * SHOWN_MAX + 8];
	uint64_t v = 0;
	int rc = -EINVAL;

	if (p->type == SMM_P_DIR) {
		if (!text) {
			*out = 0;
			return 0;
		}
		rc = smm_stats_check_dir(text);
		if (rc == 0) {
			*out = 1;
			return 0;
		}
		shown_value(s, shown, sizeof(shown));
		smm_param_range(p, range, sizeof(range));
		if (err && errlen && smm_errno_exit_status(-rc) == SMM_EX_NORES)
			snprintf(err, errlen,
				 "%s='%s' has no room for a record (%s)",
				 p->env, shown, strerror(-rc));
		else if (err && errlen)
			snprintf(err, errlen, "%s='%s' %s (%s); valid range %s",
				 p->env, shown, grammar_of(p),
				 rc == -EINVAL ? "not absolute" : strerror(-rc),
				 range);
		return rc;
	}
	if (p->type == SMM_P_CHOICE) {
		for (size_t i = 0; p->choices[i]; i++) {
			if (strcmp(s, p->choices[i]) == 0) {
				*out = i;
				return 0;
			}
		}
	} else {
		rc = p->type == SMM_P_SIZE ? smm_parse_size(s, &v)
					   : smm_parse_count(s, &v);
		if (rc == 0 && (v < p->min || v > p->max))
			rc = -ERANGE;
		if (rc == 0) {
			*out = v;
			return 0;
		}
	}
	smm_param_range(p, range, sizeof(range));
	shown_value(s, shown, sizeof(shown));
	if (err && errlen)
		snprintf(err, errlen, "%s='%s' %s; valid range %s", p->env,
			 shown,
			 rc == -ERANGE ? "is out of range" : grammar_of(p),
			 range);
	return rc;
}

int smm_param_parse_stressor(const struct smm_param *p, const char *text,
			     uint64_t *out, char *err, size_t errlen)
{
	const char *here[SMM_PARAM_MAX_CHOICES + 1];
	struct smm_param q = *p;
	uint64_t v;
	int rc = smm_param_parse(p, text, &v, err, errlen);

	if (rc == 0) {
		rc = smm_param_front_end_only(p, v, err, errlen);
		if (rc == 0)
			*out = v;
		return rc;
	}
	if (p->type != SMM_P_CHOICE || !p->front_end_from ||
	    p->front_end_from > SMM_PARAM_MAX_CHOICES)
		return rc;
	/* an unknown word: say the range without the front end's words */
	for (unsigned int i = 0; i < p->front_end_from; i++)
		here[i] = p->choices[i];
	here[p->front_end_from] = NULL;
	q.choices = here;
	q.front_end_from = 0;
	return smm_param_parse(&q, text, &v, err, errlen);
}

int smm_param_front_end_only(const struct smm_param *p, uint64_t v, char *err,
			     size_t errlen)
{
	size_t used;

	if (p->type != SMM_P_CHOICE || !p->front_end_from ||
	    v < p->front_end_from)
		return 0;
	used = (size_t)snprintf(
		err, errlen,
		"%s='%s' is run by stress-mm's front end only (--%s %s); valid here: ",
		p->env, p->choices[v], p->option, p->choices[v]);
	for (unsigned int i = 0; i < p->front_end_from && used < errlen; i++)
		used += (size_t)snprintf(err + used, errlen - used, "%s%s",
					 i ? "|" : "", p->choices[i]);
	return -EINVAL;
}

void smm_param_format(const struct smm_param *p, uint64_t v, char *buf,
		      size_t len)
{
	if (len == 0)
		return;
	switch (p->type) {
	case SMM_P_SIZE:
		smm_format_size(v, buf, len);
		return;
	case SMM_P_COUNT:
		snprintf(buf, len, "%llu", (unsigned long long)v);
		return;
	case SMM_P_DIR:
		snprintf(buf, len, "%s", v ? "set" : "unset");
		return;
	case SMM_P_CHOICE:
		for (uint64_t i = 0; p->choices[i]; i++)
			if (i == v) {
				snprintf(buf, len, "%s", p->choices[i]);
				return;
			}
		break;
	}
	snprintf(buf, len, "?");
}
