/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare-opts.h - the options of stress-mm compare (compare-cmd.c):
 * --threshold PCT (0..1000, default 5), --confidence PCT (50..99.9,
 * default 95), --metric NAME (a figure of figures.h; repeatable, each
 * once), --allow-param-diff, --strict, --junit FILE (once), --format
 * human|simple, --plot FILE.svg|FILE.png (once; plot.h), --help; and two
 * operands, BASE and CAND.
 */
#ifndef SMM_COMPARE_OPTS_H
#define SMM_COMPARE_OPTS_H

#include <stdbool.h>
#include <stddef.h>

struct smm_compare_opts {
	const char *files[2]; /* BASE and CAND, as given */
	const char **select; /* --metric names, in order (malloc'ed) */
	size_t nsel;
	double threshold, confidence; /* percent */
	bool allow, strict, simple, help;
	const char *junit; /* --junit FILE, or NULL */
	const char *plot; /* --plot FILE.svg|FILE.png, or NULL */
};

/*
 * smm_compare_parse() - @argc arguments of @argv (getopt_long: options
 * anywhere, unique prefixes, --opt=value) into @o; stops at --help.
 * Return: 0, or -EINVAL with one line in @err naming the option, the value
 * and the valid range; -ENOMEM. @o is freed with smm_compare_opts_free()
 * either way.
 */
int smm_compare_parse(int argc, char **argv, struct smm_compare_opts *o,
		      char *err, size_t len);

void smm_compare_opts_free(struct smm_compare_opts *o);

/*
 * smm_compare_junit_paths() - every --junit FILE of @argv, as the parser
 * reads them, whatever else is wrong with the arguments, into @paths (at
 * most @max). Returns how many there are (may exceed @max).
 */
size_t smm_compare_junit_paths(int argc, char **argv, const char **paths,
			       size_t max);

/* smm_compare_usage() - the usage text on stdout. */
void smm_compare_usage(void);

#endif /* SMM_COMPARE_OPTS_H */
