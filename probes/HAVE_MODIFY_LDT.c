/* LIBS:
 * x86 modify_ldt(2): <asm/ldt.h> struct user_desc and SYS_modify_ldt, for
 * the ldt path (core-vmalloc.c, through plugin/compat/stress-ng.h). Absent
 * on other architectures.
 */
#include <asm/ldt.h>
#include <sys/syscall.h>

int main(void)
{
	struct user_desc d = { .entry_number = LDT_ENTRIES - 1 };

	return (int)SYS_modify_ldt + (int)d.entry_number + LDT_ENTRY_SIZE;
}
