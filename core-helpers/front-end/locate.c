// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * locate.c - the stress-ng to run and the plugin it loads.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

void smm_plugin_path(char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n < 0)
		n = 0;
	exe[n] = '\0';
	snprintf(buf, len, "%s/stress-mm.so", dirname(exe));
}
