/* LIBS: -luring
 * liburing with provided-buffer rings (io_uring_register_buf_ring, 2.2+):
 * the io-uring path (core-helpers/worker/paths/path-io-uring.c). Debian:
 * liburing-dev.
 */
#include <liburing.h>

int main(void)
{
	struct io_uring ring;
	struct io_uring_buf_reg reg = { 0 };

	if (io_uring_queue_init(2, &ring, 0))
		return 0;
	io_uring_register_buf_ring(&ring, &reg, 0);
	io_uring_unregister_buf_ring(&ring, 0);
	io_uring_queue_exit(&ring);
	return 0;
}
