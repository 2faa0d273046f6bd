/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plugin/compat/core-killpid.h - stress_kill_and_wait_many(). */
#ifndef SMM_COMPAT_CORE_KILLPID_H
#define SMM_COMPAT_CORE_KILLPID_H

#include "stress-ng.h"

/*
 * stress_kill_and_wait_many() - send @signum to each of @s_pids (pid > 1),
 * then reap each; one that is still there after 5 s gets SIGKILL.
 * Return: EXIT_SUCCESS, or EXIT_FAILURE when one could not be reaped.
 */
extern int stress_kill_and_wait_many(stress_args_t *args,
				     const stress_pid_t *s_pids,
				     const size_t n_pids, const int signum,
				     const bool set_stress_force_killed_bogo);

#endif /* SMM_COMPAT_CORE_KILLPID_H */
