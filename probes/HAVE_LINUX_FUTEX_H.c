/* LIBS:
 * <linux/futex.h> and SYS_futex: the thread-stack path parks its threads on
 * a futex word (core-vmalloc.c, through plugin/compat/stress-ng.h).
 */
#include <linux/futex.h>
#include <sys/syscall.h>

int main(void)
{
	return FUTEX_WAIT_PRIVATE + FUTEX_WAKE_PRIVATE + (int)SYS_futex;
}
