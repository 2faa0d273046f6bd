/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sng-pick.h - which stress-ng a run execs, and whether our stressors run
 * built into it (runner-native.c) or through the plugin (runner-sng.c).
 *
 * The stress-ng, the first that applies:
 *   1. --stress-ng PATH;
 *   2. a native stress-ng of this build tree (build/stress-ng/stress-ng,
 *      what `make stress-ng` built) or installation (locate.h);
 *   3. stress-ng from PATH (locate.h).
 * The integration, by --integration:
 *   auto,   the plugin, in whichever stress-ng was picked (one with the
 *   plugin  built-in stressors loads it like any other): its workers keep
 *           the records (stats.h) the figures and the report's paths,
 *           placement and SKIP reasons come from;
 *   native  the built-in stressors (its --stressors lists vmalloc-order
 *           and shm-pcp; a stress-ng without them is refused): what
 *           upstream gets, with stress-ng's own metrics and no record.
 */
#ifndef SMM_SNG_PICK_H
#define SMM_SNG_PICK_H

#include <stdbool.h>
#include <stddef.h>

/* The words --integration takes, in this order; NULL-terminated. */
extern const char *const smm_integrations[];

/*
 * smm_sng_has_builtins() - whether executable @sng lists vmalloc-order
 * and shm-pcp in its --stressors output (read within 10 s; a stress-ng
 * that does not answer has none).
 */
bool smm_sng_has_builtins(const char *sng);

/*
 * smm_sng_pick() - the stress-ng for --stress-ng @given (NULL: none) and
 * --integration @integration, by the rules above; *@native whether our
 * stressors run built into it.
 * Return: its path (@given, or static storage), or NULL with one line in
 * @err: @given is not an executable file, no stress-ng was found, or
 * --integration native with a stress-ng that lacks the stressors.
 */
const char *smm_sng_pick(const char *given, const char *integration,
			 bool *native, char *err, size_t len);

#endif /* SMM_SNG_PICK_H */
