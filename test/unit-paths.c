// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-paths.c - what worker paths leave in the worker, without stress-ng:
 * fdtable's high descriptor never replaces an open one and is closed after
 * each batch; a left-out io-uring buffers kind keeps no memory mapped; the
 * SysV segment made when our first key is taken stays visible to the sweep.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shm-cycle.h"
#include "shm.h"
#include "tap.h"
#include "vmpath.h"

static int open_fds(void)
{
	struct dirent *d;
	DIR *dir = opendir("/proc/self/fd");
	int n = 0;

	while (dir && (d = readdir(dir)))
		n += d->d_name[0] != '.';
	if (dir)
		closedir(dir);
	return n - 1; /* the DIR's own */
}

static int highest_fd(void)
{
	struct dirent *d;
	DIR *dir = opendir("/proc/self/fd");
	int hi = -1;

	while (dir && (d = readdir(dir)))
		if (d->d_name[0] != '.' && atoi(d->d_name) != dirfd(dir) &&
		    atoi(d->d_name) > hi)
			hi = atoi(d->d_name);
	if (dir)
		closedir(dir);
	return hi;
}

static int is_dev_zero(int fd)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && stat("/dev/zero", &b) == 0 &&
	       S_ISCHR(a.st_mode) && a.st_rdev == b.st_rdev;
}

static void test_fdtable(void)
{
	const struct smm_holder_ops *ops =
		smm_vmpaths[SMM_VMO_PATH_fdtable]->kinds[0];
	/* 4096 slots of 8 bytes: the path asks for fd 4095. */
	struct smm_vmpath_cfg cfg = { .stressor = "unit",
				      .bytes = 4096 * 8,
				      .batch = 2 };
	int zero = open("/dev/zero", O_RDONLY), before, during, grown, err = 0;
	void *ctx = NULL;
	char why[256];
	uint64_t made;

	if (zero < 0 || dup2(zero, 4095) != 4095) {
		tap_skip("fdtable: an open descriptor at the target survives",
			 "cannot open fd 4095: %s", strerror(errno));
		tap_skip(
			"fdtable: the high descriptor lives only while a batch does",
			"cannot open fd 4095");
		return;
	}
	close(zero);
	before = open_fds();
	if (ops->prepare(&ctx, &cfg, why, sizeof(why)) != 0 ||
	    ops->room(ctx, 2) != 0) {
		tap_diag("fdtable prepare: %s", why);
		ctx = NULL;
	}
	made = ctx ? ops->acquire(ctx, 2, &err) : 0;
	during = open_fds();
	grown = fcntl(4096, F_GETFD) >= 0;
	if (ctx)
		ops->release(ctx, made);
	tap_ok(made == 2 && is_dev_zero(4095) && grown && during >= before + 1,
	       "fdtable: an open descriptor at the target survives; the table grows past it (err %d)",
	       err);
	if (ctx)
		ops->destroy(ctx);
	close(4095);

	/* With the target free: nothing at or above it once a batch ends,
	 * so that later forks (other paths) copy a small table. */
	ctx = NULL;
	made = 0;
	if (ops->prepare(&ctx, &cfg, why, sizeof(why)) == 0 &&
	    ops->room(ctx, 2) == 0) {
		made = ops->acquire(ctx, 2, &err);
		grown = highest_fd() >= 4095;
		ops->release(ctx, made);
	}
	tap_ok(made == 2 && grown && highest_fd() < 4095,
	       "fdtable: the high descriptor lives only while a batch does (highest fd after: %d)",
	       highest_fd());
	if (ctx)
		ops->destroy(ctx);
}

static long vm_kib(const char *key)
{
	char line[256];
	long v = -1;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, key, strlen(key)) == 0)
			v = strtol(line + strlen(key), NULL, 10);
	if (f)
		fclose(f);
	return v;
}

/* Address space a path keeps after its setup, in KiB. */
static long kept_kib(enum smm_iou_mode mode, int *rc)
{
	struct smm_vmpath_cfg cfg = { .stressor = "unit",
				      .bytes = 16384,
				      .batch = 16,
				      .io_uring = mode };
	long before = vm_kib("VmSize:"), after;
	void *state = NULL;
	char why[1024];

	*rc = smm_vmpath_setup(smm_vmpaths[SMM_VMO_PATH_io_uring], &state, &cfg,
			       why, sizeof(why));
	after = vm_kib("VmSize:");
	if (*rc)
		tap_diag("io-uring setup: %s", why);
	smm_vmpath_teardown(state);
	return after - before;
}

static void test_iou_left_out(void)
{
	int rc_rings, rc_both, rc_buf;
	long rings, both, buffers;

	buffers = kept_kib(SMM_IOU_BUFFERS, &rc_buf);
	if (rc_buf == 0) {
		tap_skip(
			"io-uring: a left-out buffers kind keeps nothing mapped",
			"the buffers kind runs here (%ld KiB)", buffers);
		return;
	}
	rings = kept_kib(SMM_IOU_RINGS, &rc_rings);
	both = kept_kib(SMM_IOU_BOTH, &rc_both);
	if (rc_rings || rc_both) {
		tap_skip(
			"io-uring: a left-out buffers kind keeps nothing mapped",
			"the rings kind cannot run here");
		return;
	}
	tap_ok(both - rings < 1024,
	       "io-uring: a left-out buffers kind keeps nothing mapped (both %ld KiB, rings alone %ld KiB)",
	       both, rings);
}

/* SysV segments whose creator is @pid, whatever their key. */
static int segments_of(pid_t pid)
{
	char line[512];
	int n = 0;
	FILE *f = fopen("/proc/sysvipc/shm", "r");

	while (f && fgets(line, sizeof(line), f)) {
		long key, id, perms, size, cpid;

		if (sscanf(line, "%ld %ld %ld %ld %ld", &key, &id, &perms,
			   &size, &cpid) == 5 &&
		    cpid == pid) {
			n++;
			shmctl((int)id, IPC_RMID, NULL); /* not left behind */
		}
	}
	if (f)
		fclose(f);
	return n;
}

static key_t key_of(int id)
{
	struct shmid_ds ds;

	return shmctl(id, IPC_STAT, &ds) == 0 ? ds.shm_perm.__key : 0;
}

static void test_sysv_fallback(void)
{
	key_t first = SMM_SHM_SYSV_KEY(getpid()), key = 0;
	int held, id, left, status = 1;
	unsigned int before;
	pid_t pid;

	held = shmget(first, 65536, IPC_CREAT | IPC_EXCL | 0600);
	if (held < 0) {
		tap_skip("sysv: the key after a taken one has our base",
			 "shmget: %s", strerror(errno));
		tap_skip("sysv: the sweep removes a dead worker's fallback",
			 "shmget");
		return;
	}
	before = smm_shm_leftovers(NULL);
	id = smm_shm_sysv_create(65536, &key);
	tap_ok(id >= 0 && key != first && key_of(id) == key &&
		       ((unsigned long)key & 0xffff0000UL) ==
			       SMM_SHM_SYSV_KEY_BASE &&
		       smm_shm_leftovers(NULL) == before + 1,
	       "sysv: a live process on our first key: the next key of our base, visible to the sweep (0x%x)",
	       (unsigned int)key);
	if (id >= 0)
		shmctl(id, IPC_RMID, NULL);
	shmctl(held, IPC_RMID, NULL);

	/* A worker that dies holding both its first key and the fallback. */
	pid = fork();
	if (pid == 0) {
		if (shmget(SMM_SHM_SYSV_KEY(getpid()), 65536,
			   IPC_CREAT | IPC_EXCL | 0600) < 0 ||
		    smm_shm_sysv_create(65536, NULL) < 0)
			_exit(1);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	smm_shm_sweep(NULL, NULL, NULL);
	left = segments_of(pid);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0 && left == 0,
	       "sysv: the sweep removes every segment of a dead worker, its fallback too (%d left)",
	       left);
}

int main(void)
{
	tap_plan(5);
	test_fdtable();
	test_iou_left_out();
	test_sysv_fallback();
	fflush(stdout);
	return tap_done();
}
