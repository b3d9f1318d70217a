/*
 * race.c: the race's statistics (harness/core/race.c) on synthetic samples with known answers,
 * deterministic (a fixed seed), never a time. The samples follow the model the race assumes
 * (docs/method.md, "The race"): a log sample is the backend's true level, plus what its process
 * did to every participant, plus what its process's layout did to it alone (the
 * backend-by-process part), plus what its round did to every participant, plus its own noise,
 * now and then a sample far off (a preemption, a page fault). Groups are raced as the driver
 * races them: a process measures only the backends still in the race, a look where one is due
 * and after the last process.
 *   polish-*        a process's levels: round effects taken out exactly, a lone outlier
 *                   outvoted, a slow stretch that lands mid-round on some participants
 *   twins           two copies of the fastest are called different in at most 5% of groups
 *   made-difference a backend 1.25x slower is called slower in at least 90% of groups
 *   equal-holds     a set called equal holds the fastest, every two of its true levels within
 *                   10%, in at least 95% of groups
 *   left-kept       a backend that left is measured no more, and keeps the interval it had
 *   screened-*      a screened backend has its ratio and no interval; the level's arithmetic
 * Ends with "N passed, N failed".
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../harness/core/race.h"
#include "../harness/core/rng.h"
#include "../harness/core/stats.h"
#include "check.h"

#define CHECK_NEAR(a, b, tol)                                                              \
	do {                                                                                   \
		double near_a_ = (a), near_b_ = (b);                                               \
		if (!(fabs(near_a_ - near_b_) <= (tol))) {                                         \
			check_failed(__FILE__, __LINE__, "%s == %s (%.9g != %.9g)", #a, #b, near_a_,   \
			             near_b_);                                                         \
			return false;                                                                  \
		}                                                                                  \
	} while (0)

#define MAX_K 8
#define MAX_P 32
#define MAX_R 24

static double normal(struct rng *g)
{
	double u = rng_unit(g), v = rng_unit(g);
	return sqrt(-2 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

/* A group's truth and the machine's noise (log scale). */
struct sim {
	uint32_t k;             /* backends (candidates), then the floor */
	double mu[MAX_K];       /* their true log levels */
	double process_sd;      /* what a process does to every participant */
	double layout_sd;       /* the backend-by-process part */
	double round_sd;        /* what a round does to every participant */
	double noise_sd;        /* a sample's own */
	double outlier_p;       /* a sample this far off, this often */
	double outlier;
	uint32_t processes, rounds;
};

/* One process of the group: the log samples of the backends still in the race and the floor
 * (y[i * rounds + r], NaN for the others), then their levels into level. */
static void sim_process(const struct sim *s, const struct race *r, struct rng *g, double *level)
{
	uint32_t np = s->k + 1;
	double y[(MAX_K + 1) * MAX_R];
	double a = s->process_sd * normal(g), b[MAX_R];
	for (uint32_t t = 0; t < s->rounds; t++)
		b[t] = s->round_sd * normal(g);
	for (uint32_t i = 0; i < np; i++) {
		bool in = i == s->k || race_in(r, i);
		double c = s->layout_sd * normal(g), mu = i < s->k ? s->mu[i] : s->mu[0] - 1;
		for (uint32_t t = 0; t < s->rounds; t++) {
			double e = s->noise_sd * normal(g);
			if (rng_unit(g) < s->outlier_p)
				e += s->outlier;
			y[i * s->rounds + t] = in ? mu + a + b[t] + c + e : NAN;
		}
	}
	race_levels(y, np, s->rounds, level);
}

/* A group raced to its end as the driver races it: into r, its levels into level
 * (processes x (k + 1)); returns the processes it had. */
static uint32_t sim_race(const struct sim *s, struct race *r, double *level, struct rng *g)
{
	bool candidate[MAX_K + 1];
	for (uint32_t i = 0; i <= s->k; i++)
		candidate[i] = i < s->k;
	race_init(r, s->k + 1, candidate, s->processes);
	uint32_t q;
	for (q = 0; q < s->processes; q++) {
		sim_process(s, r, g, level + (size_t)q * (s->k + 1));
		race_look(r, level, q + 1, q + 1 == s->processes);
		if (r->decision != RACE_OPEN)
			return q + 1;
	}
	return q;
}

/* --- a process's levels ------------------------------------------------------------------ */

/* Participants 1, 2, 3 (log) in four rounds whose common parts are 0, 5, -2, 1: the levels are
 * the participants' own, exactly. */
static bool polish_round_effects(void)
{
	double y[12], level[3], b[4] = {0, 5, -2, 1};
	for (uint32_t i = 0; i < 3; i++)
		for (uint32_t t = 0; t < 4; t++)
			y[i * 4 + t] = (i + 1) + b[t];
	race_levels(y, 3, 4, level);
	/* the typical round (the median of 0, 5, -2, 1: 0.5) added to every level alike */
	CHECK_NEAR(level[1] - level[0], 1, 1e-12);
	CHECK_NEAR(level[2] - level[0], 2, 1e-12);
	CHECK_NEAR(level[0], 1.5, 1e-12);
	return true;
}

/* One sample of one participant 3 (log) higher, in one of five rounds: its level does not move. */
static bool polish_outlier_outvoted(void)
{
	double y[15], level[3];
	for (uint32_t i = 0; i < 3; i++)
		for (uint32_t t = 0; t < 5; t++)
			y[i * 5 + t] = i;
	y[1 * 5 + 2] += 3;
	race_levels(y, 3, 5, level);
	CHECK_NEAR(level[1] - level[0], 1, 1e-12);
	CHECK_NEAR(level[2] - level[1], 1, 1e-12);
	/* a participant with no sample has no level; one with fewer rounds has one */
	y[2 * 5 + 0] = y[2 * 5 + 1] = NAN;
	race_levels(y, 3, 5, level);
	CHECK_NEAR(level[2] - level[0], 2, 1e-12);
	for (uint32_t t = 0; t < 5; t++)
		y[2 * 5 + t] = NAN;
	race_levels(y, 3, 5, level);
	CHECK(isnan(level[2]));
	return true;
}

/* A process that ran 4 of the plan's 8 rounds (common parts 0, 5, -2, 1, the rest empty): the
 * typical round is the median of the 4 measured (0.5), not of 8 with 4 empty ones counted as 0.
 * A row of one sample (a backend screened by its cold calibration run, in round 0) keeps that
 * sample as its level and moves no other level. */
static bool polish_empty_rounds_and_one_sample(void)
{
	double y[4 * 8], level[4], b[4] = {0, 5, -2, 1};
	for (uint32_t i = 0; i < 4; i++)
		for (uint32_t t = 0; t < 8; t++)
			y[i * 8 + t] = i < 3 && t < 4 ? (i + 1) + b[t] : NAN;
	race_levels(y, 3, 8, level);
	CHECK_NEAR(level[0], 1.5, 1e-12);
	CHECK_NEAR(level[2] - level[0], 2, 1e-12);
	y[3 * 8 + 0] = 40;
	race_levels(y, 4, 8, level);
	CHECK_NEAR(level[3], 40, 1e-12);
	CHECK_NEAR(level[0], 1.5, 1e-12);
	CHECK_NEAR(level[1], 2.5, 1e-12);
	CHECK_NEAR(level[2], 3.5, 1e-12);
	return true;
}

/* A slow stretch of the machine (x2, +0.69 in log) lands in the middle of round 2 of six: the
 * participants sampled after its start in that round, and every one of round 3: the levels
 * move by less than a hundredth, where the rounds' means would move by 0.69 / 6 = 0.12. */
static bool polish_slow_stretch(void)
{
	double y[5 * 6], level[5];
	struct rng g;
	rng_seed(&g, 7, 1);
	for (uint32_t i = 0; i < 5; i++)
		for (uint32_t t = 0; t < 6; t++)
			y[i * 6 + t] = 0.1 * i + 0.002 * normal(&g);
	double before[5];
	race_levels(y, 5, 6, before);
	for (uint32_t i = 2; i < 5; i++)
		y[i * 6 + 2] += log(2);
	for (uint32_t i = 0; i < 5; i++)
		y[i * 6 + 3] += log(2);
	race_levels(y, 5, 6, level);
	for (uint32_t i = 1; i < 5; i++)
		CHECK_NEAR(level[i] - level[0], before[i] - before[0], 0.01);
	return true;
}

/* --- the race on synthetic groups ---------------------------------------------------------- */

/* A noisy machine like ours: rounds and processes move everything, a layout moves a backend by
 * 4% (one sd) in a process, a sample by 5%, one in 30 by half again. */
static struct sim machine(uint32_t k)
{
	struct sim s = {.k = k, .process_sd = 0.3, .layout_sd = 0.04, .round_sd = 0.1,
	                .noise_sd = 0.05, .outlier_p = 1.0 / 30, .outlier = 0.4, .processes = 24,
	                .rounds = 3};
	return s;
}

#define GROUPS 400

/* Two copies of the fastest (0 and 1), a third 1.5x slower, a fourth 3x: a copy is called
 * slower than the other (it leaves while the other is in, or the other is named fastest) in at
 * most 5% of groups. */
static bool twins(void)
{
	struct sim s = machine(4);
	s.mu[0] = s.mu[1] = 0;
	s.mu[2] = log(1.5);
	s.mu[3] = log(3);
	struct rng g;
	rng_seed(&g, 1, 41);
	uint32_t called = 0, equal = 0;
	static double level[MAX_P * (MAX_K + 1)];
	for (int n = 0; n < GROUPS; n++) {
		struct race r;
		sim_race(&s, &r, level, &g);
		called += race_in(&r, 0) != race_in(&r, 1);
		equal += r.decision == RACE_EQUAL_SET;
	}
	printf("     twins: a copy called slower than the other in %u of %u groups; %u decided equal\n",
	       called, GROUPS, equal);
	CHECK(called <= GROUPS / 20);
	CHECK(equal >= GROUPS / 2); /* the design decides: not by calling nothing */
	return true;
}

/* A backend 1.25x slower than the fastest (and one 2x): called slower (it left, the fastest
 * still in) in at least 90% of groups; never the fastest named while it is. */
static bool made_difference(void)
{
	struct sim s = machine(3);
	s.mu[0] = 0;
	s.mu[1] = log(1.25);
	s.mu[2] = log(2);
	struct rng g;
	rng_seed(&g, 1, 125);
	uint32_t found = 0, wrong = 0;
	static double level[MAX_P * (MAX_K + 1)];
	for (int n = 0; n < GROUPS; n++) {
		struct race r;
		sim_race(&s, &r, level, &g);
		found += !race_in(&r, 1) && race_in(&r, 0);
		wrong += !race_in(&r, 0);
	}
	printf("     made-difference: 1.25x called slower in %u of %u groups; the fastest left in %u\n",
	       found, GROUPS, wrong);
	CHECK(found >= GROUPS * 9 / 10);
	CHECK(wrong <= GROUPS / 20);
	return true;
}

/* Three backends at 1, 1.04 and 1.2: whenever a group is called equal, its set holds the
 * fastest and every two of it are truly within 10% (so never the one at 1.2 with the fastest),
 * in at least 95% of groups. */
static bool equal_holds(void)
{
	struct sim s = machine(3);
	s.mu[0] = 0;
	s.mu[1] = log(1.04);
	s.mu[2] = log(1.2);
	struct rng g;
	rng_seed(&g, 1, 110);
	uint32_t equal = 0, wrong = 0, fastest = 0, wrong_fastest = 0;
	static double level[MAX_P * (MAX_K + 1)];
	for (int n = 0; n < GROUPS; n++) {
		struct race r;
		sim_race(&s, &r, level, &g);
		if (r.decision == RACE_EQUAL_SET) {
			equal++;
			wrong += !race_in(&r, 0) || race_in(&r, 2);
		} else if (r.decision == RACE_FASTEST) {
			fastest++;
			wrong_fastest += !race_in(&r, 0);
		}
	}
	printf("     equal-holds: %u groups equal (%u wrongly), %u a fastest (%u wrongly) of %u\n",
	       equal, wrong, fastest, wrong_fastest, GROUPS);
	CHECK(wrong + wrong_fastest <= GROUPS / 20);
	return true;
}

/* A backend 3x slower leaves at the first look: no process after measures it (its levels are
 * NaN), and its figures keep the interval of that look, at that look's level. */
static bool left_kept(void)
{
	struct sim s = machine(3);
	s.outlier_p = 0;
	s.mu[0] = 0;
	s.mu[1] = log(1.02);
	s.mu[2] = log(3);
	struct rng g;
	rng_seed(&g, 2, 3);
	static double level[MAX_P * (MAX_K + 1)];
	struct race r;
	uint32_t processes = sim_race(&s, &r, level, &g);
	CHECK(r.m[2].state == RACE_LEFT);
	CHECK_EQ(r.m[2].left_at, RACE_FIRST_LOOK);
	CHECK(processes > RACE_FIRST_LOOK);
	for (uint32_t q = r.m[2].left_at; q < processes; q++)
		CHECK(isnan(level[q * (s.k + 1) + 2]));
	struct race_row rows[MAX_K + 1];
	int best = race_figures(&r, level, processes, rows);
	CHECK(best == 0 || best == 1);
	CHECK(rows[2].ratio_interval);
	CHECK_EQ(rows[2].pairs, RACE_FIRST_LOOK);
	CHECK_NEAR(rows[2].level, r.m[2].level, 0);
	CHECK(rows[2].ratio_low > RACE_MARGIN);
	CHECK(strcmp(rows[2].verdict, "slower") == 0);
	/* the one in the race is compared at the last look's level */
	uint32_t other = best == 0 ? 1 : 0;
	CHECK_NEAR(rows[other].level, r.level, 0);
	CHECK(rows[other].ratio >= 1);
	return true;
}

/* A backend screened in the first process: its ratio from that process, no interval, slower; a
 * race whose screens leave one backend is decided without a look. The level of a look: what the
 * spending function grew since the look before, over the survivors' comparisons. */
static bool screened_figures(void)
{
	bool candidate[4] = {true, true, true, false};
	struct race r;
	race_init(&r, 4, candidate, 16);
	race_screened(&r, 1, RACE_SCREENED, 1, 3, 0);
	race_screened(&r, 2, RACE_CALIBRATION, 1, 0, 0);
	double level[4] = {0, log(5), log(40), -1};
	CHECK(race_look(&r, level, 1, false));
	CHECK(r.decision == RACE_FASTEST);
	struct race_row rows[4];
	CHECK_EQ(race_figures(&r, level, 1, rows), 0);
	CHECK_NEAR(rows[1].ratio, 5, 1e-9);
	CHECK(!rows[1].ratio_interval && !rows[2].ratio_interval);
	CHECK(strcmp(rows[1].verdict, "slower") == 0 && strcmp(rows[2].verdict, "slower") == 0);
	CHECK(!rows[3].has_ratio); /* the floor */

	race_init(&r, 4, candidate, 16);
	r.survivors = 3;
	CHECK_NEAR(race_level(&r, 4, 0), 1 - 0.05 * 4 / 16 / 2, 1e-12);
	CHECK_NEAR(race_level(&r, 6, 4), 1 - 0.05 * 2 / 16 / 2, 1e-12);
	CHECK(!race_look_due(&r, 3) && race_look_due(&r, 4));
	r.looks_done = 4;
	CHECK(!race_look_due(&r, 5) && race_look_due(&r, 6));
	r.looks_done = 6;
	CHECK(!race_look_due(&r, 8) && race_look_due(&r, 9) && race_look_due(&r, 16));
	return true;
}

/* The first process's suspects (over 2x behind in each round, short of 10x): in the race until
 * the group's second process; screened there if still over 2x behind (race_process 2), in the
 * race as any other if not; a race all of whose members failed is never decided. */
static bool suspects_confirmed(void)
{
	bool candidate[4] = {true, true, true, false};
	struct race r;
	race_init(&r, 4, candidate, 16);
	race_screened(&r, 1, RACE_SUSPECT, 1, 3, 0);
	race_screened(&r, 2, RACE_SUSPECT, 1, 3, 0);
	CHECK(race_in(&r, 1) && race_in(&r, 2));
	/* process 1: both 2.5x behind; process 2: 1 is 1.05x (a slow first process, cleared), 2 is
	 * 3x (screened there) */
	double level[2 * 4] = {0, log(2.5), log(2.5), -1, 0, log(1.05), log(3), -1};
	CHECK(!race_look(&r, level, 1, false));
	CHECK(race_in(&r, 1) && race_in(&r, 2) && r.decision == RACE_OPEN);
	CHECK(race_look(&r, level, 2, false));
	CHECK(r.m[1].state == RACE_IN && !r.m[1].suspect && r.m[1].behind == -1);
	CHECK(r.m[2].state == RACE_SCREENED);
	CHECK_EQ(r.m[2].left_at, 2);
	CHECK_EQ(r.m[2].behind, 0);
	CHECK(r.decision == RACE_OPEN);

	race_init(&r, 4, candidate, 16);
	for (uint32_t i = 0; i < 3; i++)
		r.m[i].state = RACE_FAILED;
	double none[4] = {NAN, NAN, NAN, -1};
	race_look(&r, none, 4, true);
	CHECK(r.decision == RACE_OPEN);
	return true;
}

int main(void)
{
	static const struct {
		const char *name;
		bool (*run)(void);
	} tests[] = {
		{"polish-round-effects", polish_round_effects},
		{"polish-outlier-outvoted", polish_outlier_outvoted},
		{"polish-slow-stretch", polish_slow_stretch},
		{"polish-empty-rounds-one-sample", polish_empty_rounds_and_one_sample},
		{"twins", twins},
		{"made-difference", made_difference},
		{"equal-holds", equal_holds},
		{"left-kept", left_kept},
		{"screened-figures", screened_figures},
		{"suspects-confirmed", suspects_confirmed},
	};
	for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
		runner_begin("race/%s", tests[i].name);
		runner_end(tests[i].run());
	}
	return runner_summary();
}
