/* LIBS: -lbsd
 * libbsd: strtonum(3bsd) and dehumanize_number(3bsd), used by the parameter
 * parser (common/params.c). Required: Debian package libbsd-dev.
 */
#include <bsd/stdlib.h>
#include <bsd/libutil.h>

int main(void)
{
	const char *errstr = NULL;
	int64_t v = 0;

	return (int)strtonum("1", 0, 1, &errstr) + dehumanize_number("1K", &v);
}
