/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pairdiff.h - order statistics of the m n differences c[j] - b[i] of two
 * samples without forming them: the Hodges-Lehmann estimate and its
 * interval ends (gate.h) at any run count, in O(m + n) memory.
 *
 * Both samples sorted ascending; the differences are the doubles
 * c[j] - b[i] as computed (rounding is monotone, so row i is ascending in
 * j and column j descending in i). Selection: randomised pivots among the
 * elements still possible, each counted against the whole matrix with one
 * two-pointer walk (O(m + n)); expected O(log(m n)) walks, then the last
 * few thousand candidates sorted. The pivots come from a fixed-seed
 * generator: the same input gives the same work, and the result is the
 * k-th element whatever the pivots.
 */
#ifndef SMM_PAIRDIFF_H
#define SMM_PAIRDIFF_H

#include <stddef.h>
#include <stdint.h>

/*
 * smm_pairdiff_kth() - the @k-th smallest (1 <= @k <= @m @n) of the
 * differences @c[j] - @b[i] into *out.
 * Return: 0, -EINVAL (@k out of range, an empty sample), -ENOMEM.
 */
int smm_pairdiff_kth(const double *b, size_t m, const double *c, size_t n,
		     uint64_t k, double *out);

#endif /* SMM_PAIRDIFF_H */
