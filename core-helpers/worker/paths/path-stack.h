/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * path-stack.h - vmalloc-order path "stack": kernel thread stacks.
 *
 * Kernel source: kernel/fork.c under CONFIG_VMAP_STACK. Every new task gets
 * a THREAD_SIZE stack from alloc_thread_stack_node(): a per-CPU cache of
 * NR_CACHED_STACKS (2) freed stacks first, else __vmalloc_node() of
 * THREAD_SIZE (16 KiB, order 2 on x86_64; 32 KiB with KASAN). The stack is
 * freed after the task's last context switch (put_task_stack()), back to the
 * cache or through RCU and vfree(). /proc/vmallocinfo shows the areas as
 * "20480 kernel_clone+0x.../0x... pages=4 vmalloc" (size includes the guard
 * page; older kernels name copy_process, dup_task_struct or _do_fork).
 *
 * One batch (holder.h): cfg->batch threads created and parked on a futex,
 * all alive at once, then released and joined. On x86_64 they are raw
 * clone(2) threads without TLS (path-stack.c says why); elsewhere POSIX
 * threads (pthread_create(3)). Batches above 2 stacks per CPU defeat the
 * cache; the probe always holds enough threads to get past it. The size is
 * THREAD_SIZE whatever cfg->bytes asks; the report says so.
 *
 * Setup errors (a SKIP): -EAGAIN/-ENOMEM/-EPERM when not a single thread
 * can be created (RLIMIT_NPROC, threads-max, pid_max, cgroup pids.max,
 * seccomp), after retrying EAGAIN for 50 ms; -EAGAIN when the task
 * headroom is 0; -EOPNOTSUPP when more live threads than the per-CPU cache
 * holds add no stack area to /proc/vmallocinfo (CONFIG_VMAP_STACK=n). The
 * batch is clamped, and the clamp reported once per run, to half the
 * system's task headroom (threads-max, pid_max) and to the live threads
 * the kernel allowed when a clone fails with EAGAIN or ENOMEM.
 */
#ifndef SMM_PATH_STACK_H
#define SMM_PATH_STACK_H

#include "vmpath.h"

extern const struct smm_vmpath smm_vmpath_stack;

#endif /* SMM_PATH_STACK_H */
