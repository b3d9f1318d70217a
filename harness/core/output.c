/*
 * output.c: the lock, the temporary files and the previous result of a run's CSV (output.h).
 * Costs: a few system calls at the start and the end of a run; keeping a previous result is a
 * rename per file (the previous CSV read once to count its rows), never a copy.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* flock */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "output.h"

/* For the signal handler and the exit handler: this process's lock and temporary files. */
static char lock_path[OUTPUT_PATH_MAX];
static pid_t lock_owner; /* the process that made the lock file removes it, no other */
static struct output *current;

static void remove_lock(void)
{
	if (lock_path[0] && lock_owner == getpid())
		unlink(lock_path);
}

/* buf = a/b; -1 (ENAMETOOLONG) when it does not fit, rather than a path cut short. */
static int join(char *buf, size_t len, const char *a, const char *b)
{
	int n = snprintf(buf, len, "%s/%s", a, b);
	if (n < 0 || (size_t)n >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

/* "results/A.csv" -> "results" (and "A.csv" -> "."), into dir. */
static void dir_of(const char *path, char *dir, size_t len)
{
	snprintf(dir, len, "%s", path);
	char *slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, len, ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
}

static const char *base_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static void utc_text(time_t t, char *buf, size_t len, const char *format)
{
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, len, format, &tm);
}

/*
 * Whether a descriptor this process inherited already holds the lock on the file fd is open on:
 * make bench (scripts/lock.sh) takes it for the run and its figures, and its children inherit
 * the descriptor. flock() on a descriptor whose open file holds the lock succeeds at once; on
 * any other it fails, since the lock is held.
 */
static bool lock_inherited(int fd)
{
	struct stat mine, st;
	if (fstat(fd, &mine) != 0)
		return false;
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return false;
	bool held = false;
	struct dirent *e;
	while (!held && (e = readdir(d))) {
		int n = atoi(e->d_name);
		if (e->d_name[0] < '0' || e->d_name[0] > '9' || n == fd || n == dirfd(d))
			continue;
		if (fstat(n, &st) == 0 && st.st_dev == mine.st_dev && st.st_ino == mine.st_ino &&
		    flock(n, LOCK_EX | LOCK_NB) == 0) {
			held = true;
			/* Not handed on to the measuring processes: the lock lives as long as the run and
			 * the process that took it for the run, no longer. */
			fcntl(n, F_SETFD, fcntl(n, F_GETFD) | FD_CLOEXEC);
		}
	}
	closedir(d);
	return held;
}

void output_lock(const struct options *o)
{
	if (strlen(o->output_path) + 6 > sizeof lock_path) {
		fprintf(stderr, "ecsbench: output path '%s' is too long\n", o->output);
		exit(2);
	}
	char path[OUTPUT_PATH_MAX];
	snprintf(path, sizeof path, "%s.lock", o->output_path);
	for (int attempt = 0;; attempt++) {
		int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		if (fd < 0) {
			fprintf(stderr, "ecsbench: cannot make the lock file '%s': %s; nothing was run\n",
			        path, strerror(errno));
			exit(2);
		}
		if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
			/* A run that was ending may have removed the file between our open and our lock:
			 * the lock counts only on the file that the path still names. */
			struct stat a, b;
			if (fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_ino == b.st_ino &&
			    a.st_dev == b.st_dev) {
				char when[64], text[600];
				utc_text(time(NULL), when, sizeof when, "%Y-%m-%d %H:%M:%S UTC");
				int len = snprintf(text, sizeof text, "pid %ld, since %s:", (long)getpid(), when);
				for (int i = 0; i < o->argc && len < (int)sizeof text - 80; i++)
					len += snprintf(text + len, sizeof text - (size_t)len, " %.60s", o->argv[i]);
				len += snprintf(text + len, sizeof text - (size_t)len, "\n");
				if (ftruncate(fd, 0) != 0 || pwrite(fd, text, (size_t)len, 0) != len)
					(void)0; /* the text only helps a refused run's message */
				snprintf(lock_path, sizeof lock_path, "%s", path);
				lock_owner = getpid();
				atexit(remove_lock);
				return; /* fd stays open, and the lock with it, until the process ends */
			}
			close(fd);
			if (attempt < 100)
				continue;
			fprintf(stderr, "ecsbench: cannot lock '%s': the file keeps being replaced; "
			        "nothing was run\n", path);
			exit(2);
		}
		if (errno != EWOULDBLOCK) {
			fprintf(stderr, "ecsbench: cannot lock '%s': %s; nothing was run\n", path,
			        strerror(errno));
			exit(2);
		}
		if (lock_inherited(fd)) {
			close(fd);
			return; /* held for this run by the process that started it, which removes it */
		}
		char holder[600] = "";
		ssize_t n = pread(fd, holder, sizeof holder - 1, 0);
		holder[n > 0 ? n : 0] = '\0';
		holder[strcspn(holder, "\n")] = '\0';
		fprintf(stderr,
		        "ecsbench: another run is writing %s (%s); nothing was run: wait for it to end, "
		        "or give another output (its lock: %s)\n",
		        o->output, holder[0] ? holder : "its lock file says nothing more", path);
		exit(2);
	}
}

/* results/A.csv -> results/A-samples.csv (suffix "-samples.csv"), results/A-answer.md ("-answer.md"):
 * a name not ending in .csv gets the suffix appended. */
static void beside_path(const char *csv, const char *suffix, char *out, size_t len)
{
	size_t n = strlen(csv);
	if (n > 4 && strcmp(csv + n - 4, ".csv") == 0)
		snprintf(out, len, "%.*s%s", (int)(n - 4), csv, suffix);
	else
		snprintf(out, len, "%s%s", csv, suffix);
}

static FILE *open_temp(char *temp, size_t len, const char *path, const char *shown)
{
	snprintf(temp, len, "%s.tmp.%ld", path, (long)getpid());
	int fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		int err = errno;
		temp[0] = '\0';
		options_usage_error("cannot write output '%s': %s", shown, strerror(err));
	}
	FILE *f = fdopen(fd, "w");
	if (!f) {
		int err = errno;
		unlink(temp);
		temp[0] = '\0';
		options_usage_error("cannot write output '%s': %s", shown, strerror(err));
	}
	return f;
}

/*
 * Temporary files of this CSV left by a run that was killed (SIGKILL, a power cut: nothing of
 * it could remove them): "A.csv.tmp.PID", "A-samples.csv.tmp.PID", the provisional CSVs'
 * ("A-provisional.csv.tmp.PID", "A-provisional-now.csv.tmp.PID"). Only the holder of the lock
 * writes them, and this run holds it now, so every one of them is a dead run's.
 */
static void remove_dead_temps(const char *csv, const char *samples)
{
	char dir[OUTPUT_PATH_MAX];
	dir_of(csv, dir, sizeof dir);
	DIR *d = opendir(dir);
	if (!d)
		return;
	char provisional[OUTPUT_PATH_MAX], now[OUTPUT_PATH_MAX], json[OUTPUT_PATH_MAX];
	beside_path(csv, "-provisional.csv", provisional, sizeof provisional);
	beside_path(csv, "-provisional-now.csv", now, sizeof now);
	beside_path(csv, ".json", json, sizeof json);
	const char *names[5] = {base_of(csv), base_of(samples), base_of(provisional), base_of(now),
	                        base_of(json)};
	struct dirent *e;
	while ((e = readdir(d))) {
		for (int i = 0; i < 5; i++) {
			size_t n = strlen(names[i]);
			const char *p = e->d_name + n;
			if (strncmp(e->d_name, names[i], n) != 0 || strncmp(p, ".tmp.", 5) != 0 || !p[5] ||
			    strspn(p + 5, "0123456789") != strlen(p + 5))
				continue;
			char path[2 * OUTPUT_PATH_MAX];
			if (join(path, sizeof path, dir, e->d_name) == 0 && unlink(path) == 0)
				fprintf(stderr, "ecsbench: removed %s, left by a run that was killed\n", path);
		}
	}
	closedir(d);
}

void output_open(struct output *w, const struct options *o)
{
	memset(w, 0, sizeof *w);
	w->o = o;
	beside_path(o->output_path, "-samples.csv", w->samples, sizeof w->samples);
	beside_path(o->output_path, "-provisional.csv", w->provisional, sizeof w->provisional);
	beside_path(o->output_path, ".json", w->json, sizeof w->json);
	/* Where a previous result will go: found unusable now, not after the run. */
	char dir[OUTPUT_PATH_MAX], previous[OUTPUT_PATH_MAX + 16];
	dir_of(o->output_path, dir, sizeof dir);
	snprintf(previous, sizeof previous, "%s/previous", dir);
	struct stat st;
	if (lstat(previous, &st) == 0 && (!S_ISDIR(st.st_mode) || access(previous, W_OK) != 0))
		options_usage_error("cannot keep previous results in '%s': it is not a folder this run can "
		                    "write (a run never replaces a previous result: it moves it there)",
		                    previous);
	remove_dead_temps(o->output_path, w->samples);
	current = w;
	w->csv = open_temp(w->temp_csv, sizeof w->temp_csv, o->output_path, o->output);
	w->samples_file = open_temp(w->temp_samples, sizeof w->temp_samples, w->samples, o->output);
	if (o->format_json)
		w->json_file = open_temp(w->temp_json, sizeof w->temp_json, w->json, o->output);
}

/* Removes the run's temporary files that exist (their names kept): unlink alone, so that the
 * signal handler may call it too. */
static void unlink_temps(const struct output *w)
{
	const char *const temps[] = {w->temp_csv, w->temp_samples, w->temp_json,
	                             w->temp_provisional, w->temp_now};
	for (size_t i = 0; i < sizeof temps / sizeof temps[0]; i++)
		if (temps[i][0])
			unlink(temps[i]);
}

void output_discard(struct output *w)
{
	if (w->csv)
		fclose(w->csv);
	if (w->samples_file)
		fclose(w->samples_file);
	if (w->json_file)
		fclose(w->json_file);
	w->csv = w->samples_file = w->json_file = NULL;
	unlink_temps(w);
	w->temp_csv[0] = w->temp_samples[0] = w->temp_json[0] = w->temp_provisional[0] =
		w->temp_now[0] = '\0';
}

FILE *output_provisional(struct output *w, bool first, char *path)
{
	char *temp = first ? w->temp_provisional : w->temp_now;
	if (first || !temp[0]) {
		char target[OUTPUT_PATH_MAX];
		if (first)
			snprintf(target, sizeof target, "%s", w->provisional);
		else
			beside_path(w->o->output_path, "-provisional-now.csv", target, sizeof target);
		if (snprintf(temp, OUTPUT_PATH_MAX, "%.*s.tmp.%ld", OUTPUT_PATH_MAX - 40, target,
		             (long)getpid()) < 0)
			temp[0] = '\0';
	}
	FILE *f = fopen(temp, "w");
	if (!f) {
		fprintf(stderr, "ecsbench: cannot write the provisional answer's CSV '%s': %s; the run "
		        "goes on without it\n", temp, strerror(errno));
		temp[0] = '\0';
		return NULL;
	}
	snprintf(path, OUTPUT_PATH_MAX, "%s", temp);
	return f;
}

void output_on_signal(void)
{
	if (current)
		unlink_temps(current);
	remove_lock();
}

/* Every write of f checked: an error of any earlier write (ferror), of the last (fflush), of
 * the disk (fsync) or of the close. */
static int finish_file(FILE *f, const char *shown)
{
	errno = 0;
	bool bad = ferror(f) != 0;
	int err = 0;
	/* stdio keeps no errno of a write that failed while the file was being written (a buffer
	 * flushed in the middle, as a long header fills it): one more byte at the end of the
	 * temporary file, which is discarded anyway, asks the disk why (ENOSPC, EFBIG). */
	if (bad && write(fileno(f), "", 1) < 0)
		err = errno;
	if (fflush(f) != 0 && !bad) {
		bad = true;
		err = errno;
	}
	if (!bad && fsync(fileno(f)) != 0) {
		bad = true;
		err = errno;
	}
	if (fclose(f) != 0 && !bad) {
		bad = true;
		err = errno;
	}
	if (bad)
		fprintf(stderr, "ecsbench: cannot write '%s': %s\n", shown, strerror(err ? err : EIO));
	return bad ? -1 : 0;
}

/* The data rows of an ecsbench CSV (0 for a file of something else), for the message. */
static long count_rows(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char line[512];
	long rows = -1;
	bool line_start = true;
	while (fgets(line, sizeof line, f)) {
		bool start = line_start;
		line_start = strchr(line, '\n') != NULL;
		if (!start || line[0] == '#' || line[0] == '\n')
			continue;
		if (rows < 0) {
			if (strncmp(line, "backend,", 8) != 0 && strncmp(line, "scenario,", 9) != 0)
				break;
			rows = 0;
		} else {
			rows++;
		}
	}
	fclose(f);
	return rows;
}

/* mkdir -p of the folders above path (path itself not made). */
static int make_parents(char *path)
{
	for (char *p = path + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		int rc = mkdir(path, 0777);
		*p = '/';
		if (rc != 0 && errno != EEXIST)
			return -1;
	}
	return 0;
}

static void append(char *buf, size_t len, const char *fmt, const char *text)
{
	size_t n = strlen(buf);
	if (n < len && snprintf(buf + n, len - n, fmt, text) < 0)
		buf[n] = '\0'; /* the message only: a long one is cut */
}

/* Makes the folder previous/STAMP-NAME/ in dir (previous/STAMP-NAME-2/ and so on where one
 * exists) into folder. 0, or -1 with errno. */
static int make_previous_folder(const char *dir, const char *stamp, const char *name, char *folder,
                                size_t len)
{
	if (join(folder, len, dir, "previous") != 0 || (mkdir(folder, 0777) != 0 && errno != EEXIST))
		return -1;
	for (int i = 1;; i++) {
		char leaf[OUTPUT_PATH_MAX + 100], within[OUTPUT_PATH_MAX + 200];
		int n = i > 1 ? snprintf(leaf, sizeof leaf, "%s-%s-%d", stamp, name, i)
		              : snprintf(leaf, sizeof leaf, "%s-%s", stamp, name);
		if (n < 0 || (size_t)n >= sizeof leaf || join(within, sizeof within, "previous", leaf) ||
		    join(folder, len, dir, within))
			return -1;
		if (mkdir(folder, 0777) == 0)
			return 0;
		if (errno != EEXIST || i == 1000)
			return -1;
	}
}

/* The start of w->kept: what was kept (its rows and when it was written) and where. */
static void kept_message(struct output *w, bool have_csv, bool have_samples, long rows,
                         time_t when, const char *folder)
{
	char when_text[64];
	utc_text(when, when_text, sizeof when_text, "%Y-%m-%d %H:%M:%S UTC");
	snprintf(w->kept, sizeof w->kept, "ecsbench: the previous %s",
	         have_csv ? w->o->output : w->samples);
	if (rows >= 0) {
		char r[160];
		snprintf(r, sizeof r, " (%ld row%s, written %s)", rows, rows == 1 ? "" : "s", when_text);
		append(w->kept, sizeof w->kept, "%s", r);
	} else {
		append(w->kept, sizeof w->kept, " (written %s)", when_text);
	}
	append(w->kept, sizeof w->kept, " is kept in %s/", folder);
	if (have_csv && have_samples) {
		append(w->kept, sizeof w->kept, "%s", ", with ");
		append(w->kept, sizeof w->kept, "%s", base_of(w->samples));
	}
}

/*
 * What was made from the previous CSV (in dir), moved along into folder, or said to be left (the
 * next figures replace it). Its answer (A-answer.md, scripts/answer.sh: make bench writes it
 * after the run) and its first provisional answer's CSV (A-provisional.csv) and its JSON
 * (A.json, --format json) always, whoever runs this, so that none of another run is ever left
 * beside this CSV; then the --derived files. Each one moved is named in w->kept after sep.
 */
static void move_companions(struct output *w, const char *dir, const char *folder, const char *sep)
{
	const struct options *o = w->o;
	const char *path = o->output_path;
	char companion[3][OUTPUT_PATH_MAX + 32];
	beside_path(base_of(path), "-answer.md", companion[0], sizeof companion[0]);
	beside_path(base_of(path), "-provisional.csv", companion[1], sizeof companion[1]);
	beside_path(base_of(path), ".json", companion[2], sizeof companion[2]);
	for (size_t i = 0; i < o->derived_count + 3; i++) {
		char from[OUTPUT_PATH_MAX + 32], to[3 * OUTPUT_PATH_MAX];
		struct stat st;
		const char *as = i < 3 ? companion[i] : NULL; /* its name in the folder */
		if (as && join(from, sizeof from, dir, as) != 0)
			continue;
		if (!as) {
			if (strlen(o->derived[i - 3]) >= sizeof from)
				continue;
			memcpy(from, o->derived[i - 3], strlen(o->derived[i - 3]) + 1);
			char *eq = strrchr(from, '=');
			*eq = '\0';
			as = eq + 1;
		}
		if (lstat(from, &st) != 0)
			continue;
		if (join(to, sizeof to, folder, as) || make_parents(to) != 0 || rename(from, to) != 0) {
			fprintf(stderr, "ecsbench: could not move %s with the previous results (%s); what is "
			        "drawn next replaces it\n", from, strerror(errno));
			continue;
		}
		append(w->kept, sizeof w->kept, "%s", sep);
		append(w->kept, sizeof w->kept, S_ISDIR(st.st_mode) ? "%s/" : "%s", as);
		sep = ", ";
	}
}

/*
 * Moves the previous CSV, its samples and the --derived files into a new previous/DATE-NAME/
 * beside the CSV, and writes w->kept. 0 (nothing there is fine too), or -1 with a message and
 * nothing moved.
 */
static int keep_previous(struct output *w)
{
	const struct options *o = w->o;
	const char *path = o->output_path;
	struct stat st, sst;
	bool have_csv = lstat(path, &st) == 0, have_samples = lstat(w->samples, &sst) == 0;
	if (!have_csv && !have_samples)
		return 0;
	char dir[OUTPUT_PATH_MAX], folder[2 * OUTPUT_PATH_MAX], name[OUTPUT_PATH_MAX], stamp[64];
	dir_of(path, dir, sizeof dir);
	memcpy(name, base_of(path), strlen(base_of(path)) + 1);
	size_t n = strlen(name);
	if (n > 4 && strcmp(name + n - 4, ".csv") == 0)
		name[n - 4] = '\0';
	time_t when = have_csv ? st.st_mtime : sst.st_mtime;
	utc_text(when, stamp, sizeof stamp, "%Y-%m-%dT%H%M%SZ");
	if (make_previous_folder(dir, stamp, name, folder, sizeof folder) != 0)
		goto cannot;
	long rows = have_csv ? count_rows(path) : -1;
	char to_csv[3 * OUTPUT_PATH_MAX], to_samples[3 * OUTPUT_PATH_MAX];
	if (join(to_csv, sizeof to_csv, folder, base_of(path)) ||
	    join(to_samples, sizeof to_samples, folder, base_of(w->samples)))
		goto cannot_remove;
	if (have_csv && rename(path, to_csv) != 0)
		goto cannot_remove;
	if (have_samples && rename(w->samples, to_samples) != 0) {
		int err = errno;
		if (have_csv)
			rename(to_csv, path);
		errno = err;
		goto cannot_remove;
	}
	kept_message(w, have_csv, have_samples, rows, when, folder);
	move_companions(w, dir, folder, have_csv && have_samples ? ", " : ", with ");
	return 0;
cannot_remove: {
	int err = errno;
	rmdir(folder);
	errno = err;
}
cannot:
	fprintf(stderr, "ecsbench: cannot keep the previous %s in %s: %s; it was left as it was, and "
	        "this run's rows were not written\n", o->output, folder, strerror(errno));
	return -1;
}

int output_commit(struct output *w)
{
	const struct options *o = w->o;
	FILE *csv = w->csv, *samples = w->samples_file, *json = w->json_file;
	w->csv = w->samples_file = w->json_file = NULL;
	int a = finish_file(csv, o->output), b = finish_file(samples, w->samples);
	int c = json ? finish_file(json, w->json) : 0;
	if (a || b || c) {
		output_discard(w);
		fprintf(stderr, "ecsbench: nothing was written; %s was left as it was\n", o->output);
		return -1;
	}
	/* From here to the renames, an interrupt would leave the previous result moved and the new
	 * one not in place: signals wait. */
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	int rc = keep_previous(w);
	if (rc == 0 && (rename(w->temp_csv, o->output_path) != 0 ||
	                rename(w->temp_samples, w->samples) != 0 ||
	                (w->temp_provisional[0] && rename(w->temp_provisional, w->provisional) != 0) ||
	                (w->temp_json[0] && rename(w->temp_json, w->json) != 0))) {
		fprintf(stderr, "ecsbench: cannot write '%s': %s\n", o->output, strerror(errno));
		rc = -1;
	}
	if (rc != 0) {
		output_discard(w);
	} else {
		w->temp_csv[0] = w->temp_samples[0] = w->temp_provisional[0] = w->temp_json[0] = '\0';
		if (w->temp_now[0])
			unlink(w->temp_now);
		w->temp_now[0] = '\0';
		char dir[OUTPUT_PATH_MAX];
		dir_of(o->output_path, dir, sizeof dir);
		int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0) {
			fsync(fd); /* the renames themselves on the disk */
			close(fd);
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}
