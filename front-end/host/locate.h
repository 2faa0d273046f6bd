/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * locate.h - where the front end finds what it runs: the stress-ng to
 * exec, its plugin (stress-mm.so) and a native stress-ng (stress-ng with
 * stress-mm's stressors built in), in a build tree or where `make install`
 * or the Debian package put them, with no build tree around.
 *
 * The front end's own directory D is that of /proc/self/exe (symbolic
 * links resolved). Candidates, in order; the first that is a regular file
 * (readable; for stress-ng, executable) wins:
 *
 *   plugin                          native stress-ng            found as
 *   D/stress-mm.so                  D/stress-ng/stress-ng       build tree
 *   D/../lib/stress-mm/stress-mm.so D/../lib/stress-mm/stress-ng installed
 *   PKGLIBDIR/stress-mm.so          PKGLIBDIR/stress-ng         compiled-in
 *
 * PKGLIBDIR is $(PREFIX)/lib/stress-mm of the build (Makefile.install
 * writes it into build/install-paths.h), the runtime path: DESTDIR, a
 * staging directory, is never compiled in. The relative candidate comes
 * before it, so that a staged tree (DESTDIR/usr/bin/stress-mm) runs its
 * own staged plugin and a relocated prefix works; the compiled-in one
 * serves a front end copied or hard-linked elsewhere. The build tree comes
 * first so that build/stress-mm never runs an installed, older plugin.
 */
#ifndef SMM_LOCATE_H
#define SMM_LOCATE_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

/*
 * smm_find_stress_ng() - @given when it is an executable file, else
 * stress-ng from PATH. Return: the path, or NULL with one line in @err.
 */
const char *smm_find_stress_ng(const char *given, char *err, size_t len);

enum smm_locate_what { SMM_LOC_PLUGIN, SMM_LOC_NATIVE };

struct smm_located {
	char path[PATH_MAX]; /* canonical (realpath) */
	const char *how; /* "build tree", "installed", "compiled-in" */
};

/*
 * smm_locate() - find @what for this executable.
 * Return: 0 with @loc filled; -ENOENT when no candidate is there (then
 * @err holds one line naming every place looked at).
 */
int smm_locate(enum smm_locate_what what, struct smm_located *loc, char *err,
	       size_t len);

/*
 * smm_locate_in() - smm_locate() for an executable at @exe (an absolute
 * path) and a compiled-in @pkglibdir: the same rules, for tests.
 */
int smm_locate_in(const char *exe, const char *pkglibdir,
		  enum smm_locate_what what, struct smm_located *loc, char *err,
		  size_t len);

/* The compiled-in PKGLIBDIR. */
const char *smm_pkglibdir(void);

/*
 * smm_locate_print() - the --version lines after the version: where the
 * plugin and a native stress-ng were found, and how.
 */
void smm_locate_print(FILE *f);

/*
 * smm_locate_man_files() - the man page's FILES section: where the plugin
 * and a native stress-ng are looked for, in order, with this build's
 * PKGLIBDIR (roff on stdout).
 */
void smm_locate_man_files(void);

#endif /* SMM_LOCATE_H */
