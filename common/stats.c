// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stats.c - the worker's record in a shared file mapping.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stats.h"

/* The offsets stats.h documents. */
_Static_assert(offsetof(struct smm_stats_file, calls) == 32, "calls");
_Static_assert(offsetof(struct smm_stats_file, skip_errno) == 80, "skip_errno");
_Static_assert(offsetof(struct smm_stats_file, cpu) == 88, "cpu");
_Static_assert(offsetof(struct smm_stats_file, crash_signal) == 100,
	       "crash_signal");
_Static_assert(offsetof(struct smm_stats_file, companion_cpu) == 104,
	       "companion_cpu");
_Static_assert(offsetof(struct smm_stats_file, skip_reason) == 360,
	       "skip_reason");
_Static_assert(offsetof(struct smm_stats_file, fail_reason) == 632,
	       "fail_reason");
_Static_assert(offsetof(struct smm_stats_file, paths) == 888, "paths");
_Static_assert(sizeof(struct smm_stats_path) == 328, "a path is 328 bytes");
_Static_assert(offsetof(struct smm_stats_path, caller) == 72, "caller");
_Static_assert(offsetof(struct smm_stats_file, batch) == 4824, "batch");
_Static_assert(offsetof(struct smm_stats_file, bytes) == 4832, "bytes");
_Static_assert(sizeof(struct smm_stats_file) == 4840,
	       "stats.h documents a 4840-byte record");

struct smm_stats_file *smm_stats_open(const char *dir, const char *stressor)
{
	struct smm_stats_file *s;
	char path[4096];
	int fd, n;

	if (!dir || !dir[0])
		return NULL;
	n = snprintf(path, sizeof(path), "%s/%s.%d.stats", dir, stressor,
		     (int)getpid());
	if (n < 0 || (size_t)n >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return NULL;
	/* Blocks now, not at the first store through the mapping: a full
	 * filesystem is ENOSPC here, never a SIGBUS later. */
	n = posix_fallocate(fd, 0, sizeof(*s));
	if (n) {
		close(fd);
		unlink(path);
		errno = n;
		return NULL;
	}
	s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (s == MAP_FAILED)
		return NULL;
	s->version = SMM_STATS_VERSION;
	s->pid = (int32_t)getpid();
	s->cpu = -1;
	s->slot = -1;
	for (unsigned int i = 0; i < SMM_STATS_COMPANIONS; i++)
		s->companion_cpu[i] = -1;
	snprintf(s->stressor, sizeof(s->stressor), "%s", stressor);
	/* The magic last: a reader never sees a half-made header. */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	memcpy(s->magic, SMM_STATS_MAGIC, sizeof(s->magic));
	return s;
}

void smm_stats_text(char *dst, size_t len, const char *src)
{
	static const char cut[] = "...";

	if (!len)
		return;
	if ((size_t)snprintf(dst, len, "%s", src) >= len && len > sizeof(cut))
		memcpy(dst + len - sizeof(cut), cut, sizeof(cut));
}

void smm_stats_skip(struct smm_stats_file *s, int err, const char *reason)
{
	if (!s)
		return;
	smm_stats_text(s->skip_reason, sizeof(s->skip_reason), reason);
	s->skip_errno = err;
	__atomic_store_n(&s->skipped, 1, __ATOMIC_RELEASE);
}

void smm_stats_fail(struct smm_stats_file *s, int err, const char *reason)
{
	if (!s)
		return;
	smm_stats_text(s->fail_reason, sizeof(s->fail_reason), reason);
	__atomic_store_n(&s->fail_errno, err, __ATOMIC_RELAXED);
	__atomic_add_fetch(&s->failures, 1, __ATOMIC_RELEASE);
}

void smm_stats_ran(struct smm_stats_file *s, uint64_t batch, uint64_t bytes)
{
	if (!s)
		return;
	__atomic_store_n(&s->bytes, bytes, __ATOMIC_RELAXED);
	__atomic_store_n(&s->batch, batch, __ATOMIC_RELAXED);
}

void smm_stats_crash(struct smm_stats_file *s, int sig)
{
	int32_t none = 0;

	if (s)
		__atomic_compare_exchange_n(&s->crash_signal, &none, sig, false,
					    __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}

void smm_stats_place(struct smm_stats_file *s, int cpu, int slot,
		     const int *companion_cpu, unsigned int n)
{
	if (!s)
		return;
	if (n > SMM_STATS_COMPANIONS)
		n = SMM_STATS_COMPANIONS;
	for (unsigned int i = 0; i < SMM_STATS_COMPANIONS; i++)
		s->companion_cpu[i] = i < n ? companion_cpu[i] : -1;
	s->cpu = cpu;
	s->slot = slot;
	__atomic_store_n(&s->companions, n, __ATOMIC_RELEASE);
}

int smm_stats_path_add(struct smm_stats_file *s, const struct smm_stats_path *p)
{
	struct smm_stats_path v;

	if (!s)
		return 0;
	if (p->state < SMM_PATH_PROVEN || p->state > SMM_PATH_LEFT_OUT)
		return -EINVAL;
	for (unsigned int i = 0; i < SMM_STATS_PATHS; i++) {
		struct smm_stats_path *slot = &s->paths[i];
		uint32_t st = __atomic_load_n(&slot->state, __ATOMIC_ACQUIRE);

		if (st != SMM_PATH_UNUSED) {
			if (st != SMM_PATH_CLAIMED &&
			    strncmp(slot->name, p->name, sizeof(slot->name)) ==
				    0)
				return -EEXIST;
			continue;
		}
		if (!__atomic_compare_exchange_n(
			    &slot->state, &st, SMM_PATH_CLAIMED, false,
			    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			continue;
		v = *p;
		v.state = SMM_PATH_CLAIMED;
		v.name[sizeof(v.name) - 1] = '\0';
		v.caller[sizeof(v.caller) - 1] = '\0';
		v.reason[sizeof(v.reason) - 1] = '\0';
		memcpy(slot, &v, sizeof(v));
		__atomic_store_n(&slot->state, p->state, __ATOMIC_RELEASE);
		return 0;
	}
	return -ENOSPC;
}

const char *smm_area_kind_name(uint32_t kind)
{
	static const char *const names[] = {
		[SMM_AREA_VMALLOC] = "vmalloc",
		[SMM_AREA_VMAP] = "vmap",
		[SMM_AREA_OTHER] = "other",
	};

	return kind < sizeof(names) / sizeof(names[0]) && names[kind]
		       ? names[kind]
		       : "?";
}

const char *smm_path_decided_name(uint32_t decided)
{
	static const char *const names[] = {
		[SMM_DECIDED_NOTHING] = "not measured",
		[SMM_DECIDED_AREAS] = "vmallocinfo",
		[SMM_DECIDED_VMALLOCUSED] = "VmallocUsed",
		[SMM_DECIDED_RULE] = "rule",
	};

	return decided < sizeof(names) / sizeof(names[0]) ? names[decided]
							  : "?";
}

/* Strings NUL-terminated, slots in a known state (claimed: unused). */
static int check(struct smm_stats_file *out)
{
	out->stressor[sizeof(out->stressor) - 1] = '\0';
	out->skip_reason[sizeof(out->skip_reason) - 1] = '\0';
	out->fail_reason[sizeof(out->fail_reason) - 1] = '\0';
	if (out->companions > SMM_STATS_COMPANIONS)
		out->companions = SMM_STATS_COMPANIONS;
	for (unsigned int i = 0; i < SMM_STATS_PATHS; i++) {
		struct smm_stats_path *p = &out->paths[i];

		if (p->state == SMM_PATH_CLAIMED)
			p->state = SMM_PATH_UNUSED;
		if (p->state > SMM_PATH_LEFT_OUT)
			return -EBADMSG;
		p->name[sizeof(p->name) - 1] = '\0';
		p->caller[sizeof(p->caller) - 1] = '\0';
		p->reason[sizeof(p->reason) - 1] = '\0';
	}
	return 0;
}

int smm_stats_read(const char *path, struct smm_stats_file *out)
{
	ssize_t n;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, out, sizeof(*out));
	err = errno;
	close(fd);
	if (n < 0)
		return -err;
	/* "SMMSTAT": a record of some version. */
	if (n < 12 || memcmp(out->magic, SMM_STATS_MAGIC, 7) != 0)
		return -EBADMSG;
	if (memcmp(out->magic, SMM_STATS_MAGIC, sizeof(out->magic)) != 0 ||
	    out->version != SMM_STATS_VERSION)
		return -EPROTO;
	if ((size_t)n != sizeof(*out))
		return -EBADMSG;
	return check(out);
}

int smm_errno_exit_status(int err)
{
	switch (err) {
	case ENOSYS:
	case EPERM:
	case EOPNOTSUPP:
	case EACCES:
		return SMM_EX_NOTIMPL;
	case ENOMEM:
	case ENOSPC:
	case EAGAIN:
	case EMFILE:
	case ENFILE:
		return SMM_EX_NORES;
	default:
		return SMM_EX_FAIL;
	}
}

/* Any status outside the table (128 + a signal) ranks above it. */
static int rank(int st)
{
	static const int ranks[] = { [SMM_EX_OK] = 0,
				     [SMM_EX_USAGE] = 4,
				     [SMM_EX_FAIL] = 3,
				     [SMM_EX_NORES] = 2,
				     [SMM_EX_NOTIMPL] = 1 };

	return st >= 0 && st <= SMM_EX_NOTIMPL ? ranks[st] : 5;
}

int smm_worse_status(int a, int b)
{
	return rank(b) > rank(a) ? b : a;
}

int smm_stats_exit_status(const struct smm_stats_file *s)
{
	if (s->failures || s->crash_signal)
		return SMM_EX_FAIL;
	if (s->skipped)
		return s->skip_errno ? smm_errno_exit_status(s->skip_errno)
				     : SMM_EX_NOTIMPL;
	return SMM_EX_OK;
}

/* Make and remove a record-sized file in @dir: root passes access(2)
 * everywhere, /proc and /sys included, and a full filesystem passes it
 * too. */
static int probe_dir(const char *dir)
{
	char path[4096];
	int fd, rc;

	if ((size_t)snprintf(path, sizeof(path), "%s/.stress-mm-probe.%d", dir,
			     (int)getpid()) >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	rc = posix_fallocate(fd, 0, sizeof(struct smm_stats_file));
	close(fd);
	unlink(path);
	return -rc;
}

int smm_stats_check_dir(const char *dir)
{
	struct stat st;

	if (dir[0] != '/')
		return -EINVAL;
	if (stat(dir, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (access(dir, W_OK | X_OK) < 0)
		return -errno;
	return probe_dir(dir);
}
