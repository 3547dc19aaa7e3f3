/* The process tree of the program `phases` samples: its members and their summed resident set.
 * Kernels without CONFIG_PROC_CHILDREN have no /proc/PID/task/TID/children, so members are found
 * by their parent in /proc/PID/stat; a process is looked up once (a set of pids seen outside the
 * tree, forgotten every few scans so a reused pid is looked up again). */
#include "measure/series.h"
#include "common/array.h"
#include "measure/counters.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define TREE_SEEN_SLOTS 4096 /* open addressing; pids beyond it are looked up on each scan */

struct tree_member {
	pid_t pid;
	int fd; /* /proc/PID/statm, re-read with pread */
};

struct series_tree {
	struct tree_member *m;
	size_t n, cap;
	pid_t seen[TREE_SEEN_SLOTS]; /* pids known to be outside the tree (0: empty) */
	size_t nseen;
	int scans;
	pid_t root;
	long page_bytes;
	/* the fork watch: one dummy event per CPU with task records, inherited by the tree */
	int ncpu;
	int *wfd;
	void **wring;
};

#define WATCH_PAGES 2 /* data pages per CPU: 256 fork records between two samples */

static int tree_add(struct series_tree *t, pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/statm", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct tree_member *m = array_grow(t->m, &t->cap, t->n, sizeof(*m), 8);
	if (!m) {
		close(fd);
		return -1;
	}
	t->m = m;
	t->m[t->n++] = (struct tree_member){ pid, fd };
	return 0;
}

struct series_tree *series_tree_new(pid_t root)
{
	struct series_tree *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->page_bytes = sysconf(_SC_PAGESIZE);
	t->root = root;
	if (tree_add(t, root) != 0) {
		free(t);
		return NULL;
	}
	return t;
}

void series_tree_free(struct series_tree *t)
{
	if (!t)
		return;
	for (int i = 0; i < t->ncpu; i++) {
		if (t->wring[i] && t->wring[i] != MAP_FAILED)
			munmap(t->wring[i], (size_t)(WATCH_PAGES + 1) * (size_t)t->page_bytes);
		if (t->wfd[i] >= 0)
			close(t->wfd[i]);
	}
	free(t->wfd);
	free(t->wring);
	for (size_t i = 0; i < t->n; i++)
		close(t->m[i].fd);
	free(t->m);
	free(t);
}

static int tree_has(const struct series_tree *t, pid_t pid)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->m[i].pid == pid)
			return 1;
	return 0;
}

/* 1 when pid is in the set of outsiders; with add, puts it there. */
static int seen_check(struct series_tree *t, pid_t pid, int add)
{
	size_t h = ((size_t)pid * 2654435761u) % TREE_SEEN_SLOTS;
	for (size_t probe = 0; probe < TREE_SEEN_SLOTS; probe++) {
		size_t i = (h + probe) % TREE_SEEN_SLOTS;
		if (t->seen[i] == pid)
			return 1;
		if (t->seen[i] == 0) {
			if (add && t->nseen < TREE_SEEN_SLOTS * 3 / 4) {
				t->seen[i] = pid;
				t->nseen++;
			}
			return 0;
		}
	}
	return 0;
}

/* The parent of pid from /proc/PID/stat ("pid (comm) S ppid ..."; comm may hold spaces and
 * parentheses, so parsing starts after the last ')'); -1 when it is gone. */
static pid_t tree_parent(pid_t pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t got = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (got <= 0)
		return -1;
	buf[got] = 0;
	char *p = strrchr(buf, ')');
	char state;
	int ppid;
	if (!p || sscanf(p + 1, " %c %d", &state, &ppid) != 2)
		return -1;
	return (pid_t)ppid;
}

void series_tree_scan(struct series_tree *t)
{
	/* Processes are numbered upwards, so a process of the tree has a higher pid than its root
	 * until the numbers wrap around: the pids below the root's (the rest of the machine, a hundred
	 * stat files and 1.5 ms on a small VM) are looked up only on every 50th scan, which also
	 * forgets the outsiders seen, as pids are reused. */
	int full = ++t->scans % 50 == 0;
	if (full) {
		memset(t->seen, 0, sizeof(t->seen));
		t->nseen = 0;
	}
	DIR *d = opendir("/proc");
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		pid_t pid = (pid_t)atoi(e->d_name);
		if ((!full && pid < t->root) || tree_has(t, pid) || seen_check(t, pid, 0))
			continue;
		/* /proc lists pids in increasing order, so a parent started before its child is
		 * usually a member by the time the child is looked up */
		pid_t pp = tree_parent(pid);
		if (pp > 0 && tree_has(t, pp))
			tree_add(t, pid);
		else
			seen_check(t, pid, 1);
	}
	closedir(d);
}

double series_tree_rss(struct series_tree *t, int *procs)
{
	double sum = 0;
	int n = 0;
	for (size_t i = 0; i < t->n;) {
		char buf[128];
		ssize_t got = pread(t->m[i].fd, buf, sizeof(buf) - 1, 0);
		unsigned long size, resident;
		if (got > 0) {
			buf[got] = 0;
			if (sscanf(buf, "%lu %lu", &size, &resident) == 2) {
				/* an exiting process or a zombie reads 0 0: its memory is being torn down
				 * or gone, and it is not counted */
				if (size > 0) {
					sum += (double)resident * (double)t->page_bytes;
					n++;
				}
				i++;
				continue;
			}
		}
		/* the process is gone (ESRCH): drop it, keeping the root's slot order irrelevant */
		close(t->m[i].fd);
		t->m[i] = t->m[--t->n];
	}
	if (procs)
		*procs = n;
	return sum;
}

int series_tree_watch(struct series_tree *t, struct as_error *err)
{
	int n = (int)sysconf(_SC_NPROCESSORS_CONF);
	t->wfd = malloc((size_t)n * sizeof(int));
	t->wring = calloc((size_t)n, sizeof(void *));
	if (!t->wfd || !t->wring)
		return as_error_set(err, -ENOMEM, "out of memory");
	t->ncpu = n;
	int opened = 0, rc = 0;
	for (int i = 0; i < n; i++) {
		struct perf_event_attr a;
		counters_attr_user(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
		a.task = 1;
		a.inherit = 1;
		a.enable_on_exec = 1;
		/* per CPU: the kernel maps no ring buffer of an inherited event on every CPU */
		t->wfd[i] = (int)syscall(SYS_perf_event_open, &a, t->root, i, -1, PERF_FLAG_FD_CLOEXEC);
		if (t->wfd[i] < 0) {
			rc = -errno;
			continue;
		}
		t->wring[i] = mmap(NULL, (size_t)(WATCH_PAGES + 1) * (size_t)t->page_bytes, PROT_READ | PROT_WRITE,
				   MAP_SHARED, t->wfd[i], 0);
		if (t->wring[i] == MAP_FAILED) {
			rc = -errno;
			close(t->wfd[i]);
			t->wfd[i] = -1;
			continue;
		}
		opened++;
	}
	if (!opened) {
		char eb[96];
		return as_error_set(err, rc ? rc : -ENODEV, "cannot watch forks: %s", as_strerror(-rc, eb, sizeof(eb)));
	}
	return 0;
}

int series_tree_watching(const struct series_tree *t)
{
	return t->ncpu > 0;
}

void series_tree_poll(struct series_tree *t)
{
	size_t data = (size_t)WATCH_PAGES * (size_t)t->page_bytes;
	for (int i = 0; i < t->ncpu; i++) {
		if (t->wfd[i] < 0)
			continue;
		struct perf_event_mmap_page *m = t->wring[i];
		uint64_t head = __atomic_load_n(&m->data_head, __ATOMIC_ACQUIRE), tail = m->data_tail;
		const uint8_t *base = (const uint8_t *)m + m->data_offset;
		while (tail + sizeof(struct perf_event_header) <= head) {
			uint8_t rec[64];
			struct perf_event_header h;
			for (size_t k = 0; k < sizeof(h); k++)
				((uint8_t *)&h)[k] = base[(tail + k) % data];
			if (h.size < sizeof(h))
				break;
			if (h.type == PERF_RECORD_FORK && h.size <= sizeof(rec)) {
				for (size_t k = 0; k < h.size; k++)
					rec[k] = base[(tail + k) % data];
				uint32_t pid, ppid; /* then tid, ptid, time */
				memcpy(&pid, rec + sizeof(h), 4);
				memcpy(&ppid, rec + sizeof(h) + 4, 4);
				/* a new thread has its process's pid: only new processes join */
				if (pid != ppid && !tree_has(t, (pid_t)pid))
					tree_add(t, (pid_t)pid);
			}
			tail += h.size;
		}
		__atomic_store_n(&m->data_tail, head, __ATOMIC_RELEASE);
	}
}
