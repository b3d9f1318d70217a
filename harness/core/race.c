/*
 * race.c: a row group's race (see race.h): the levels of a process (median polish), the paired
 * comparison of two participants across processes, the level of a look, and the look itself.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "race.h"
#include "stats.h"

#define POLISH_SWEEPS 10

void race_init(struct race *r, uint32_t members, const bool *candidate, uint32_t max_processes)
{
	memset(r, 0, sizeof *r);
	r->members = members < RACE_MAX_MEMBERS ? members : RACE_MAX_MEMBERS;
	r->max_processes = max_processes;
	for (uint32_t i = 0; i < r->members; i++) {
		r->m[i].candidate = candidate[i];
		r->m[i].state = RACE_IN;
		r->m[i].behind = -1;
	}
}

void race_screened(struct race *r, uint32_t i, enum race_state how, uint32_t process,
                   uint32_t rounds, int behind)
{
	if (i >= r->members || !r->m[i].candidate || r->m[i].state != RACE_IN)
		return;
	if (how == RACE_SUSPECT) {
		r->m[i].suspect = true;
		r->m[i].left_round = rounds;
		r->m[i].behind = behind;
		return;
	}
	r->m[i].state = how;
	r->m[i].left_at = process;
	r->m[i].left_round = rounds;
	r->m[i].behind = behind;
}

/* The median of the values of v (stride apart, n of them) that are not NaN; NaN if none. */
static double median_present(const double *v, uint32_t n, size_t stride, double *scratch)
{
	uint32_t m = 0;
	for (uint32_t i = 0; i < n; i++)
		if (!isnan(v[i * stride]))
			scratch[m++] = v[i * stride];
	return m ? stats_median(scratch, m) : NAN;
}

/*
 * One half-sweep of the median polish over `lines` lines of the residuals (line l's `cells`
 * cells at res + l * line_step, cell_step apart: the rows, or the columns): each line's median
 * taken out of it and added to its effect[l]. The largest median moved.
 */
static double polish_lines(double *res, uint32_t lines, uint32_t cells, size_t line_step,
                           size_t cell_step, double *effect, double *scratch)
{
	double moved = 0;
	for (uint32_t l = 0; l < lines; l++) {
		double *line = res + l * line_step;
		double m = median_present(line, cells, cell_step, scratch);
		if (isnan(m))
			continue;
		effect[l] += m;
		moved = fmax(moved, fabs(m));
		for (uint32_t c = 0; c < cells; c++)
			line[c * cell_step] -= m;
	}
	return moved;
}

void race_levels(const double *y, uint32_t members, uint32_t rounds, double *level)
{
	size_t cells = (size_t)members * rounds;
	double *res = malloc((cells ? cells : 1) * sizeof *res);
	double *col = calloc(rounds ? rounds : 1, sizeof *col);
	double *scratch = malloc(((members > rounds ? members : rounds) + 1) * sizeof *scratch);
	for (uint32_t i = 0; i < members; i++)
		level[i] = NAN;
	if (!res || !col || !scratch)
		goto done;
	memcpy(res, y, cells * sizeof *res);
	/* A row of one sample (a backend screened by its calibration run, that cold run its
	 * figure) says nothing of what a round did: its sample is its level, and it takes no part
	 * in the polish, where its residual, 0 whatever it was, would vote in its round's median. */
	bool *solo = calloc(members ? members : 1, sizeof *solo);
	if (!solo)
		goto done;
	for (uint32_t i = 0; i < members; i++) {
		uint32_t n = 0;
		double only = NAN;
		for (uint32_t k = 0; k < rounds; k++)
			if (!isnan(y[(size_t)i * rounds + k])) {
				n++;
				only = y[(size_t)i * rounds + k];
			}
		level[i] = 0;
		if (n == 1) {
			solo[i] = true;
			level[i] = only;
			for (uint32_t k = 0; k < rounds; k++)
				res[(size_t)i * rounds + k] = NAN;
		}
	}
	/* Tukey's median polish: rows (participants) and columns (rounds) swept in turn until
	 * no median moves; a participant's level is its row effect, the overall level taken with
	 * it, and the median round effect added so that the level is a typical sample's. */
	for (int sweep = 0; sweep < POLISH_SWEEPS; sweep++) {
		double rows = polish_lines(res, members, rounds, rounds, 1, level, scratch);
		double cols = polish_lines(res, rounds, members, 1, rounds, col, scratch);
		if (fmax(rows, cols) < 1e-12)
			break;
	}
	/* The typical round among the rounds measured: a round of no sample (a process that ran
	 * fewer rounds than the plan's most) has no effect, not an effect of 0. */
	for (uint32_t k = 0; k < rounds; k++) {
		bool any = false;
		for (uint32_t i = 0; i < members && !any; i++)
			any = !solo[i] && !isnan(y[(size_t)i * rounds + k]);
		if (!any)
			col[k] = NAN;
	}
	double typical = median_present(col, rounds, 1, scratch);
	for (uint32_t i = 0; i < members; i++) {
		if (solo[i])
			continue;
		bool any = false;
		for (uint32_t k = 0; k < rounds && !any; k++)
			any = !isnan(y[(size_t)i * rounds + k]);
		level[i] = any ? level[i] + (isnan(typical) ? 0 : typical) : NAN;
	}
	free(solo);
done:
	free(res);
	free(col);
	free(scratch);
}

bool race_pair(const double *level, uint32_t members, uint32_t processes, uint32_t i, uint32_t j,
               double *mean, double *se, uint32_t *pairs)
{
	double sum = 0, sq = 0;
	uint32_t n = 0;
	for (uint32_t q = 0; q < processes; q++) {
		double a = level[(size_t)q * members + i], b = level[(size_t)q * members + j];
		if (isnan(a) || isnan(b))
			continue;
		sum += a - b;
		n++;
	}
	*pairs = n;
	*mean = n ? sum / n : NAN;
	*se = NAN;
	if (n < 2)
		return false;
	for (uint32_t q = 0; q < processes; q++) {
		double a = level[(size_t)q * members + i], b = level[(size_t)q * members + j];
		if (!isnan(a) && !isnan(b))
			sq += (a - b - *mean) * (a - b - *mean);
	}
	*se = sqrt(sq / (n - 1) / n);
	return true;
}

double race_level(const struct race *r, uint32_t processes, uint32_t before)
{
	double most = r->max_processes > processes ? r->max_processes : processes;
	double spent = RACE_ALPHA * ((double)processes - before) / most;
	uint32_t comparisons = r->survivors > 2 ? r->survivors - 1 : 1;
	return 1 - spent / comparisons;
}

bool race_look_due(const struct race *r, uint32_t processes)
{
	uint32_t first = RACE_FIRST_LOOK < r->max_processes ? RACE_FIRST_LOOK : r->max_processes;
	if (processes < first)
		return false;
	if (!r->looks_done)
		return true;
	return processes >= ceil(r->looks_done * RACE_LOOK_GROWTH) || processes >= r->max_processes;
}

static uint32_t in_race(const struct race *r)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < r->members; i++)
		n += r->m[i].candidate && r->m[i].state == RACE_IN;
	return n;
}

/* The quantile of a comparison on `pairs` processes at a two-sided level. */
static double look_quantile(double level, uint32_t pairs)
{
	return stats_t_quantile(1 - (1 - level) / 2, pairs - 1.0);
}

/* The suspects of the first process's screen after the group's second: screened there if
 * still more than RACE_SCREEN_RATIO slower than another in the race (their levels in that
 * process), in the race as any other if not. */
static bool confirm_suspects(struct race *r, const double *level, uint32_t processes)
{
	if (processes < 2)
		return false;
	bool changed = false;
	const double *second = level + r->members;
	for (uint32_t i = 0; i < r->members; i++) {
		struct race_member *x = &r->m[i];
		if (!x->suspect || !x->candidate || x->state != RACE_IN)
			continue;
		x->suspect = false;
		int behind = -1;
		double most = log(RACE_SCREEN_RATIO);
		for (uint32_t j = 0; j < r->members && !isnan(second[i]); j++)
			if (j != i && r->m[j].candidate && r->m[j].state == RACE_IN && !r->m[j].suspect &&
			    !isnan(second[j]) && second[i] - second[j] > most) {
				most = second[i] - second[j];
				behind = (int)j;
			}
		if (behind >= 0) {
			x->state = RACE_SCREENED;
			x->left_at = 2;
			x->behind = behind;
		} else {
			x->behind = -1;
			x->left_round = 0;
		}
		changed = true;
	}
	return changed;
}

bool race_look(struct race *r, const double *level, uint32_t processes, bool last)
{
	if (r->decision != RACE_OPEN || processes == 0)
		return false;
	if (!r->survivors)
		r->survivors = in_race(r);
	bool changed = confirm_suspects(r, level, processes);
	if (in_race(r) == 0) /* every row failed: nothing to name, the group stays open */
		return changed;
	if (in_race(r) == 1) {
		r->decision = RACE_FASTEST;
		r->decided_at = processes;
		return true;
	}
	if (processes < 2 || processes <= r->looks_done || (!race_look_due(r, processes) && !last))
		return changed;
	double look = race_level(r, processes, r->looks_done);
	r->looks_done = processes;
	r->level = look;
	/* Who leaves: decidedly more than RACE_MARGIN slower than another still in the race; all
	 * of them at once, so that the order of the backends decides nothing. */
	int behind[RACE_MAX_MEMBERS];
	for (uint32_t i = 0; i < r->members; i++) {
		behind[i] = -1;
		if (!r->m[i].candidate || r->m[i].state != RACE_IN)
			continue;
		double worst = 0;
		for (uint32_t j = 0; j < r->members; j++) {
			double mean, se;
			uint32_t pairs;
			if (j == i || !r->m[j].candidate || r->m[j].state != RACE_IN ||
			    !race_pair(level, r->members, processes, i, j, &mean, &se, &pairs))
				continue;
			double low = mean - look_quantile(look, pairs) * se;
			if (low > log(RACE_MARGIN) && low > worst) {
				worst = low;
				behind[i] = (int)j;
			}
		}
	}
	/* Pairs over different processes (a row that failed in some) can make a cycle, each behind
	 * the next: a look that would leave no one in the race removes no one. */
	uint32_t staying = 0;
	for (uint32_t i = 0; i < r->members; i++)
		staying += r->m[i].candidate && r->m[i].state == RACE_IN && behind[i] < 0;
	for (uint32_t i = 0; i < r->members && staying > 0; i++)
		if (behind[i] >= 0) {
			r->m[i].state = RACE_LEFT;
			r->m[i].left_at = processes;
			r->m[i].behind = behind[i];
			r->m[i].level = look;
			changed = true;
		}
	if (in_race(r) == 1) {
		r->decision = RACE_FASTEST;
		r->decided_at = processes;
		return true;
	}
	/* Equal: every two of the race within RACE_EQUAL, each way. */
	bool equal = true;
	double high = 1;
	for (uint32_t i = 0; i < r->members && equal; i++)
		for (uint32_t j = 0; j < r->members && equal; j++) {
			double mean, se;
			uint32_t pairs;
			if (j == i || !r->m[i].candidate || r->m[i].state != RACE_IN || !r->m[j].candidate ||
			    r->m[j].state != RACE_IN)
				continue;
			if (!race_pair(level, r->members, processes, i, j, &mean, &se, &pairs)) {
				equal = false;
				break;
			}
			double up = exp(mean + look_quantile(look, pairs) * se);
			high = fmax(high, up);
			equal = up <= RACE_EQUAL;
		}
	if (equal) {
		r->decision = RACE_EQUAL_SET;
		r->decided_at = processes;
		r->equal_high = high;
		return true;
	}
	return changed;
}

uint32_t race_level_mean(const double *level, uint32_t members, uint32_t processes, uint32_t i,
                         double *mean, double *se)
{
	double sum = 0, sq = 0;
	uint32_t n = 0;
	for (uint32_t q = 0; q < processes; q++)
		if (!isnan(level[(size_t)q * members + i])) {
			sum += level[(size_t)q * members + i];
			n++;
		}
	if (!n)
		return 0;
	double m = sum / n;
	*mean = m;
	if (n < 2)
		return n;
	for (uint32_t q = 0; q < processes; q++) {
		double v = level[(size_t)q * members + i];
		if (!isnan(v))
			sq += (v - m) * (v - m);
	}
	*se = sqrt(sq / (n - 1) / n);
	return n;
}

/* Participant i's own figures: the mean of its levels and their 95% interval. */
static void row_centre(const double *level, uint32_t members, uint32_t processes, uint32_t i,
                       struct race_row *x)
{
	uint32_t n = race_level_mean(level, members, processes, i, &x->log_centre, &x->log_se);
	x->processes = n;
	if (!n)
		return;
	x->centre = exp(x->log_centre);
	if (n < 2)
		return;
	double half = stats_t975(n - 1) * x->log_se;
	x->has_interval = true;
	x->ci_low = exp(x->log_centre - half);
	x->ci_high = exp(x->log_centre + half);
}

int race_figures(const struct race *r, const double *level, uint32_t processes,
                 struct race_row *rows)
{
	int best = -1;
	for (uint32_t i = 0; i < r->members; i++) {
		memset(&rows[i], 0, sizeof rows[i]);
		rows[i].verdict = "";
		rows[i].level = NAN;
		row_centre(level, r->members, processes, i, &rows[i]);
	}
	/* the best: the one left in the race, or the lowest centre of those still in it (of every
	 * candidate, where none is) */
	for (int pass = 0; pass < 2 && best < 0; pass++)
		for (uint32_t i = 0; i < r->members; i++) {
			const struct race_member *m = &r->m[i];
			if (!m->candidate || !rows[i].processes || m->state == RACE_FAILED ||
			    (pass == 0 && m->state != RACE_IN))
				continue;
			if (best < 0 || rows[i].log_centre < rows[best].log_centre)
				best = (int)i;
		}
	if (best < 0)
		return -1;
	for (uint32_t i = 0; i < r->members; i++) {
		const struct race_member *m = &r->m[i];
		struct race_row *x = &rows[i];
		if (!m->candidate || !x->processes || m->state == RACE_FAILED)
			continue;
		x->has_ratio = true;
		x->open = m->state == RACE_IN && r->decision == RACE_OPEN;
		if ((int)i == best) {
			x->ratio = x->ratio_low = x->ratio_high = 1;
			x->ratio_interval = true;
			x->pairs = x->processes;
			x->verdict = "best";
			continue;
		}
		uint32_t upto = m->state == RACE_LEFT ? m->left_at : processes;
		double mean, se;
		bool interval = race_pair(level, r->members, upto, i, (uint32_t)best, &mean, &se, &x->pairs);
		x->ratio = exp(mean);
		x->verdict = m->state != RACE_IN ? "slower" : r->decision == RACE_EQUAL_SET ? "equal" : "tied";
		if (!interval || m->state == RACE_SCREENED || m->state == RACE_CALIBRATION)
			continue;
		x->level = m->state == RACE_LEFT ? m->level
		           : r->looks_done          ? r->level
		                                    : race_level(r, processes, 0);
		double half = stats_t_quantile(1 - (1 - x->level) / 2, x->pairs - 1.0) * se;
		x->ratio_interval = true;
		x->ratio_se = se;
		x->ratio_low = exp(mean - half);
		x->ratio_high = exp(mean + half);
	}
	return best;
}

const char *race_state_name(enum race_state s)
{
	switch (s) {
	case RACE_IN: return "in";
	case RACE_LEFT: return "left";
	case RACE_SCREENED: return "screened";
	case RACE_CALIBRATION: return "calibration";
	case RACE_FAILED: return "failed";
	case RACE_SUSPECT: return "in"; /* never a member's state: a suspect is in */
	}
	return "?";
}

const char *race_decision_name(enum race_decision d)
{
	switch (d) {
	case RACE_OPEN: return "open";
	case RACE_FASTEST: return "fastest";
	case RACE_EQUAL_SET: return "equal";
	}
	return "?";
}
