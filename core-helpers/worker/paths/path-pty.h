/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * path-pty.h - vmalloc-order path "pty": pseudo-terminal line disciplines.
 *
 * Kernel source: drivers/tty/pty.c and drivers/tty/n_tty.c. Opening
 * /dev/ptmx (posix_openpt(3)) sets up the N_TTY line discipline on both the
 * master and the slave; each n_tty_open() vzalloc()s its struct n_tty_data
 * (3 pages on x86_64). /proc/vmallocinfo shows two
 * "16384 n_tty_open+0x.../0x... pages=3 vmalloc" areas per open; close(2)
 * vfree()s them. The size is fixed: cfg->bytes is only compared and the
 * difference reported.
 *
 * One batch: cfg->batch masters open at once, then all closed. The batch is
 * clamped to half of kernel.pty.max - kernel.pty.reserve - kernel.pty.nr
 * (drivers/tty/pty.c, fs/devpts/inode.c devpts_new_index()), and to the
 * opens the kernel allowed when one fails with ENOSPC.
 *
 * Setup errors (a SKIP): the errno of the first posix_openpt() (ENOENT
 * without devpts, EACCES/EPERM in a sandbox, ENOSPC when no pty is left);
 * -EOPNOTSUPP when open ptys add no n_tty_open area to /proc/vmallocinfo.
 */
#ifndef SMM_PATH_PTY_H
#define SMM_PATH_PTY_H

#include "vmpath.h"

extern const struct smm_vmpath smm_vmpath_pty;

#endif /* SMM_PATH_PTY_H */
