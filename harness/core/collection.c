/*
 * collection.c: every process's samples and rows, gathered as their events arrive (pass.h),
 * and the checks that need them together: the participants of a group must agree on their
 * checksum in every process (a backend that computes another checksum from the others is
 * wrong, and the run says so), and a failure in any process fails the row.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collection.h"
#include "free_and_null.h"

int collection_init(struct collection *c, const struct options *o, const struct plan *plan)
{
	memset(c, 0, sizeof *c);
	c->o = o;
	c->plan = plan;
	snprintf(c->pinning, sizeof c->pinning, "unknown");
	snprintf(c->malloc_mode, sizeof c->malloc_mode, "unknown");
	size_t rows = (size_t)plan->count * plan->max_participants;
	c->rows = calloc(rows ? rows : 1, sizeof *c->rows);
	c->sampling = calloc(rows ? rows : 1, sizeof *c->sampling);
	c->machine = calloc(o->processes ? o->processes : 1, sizeof *c->machine);
	c->groups = calloc(plan->count ? plan->count : 1, sizeof *c->groups);
	c->busy = calloc(o->processes ? o->processes : 1, sizeof *c->busy);
	if (!c->rows || !c->sampling || !c->machine || !c->groups || !c->busy)
		return -1;
	for (uint32_t g = 0; g < plan->count; g++) {
		const struct group *gr = &plan->groups[g];
		bool candidate[RACE_MAX_MEMBERS];
		for (uint32_t p = 0; p < gr->participants && p < RACE_MAX_MEMBERS; p++)
			candidate[p] = plan_participant(o, gr, p) != NULL;
		/* the processes it may have: the answer's rows as many as the run's, the others
		 * RACE_PLOT_PROCESSES (the driver measures them no more: driver.c) */
		uint32_t most = gr->race && !gr->headline && o->processes > RACE_PLOT_PROCESSES
		                    ? RACE_PLOT_PROCESSES
		                    : o->processes;
		race_init(&c->groups[g].race, gr->participants, candidate, most);
		c->groups[g].passes = calloc(o->processes ? o->processes : 1, sizeof *c->groups[g].passes);
		if (!c->groups[g].passes)
			return -1;
	}
	size_t per_row = (size_t)o->processes * o->reps;
	for (size_t i = 0; i < rows; i++) {
		struct row_data *r = &c->rows[i];
		r->samples = malloc(per_row * sizeof *r->samples);
		r->checksums = calloc(o->processes, sizeof *r->checksums);
		r->done = calloc(o->processes, sizeof *r->done);
		r->verified = calloc(o->processes, sizeof *r->verified);
		if (!r->samples || !r->checksums || !r->done || !r->verified)
			return -1;
		for (size_t j = 0; j < per_row; j++)
			r->samples[j] = NAN;
		uint32_t figures = plan->groups[i / plan->max_participants].figures;
		if (figures) {
			r->figures = malloc(per_row * figures * sizeof *r->figures);
			if (!r->figures)
				return -1;
			for (size_t j = 0; j < per_row * figures; j++)
				r->figures[j] = NAN;
		}
	}
	return 0;
}

void collection_free(struct collection *c)
{
	if (c->rows) {
		size_t rows = (size_t)c->plan->count * c->plan->max_participants;
		for (size_t i = 0; i < rows; i++) {
			free(c->rows[i].samples);
			free(c->rows[i].checksums);
			free(c->rows[i].done);
			free(c->rows[i].verified);
			free(c->rows[i].figures);
		}
	}
	for (uint32_t g = 0; c->groups && g < c->plan->count; g++)
		free(c->groups[g].passes);
	FREE_AND_NULL(c->groups);
	FREE_AND_NULL(c->busy);
	FREE_AND_NULL(c->rows);
	FREE_AND_NULL(c->sampling);
	FREE_AND_NULL(c->machine);
}

struct row_data *collection_row(struct collection *c, uint32_t g, uint32_t p)
{
	return &c->rows[(size_t)g * c->plan->max_participants + p];
}

void collection_message(struct collection *c, const char *fmt, ...)
{
	va_list ap;
	if (c->tty && c->progress_shown)
		fputs("\r\033[K", stderr);
	fputs("ecsbench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void collection_sample(struct collection *c, uint32_t pass, uint32_t g, uint32_t p, uint32_t round,
                       double ns, double wall_ns)
{
	if (pass >= c->o->processes || round >= c->o->reps || g >= c->plan->count ||
	    p >= c->plan->groups[g].participants)
		return;
	struct row_data *d = collection_row(c, g, p);
	d->samples[(size_t)pass * c->o->reps + round] = ns;
	d->clock_sum += ns;
	d->wall_sum += wall_ns;
}

void collection_figures(struct collection *c, uint32_t pass, uint32_t g, uint32_t p, uint32_t round,
                        const double *v, uint32_t count)
{
	if (pass >= c->o->processes || round >= c->o->reps || g >= c->plan->count ||
	    p >= c->plan->groups[g].participants || count != c->plan->groups[g].figures)
		return;
	double *to = collection_row(c, g, p)->figures + ((size_t)pass * c->o->reps + round) * count;
	for (uint32_t i = 0; i < count; i++)
		to[i] = v[i];
}

void collection_add_row(struct collection *c, uint32_t pass, uint32_t g, uint32_t p,
                        const struct bench_result *r)
{
	if (pass >= c->o->processes || g >= c->plan->count || p >= c->plan->groups[g].participants)
		return;
	const struct group *gr = &c->plan->groups[g];
	struct row_data *d = collection_row(c, g, p);
	if (r->error[0]) {
		if (!d->failed) {
			d->failed = true;
			d->failed_process = pass;
			snprintf(d->error, sizeof d->error, "%s", r->error);
			c->failures++;
			collection_message(c, "%s %s failed in process %u: %s", plan_participant_name(c->o, gr, p),
			                   gr->label, pass + 1, r->error);
		}
		return;
	}
	/* The figures of the last process; the largest peak; the checksum of the one that took it. */
	uint64_t peak = d->result.peak_bytes > r->peak_bytes ? d->result.peak_bytes : r->peak_bytes;
	uint64_t checksum = d->result.checksum;
	bool verified = d->result.verified;
	d->result = *r;
	d->result.peak_bytes = peak;
	if (!r->verified) {
		d->result.checksum = checksum;
		d->result.verified = verified;
	}
	d->checksums[pass] = r->checksum;
	d->verified[pass] = r->verified;
	d->done[pass] = true;
}

/* Once a process has finished a group: the participants whose checksum it took must agree. */
void collection_group_end(struct collection *c, uint32_t pass, uint32_t g)
{
	if (pass >= c->o->processes || g >= c->plan->count)
		return;
	const struct group *gr = &c->plan->groups[g];
	int first = -1;
	for (uint32_t p = 0; p < gr->participants; p++) {
		struct row_data *d = collection_row(c, g, p);
		if (!d->done[pass] || !d->verified[pass])
			continue;
		if (first < 0) {
			first = (int)p;
			continue;
		}
		uint64_t want = collection_row(c, g, (uint32_t)first)->checksums[pass];
		if (d->checksums[pass] != want) {
			collection_message(c,
			                   "checksum mismatch: %s in process %u: %s %016" PRIx64
			                   ", %s %016" PRIx64,
			                   gr->label, pass + 1,
			                   plan_participant_name(c->o, gr, (uint32_t)first), want,
			                   plan_participant_name(c->o, gr, p), d->checksums[pass]);
			c->mismatches++;
		}
	}
}

unsigned collection_good_rows(const struct collection *c)
{
	unsigned n = 0;
	for (uint32_t g = 0; g < c->plan->count; g++)
		for (uint32_t p = 0; p < c->plan->groups[g].participants; p++) {
			const struct row_data *d = &c->rows[(size_t)g * c->plan->max_participants + p];
			bool done = false;
			for (uint32_t q = 0; q < c->processes_done && !done; q++)
				done = d->done[q];
			n += !d->failed && done;
		}
	return n;
}

void collection_left(struct collection *c, uint32_t pass, uint32_t g, uint32_t p, int how,
                     uint32_t rounds, int behind)
{
	if (pass >= c->o->processes || g >= c->plan->count || p >= c->plan->groups[g].participants ||
	    (how != RACE_SCREENED && how != RACE_CALIBRATION && how != RACE_SUSPECT) ||
	    (behind >= 0 && (uint32_t)behind >= c->plan->groups[g].participants))
		return;
	race_screened(&c->groups[g].race, p, (enum race_state)how, pass + 1, rounds, behind);
}

void collection_timing(struct collection *c, uint32_t pass, uint32_t g,
                       const struct group_timing *t)
{
	if (pass >= c->o->processes || g >= c->plan->count)
		return;
	struct group_record *rec = &c->groups[g];
	if (rec->processes == 0 || rec->passes[rec->processes - 1] != pass) {
		if (rec->processes == c->o->processes)
			return;
		rec->passes[rec->processes++] = pass;
	}
	rec->last = *t;
	rec->last_measured = 0;
	for (uint32_t p = 0; p < c->plan->groups[g].participants; p++)
		rec->last_measured += plan_active(c->plan, g, p);
	rec->total.setup_ns += t->setup_ns;
	rec->total.calibration_ns += t->calibration_ns;
	rec->total.warmup_ns += t->warmup_ns;
	rec->total.rounds_ns += t->rounds_ns;
	rec->total.timed_ns += t->timed_ns;
	rec->total.restore_ns += t->restore_ns;
	rec->total.finish_ns += t->finish_ns;
	rec->total.rounds += t->rounds;
}

void collection_process_end(struct collection *c, uint32_t pass)
{
	if (pass < c->o->processes)
		c->busy[pass] = c->machine[pass].others_all_pct > COLLECTION_BUSY_PCT;
}

bool collection_set_aside(const struct collection *c, uint32_t g, uint32_t pass)
{
	const struct group_record *rec = &c->groups[g];
	/* never a group's first process: the one figure of a backend screened out in it */
	if (pass >= c->o->processes || !c->busy[pass] || !c->plan->groups[g].race ||
	    (rec->processes && rec->passes[0] == pass))
		return false;
	uint32_t busy = 0;
	for (uint32_t q = 0; q < rec->processes; q++)
		busy += c->busy[rec->passes[q]];
	return 2 * busy < rec->processes;
}

void collection_levels(const struct collection *c, uint32_t g, uint32_t processes, double *level)
{
	const struct group_record *rec = &c->groups[g];
	uint32_t np = c->plan->groups[g].participants, reps = c->o->reps;
	double *y = malloc(((size_t)np * reps + 1) * sizeof *y);
	for (uint32_t q = 0; q < processes; q++) {
		double *out = level + (size_t)q * np;
		if (!y || q >= rec->processes || collection_set_aside(c, g, rec->passes[q])) {
			for (uint32_t p = 0; p < np; p++)
				out[p] = NAN;
			continue;
		}
		uint32_t pass = rec->passes[q];
		for (uint32_t p = 0; p < np; p++) {
			const struct row_data *d = &c->rows[(size_t)g * c->plan->max_participants + p];
			for (uint32_t r = 0; r < reps; r++) {
				double x = d->failed ? NAN : d->samples[(size_t)pass * reps + r];
				y[(size_t)p * reps + r] = !isnan(x) && x > 0 ? log(x) : NAN;
			}
		}
		race_levels(y, np, reps, out);
	}
	free(y);
}

bool collection_look(struct collection *c, uint32_t g, bool last)
{
	struct group_record *rec = &c->groups[g];
	uint32_t np = c->plan->groups[g].participants;
	bool changed = false;
	for (uint32_t p = 0; p < np; p++) {
		const struct row_data *d = &c->rows[(size_t)g * c->plan->max_participants + p];
		if (d->failed && rec->race.m[p].candidate && rec->race.m[p].state != RACE_FAILED) {
			rec->race.m[p].state = RACE_FAILED;
			rec->race.m[p].left_at = d->failed_process + 1;
			changed = true;
		}
	}
	double *level = malloc(((size_t)rec->processes * np + 1) * sizeof *level);
	if (!level)
		return changed;
	collection_levels(c, g, rec->processes, level);
	changed = race_look(&rec->race, level, rec->processes, last) || changed;
	free(level);
	return changed;
}
