/*
 * machine.c: the measuring side of machine.h: the fingerprint of the memory system each measuring
 * process takes before its first row group, what it watches over its pass, and the lines that
 * carry both (to the parent on the pipe, into the CSV's header and the samples file).
 *
 * The fingerprint, a median of 70 ms a process on our machine (docs/comparing.md; its cost is
 * recorded with it, on the wall clock):
 *   stream  the floor's own iterate update (update_batch, k = 2) over 2^20 entities, 16 MiB: the
 *           working set of the sweep's largest floor rows, which fits a quiet machine's last-level
 *           cache and not a busy one's; one untimed pass, then the median of 7, ns an entity;
 *   chase   a dependent walk through a random cycle of 2^20 cache lines (Sattolo's algorithm, a
 *           fixed seed), 64 MiB, beyond the last-level cache: each step waits for the one before,
 *           as a backend's lookup chain does; the median of 5 blocks of 2^15 steps after an
 *           untimed one, ns a step.
 * Both on the measuring thread's CPU time (as the samples), in memory from mmap (4 KiB pages, as
 * the storages', transparent huge pages refused), unmapped before the first group: the heap the
 * groups start from is not changed (glibc keeps what is freed: pass.c).
 *
 * The watch: /proc/stat's ticks of every CPU and of the measuring one (busy, steal), the
 * process's own CPU time (getrusage, its forks included), /proc/loadavg and procs_running, and
 * every task's CPU time from /proc/PID/task/TID/stat at both ends, so that the other tasks that
 * ran on the measuring CPU can be named (a task's CPU is where it ran last; one that came and
 * went between the two reads counts in the CPU's busy ticks only). Two scans of /proc a process,
 * 1.4 to 5.7 ms each with the 106 tasks of our machine.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "machine.h"
#include "measure.h"
#include "rng.h"
#include "update.h"
#include "stats.h"

#ifdef ECSB_CALLGRIND
#include <valgrind/valgrind.h>
#endif

/* --- the fingerprint ---------------------------------------------------------------------- */

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median_of(double *v, uint32_t n)
{
	qsort(v, n, sizeof *v, compare_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ns an entity of the floor's iterate update over Position and Velocity at m (16 MiB). */
static double fingerprint_stream(unsigned char *m)
{
	uint32_t n = MACHINE_STREAM_ENTITIES;
	struct position *pos = (struct position *)(void *)m;
	struct velocity *vel = (struct velocity *)(void *)(m + (size_t)n * sizeof *pos);
	for (uint32_t i = 0; i < n; i++) {
		pos[i] = (struct position){(float)(i & 1023), 0};
		vel[i] = (struct velocity){1, 0.5f};
	}
	struct ecs_batch b = {.count = n, .columns = {pos, vel, NULL}};
	size_t size[COMP_MAX_K] = {sizeof(struct position), sizeof(struct velocity),
	                           sizeof(struct mass)};
	double ns[MACHINE_STREAM_PASSES];
	update_batch(&b, 2, size);
	measure_clobber();
	for (uint32_t r = 0; r < MACHINE_STREAM_PASSES; r++) {
		uint64_t t0 = measure_cpu_ns();
		update_batch(&b, 2, size);
		measure_clobber();
		ns[r] = (double)(measure_cpu_ns() - t0) / n;
	}
	return median_of(ns, MACHINE_STREAM_PASSES);
}

/* ns a step of a dependent walk through a random cycle of the lines of m (64 MiB); order: room
 * for the cycle's indices (4 MiB). */
static double fingerprint_chase(unsigned char *m, uint32_t *order)
{
	uint32_t lines = MACHINE_CHASE_LINES;
	struct rng g;
	rng_seed(&g, 0x6d616368696e65ull, 1);
	/* Sattolo's algorithm: a single cycle through every line, so the walk never settles into a
	 * short loop that the caches would hold. */
	for (uint32_t i = 0; i < lines; i++)
		order[i] = i;
	for (uint32_t i = lines - 1; i > 0; i--) {
		uint32_t j = rng_below(&g, i), t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (uint32_t i = 0; i < lines; i++)
		*(uint32_t *)(void *)(m + (size_t)i * 64) = order[i];
	volatile uint32_t sink;
	uint32_t at = 0;
	for (uint32_t s = 0; s < MACHINE_CHASE_STEPS / 2; s++)
		at = *(const uint32_t *)(const void *)(m + (size_t)at * 64);
	double ns[MACHINE_CHASE_BLOCKS];
	for (uint32_t r = 0; r < MACHINE_CHASE_BLOCKS; r++) {
		uint64_t t0 = measure_cpu_ns();
		for (uint32_t s = 0; s < MACHINE_CHASE_STEPS; s++)
			at = *(const uint32_t *)(const void *)(m + (size_t)at * 64);
		ns[r] = (double)(measure_cpu_ns() - t0) / MACHINE_CHASE_STEPS;
	}
	sink = at;
	(void)sink;
	return median_of(ns, MACHINE_CHASE_BLOCKS);
}

void machine_fingerprint(struct machine_process *p)
{
	p->stream_ns = p->chase_ns = p->fingerprint_ms = NAN;
#ifdef ECSB_CALLGRIND
	if (RUNNING_ON_VALGRIND)
		return;
#endif
	uint64_t start = measure_now_ns();
	size_t bytes = (size_t)MACHINE_CHASE_LINES * 64, order_bytes = MACHINE_CHASE_LINES * 4;
	unsigned char *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
	                        -1, 0);
	uint32_t *order = mmap(NULL, order_bytes, PROT_READ | PROT_WRITE,
	                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m != MAP_FAILED && order != MAP_FAILED) {
		/* The storages' pages are 4 KiB (malloc's heap); whether the kernel grants huge pages
		 * varies from run to run, and would change the walk's cost with it. */
		madvise(m, bytes, MADV_NOHUGEPAGE);
		madvise(order, order_bytes, MADV_NOHUGEPAGE);
		p->stream_ns = fingerprint_stream(m);
		p->chase_ns = fingerprint_chase(m, order);
		p->fingerprint_ms = (double)(measure_now_ns() - start) / 1e6;
	}
	if (m != MAP_FAILED)
		munmap(m, bytes);
	if (order != MAP_FAILED)
		munmap(order, order_bytes);
}

/* --- the watch ---------------------------------------------------------------------------- */

struct cpu_ticks {
	uint64_t total, busy, steal;
};

struct task_time {
	int pid, tid;
	uint64_t ticks; /* utime + stime */
	int cpu;        /* where it ran last */
	char comm[24];
};

struct tasks {
	struct task_time *v;
	size_t count, cap;
};

struct machine_watch {
	int cpu;
	uint64_t start_ns;
	double own_s;
	struct cpu_ticks all, mine;
	double load;
	uint32_t running;
	struct tasks tasks;
	bool has_stat;
};

/* "cpu" (all) or "cpuN": total, busy (user, nice, system, irq, softirq; guest is in user) and
 * steal ticks; and procs_running. 0, or -1 if /proc/stat cannot be read. */
static int read_stat(int cpu, struct cpu_ticks *all, struct cpu_ticks *mine, uint32_t *running)
{
	FILE *f = fopen("/proc/stat", "r");
	if (!f)
		return -1;
	char line[512], want[32];
	snprintf(want, sizeof want, "cpu%d ", cpu);
	memset(all, 0, sizeof *all);
	memset(mine, 0, sizeof *mine);
	*running = 0;
	while (fgets(line, sizeof line, f)) {
		struct cpu_ticks *t = strncmp(line, "cpu ", 4) == 0                 ? all
		                      : cpu >= 0 && strncmp(line, want, strlen(want)) == 0 ? mine
		                                                                     : NULL;
		if (t) {
			unsigned long long v[8] = {0};
			const char *at = strchr(line, ' ');
			if (!at || sscanf(at, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
			                  &v[3], &v[4], &v[5], &v[6], &v[7]) < 4)
				continue;
			t->total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
			t->busy = v[0] + v[1] + v[2] + v[5] + v[6];
			t->steal = v[7];
		} else if (strncmp(line, "procs_running ", 14) == 0)
			*running = (uint32_t)strtoul(line + 14, NULL, 10);
	}
	fclose(f);
	return 0;
}

static double read_load(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double load = NAN;
	if (f) {
		if (fscanf(f, "%lf", &load) != 1)
			load = NAN;
		fclose(f);
	}
	return load;
}

static double own_cpu_s(void)
{
	struct rusage self, children;
	if (getrusage(RUSAGE_SELF, &self) || getrusage(RUSAGE_CHILDREN, &children))
		return NAN;
	return (double)(self.ru_utime.tv_sec + self.ru_stime.tv_sec + children.ru_utime.tv_sec +
	                children.ru_stime.tv_sec) +
	       (double)(self.ru_utime.tv_usec + self.ru_stime.tv_usec + children.ru_utime.tv_usec +
	                children.ru_stime.tv_usec) /
	           1e6;
}

/* One task's /proc/PID/task/TID/stat: its name, CPU time and last CPU. 0, or -1. */
static int read_task(int pid, int tid, struct task_time *t)
{
	char path[64], line[1024];
	snprintf(path, sizeof path, "/proc/%d/task/%d/stat", pid, tid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	size_t got = fread(line, 1, sizeof line - 1, f);
	fclose(f);
	line[got] = '\0';
	/* "tid (comm) state ...": the name may hold spaces and parentheses; it ends at the last ')' */
	char *open = strchr(line, '('), *close = strrchr(line, ')');
	if (!open || !close || close < open)
		return -1;
	size_t len = (size_t)(close - open - 1);
	if (len >= sizeof t->comm)
		len = sizeof t->comm - 1;
	memcpy(t->comm, open + 1, len);
	t->comm[len] = '\0';
	/* fields from 3 (state) on; utime is field 14, stime 15, processor 39 */
	unsigned long long utime = 0, stime = 0;
	int field = 3, cpu = -1;
	char *save = NULL;
	for (char *w = strtok_r(close + 1, " ", &save); w; w = strtok_r(NULL, " ", &save), field++) {
		if (field == 14)
			utime = strtoull(w, NULL, 10);
		else if (field == 15)
			stime = strtoull(w, NULL, 10);
		else if (field == 39) {
			cpu = atoi(w);
			break;
		}
	}
	if (field != 39)
		return -1;
	t->pid = pid;
	t->tid = tid;
	t->ticks = utime + stime;
	t->cpu = cpu;
	return 0;
}

static bool numeric(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* The name of the next entry of a /proc folder that is a number (a process, a task); NULL at
 * its end. */
static const char *next_numeric(DIR *dir)
{
	struct dirent *e;
	while ((e = readdir(dir)))
		if (numeric(e->d_name))
			return e->d_name;
	return NULL;
}

/* Every task of the machine but this process's own and its parent's (the driver). */
static void read_tasks(struct tasks *out)
{
	out->count = 0;
	int self = (int)getpid(), parent = (int)getppid();
	DIR *proc = opendir("/proc");
	if (!proc)
		return;
	for (const char *process; (process = next_numeric(proc));) {
		int pid = atoi(process);
		if (pid == self || pid == parent)
			continue;
		char path[64];
		snprintf(path, sizeof path, "/proc/%d/task", pid);
		DIR *tasks = opendir(path);
		if (!tasks)
			continue;
		for (const char *task; (task = next_numeric(tasks));) {
			if (out->count == out->cap) {
				size_t cap = out->cap ? out->cap * 2 : 512;
				struct task_time *v = realloc(out->v, cap * sizeof *v);
				if (!v)
					break;
				out->v = v;
				out->cap = cap;
			}
			if (read_task(pid, atoi(task), &out->v[out->count]) == 0)
				out->count++;
		}
		closedir(tasks);
	}
	closedir(proc);
}

static int by_tid(const void *a, const void *b)
{
	const struct task_time *x = a, *y = b;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

struct machine_watch *machine_watch_start(int cpu)
{
	struct machine_watch *w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	w->cpu = cpu;
	w->has_stat = read_stat(cpu, &w->all, &w->mine, &w->running) == 0;
	w->load = read_load();
	if (cpu >= 0) {
		read_tasks(&w->tasks);
		qsort(w->tasks.v, w->tasks.count, sizeof *w->tasks.v, by_tid);
	}
	w->own_s = own_cpu_s();
	w->start_ns = measure_now_ns();
	return w;
}

static double pct(double part, double whole)
{
	return whole > 0 ? 100 * part / whole : NAN;
}

/* "comm" as a word of the process line: no space, comma, colon or '='. */
static void word_of(const char *comm, char *out, size_t len)
{
	size_t i = 0;
	for (; comm[i] && i + 1 < len; i++) {
		char c = comm[i];
		bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		             c == '.' || c == '-' || c == '_' || c == '/';
		out[i] = plain ? c : '_';
	}
	out[i] = '\0';
	if (i == 0)
		snprintf(out, len, "?");
}

/* A task's name for the header: its comm, but a process that ran /proc/self/exe (as ecsbench's
 * own measuring processes do) is named by its command's first word instead of "exe". */
static void task_name(const struct task_time *t, char *out, size_t len)
{
	const char *name = t->comm;
	char cmd[256];
	if (strcmp(t->comm, "exe") == 0) {
		char path[64];
		snprintf(path, sizeof path, "/proc/%d/cmdline", t->pid);
		FILE *f = fopen(path, "r");
		if (f) {
			size_t got = fread(cmd, 1, sizeof cmd - 1, f);
			fclose(f);
			cmd[got] = '\0';
			const char *slash = strrchr(cmd, '/');
			if (got && cmd[0])
				name = slash ? slash + 1 : cmd;
		}
	}
	word_of(name, out, len);
}

void machine_watch_end(struct machine_watch *w, struct machine_process *p)
{
	p->seconds = p->steal_pct = p->cpu_steal_pct = p->busy_pct = p->own_pct = p->others_pct =
	    p->others_all_pct = p->load_start = p->load_end = NAN;
	p->running_start = p->running_end = 0;
	p->busiest[0] = '\0';
	if (!w)
		return;
	double seconds = (double)(measure_now_ns() - w->start_ns) / 1e9, own = own_cpu_s() - w->own_s;
	struct cpu_ticks all, mine;
	uint32_t running;
	p->cpu = w->cpu;
	p->seconds = seconds;
	p->load_start = w->load;
	p->load_end = read_load();
	p->running_start = w->running;
	if (w->has_stat && read_stat(w->cpu, &all, &mine, &running) == 0) {
		p->running_end = running;
		/* /proc/stat counts in ticks (10 ms): a pass shorter than MACHINE_WATCH_TICKS of them
		 * tells nothing of the shares */
		if (all.total - w->all.total >= MACHINE_WATCH_TICKS) {
			double hz = (double)sysconf(_SC_CLK_TCK), ticks = (double)(all.total - w->all.total);
			p->steal_pct = pct((double)(all.steal - w->all.steal), ticks);
			if (hz > 0)
				p->others_all_pct = fmax(0, pct((double)(all.busy - w->all.busy) - own * hz, ticks));
		}
		if (w->cpu >= 0 && mine.total - w->mine.total >= MACHINE_WATCH_TICKS) {
			double ticks = (double)(mine.total - w->mine.total), hz = (double)sysconf(_SC_CLK_TCK);
			p->cpu_steal_pct = pct((double)(mine.steal - w->mine.steal), ticks);
			p->busy_pct = pct((double)(mine.busy - w->mine.busy), ticks);
			/* own CPU time over the CPU's ticks in the same time; a threaded row's threads ran on
			 * other CPUs as well, so there this counts too much and others_pct too little */
			p->own_pct = hz > 0 ? fmin(100, pct(own * hz, ticks)) : NAN;
			p->others_pct = fmax(0, p->busy_pct - p->own_pct);
		}
	}
	if (w->cpu >= 0) {
		struct tasks now = {0};
		read_tasks(&now);
		/* The busiest other tasks whose last CPU is the measuring one: their CPU time since
		 * the start (all of it for a task that started since). */
		struct task_time top[MACHINE_BUSIEST];
		uint64_t top_ticks[MACHINE_BUSIEST] = {0};
		for (size_t i = 0; i < now.count; i++) {
			const struct task_time *t = &now.v[i];
			if (t->cpu != w->cpu)
				continue;
			struct task_time key = {.tid = t->tid};
			const struct task_time *before =
			    w->tasks.count ? bsearch(&key, w->tasks.v, w->tasks.count, sizeof key, by_tid)
			                   : NULL;
			uint64_t d = before && before->ticks <= t->ticks ? t->ticks - before->ticks
			             : before                            ? 0
			                                                 : t->ticks;
			for (uint32_t j = 0; j < MACHINE_BUSIEST; j++)
				if (d > top_ticks[j]) {
					for (uint32_t k = MACHINE_BUSIEST - 1; k > j; k--) {
						top[k] = top[k - 1];
						top_ticks[k] = top_ticks[k - 1];
					}
					top[j] = *t;
					top_ticks[j] = d;
					break;
				}
		}
		double hz = (double)sysconf(_SC_CLK_TCK);
		size_t at = 0;
		for (uint32_t j = 0; j < MACHINE_BUSIEST && top_ticks[j] && hz > 0 && seconds > 0; j++) {
			char name[32];
			task_name(&top[j], name, sizeof name);
			int n = snprintf(p->busiest + at, sizeof p->busiest - at, "%s%s:%d:%.1f", j ? "," : "",
			                 name, top[j].pid, 100 * top_ticks[j] / hz / seconds);
			if (n < 0 || (size_t)n >= sizeof p->busiest - at) {
				p->busiest[at] = '\0';
				break;
			}
			at += (size_t)n;
		}
		free(now.v);
	}
	free(w->tasks.v);
	free(w);
}

/* --- the lines ---------------------------------------------------------------------------- */

void machine_process_format(char *buf, size_t len, const struct machine_process *p)
{
	snprintf(buf, len,
	         "process=%u cpu=%d stream_ns=%.4g chase_ns=%.4g fingerprint_ms=%.1f seconds=%.4g "
	         "steal_pct=%.2f cpu_steal_pct=%.2f busy_pct=%.1f own_pct=%.1f others_pct=%.1f "
	         "others_all_pct=%.1f "
	         "load_start=%.2f load_end=%.2f running_start=%u running_end=%u busiest=%s",
	         p->process, p->cpu, p->stream_ns, p->chase_ns, p->fingerprint_ms, p->seconds,
	         p->steal_pct, p->cpu_steal_pct, p->busy_pct, p->own_pct, p->others_pct,
	         p->others_all_pct, p->load_start,
	         p->load_end, p->running_start, p->running_end, p->busiest[0] ? p->busiest : "-");
}

int machine_process_parse(const char *text, struct machine_process *p)
{
	memset(p, 0, sizeof *p);
	p->cpu = -1;
	p->stream_ns = p->chase_ns = p->fingerprint_ms = p->seconds = p->steal_pct =
	    p->cpu_steal_pct = p->busy_pct = p->own_pct = p->others_pct = p->others_all_pct =
	        p->load_start = p->load_end = NAN;
	struct {
		const char *key;
		double *v;
	} numbers[] = {{"stream_ns", &p->stream_ns},     {"chase_ns", &p->chase_ns},
	               {"fingerprint_ms", &p->fingerprint_ms}, {"seconds", &p->seconds},
	               {"steal_pct", &p->steal_pct},     {"cpu_steal_pct", &p->cpu_steal_pct},
	               {"busy_pct", &p->busy_pct},       {"own_pct", &p->own_pct},
	               {"others_pct", &p->others_pct},   {"others_all_pct", &p->others_all_pct},
	               {"load_start", &p->load_start},
	               {"load_end", &p->load_end}};
	bool has_process = false;
	const char *at = text;
	while (*at) {
		while (*at == ' ')
			at++;
		size_t n = strcspn(at, " \n");
		if (!n)
			break;
		const char *eq = memchr(at, '=', n);
		if (!eq)
			return -1;
		size_t klen = (size_t)(eq - at);
		char value[sizeof p->busiest];
		size_t vlen = n - klen - 1;
		if (vlen >= sizeof value)
			vlen = sizeof value - 1;
		memcpy(value, eq + 1, vlen);
		value[vlen] = '\0';
#define KEY(k) (klen == strlen(k) && strncmp(at, k, klen) == 0)
		if (KEY("process")) {
			p->process = (uint32_t)strtoul(value, NULL, 10);
			has_process = p->process > 0;
		} else if (KEY("cpu"))
			p->cpu = atoi(value);
		else if (KEY("running_start"))
			p->running_start = (uint32_t)strtoul(value, NULL, 10);
		else if (KEY("running_end"))
			p->running_end = (uint32_t)strtoul(value, NULL, 10);
		else if (KEY("busiest"))
			snprintf(p->busiest, sizeof p->busiest, "%s", strcmp(value, "-") ? value : "");
		else
			for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++)
				if (KEY(numbers[i].key)) {
					char *end;
					double v = strtod(value, &end);
					*numbers[i].v = end != value ? v : NAN;
				}
#undef KEY
		at += n;
	}
	return has_process ? 0 : -1;
}

/* The geometric mean of v over the processes that have it, its 95% interval (t over the logs),
 * and the logs' standard deviation. false if no process has it. */
static bool log_summary(const double *v, uint32_t n, double *centre, double *low, double *high,
                        double *sd)
{
	double sum = 0, sum2 = 0;
	uint32_t m = 0;
	for (uint32_t i = 0; i < n; i++)
		if (v[i] > 0) {
			sum += log(v[i]);
			m++;
		}
	if (!m)
		return false;
	double mean = sum / m;
	for (uint32_t i = 0; i < n; i++)
		if (v[i] > 0)
			sum2 += (log(v[i]) - mean) * (log(v[i]) - mean);
	*centre = exp(mean);
	*sd = m > 1 ? sqrt(sum2 / (m - 1)) : NAN;
	double half = m > 1 ? stats_t975(m - 1) * *sd / sqrt(m) : NAN;
	*low = m > 1 ? exp(mean - half) : NAN;
	*high = m > 1 ? exp(mean + half) : NAN;
	return true;
}

/* "0.412 [0.398, 0.431]", or "0.412" without an interval */
static void with_interval(char *buf, size_t len, double centre, double low, double high)
{
	if (isnan(low))
		snprintf(buf, len, "%.4g", centre);
	else
		snprintf(buf, len, "%.4g [%.4g, %.4g]", centre, low, high);
}

/* "; the busiest others there: cc1 (pid 12) 8.0%, ...": the other tasks seen on the measuring
 * CPUs, each at its largest share of a process's pass, the busiest first. */
static void write_busiest(FILE *f, const struct machine_process *p, uint32_t count)
{
	/* the busiest other tasks over every process: each one's largest share */
	char names[MACHINE_BUSIEST * 4][48];
	double shares[MACHINE_BUSIEST * 4];
	uint32_t named = 0;
	for (uint32_t i = 0; i < count; i++) {
		char list[sizeof p[i].busiest];
		snprintf(list, sizeof list, "%s", p[i].busiest);
		char *save = NULL;
		for (char *e = strtok_r(list, ",", &save); e; e = strtok_r(NULL, ",", &save)) {
			char *share = strrchr(e, ':');
			if (!share)
				continue;
			*share++ = '\0';
			double v = strtod(share, NULL);
			uint32_t j = 0;
			while (j < named && strcmp(names[j], e) != 0)
				j++;
			if (j == named && named < sizeof shares / sizeof shares[0]) {
				snprintf(names[named], sizeof names[named], "%s", e);
				shares[named++] = v;
			} else if (j < named && v > shares[j])
				shares[j] = v;
		}
	}
	for (uint32_t j = 0; j < named && j < MACHINE_BUSIEST; j++) {
		uint32_t best = j;
		for (uint32_t i = j + 1; i < named; i++)
			if (shares[i] > shares[best])
				best = i;
		char tn[48];
		double ts = shares[j];
		memcpy(tn, names[j], sizeof tn);
		memcpy(names[j], names[best], sizeof tn);
		shares[j] = shares[best];
		memcpy(names[best], tn, sizeof tn);
		shares[best] = ts;
		char *pid = strchr(names[j], ':');
		if (pid)
			*pid++ = '\0';
		fprintf(f, "%s%s (pid %s) %.1f%%", j ? ", " : "; the busiest others there: ", names[j],
		        pid ? pid : "?", shares[j]);
	}
}

/* What the `# machine` lines say of a run: the fingerprints' geometric means and intervals
 * over the processes, and the shares of other work, each process's weighted by the length of
 * its pass. */
struct machine_run {
	uint32_t n, fingerprints, watched, running_max;
	double cost, steal, steal_w, cpu_steal, others, own_w, all, all_w, load_start, load_end;
	bool has_s, has_c;
	double s, s_lo, s_hi, s_sd, c, c_lo, c_hi, c_sd, k, k_lo, k_hi, k_sd;
};

static void machine_run_of(const struct machine_process *p, uint32_t count, struct machine_run *r)
{
	double stream[count ? count : 1], chase[count ? count : 1], skew[count ? count : 1];
	memset(r, 0, sizeof *r);
	r->load_start = r->load_end = NAN;
	for (uint32_t i = 0; i < count; i++) {
		const struct machine_process *x = &p[i];
		if (!x->process)
			continue;
		stream[r->n] = x->stream_ns;
		chase[r->n] = x->chase_ns;
		skew[r->n] = x->stream_ns > 0 && x->chase_ns > 0 ? x->stream_ns / x->chase_ns : NAN;
		if (x->fingerprint_ms > 0) {
			r->cost += x->fingerprint_ms;
			r->fingerprints++;
		}
		if (x->seconds > 0 && !isnan(x->steal_pct)) {
			r->steal += x->steal_pct * x->seconds;
			r->steal_w += x->seconds;
		}
		if (x->seconds > 0 && !isnan(x->others_all_pct)) {
			r->all += x->others_all_pct * x->seconds;
			r->all_w += x->seconds;
		}
		if (x->seconds > 0 && !isnan(x->others_pct)) {
			r->cpu_steal += x->cpu_steal_pct * x->seconds;
			r->others += x->others_pct * x->seconds;
			r->own_w += x->seconds;
			r->watched++;
		}
		if (isnan(r->load_start))
			r->load_start = x->load_start;
		if (!isnan(x->load_end))
			r->load_end = x->load_end;
		r->running_max = x->running_start > r->running_max ? x->running_start : r->running_max;
		r->running_max = x->running_end > r->running_max ? x->running_end : r->running_max;
		r->n++;
	}
	r->s = r->s_lo = r->s_hi = r->s_sd = r->c = r->c_lo = r->c_hi = r->c_sd = NAN;
	r->k = r->k_lo = r->k_hi = r->k_sd = NAN;
	if (r->n == 0)
		return;
	r->has_s = log_summary(stream, r->n, &r->s, &r->s_lo, &r->s_hi, &r->s_sd);
	r->has_c = log_summary(chase, r->n, &r->c, &r->c_lo, &r->c_hi, &r->c_sd);
	log_summary(skew, r->n, &r->k, &r->k_lo, &r->k_hi, &r->k_sd);
}

static void write_fingerprint(FILE *f, const struct machine_run *r)
{
	if (!r->has_s || !r->has_c) {
		fprintf(f, "# machine fingerprint: not measured (under valgrind, or no memory for it)\n");
		return;
	}
	char st[64], ch[64];
	with_interval(st, sizeof st, r->s, r->s_lo, r->s_hi);
	with_interval(ch, sizeof ch, r->c, r->c_lo, r->c_hi);
	fprintf(f,
	        "# machine fingerprint: stream %s ns an entity, chase %s ns a step (geometric "
	        "means over %u process%s%s); each measuring process took it on its CPU before its "
	        "first row group: stream, the floor's iterate update (k = 2) over 2^%d entities "
	        "(16 MiB), the median of %d passes after one; chase, a dependent walk through a "
	        "random cycle of 2^%d cache lines (64 MiB), the median of %d blocks of %d steps; "
	        "%.0f ms a process\n",
	        st, ch, r->fingerprints, r->fingerprints == 1 ? "" : "es",
	        r->fingerprints > 1 ? ", 95% intervals" : "", __builtin_ctz(MACHINE_STREAM_ENTITIES),
	        MACHINE_STREAM_PASSES, __builtin_ctz(MACHINE_CHASE_LINES), MACHINE_CHASE_BLOCKS,
	        MACHINE_CHASE_STEPS,
	        r->fingerprints ? r->cost / r->fingerprints : 0.0);
}

static void write_during(FILE *f, const struct machine_run *r, const struct machine_process *p,
                         uint32_t count)
{
	fprintf(f, "# machine during the run: ");
	if (r->steal_w > 0)
		fprintf(f, "steal %.1f%% of every CPU's time", r->steal / r->steal_w);
	else
		fprintf(f, "steal not known");
	if (r->watched)
		fprintf(f, ", %.1f%% of the measuring CPU's; other work took %.1f%% of the measuring CPU "
		           "(as /proc/stat counts its busy time less this run's own)",
		        r->cpu_steal / r->own_w, r->others / r->own_w);
	else
		fprintf(f, "; other work on the measuring CPU not known (passes of less than %d ticks of "
		           "/proc/stat, a process not pinned, or no /proc)",
		        MACHINE_WATCH_TICKS);
	if (r->all_w > 0)
		fprintf(f, ", %.1f%% of every CPU", r->all / r->all_w);
	write_busiest(f, p, count);
	fprintf(f, "; load average %.2f at the first process's start, %.2f at the last one's end; "
	           "up to %u tasks runnable (this one included)\n",
	        r->load_start, r->load_end, r->running_max);
}

static void write_values(FILE *f, const struct machine_run *r)
{
	fprintf(f,
	        "# machine values processes=%u stream_ns=%.4g stream_low=%.4g stream_high=%.4g "
	        "stream_sd=%.4f chase_ns=%.4g chase_low=%.4g chase_high=%.4g chase_sd=%.4f "
	        "skew_sd=%.4f steal_pct=%.2f cpu_steal_pct=%.2f others_pct=%.1f load_start=%.2f "
	        "load_end=%.2f running_max=%u fingerprint_ms=%.1f\n",
	        r->fingerprints, r->s, r->s_lo, r->s_hi, r->s_sd, r->c, r->c_lo, r->c_hi, r->c_sd,
	        r->k_sd, r->steal_w > 0 ? r->steal / r->steal_w : NAN,
	        r->watched ? r->cpu_steal / r->own_w : NAN, r->watched ? r->others / r->own_w : NAN,
	        r->load_start, r->load_end, r->running_max,
	        r->fingerprints ? r->cost / r->fingerprints : NAN);
}

void machine_write_header(FILE *f, const struct machine_process *p, uint32_t count,
                          bool per_process)
{
	struct machine_run r;
	machine_run_of(p, count, &r);
	if (r.n == 0)
		return;
	write_fingerprint(f, &r);
	write_during(f, &r, p, count);
	write_values(f, &r);
	if (!per_process)
		return;
	for (uint32_t i = 0; i < count; i++) {
		if (!p[i].process)
			continue;
		char line[600];
		machine_process_format(line, sizeof line, &p[i]);
		fprintf(f, "# machine %s\n", line);
	}
}
