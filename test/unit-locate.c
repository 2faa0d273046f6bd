// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-locate.c - where the front end finds its plugin and a native
 * stress-ng (locate.h): in a fake tree, every candidate in its turn, the
 * order between them, files that do not count (a directory, an
 * unreadable or non-executable file), and the message when none is there.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "locate.h"
#include "tap.h"

static char top[PATH_MAX];

static void put(const char *rel, mode_t mode)
{
	char p[PATH_MAX * 2], cmd[PATH_MAX * 3];
	int fd;

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", p);
	if (system(cmd) != 0)
		exit(1);
	fd = open(p, O_CREAT | O_WRONLY | O_TRUNC, mode);
	if (fd < 0 || fchmod(fd, mode) != 0)
		exit(1);
	close(fd);
}

static void gone(const char *rel)
{
	char p[PATH_MAX * 2];

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	if (unlink(p) != 0 && rmdir(p) != 0)
		exit(1);
}

/* The path found for @what, relative to top ("" when none). */
static const char *found(enum smm_locate_what what, const char **how, char *err,
			 size_t len)
{
	static struct smm_located loc;
	char exe[PATH_MAX * 2], pkglib[PATH_MAX * 2];

	snprintf(exe, sizeof(exe), "%s/bin/stress-mm", top);
	snprintf(pkglib, sizeof(pkglib), "%s/prefix/lib/stress-mm", top);
	*how = "";
	if (smm_locate_in(exe, pkglib, what, &loc, err, len))
		return "";
	*how = loc.how;
	return loc.path + strlen(top) + 1;
}

/* As user nobody when root: the unreadable plugin is passed over. */
static int unreadable_skipped(void)
{
	const char *how, *p;
	char err[PATH_MAX * 4];
	int status;
	pid_t pid;

	if (geteuid() != 0) {
		p = found(SMM_LOC_PLUGIN, &how, err, sizeof(err));
		return !strcmp(p, "prefix/lib/stress-mm/stress-mm.so");
	}
	if (chmod(top, 0755) != 0)
		return 0;
	pid = fork();
	if (pid == 0) {
		if (setgid(65534) != 0 || setuid(65534) != 0)
			_exit(2);
		p = found(SMM_LOC_PLUGIN, &how, err, sizeof(err));
		if (strcmp(p, "prefix/lib/stress-mm/stress-mm.so") != 0) {
			tap_diag("as nobody: found '%s'", p);
			_exit(1);
		}
		_exit(0);
	}
	return pid > 0 && waitpid(pid, &status, 0) == pid &&
	       WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int main(void)
{
	const char *how, *p;
	char err[PATH_MAX * 4];

	char tmpl[] = "/tmp/smm-unit-locate.XXXXXX";

	if (!mkdtemp(tmpl) || !realpath(tmpl, top))
		return 1;
	tap_plan(12);
	put("bin/stress-mm", 0755);

	p = found(SMM_LOC_PLUGIN, &how, err, sizeof(err));
	tap_ok(!*p && strstr(err, "plugin stress-mm.so not found") &&
		       strstr(err, "/bin/stress-mm.so") &&
		       strstr(err, "/bin/../lib/stress-mm/stress-mm.so") &&
		       strstr(err, "/prefix/lib/stress-mm/stress-mm.so"),
	       "none: the message names all three places (%s)", err);

	put("prefix/lib/stress-mm/stress-mm.so", 0644);
	p = found(SMM_LOC_PLUGIN, &how, err, sizeof(err));
	tap_ok(!strcmp(p, "prefix/lib/stress-mm/stress-mm.so") &&
		       strstr(how, "compiled-in"),
	       "only under the compiled-in PKGLIBDIR: found there (%s, %s)", p,
	       how);

	put("lib/stress-mm/stress-mm.so", 0644);
	p = found(SMM_LOC_PLUGIN, &how, err, sizeof(err));
	tap_ok(!strcmp(p, "lib/stress-mm/stress-mm.so") &&
		       strstr(how, "installed, ../lib"),
	       "../lib/stress-mm from the front end wins over the compiled-in path, canonical (%s, %s)",
	       p, how);

	put("bin/stress-mm.so", 0644);
	p = found(SMM_LOC_PLUGIN, &how, err, sizeof(err));
	tap_ok(!strcmp(p, "bin/stress-mm.so") && strstr(how, "build tree"),
	       "beside the front end (a build tree) wins over both (%s, %s)", p,
	       how);

	gone("bin/stress-mm.so");
	put("bin/stress-mm.so/x", 0644);
	p = found(SMM_LOC_PLUGIN, &how, err, sizeof(err));
	tap_ok(!strcmp(p, "lib/stress-mm/stress-mm.so"),
	       "a directory named stress-mm.so does not count (%s)", p);
	gone("bin/stress-mm.so/x");
	gone("bin/stress-mm.so");

	/* root reads a file of mode 0: ask as user nobody */
	put("lib/stress-mm/stress-mm.so", 0);
	tap_ok(unreadable_skipped(), "an unreadable plugin does not count");

	p = found(SMM_LOC_NATIVE, &how, err, sizeof(err));
	tap_ok(!*p && strstr(err, "native stress-ng not found") &&
		       strstr(err, "/bin/stress-ng/stress-ng") &&
		       strstr(err, "/bin/../lib/stress-mm/stress-ng") &&
		       strstr(err, "/prefix/lib/stress-mm/stress-ng") &&
		       !strstr(err, "make install"),
	       "no native stress-ng: none, the three places named (%s)", err);

	put("prefix/lib/stress-mm/stress-ng", 0755);
	p = found(SMM_LOC_NATIVE, &how, err, sizeof(err));
	tap_ok(!strcmp(p, "prefix/lib/stress-mm/stress-ng") &&
		       strstr(how, "compiled-in"),
	       "native: under the compiled-in PKGLIBDIR (%s)", p);

	put("lib/stress-mm/stress-ng", 0644);
	p = found(SMM_LOC_NATIVE, &how, err, sizeof(err));
	tap_ok(!strcmp(p, "prefix/lib/stress-mm/stress-ng"),
	       "native: a stress-ng that is not executable does not count (%s)",
	       p);

	put("lib/stress-mm/stress-ng", 0755);
	p = found(SMM_LOC_NATIVE, &how, err, sizeof(err));
	tap_ok(!strcmp(p, "lib/stress-mm/stress-ng") &&
		       strstr(how, "installed, ../lib"),
	       "native: ../lib/stress-mm from the front end (%s)", p);

	put("bin/stress-ng/stress-ng", 0755);
	p = found(SMM_LOC_NATIVE, &how, err, sizeof(err));
	tap_ok(!strcmp(p, "bin/stress-ng/stress-ng") &&
		       strstr(how, "build tree"),
	       "native: the build tree's make stress-ng first (%s)", p);

	tap_ok(smm_pkglibdir()[0] == '/' &&
		       !strcmp(smm_pkglibdir() + strlen(smm_pkglibdir()) -
				       strlen("/lib/stress-mm"),
			       "/lib/stress-mm"),
	       "the compiled-in PKGLIBDIR is an absolute .../lib/stress-mm (%s)",
	       smm_pkglibdir());

	snprintf(err, sizeof(err), "rm -rf '%s'", top);
	if (system(err) != 0)
		return 1;
	return tap_done();
}
