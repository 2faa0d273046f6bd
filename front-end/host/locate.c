// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * locate.c - the stress-ng to run, and the plugin and a native stress-ng
 * in a build tree or installed (locate.h has the rules).
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "install-paths.h"
#include "locate.h"

const char *smm_find_stress_ng(const char *given, char *err, size_t len)
{
	static char found[PATH_MAX];
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL;
	struct stat st;

	if (given) {
		if (stat(given, &st) != 0) {
			snprintf(
				err, len,
				"--stress-ng='%s' is not an executable file: %s",
				given, strerror(errno));
			return NULL;
		}
		if (!S_ISREG(st.st_mode) || access(given, X_OK) != 0) {
			snprintf(err, len,
				 "--stress-ng='%s' is not an executable file",
				 given);
			return NULL;
		}
		return given;
	}
	copy = strdup(path ? path : "/usr/bin:/bin");
	for (dir = copy ? strtok_r(copy, ":", &save) : NULL; dir;
	     dir = strtok_r(NULL, ":", &save)) {
		snprintf(found, sizeof(found), "%s/stress-ng", dir);
		if (access(found, X_OK) == 0) {
			free(copy);
			return found;
		}
	}
	free(copy);
	snprintf(
		err, len,
		"stress-ng not found in PATH (apt-get install stress-ng, or --stress-ng PATH)");
	return NULL;
}

static const struct candidate {
	const char *how;
	int from_pkglibdir; /* else from the executable's directory */
	const char *rel[2]; /* by enum smm_locate_what */
} candidates[] = {
	{ "build tree, beside the front end",
	  0,
	  { "stress-mm.so", "stress-ng/stress-ng" } },
	{ "installed, ../lib/stress-mm from the front end",
	  0,
	  { "../lib/stress-mm/stress-mm.so", "../lib/stress-mm/stress-ng" } },
	{ "installed, the compiled-in PKGLIBDIR",
	  1,
	  { "stress-mm.so", "stress-ng" } },
};

static const char *const what_name[] = { "plugin stress-mm.so",
					 "native stress-ng" };

const char *smm_pkglibdir(void)
{
	return SMM_PKGLIBDIR;
}

static int usable(const char *path, enum smm_locate_what what)
{
	struct stat st;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	return access(path, what == SMM_LOC_PLUGIN ? R_OK : X_OK) == 0;
}

int smm_locate_in(const char *exe, const char *pkglibdir,
		  enum smm_locate_what what, struct smm_located *loc, char *err,
		  size_t len)
{
	char copy[PATH_MAX], dir[PATH_MAX], path[PATH_MAX * 2];
	size_t used = 0;

	snprintf(copy, sizeof(copy), "%s", exe);
	snprintf(dir, sizeof(dir), "%s", dirname(copy));
	used = (size_t)snprintf(err, len, "%s not found; looked at",
				what_name[what]);
	for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]);
	     i++) {
		const struct candidate *c = &candidates[i];

		snprintf(path, sizeof(path), "%s/%s",
			 c->from_pkglibdir ? pkglibdir : dir, c->rel[what]);
		if (usable(path, what) && realpath(path, loc->path)) {
			loc->how = c->how;
			return 0;
		}
		if (used < len)
			used += (size_t)snprintf(err + used, len - used,
						 "%s %s", i ? "," : "", path);
	}
	if (used < len && what == SMM_LOC_PLUGIN)
		snprintf(err + used, len - used, " (make, or make install)");
	return -ENOENT;
}

int smm_locate(enum smm_locate_what what, struct smm_located *loc, char *err,
	       size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0) {
		snprintf(err, len, "%s not found: /proc/self/exe: %s",
			 what_name[what], strerror(errno));
		return -ENOENT;
	}
	exe[n] = '\0';
	return smm_locate_in(exe, SMM_PKGLIBDIR, what, loc, err, len);
}

void smm_locate_print(FILE *f)
{
	static const char *const label[] = { "plugin", "native stress-ng" };
	struct smm_located loc;
	char err[PATH_MAX * 4];

	for (int w = SMM_LOC_PLUGIN; w <= SMM_LOC_NATIVE; w++) {
		if (smm_locate((enum smm_locate_what)w, &loc, err,
			       sizeof(err))) {
			const char *looked = strstr(err, "looked at");

			fprintf(f, "%s: none (%s)\n", label[w],
				looked ? looked : err);
		} else {
			fprintf(f, "%s: %s (%s)\n", label[w], loc.path,
				loc.how);
		}
	}
}

/* @s in roff, a hyphen as \- */
static void man_text(const char *s)
{
	for (; *s; s++)
		if (*s == '-')
			fputs("\\-", stdout);
		else
			putchar(*s);
}

void smm_locate_man_files(void)
{
	printf(".SH FILES\n");
	for (int w = SMM_LOC_PLUGIN; w <= SMM_LOC_NATIVE; w++) {
		printf(".TP\nThe ");
		man_text(what_name[w]);
		printf(", the first of:\n");
		for (size_t i = 0;
		     i < sizeof(candidates) / sizeof(candidates[0]); i++) {
			const struct candidate *c = &candidates[i];

			printf(".br\n\\fI");
			man_text(c->from_pkglibdir ? SMM_PKGLIBDIR : "DIR");
			putchar('/');
			man_text(c->rel[w]);
			printf("\\fR (");
			man_text(c->how);
			printf(")\n");
		}
	}
	printf(".PP\nDIR is the directory of the stress\\-mm executable; "
	       "stress\\-mm \\-\\-version says which was found.\n");
}
