/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kmodule.h - our kernel module (module/stress_mm_vmalloc.ko) for a run of
 * --vmalloc-order-method module: loaded when the device is missing and
 * stress-mm may load it, the device handed to the run's user, and both
 * undone afterwards, but only what this run did.
 *
 * Where the module comes from, in this order (libkmod):
 *   1. installed for the running kernel (modules.dep: modprobe's lookup);
 *   2. the tree's build: <dir of stress-mm>/module/<uname -r>/
 *      stress_mm_vmalloc.ko (make module KERNEL=... writes it there).
 * Kernel source relied on: kernel/module/main.c (finit_module(2): EPERM
 * without CAP_SYS_MODULE, ENOEXEC/EINVAL for a module of another kernel,
 * EEXIST when loaded), delete_module(2) (EWOULDBLOCK with O_NONBLOCK while
 * a file is open); drivers/char/misc.c (the node appears in devtmpfs).
 *
 * Runs in the front end only (root may be needed), never in workers.
 */
#ifndef SMM_KMODULE_H
#define SMM_KMODULE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct smm_kmodule {
	bool loaded_by_us; /* unload at the end */
	bool chowned; /* restore owner at the end */
	uid_t uid; /* the node's owner before */
	gid_t gid;
};

struct kmod_ctx;
struct kmod_module;

/*
 * smm_kmodule_lookup() - the module @name installed for the running
 * kernel, as modprobe finds it (libkmod, modules.dep and aliases); a
 * reference the caller drops with kmod_module_unref(), or NULL.
 */
struct kmod_module *smm_kmodule_lookup(struct kmod_ctx *ctx, const char *name);

/*
 * smm_kmodule_may_load() - whether this process may load a module here.
 * Return: 0; -ENOSYS when the kernel has no module support (no
 * /proc/modules), -EPERM when not root; with one line in @why naming
 * @what (the module asked for).
 */
int smm_kmodule_may_load(const char *what, char *why, size_t len);

/*
 * smm_kmodule_prepare() - make the device usable by this process's uid:
 * nothing when it exists and is ours; else load the module (when
 * /proc/modules exists and we may) and wait up to 2 s for the node; then
 * give the node to getuid()/getgid() when it belongs to another user.
 * Return: 0 (the device is there; *@km says what to undo), or -errno with
 * one line in @why: -ENOSYS the kernel has no module support (no
 * /proc/modules), -ENOENT no module for this kernel (neither installed
 * nor built), -EPERM may not load it (not root), -ETIMEDOUT loaded but no
 * node appeared, or libkmod's -errno of the insertion.
 */
int smm_kmodule_prepare(struct smm_kmodule *km, char *why, size_t len);

/*
 * smm_kmodule_finish() - undo what smm_kmodule_prepare() did: the node's
 * owner back, the module removed when this run loaded it (retried for up
 * to 2 s while a worker's file is still open). Return: 0 or -errno of the
 * removal (said on stderr).
 */
int smm_kmodule_finish(struct smm_kmodule *km);

/* smm_kmodule_unload_name() - remove the module by name, retried for up
 * to 2 s while a file is open; for smm_kmodule_finish() and for the
 * watchdog after a SIGKILLed run (owner.h). Return: 0 (also when it was
 * not loaded) or libkmod's -errno. */
int smm_kmodule_unload_name(void);

#endif /* SMM_KMODULE_H */
