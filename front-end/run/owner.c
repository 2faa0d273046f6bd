// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * owner.c - the run's directory, its watchdog, and the cleaning of what a
 * killed run left.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core-shm-pcp.h"
#include "kmodule.h"
#include "owner.h"
#include "shm.h"

#define PREFIX "stress-mm."
#define MAX_GROUPS 64
#define GONE_WAIT_MS 2000

static void dir_file(const char *dir, const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

/* Append @text to dir/name; 0 or -errno (said on stderr). */
static int append_line(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX + 16];
	ssize_t n = -1;
	int fd, err = 0;

	dir_file(dir, name, path, sizeof(path));
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (fd >= 0)
		n = write(fd, text, strlen(text));
	if (n < 0)
		err = errno;
	else if ((size_t)n != strlen(text))
		err = ENOSPC;
	if (fd >= 0)
		close(fd);
	if (err)
		fprintf(stderr, "stress-mm: cannot record in %s: %s\n", path,
			strerror(err));
	return -err;
}

/* The record files, made with their blocks before the run starts
 * (FALLOC_FL_KEEP_SIZE: empty, but a later append needs no new block),
 * so that a filesystem that fills up during the run cannot keep the
 * watchdog from knowing what to clean. 0 or -errno. */
static int reserve(const char *dir)
{
	static const char *const names[] = { "owner", "watchdog", "pgids",
					     "mounted", "module" };
	char path[PATH_MAX + 16];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int fd, err = 0;

		dir_file(dir, names[i], path, sizeof(path));
		fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
		if (fd < 0)
			return -errno;
		if (fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, 4096) < 0 &&
		    errno != EOPNOTSUPP)
			err = errno;
		close(fd);
		if (err)
			return -err;
	}
	return 0;
}

/* The first line of dir/name into @buf; 0 or -errno. */
static int read_line(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX + 16];
	FILE *f;

	dir_file(dir, name, path, sizeof(path));
	buf[0] = '\0';
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
	return 0;
}

static int read_groups(const char *dir, pid_t *g, int max)
{
	char path[PATH_MAX + 16];
	int n = 0;
	long v;
	FILE *f;

	dir_file(dir, "pgids", path, sizeof(path));
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (n < max && fscanf(f, "%ld", &v) == 1)
		if (v > 1)
			g[n++] = (pid_t)v;
	fclose(f);
	return n;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/*
 * Processes of groups @g whose name says they are the run's (stress-ng's
 * own "stress-ng*" processes, our "smm-*" companions): a recorded group id
 * may have been reused since by someone else, whom a bare kill(-pgid)
 * would hit. SIGKILL each; return how many were found.
 */
static int kill_members(const pid_t *g, int n)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int found = 0;

	while (d && (e = readdir(d))) {
		char path[300], buf[512], *l, *r;
		long pgrp, ppid;
		char state;
		FILE *f;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		l = fgets(buf, sizeof(buf), f);
		fclose(f);
		if (!l || !(l = strchr(buf, '(')) || !(r = strrchr(buf, ')')))
			continue;
		if (sscanf(r + 1, " %c %ld %ld", &state, &ppid, &pgrp) != 3 ||
		    state == 'Z')
			continue;
		*r = '\0';
		if (strncmp(l + 1, "stress-ng", 9) != 0 &&
		    strncmp(l + 1, "smm-", 4) != 0)
			continue;
		for (int i = 0; i < n; i++)
			if (pgrp == g[i]) {
				kill((pid_t)atol(e->d_name), SIGKILL);
				found++;
			}
	}
	if (d)
		closedir(d);
	return found;
}

/* SIGKILL the recorded groups' members until none is left (or give up).
 * Return: how many were alive when it began. */
static int kill_groups(const char *dir)
{
	pid_t g[MAX_GROUPS];
	int n = read_groups(dir, g, MAX_GROUPS);
	int alive = 0;

	for (int waited = 0; n && waited < GONE_WAIT_MS; waited += 20) {
		int found = kill_members(g, n);

		if (!waited)
			alive = found;
		if (!found)
			break;
		sleep_ms(20);
	}
	return alive;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* Append ", @fmt..." to @what (used of @len so far). */
static size_t __attribute__((format(printf, 4, 5)))
said(char *what, size_t len, size_t used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (used >= len)
		return used;
	n = snprintf(what + used, len - used, "%s", used ? ", " : "");
	if (n > 0)
		used += (size_t)n;
	if (used >= len)
		return used;
	va_start(ap, fmt);
	n = vsnprintf(what + used, len - used, fmt, ap);
	va_end(ap);
	return n > 0 ? used + (size_t)n : used;
}

/* Everything a dead owner left under @dir; what was done goes in @what
 * ("nothing" when nothing was). */
static void clean_dir(const char *dir, char *what, size_t len)
{
	char mnt[PATH_MAX] = "", mod[64] = "";
	int killed = kill_groups(dir);
	unsigned int p = 0, s = 0;
	size_t used = 0;

	what[0] = '\0';
	if (killed)
		used = said(what, len, used,
			    "%d process%s of its process groups killed", killed,
			    killed == 1 ? "" : "es");
	if (read_line(dir, "mounted", mnt, sizeof(mnt)) == 0 && mnt[0] &&
	    umount2(mnt, MNT_DETACH) == 0)
		used = said(what, len, used, "the tracefs mount on %s", mnt);
	/* the device's owner goes back with the module */
	if (read_line(dir, "module", mod, sizeof(mod)) == 0 && mod[0] &&
	    smm_kmodule_unload_name() == 0)
		used = said(what, len, used, "the module %s it loaded", mod);
	smm_shm_sweep(NULL, &p, &s);
	if (p || s)
		used = said(what, len, used, "%u POSIX and %u SysV shm objects",
			    p, s);
	if (nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS) == 0)
		used = said(what, len, used, "the directory %s", dir);
	if (!used)
		snprintf(what, len, "nothing");
}

/* The watchdog: wait for "done" or the owner's end, then clean up. */
static __attribute__((noreturn)) void watchdog(int rfd, const char *dir)
{
	char c = 0, what[512];
	ssize_t n;

	setsid();
	prctl(PR_SET_NAME, "smm-watchdog");
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	for (int fd = 0; fd < 3; fd++) /* nobody may be listening */
		if (fd != rfd)
			dup2(open("/dev/null", O_RDWR | O_CLOEXEC), fd);
	while ((n = read(rfd, &c, 1)) < 0 && errno == EINTR)
		;
	if (n == 1 && c == 'D')
		_exit(0);
	clean_dir(dir, what, sizeof(what));
	_exit(0);
}

int smm_owner_start(struct smm_owner *o, const char *tmpdir)
{
	char pid[32];
	int fds[2] = { -1, -1 }, err;

	memset(o, 0, sizeof(*o));
	o->wd_fd = -1;
	snprintf(o->dir, sizeof(o->dir), "%s/" PREFIX "XXXXXX",
		 tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(o->dir))
		return -errno;
	snprintf(o->records, sizeof(o->records), "%s/stats", o->dir);
	snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	/* a run that cannot record its owner does not start */
	err = -reserve(o->dir);
	if (!err)
		err = -append_line(o->dir, "owner", pid);
	if (!err && (mkdir(o->records, 0755) < 0 || pipe2(fds, O_CLOEXEC) < 0))
		err = errno;
	if (err) {
		nftw(o->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
		return -err;
	}
	o->watchdog = fork();
	if (o->watchdog < 0) {
		err = errno;
		close(fds[0]);
		close(fds[1]);
		nftw(o->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
		return -err;
	}
	if (o->watchdog == 0) {
		close(fds[1]);
		watchdog(fds[0], o->dir);
	}
	close(fds[0]);
	o->wd_fd = fds[1];
	snprintf(pid, sizeof(pid), "%d\n", (int)o->watchdog);
	append_line(o->dir, "watchdog", pid);
	return 0;
}

void smm_owner_add_group(struct smm_owner *o, pid_t pgid)
{
	char line[32];

	snprintf(line, sizeof(line), "%d\n", (int)pgid);
	append_line(o->dir, "pgids", line);
}

void smm_owner_kill_groups(const struct smm_owner *o)
{
	pid_t g[MAX_GROUPS];
	int n = read_groups(o->dir, g, MAX_GROUPS);

	kill_members(g, n);
}

void smm_owner_forget_groups(struct smm_owner *o)
{
	char path[PATH_MAX + 16];

	dir_file(o->dir, "pgids", path, sizeof(path));
	unlink(path);
}

void smm_owner_note_mount(struct smm_owner *o, const char *path)
{
	char line[PATH_MAX + 2];

	snprintf(line, sizeof(line), "%s\n", path);
	append_line(o->dir, "mounted", line);
}

void smm_owner_note_module(struct smm_owner *o, const char *name)
{
	char line[128];

	snprintf(line, sizeof(line), "%s\n", name);
	append_line(o->dir, "module", line);
}

void smm_owner_forget_module(struct smm_owner *o)
{
	char path[PATH_MAX + 16];

	dir_file(o->dir, "module", path, sizeof(path));
	unlink(path);
}

int smm_owner_finish(struct smm_owner *o)
{
	int err = 0;

	if (o->wd_fd >= 0) {
		if (write(o->wd_fd, "D", 1) != 1)
			err = errno;
		close(o->wd_fd);
		o->wd_fd = -1;
		while (waitpid(o->watchdog, NULL, 0) < 0 && errno == EINTR)
			;
	}
	if (nftw(o->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS) != 0) {
		err = errno;
		fprintf(stderr, "stress-mm: could not remove %s: %s\n", o->dir,
			strerror(err));
	}
	return -err;
}

/* A recorded pid that no longer runs (gone, or a zombie not yet reaped);
 * an unreadable record (pid <= 0) counts as dead. */
static bool dead(long pid)
{
	return pid <= 0 || stress_shm_pcp_pid_dead((pid_t)pid);
}

int smm_owner_clean_stale(const char *tmpdir)
{
	const char *top = tmpdir ? tmpdir : "/tmp";
	DIR *d = opendir(top);
	struct dirent *e;
	int cleaned = 0;

	while (d && (e = readdir(d))) {
		char dir[PATH_MAX], owner[32] = "", wd[32] = "", what[512];

		if (strncmp(e->d_name, PREFIX, strlen(PREFIX)) != 0)
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", top, e->d_name);
		if (read_line(dir, "owner", owner, sizeof(owner)) != 0)
			continue; /* not ours, or still being made */
		read_line(dir, "watchdog", wd, sizeof(wd));
		if (!dead(atol(owner)) || (wd[0] && !dead(atol(wd))))
			continue; /* a run, or its watchdog, still at work */
		clean_dir(dir, what, sizeof(what));
		fprintf(stderr,
			"stress-mm: info: cleaned what a killed run (pid %s) left: %s\n",
			owner, what);
		cleaned++;
	}
	if (d)
		closedir(d);
	return cleaned;
}
