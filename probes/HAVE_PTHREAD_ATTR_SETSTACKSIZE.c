/* LIBS: -lpthread
 * POSIX threads with a settable user stack size: the thread-stack path keeps
 * user stacks at PTHREAD_STACK_MIN so that user memory stays small.
 */
#include <pthread.h>
#include <limits.h>

int main(void)
{
	pthread_attr_t a;

	pthread_attr_init(&a);
	return pthread_attr_setstacksize(&a, PTHREAD_STACK_MIN);
}
