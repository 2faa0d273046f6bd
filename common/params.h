/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * params.h - one definition per parameter, and the strict parsers behind it.
 *
 * Every stressor parameter is one struct smm_param in a table (see
 * params-table.c). The plugin reads it from the environment when stress-ng
 * loads the shared object; the front end, --help, the man page and the tests
 * read the same table. Nothing here keeps state.
 *
 * Grammar (checked here, before any conversion):
 *   size:   [1-9][0-9]*[KkMmGg]?  or "0"  (binary units: K = 1024 bytes)
 *   count:  [1-9][0-9]*           or "0"
 *   choice: one of the table's words, exactly (case-sensitive)
 *   dir:    an absolute path to an existing, writable directory
 * No signs, spaces, octal or hex prefixes, exponents, fractions, or trailing
 * text. Conversion is done by libbsd (dehumanize_number(3bsd) for sizes,
 * strtonum(3bsd) for counts) only after the grammar check, because those
 * accept "16KK", "1e3" and "010" on their own.
 */
#ifndef SMM_PARAMS_H
#define SMM_PARAMS_H

#include <stddef.h>
#include <stdint.h>

enum smm_ptype {
	SMM_P_SIZE, /* bytes, with an optional K/M/G suffix */
	SMM_P_COUNT, /* a plain decimal count */
	SMM_P_CHOICE, /* one word of a fixed list */
	SMM_P_DIR, /* an absolute path to a writable directory; unset: off */
};

struct smm_param {
	const char *option; /* front-end option, e.g. "vmalloc-order-bytes" */
	const char *env; /* environment variable read by the plugin */
	enum smm_ptype type;
	const char *unit; /* "bytes", "allocations", ...; NULL for choices */
	uint64_t min; /* inclusive lower bound (SIZE, COUNT) */
	uint64_t max; /* inclusive upper bound (SIZE, COUNT) */
	const char *def; /* default, as the user would type it */
	const char *const *choices; /* NULL-terminated word list (CHOICE) */
	/* CHOICE: the words from this index on are runs the front end makes
	 * itself, never the plugin's; 0: none */
	unsigned int front_end_from;
	const char *help; /* one sentence for --help and the man page: the
			   * stressor file's help[] line for its options */
	const char *more; /* what that line has no room for, or NULL */
};

/*
 * smm_parse_size() - parse a size in bytes.
 * @s:   text in the size grammar above; "16K" is 16384 bytes.
 * @out: the value in bytes, set only on success.
 *
 * Return: 0; -EINVAL when @s breaks the grammar (including NULL and "");
 * -ERANGE when the value does not fit in 63 bits.
 */
int smm_parse_size(const char *s, uint64_t *out);

/*
 * smm_parse_count() - parse a decimal count.
 * @s:   text in the count grammar above.
 * @out: the value, set only on success.
 *
 * Return: 0; -EINVAL on a grammar error; -ERANGE above INT64_MAX.
 */
int smm_parse_count(const char *s, uint64_t *out);

/*
 * smm_param_parse() - parse and range-check one parameter value.
 * @p:      the parameter.
 * @text:   the value; NULL means "not set" and yields the default.
 * @out:    bytes (SIZE), the count (COUNT), the index into p->choices
 *          (CHOICE), or 1 when set and 0 when unset (DIR: the caller reads
 *          the path with getenv()); set only on success.
 * @err:    on failure, one line (no newline) naming p->env, the value and
 *          the valid range, e.g.
 *          STRESS_MM_VMALLOC_ORDER_BYTES='16KK' is not a size (...); valid
 *          range 4K..1G (4096..1073741824 bytes)
 * @errlen: size of @err in bytes.
 *
 * A set but empty value is an error, never the default.
 * Return: 0; -EINVAL (grammar, unknown word, relative path) or -ERANGE
 * (outside [p->min, p->max]); DIR also any -errno of
 * smm_stats_check_dir() (stats.h): -ENOENT, -ENOTDIR, -EACCES, and
 * -ENOSPC for a full filesystem, whose @err then says that there is no
 * room for a record instead of a valid range.
 */
int smm_param_parse(const struct smm_param *p, const char *text, uint64_t *out,
		    char *err, size_t errlen);

/*
 * smm_param_front_end_only() - whether @v, a value of CHOICE @p, is a word
 * only stress-mm's front end runs (p->front_end_from: test-vmalloc); then
 * @err says so in one line naming p->env and the words valid elsewhere:
 *   STRESS_MM_VMALLOC_ORDER_METHOD='test-vmalloc' is run by stress-mm's
 *   front end only (--vmalloc-order-method test-vmalloc); valid here:
 *   all|stack|...
 * Return: 0 (any other value or parameter); -EINVAL.
 */
int smm_param_front_end_only(const struct smm_param *p, uint64_t v, char *err,
			     size_t errlen);

/* The most words a CHOICE parameter's stressor side lists (front_end_from). */
#define SMM_PARAM_MAX_CHOICES 32

/*
 * smm_param_parse_stressor() - smm_param_parse() as the stressors take a
 * value (the plugin's environment, stress-ng's options): the words from
 * p->front_end_from on are refused with smm_param_front_end_only()'s line,
 * and an unknown word's valid range lists only the words the stressors run.
 * Same return values as smm_param_parse().
 */
int smm_param_parse_stressor(const struct smm_param *p, const char *text,
			     uint64_t *out, char *err, size_t errlen);

/*
 * smm_param_range() - the valid range as text for messages and --help:
 * "4K..1G (4096..1073741824 bytes)", "1..4096 allocations", "stack|all" or
 * "an absolute path to a writable directory".
 * Always NUL-terminates @buf (truncating if @len is short).
 */
void smm_param_range(const struct smm_param *p, char *buf, size_t len);

/*
 * smm_format_size() - bytes as the shortest exact K/M/G text ("16K", "1G",
 * "5000"), the form smm_parse_size() reads back to the same value.
 */
void smm_format_size(uint64_t bytes, char *buf, size_t len);

/*
 * smm_param_format() - a value of @p, as smm_param_parse() gives it, back
 * as text the same parse reads to the same value: sizes with
 * smm_format_size() ("16K"), counts in decimal, a choice's word. DIR has
 * no text here (the caller holds the path): "set" or "unset".
 * Always NUL-terminates @buf (truncating if @len is short); a choice index
 * past the row's words gives "?".
 */
void smm_param_format(const struct smm_param *p, uint64_t v, char *buf,
		      size_t len);

#endif /* SMM_PARAMS_H */
