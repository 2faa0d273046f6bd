// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * troff.c - text for a man page.
 */
#include "troff.h"

void smm_troff_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '-')
			fputs("\\-", f);
		else if (*s == '\\')
			fputs("\\e", f);
		else
			putc(*s, f);
	}
}
