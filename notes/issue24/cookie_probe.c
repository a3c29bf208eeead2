// SPDX-License-Identifier: GPL-2.0
/*
 * cookie_probe: what a statx() caller asking for the change cookie sees
 * while another task writes the file.
 *
 *   cookie_probe wait FILE MIB
 *	A thread writes MIB MiB to FILE in one pwrite() (holding the inode
 *	lock for the whole copy), 20 times; meanwhile the main thread calls
 *	statx() with and without STATX_CHANGE_COOKIE and reports the longest
 *	and the mean time of each, and whether a SIGUSR1 (handled) sent
 *	50 ms into a write cut a wait short.
 *   cookie_probe inflight FILE SECONDS
 *	A process rewrites FILE (256 KiB) with a new byte each time, pausing
 *	500 us after each write; the main process runs statx/pread/statx
 *	triples.  Reports per million triples: equal cookies around a torn
 *	read (torn), and cookies returned during a write and again by a call
 *	that began after the write was complete (stale).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/stat.h>

#define SIZE (256 * 1024)

static int sx(int fd, unsigned int mask, struct statx *st)
{
	return syscall(SYS_statx, fd, "", AT_EMPTY_PATH, mask, st);
}

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static volatile int writing, stop;
static int wfd;
static size_t wlen;
static char *wbuf;
static long long wstart;

static void *writer(void *arg)
{
	int i;

	for (i = 0; i < 10; i++) {
		wstart = now_ns();
		__atomic_store_n(&writing, 1, __ATOMIC_SEQ_CST);
		if (pwrite(wfd, wbuf, wlen, 0) != (ssize_t)wlen)
			perror("pwrite");
		__atomic_store_n(&writing, 0, __ATOMIC_SEQ_CST);
		usleep(20000);
	}
	stop = 1;
	return NULL;
}

static volatile int got_sig, sigs_sent;
static pthread_t main_thread;
static void on_sig(int s) { got_sig = 1; }

/* 50 ms into each write, a handled SIGUSR1 to the main thread. */
static void *signaller(void *arg)
{
	long long last = 0;

	while (!stop) {
		long long ws = wstart;

		if (__atomic_load_n(&writing, __ATOMIC_SEQ_CST) && ws != last &&
		    now_ns() - ws > 50000000LL) {
			last = ws;
			pthread_kill(main_thread, SIGUSR1);
			sigs_sent++;
		}
		usleep(1000);
	}
	return NULL;
}

static int do_wait(const char *path, int mib)
{
	long long max[2] = { 0 }, sum[2] = { 0 }, n[2] = { 0 }, t, longest_write = 0;
	unsigned int masks[2] = { STATX_BASIC_STATS, STATX_BASIC_STATS | STATX_CHANGE_COOKIE };
	struct sigaction sa = { .sa_handler = on_sig };
	struct statx st;
	pthread_t th, sg;
	int fd, k, interrupted = 0;
	pid_t self = getpid();

	sigaction(SIGUSR1, &sa, NULL);	/* no SA_RESTART */
	wlen = (size_t)mib << 20;
	wbuf = malloc(wlen);
	memset(wbuf, 'w', wlen);
	wfd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	fd = open(path, O_RDONLY);
	if (wfd < 0 || fd < 0 || pwrite(wfd, wbuf, wlen, 0) != (ssize_t)wlen)
		return perror("setup"), 1;
	main_thread = pthread_self();
	pthread_create(&th, NULL, writer, NULL);
	pthread_create(&sg, NULL, signaller, NULL);
	while (!stop) {
		for (k = 0; k < 2; k++) {
			int during = __atomic_load_n(&writing, __ATOMIC_SEQ_CST);
			long long t0 = now_ns();

			got_sig = 0;
			if (sx(fd, masks[k], &st) && errno == EINTR)
				interrupted++;
			t = now_ns() - t0;
			if (!during)
				continue;
			if (t > max[k])
				max[k] = t;
			sum[k] += t;
			n[k]++;
		}
	}
	pthread_join(th, NULL);
	pthread_join(sg, NULL);
	(void)self; (void)longest_write;
	printf("wait %d MiB: statx basic max %.3f ms mean %.3f ms (%lld calls during writes); "
	       "with cookie max %.3f ms mean %.3f ms (%lld calls); %d SIGUSR1 sent, EINTR %d\n", mib,
	       max[0] / 1e6, n[0] ? sum[0] / 1e6 / n[0] : 0, n[0],
	       max[1] / 1e6, n[1] ? sum[1] / 1e6 / n[1] : 0, n[1], sigs_sent, interrupted);
	return 0;
}

struct shared { unsigned long started, done; };

/*
 * Fork a process that rewrites the first SIZE bytes of PATH with a new byte
 * each time, counting in SH the writes it began and those complete, and
 * pausing PAUSE_US after each.  Returns its pid.
 */
static pid_t start_rewriter(const char *path, size_t size, unsigned int pause_us,
			    struct shared *sh)
{
	pid_t pid = fork();

	if (!pid) {
		unsigned char v = 0;
		char *wb = malloc(size);
		int wfd = open(path, O_WRONLY);

		for (;;) {
			memset(wb, ++v, size);
			__atomic_add_fetch(&sh->started, 1, __ATOMIC_SEQ_CST);
			if (pwrite(wfd, wb, size, 0) != (ssize_t)size)
				_exit(1);
			__atomic_add_fetch(&sh->done, 1, __ATOMIC_SEQ_CST);
			usleep(pause_us);
		}
	}
	return pid;
}

static int do_inflight(const char *path, int seconds)
{
	unsigned long triples = 0, equal = 0, torn = 0, inflight = 0, checked = 0, stale = 0;
	unsigned long s0, d0, s1, d1, pend = 0;
	unsigned long long pend_cookie = 0;
	struct statx a, b;
	struct shared *sh;
	char *buf = malloc(SIZE);
	long long end;
	int fd, i;
	pid_t pid;

	memset(buf, 0, SIZE);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || pwrite(fd, buf, SIZE, 0) != SIZE)
		return perror("setup"), 1;
	sh = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid = start_rewriter(path, SIZE, 500, sh);
	end = now_ns() + seconds * 1000000000LL;
	while (now_ns() < end) {
		s0 = __atomic_load_n(&sh->started, __ATOMIC_SEQ_CST);
		d0 = __atomic_load_n(&sh->done, __ATOMIC_SEQ_CST);
		if (sx(fd, STATX_CHANGE_COOKIE, &a) || !(a.stx_mask & STATX_CHANGE_COOKIE))
			return fprintf(stderr, "no cookie\n"), 1;
		s1 = __atomic_load_n(&sh->started, __ATOMIC_SEQ_CST);
		d1 = __atomic_load_n(&sh->done, __ATOMIC_SEQ_CST);
		if (pend && d0 >= pend) {
			checked++;
			if (a.stx_change_cookie == pend_cookie)
				stale++;
			pend = 0;
		}
		(void)s1; (void)d1;
		if (pread(fd, buf, SIZE, 0) != SIZE || sx(fd, STATX_CHANGE_COOKIE, &b))
			return perror("read"), 1;
		triples++;
		/* bytes older than write s0: it was in progress at the read, so at the statx */
		for (i = 0; i < SIZE; i++)
			if ((unsigned char)((s0 & 0xff) - (unsigned char)buf[i]) - 1U < 127)
				break;
		if (s0 > d0 && i < SIZE && !pend) {
			inflight++;
			pend = s0;
			pend_cookie = a.stx_change_cookie;
		}
		if (a.stx_change_cookie != b.stx_change_cookie)
			continue;
		equal++;
		for (i = 1; i < SIZE; i++)
			if (buf[i] != buf[0])
				break;
		if (i < SIZE)
			torn++;
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	printf("inflight: %lu writes, %lu triples, %lu equal, torn %lu (%.0f per million triples), "
	       "cookies read during a write %lu, checked after it %lu, stale %lu (%.0f per million checked)\n",
	       sh->done, triples, equal, torn, triples ? torn * 1e6 / triples : 0.0,
	       inflight, checked, stale, checked ? stale * 1e6 / checked : 0.0);
	return 0;
}

/*
 * A writer rewrites SERVERFILE (8 MiB, a new byte each time, a 50 ms pause
 * after each write); the reader opens CLIENTFILE (the same file through an
 * NFS mount), reads it whole and closes it, again and again.  A read that
 * begins after write k is complete must not return bytes of an older
 * write: the client revalidates its cache at open by the change attribute,
 * and keeps pages it read during a write if the attribute did not move
 * after it.  Reports such stale reads per million reads.
 */
#define NSIZE (8 << 20)

static int do_nfsstale(const char *spath, const char *cpath, int seconds)
{
	unsigned long reads = 0, stale = 0, torn = 0;
	unsigned char *buf = malloc(NSIZE);
	struct shared *sh;
	long long end;
	int fd, i;
	pid_t pid;

	memset(buf, 0, NSIZE);
	fd = open(spath, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || pwrite(fd, buf, NSIZE, 0) != NSIZE)
		return perror("setup"), 1;
	close(fd);
	sh = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid = start_rewriter(spath, NSIZE, 50000, sh);
	end = now_ns() + seconds * 1000000000LL;
	while (now_ns() < end) {
		unsigned long d0 = __atomic_load_n(&sh->done, __ATOMIC_SEQ_CST);
		unsigned char want = d0 & 0xff;
		int bad = 0;

		fd = open(cpath, O_RDONLY);
		if (fd < 0 || pread(fd, buf, NSIZE, 0) != NSIZE)
			return perror("client read"), 1;
		close(fd);
		/* a read that took many writes cannot be placed */
		if (__atomic_load_n(&sh->done, __ATOMIC_SEQ_CST) - d0 > 64)
			continue;
		reads++;
		for (i = 0; i < NSIZE; i++) {
			/* bytes of write d0 or later are at most 127 ahead */
			if ((unsigned char)(buf[i] - want) > 127) {
				bad = 1;
				break;
			}
		}
		for (i = 1; i < NSIZE && buf[i] == buf[0]; i++)
			;
		if (i < NSIZE)
			torn++;
		stale += bad;
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	printf("nfsstale: %lu writes, %lu client reads, %lu torn, stale %lu (%.0f per million reads)\n",
	       sh->done, reads, torn, stale, reads ? stale * 1e6 / reads : 0.0);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "nfsstale"))
		return do_nfsstale(argv[2], argv[3], atoi(argv[4]));
	if (argc == 4 && !strcmp(argv[1], "wait"))
		return do_wait(argv[2], atoi(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "inflight"))
		return do_inflight(argv[2], atoi(argv[3]));
	fprintf(stderr, "usage: cookie_probe wait FILE MIB | inflight FILE SECONDS\n");
	return 2;
}
