/* LIBS: -lkmod
 * libkmod: the front end loads and removes module/stress_mm_vmalloc.ko for
 * --vmalloc-order-method module (front-end/host/kmodule.c).
 * Required: Debian package libkmod-dev.
 */
#include <libkmod.h>
#include <stddef.h>

int main(void)
{
	struct kmod_ctx *c = kmod_new(NULL, NULL);

	kmod_unref(c);
	return 0;
}
