// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shm-loop - the bare C loop of shm-pcp's bogo-op, for bench/shm-pcp: POSIX
 * shm_open + shm_unlink, ftruncate, mmap MAP_SHARED, write-fault every page,
 * munmap, close, for SECONDS; no stress-ng, no plugin.
 *
 *   shm-loop BYTES SECONDS    prints "cycles: N" and "pages_per_sec: X"
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long long cycles = 0, pages = 0;
	double t0, end;
	size_t bytes;
	char name[64];

	if (argc != 3) {
		fprintf(stderr, "usage: shm-loop BYTES SECONDS\n");
		return 2;
	}
	bytes = strtoull(argv[1], NULL, 10);
	snprintf(name, sizeof(name), "/shm-loop-%d", (int)getpid());
	t0 = now();
	end = t0 + atof(argv[2]);
	while (now() < end) {
		int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
		char *p;

		if (fd < 0)
			return 1;
		shm_unlink(name);
		if (ftruncate(fd, (off_t)bytes) < 0)
			return 1;
		p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED)
			return 1;
		for (size_t off = 0; off < bytes; off += (size_t)page, pages++)
			*(volatile char *)(p + off) = 1;
		munmap(p, bytes);
		close(fd);
		cycles++;
	}
	printf("cycles: %llu\npages_per_sec: %.0f\n", cycles,
	       (double)pages / (now() - t0));
	return 0;
}
