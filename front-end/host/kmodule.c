// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kmodule.c - load, hand over and unload our kernel module for a run.
 */
#include <errno.h>
#include <libgen.h>
#include <libkmod.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "kmodule.h"
#include "path-module-name.h"

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* The tree's build of the module for the running kernel. */
static void built_ko(char *buf, size_t len)
{
	char exe[PATH_MAX];
	struct utsname u;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	exe[n < 0 ? 0 : n] = '\0';
	uname(&u);
	snprintf(buf, len, "%s/module/%s/%s.ko", dirname(exe), u.release,
		 SMM_KMOD_NAME);
}

struct kmod_module *smm_kmodule_lookup(struct kmod_ctx *ctx, const char *name)
{
	struct kmod_list *list = NULL, *l;
	struct kmod_module *mod = NULL;

	if (kmod_module_new_from_lookup(ctx, name, &list) != 0)
		return NULL;
	kmod_list_foreach(l, list)
	{
		mod = kmod_module_get_module(l);
		break;
	}
	kmod_module_unref_list(list);
	return mod;
}

static int insert(char *why, size_t len)
{
	struct kmod_ctx *ctx = kmod_new(NULL, NULL);
	struct kmod_module *mod;
	char ko[PATH_MAX];
	int rc = -ENOENT;

	if (!ctx) {
		snprintf(why, len, "libkmod: kmod_new failed");
		return -ENOMEM;
	}
	mod = smm_kmodule_lookup(ctx, SMM_KMOD_NAME);
	if (mod) {
		rc = kmod_module_probe_insert_module(mod, 0, NULL, NULL, NULL,
						     NULL);
		if (rc)
			snprintf(why, len, "modprobe %s: %s", SMM_KMOD_NAME,
				 strerror(-rc));
	} else {
		built_ko(ko, sizeof(ko));
		if (access(ko, R_OK) != 0) {
			snprintf(
				why, len,
				"no %s for this kernel: not installed, and no %s (make module)",
				SMM_KMOD_NAME, ko);
		} else if ((rc = kmod_module_new_from_path(ctx, ko, &mod)) ==
			   0) {
			rc = kmod_module_insert_module(mod, 0, NULL);
			if (rc)
				snprintf(why, len, "insert %s: %s", ko,
					 strerror(-rc));
		} else {
			snprintf(why, len, "libkmod: %s: %s", ko,
				 strerror(-rc));
		}
	}
	if (mod)
		kmod_module_unref(mod);
	kmod_unref(ctx);
	return rc;
}

int smm_kmodule_may_load(const char *what, char *why, size_t len)
{
	if (access("/proc/modules", F_OK) != 0) {
		snprintf(
			why, len,
			"this kernel has no module support (no /proc/modules)");
		return -ENOSYS;
	}
	if (geteuid() != 0) {
		snprintf(why, len,
			 "%s is not loaded, and loading it needs root", what);
		return -EPERM;
	}
	return 0;
}

int smm_kmodule_prepare(struct smm_kmodule *km, char *why, size_t len)
{
	struct stat st;
	int rc;

	memset(km, 0, sizeof(*km));
	if (stat(SMM_KMOD_DEVICE, &st) != 0) {
		rc = smm_kmodule_may_load(SMM_KMOD_NAME, why, len);
		if (rc)
			return rc;
		rc = insert(why, len);
		if (rc && rc != -EEXIST) /* -EEXIST: loaded meanwhile */
			return rc;
		km->loaded_by_us = rc == 0;
		for (int i = 0; i < 200 && stat(SMM_KMOD_DEVICE, &st) != 0; i++)
			sleep_ms(10);
		if (stat(SMM_KMOD_DEVICE, &st) != 0) {
			snprintf(
				why, len,
				"%s loaded, but %s did not appear within 2 s (devtmpfs?)",
				SMM_KMOD_NAME, SMM_KMOD_DEVICE);
			smm_kmodule_finish(km);
			return -ETIMEDOUT;
		}
	}
	if (st.st_uid != getuid() && geteuid() == 0) {
		km->uid = st.st_uid;
		km->gid = st.st_gid;
		if (chown(SMM_KMOD_DEVICE, getuid(), getgid()) == 0)
			km->chowned = true;
	}
	return 0;
}

int smm_kmodule_unload_name(void)
{
	struct kmod_ctx *ctx = kmod_new(NULL, NULL);
	struct kmod_module *mod = NULL;
	int rc;

	if (!ctx)
		return -ENOMEM;
	rc = kmod_module_new_from_name(ctx, SMM_KMOD_NAME, &mod);
	/* a worker's file may close a moment after stress-ng returned */
	for (int i = 0; rc == 0 && i < 200; i++) {
		rc = kmod_module_remove_module(mod, KMOD_REMOVE_NOWAIT);
		if (rc != -EAGAIN && rc != -EBUSY && rc != -EWOULDBLOCK)
			break;
		sleep_ms(10);
	}
	if (mod)
		kmod_module_unref(mod);
	kmod_unref(ctx);
	return rc == -ENOENT ? 0 : rc;
}

int smm_kmodule_finish(struct smm_kmodule *km)
{
	int rc = 0;

	if (km->chowned && chown(SMM_KMOD_DEVICE, km->uid, km->gid) != 0)
		fprintf(stderr, "stress-mm: module: cannot give %s back: %s\n",
			SMM_KMOD_DEVICE, strerror(errno));
	km->chowned = false;
	if (km->loaded_by_us) {
		rc = smm_kmodule_unload_name();
		if (rc)
			fprintf(stderr,
				"stress-mm: module: cannot remove %s: %s\n",
				SMM_KMOD_NAME, strerror(-rc));
		km->loaded_by_us = false;
	}
	return rc;
}
