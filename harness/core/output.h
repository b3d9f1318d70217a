/*
 * output.h: the files a run writes, the CSV and its samples (output.c). Nothing a run writes
 * destroys a previous result:
 *   - a lock beside the CSV (CSV.lock, flock) for the run's life: a second run into the same
 *     CSV is refused before anything runs; the kernel drops the lock of a run that dies, so a
 *     lock file left by a crash blocks nothing;
 *   - the CSV and its samples are written to temporary files beside them, each write checked,
 *     synced, then renamed over the old ones: a failed write (a full disk) leaves no partial
 *     file and the previous ones as they were;
 *   - with --format json, google benchmark's JSON beside them (A.json), written the same way;
 *   - a previous CSV and its samples, its JSON, its answer (NAME-answer.md beside it:
 *     scripts/answer.sh) and its first provisional answer's CSV (NAME-provisional.csv:
 *     --provisional)
 *     and what else was made from them (figures, a table: --derived), are moved into
 *     previous/DATE-NAME/ beside the CSV (DATE: when the previous CSV was written) instead of
 *     being replaced, and the run says where.
 */
#ifndef ECSB_OUTPUT_H
#define ECSB_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "options.h"

#define OUTPUT_PATH_MAX 4200

struct output {
	const struct options *o;
	char samples[OUTPUT_PATH_MAX];      /* results/A.csv -> results/A-samples.csv */
	char temp_csv[OUTPUT_PATH_MAX];     /* "" once renamed or removed */
	char temp_samples[OUTPUT_PATH_MAX];
	char provisional[OUTPUT_PATH_MAX];  /* results/A.csv -> results/A-provisional.csv */
	char temp_provisional[OUTPUT_PATH_MAX]; /* the first provisional CSV, until the commit */
	char temp_now[OUTPUT_PATH_MAX];     /* a later one, while it is shown */
	char json[OUTPUT_PATH_MAX];         /* results/A.csv -> results/A.json (--format json) */
	char temp_json[OUTPUT_PATH_MAX];
	FILE *csv, *samples_file, *json_file; /* json_file: NULL without --format json */
	char kept[OUTPUT_PATH_MAX * 4];     /* what the run says about the previous result ("") */
};

/*
 * Takes the lock of o's CSV, or exits 2 with a message naming the run that holds it. A lock
 * held by a parent process (make bench holds it for the run and its figures: scripts/lock.sh)
 * counts as this run's own. The lock file is removed when this process exits.
 */
void output_lock(const struct options *o);

/* Opens the temporary files beside the CSV and its samples; exits 2 if it cannot. */
void output_open(struct output *w, const struct options *o);

/*
 * Finishes both files (every write checked and synced), moves a previous CSV, its samples, its
 * answer and o's --derived files into previous/DATE-NAME/, then renames the new files into place. On any
 * failure: a message on stderr, the temporary files removed, the previous files as they were,
 * and -1.
 */
int output_commit(struct output *w);

/*
 * A provisional CSV (--provisional: the rows of the processes done so far), opened for
 * writing: the first one to a temporary file that output_commit renames to NAME-provisional.csv
 * beside the CSV (kept, so that the answer can say what changed since it), a later one to a
 * temporary file of its own, rewritten each time. Its path in path (OUTPUT_PATH_MAX); NULL and
 * a message if it cannot be opened (the run goes on without it).
 */
FILE *output_provisional(struct output *w, bool first, char *path);

/* Removes the temporary files (a run that writes nothing). */
void output_discard(struct output *w);

/* From a signal handler: removes the temporary files and the lock; async-signal-safe. */
void output_on_signal(void);

#endif
