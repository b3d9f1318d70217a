/*
 * stats.c: the statistics of a row and of a comparison (see stats.h), and the clock.
 * Medians and median absolute deviations within a process (nanobench's choice: a few slow
 * samples do not move them); across processes, the spread of the processes' medians.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "stats.h"

uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double stats_median(double *v, uint32_t n)
{
	if (n == 0)
		return NAN;
	qsort(v, n, sizeof *v, compare_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Student's t, 0.975: exact to three decimals up to 30 degrees of freedom, then the
 * Cornish-Fisher expansion around the normal's 1.95996 (error under 1e-4 from 30 on). */
double t975(double df)
{
	static const double table[31] = {
		NAN,   12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179,  2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080,
		2.074, 2.069,  2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
	};
	if (!(df >= 1))
		return NAN;
	if (df <= 30 && df == floor(df))
		return table[(int)df];
	if (df < 30) { /* between two whole numbers (Welch): interpolate in 1/df */
		double lo = floor(df), hi = lo + 1, a = (1 / df - 1 / hi) / (1 / lo - 1 / hi);
		return a * table[(int)lo] + (1 - a) * table[(int)hi];
	}
	double z = 1.959964, z3 = z * z * z, z5 = z3 * z * z;
	return z + (z3 + z) / (4 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96 * df * df);
}

static double mean_of(const double *v, uint32_t n)
{
	double s = 0;
	for (uint32_t i = 0; i < n; i++)
		s += v[i];
	return s / n;
}

static double sd_of(const double *v, uint32_t n)
{
	double m = mean_of(v, n), s = 0;
	for (uint32_t i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	return n > 1 ? sqrt(s / (n - 1)) : 0;
}

void stats_row(const double *samples, uint32_t processes, uint32_t reps, struct row_stats *out)
{
	memset(out, 0, sizeof *out);
	size_t total = (size_t)processes * reps;
	double *all = malloc((total ? total : 1) * sizeof *all);
	double *logm = malloc((processes ? processes : 1) * sizeof *logm);
	double *mads = malloc((processes ? processes : 1) * sizeof *mads);
	double *one = malloc((reps ? reps : 1) * sizeof *one);
	if (!all || !logm || !mads || !one)
		goto done;
	uint32_t n = 0, used = 0, last = 0;
	for (uint32_t p = 0; p < processes; p++) {
		uint32_t m = 0;
		for (uint32_t r = 0; r < reps; r++) {
			double x = samples[(size_t)p * reps + r];
			if (isnan(x))
				continue;
			all[n++] = x;
			one[m++] = x;
		}
		if (m == 0)
			continue;
		double med = stats_median(one, m);
		for (uint32_t r = 0; r < m; r++)
			one[r] = fabs(one[r] - med);
		mads[used] = med > 0 ? 100 * stats_median(one, m) / med : 0;
		logm[used++] = log(med > 0 ? med : 1e-9);
		last = p;
	}
	out->samples = n;
	out->processes = used;
	if (n == 0)
		goto done;
	out->median = stats_median(all, n); /* sorts all */
	out->min = all[0];
	out->max = all[n - 1];
	out->mad_pct = stats_median(mads, used);
	double center = log(out->median > 0 ? out->median : 1e-9), half = NAN;
	if (used >= 2) {
		double sd = sd_of(logm, used);
		out->has_spread = true;
		out->spread_pct = 100 * sd;
		half = t975(used - 1) * sd / sqrt(used);
		out->across_processes = true;
	} else {
		/* One process: the spread of its own samples, which says nothing of other processes. */
		uint32_t m = 0;
		for (uint32_t r = 0; r < reps; r++) {
			double x = samples[(size_t)last * reps + r];
			if (!isnan(x))
				one[m++] = log(x > 0 ? x : 1e-9);
		}
		if (m >= 2)
			half = t975(m - 1) * sd_of(one, m) / sqrt(m);
	}
	if (!isnan(half)) {
		out->has_interval = true;
		out->ci_low = exp(center - half);
		out->ci_high = exp(center + half);
	}
done:
	free(all);
	free(logm);
	free(mads);
	free(one);
}

bool stats_paired_ratio(const double *x, const double *y, uint32_t processes, uint32_t reps,
                        double *ratio, double *low, double *high)
{
	double *d = malloc((processes ? processes : 1) * sizeof *d);
	double *one = malloc((reps ? reps : 1) * sizeof *one);
	bool ok = false;
	if (!d || !one)
		goto done;
	uint32_t used = 0, last = 0;
	for (uint32_t p = 0; p < processes; p++) {
		uint32_t m = 0;
		for (uint32_t r = 0; r < reps; r++) {
			double a = x[(size_t)p * reps + r], b = y[(size_t)p * reps + r];
			if (!isnan(a) && !isnan(b) && a > 0 && b > 0)
				one[m++] = log(a / b);
		}
		if (m) {
			d[used++] = stats_median(one, m);
			last = p;
		}
	}
	if (used == 0)
		goto done;
	double mean, half = 0;
	if (used >= 2) {
		mean = mean_of(d, used);
		half = t975(used - 1) * sd_of(d, used) / sqrt(used);
	} else {
		uint32_t m = 0;
		for (uint32_t r = 0; r < reps; r++) {
			double a = x[(size_t)last * reps + r], b = y[(size_t)last * reps + r];
			if (!isnan(a) && !isnan(b) && a > 0 && b > 0)
				one[m++] = log(a / b);
		}
		mean = mean_of(one, m);
		if (m >= 2)
			half = t975(m - 1) * sd_of(one, m) / sqrt(m);
	}
	*ratio = exp(mean);
	*low = exp(mean - half);
	*high = exp(mean + half);
	ok = true;
done:
	free(d);
	free(one);
	return ok;
}

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t below(uint64_t *state, uint32_t n)
{
	return (uint32_t)((splitmix64(state) >> 32) * n >> 32);
}

void stats_bootstrap_median(const double *samples, uint32_t processes, uint32_t reps,
                            uint32_t resamples, uint64_t seed, double *low, double *high)
{
	*low = *high = NAN;
	/* The processes that have samples, and theirs. */
	uint32_t *start = malloc((processes ? processes : 1) * sizeof *start);
	uint32_t *count = malloc((processes ? processes : 1) * sizeof *count);
	double *present = malloc(((size_t)processes * reps + 1) * sizeof *present);
	double *pool = malloc(((size_t)processes * reps + 1) * sizeof *pool);
	double *medians = malloc((resamples ? resamples : 1) * sizeof *medians);
	if (!start || !count || !present || !pool || !medians || resamples == 0)
		goto done;
	uint32_t used = 0, n = 0;
	for (uint32_t p = 0; p < processes; p++) {
		start[used] = n;
		for (uint32_t r = 0; r < reps; r++)
			if (!isnan(samples[(size_t)p * reps + r]))
				present[n++] = samples[(size_t)p * reps + r];
		count[used] = n - start[used];
		used += count[used] > 0;
	}
	if (used == 0)
		goto done;
	uint64_t state = seed;
	for (uint32_t b = 0; b < resamples; b++) {
		uint32_t m = 0;
		for (uint32_t i = 0; i < used; i++) {
			uint32_t p = below(&state, used);
			for (uint32_t j = 0; j < count[p]; j++)
				pool[m++] = present[start[p] + below(&state, count[p])];
		}
		medians[b] = stats_median(pool, m);
	}
	qsort(medians, resamples, sizeof *medians, compare_double);
	*low = medians[(uint32_t)(0.025 * (resamples - 1) + 0.5)];
	*high = medians[(uint32_t)(0.975 * (resamples - 1) + 0.5)];
done:
	free(start);
	free(count);
	free(present);
	free(pool);
	free(medians);
}

bool stats_bootstrap_ratio(const double *x, const double *y, uint32_t processes, uint32_t reps,
                           uint32_t resamples, uint64_t seed, double *low, double *high)
{
	*low = *high = NAN;
	bool ok = false;
	double *logs = malloc(((size_t)processes * reps + 1) * sizeof *logs);
	uint32_t *start = malloc((processes + 1) * sizeof *start);
	uint32_t *count = malloc((processes + 1) * sizeof *count);
	double *one = malloc((reps + 1) * sizeof *one);
	double *per = malloc((processes + 1) * sizeof *per);
	double *means = malloc((resamples + 1) * sizeof *means);
	if (!logs || !start || !count || !one || !per || !means || resamples == 0)
		goto done;
	uint32_t used = 0, n = 0;
	for (uint32_t p = 0; p < processes; p++) {
		start[used] = n;
		for (uint32_t r = 0; r < reps; r++) {
			double a = x[(size_t)p * reps + r], b = y[(size_t)p * reps + r];
			if (!isnan(a) && !isnan(b) && a > 0 && b > 0)
				logs[n++] = log(a / b);
		}
		count[used] = n - start[used];
		used += count[used] > 0;
	}
	if (used == 0)
		goto done;
	uint64_t state = seed;
	for (uint32_t b = 0; b < resamples; b++) {
		for (uint32_t i = 0; i < used; i++) {
			uint32_t p = below(&state, used);
			for (uint32_t j = 0; j < count[p]; j++)
				one[j] = logs[start[p] + below(&state, count[p])];
			per[i] = stats_median(one, count[p]);
		}
		means[b] = mean_of(per, used);
	}
	qsort(means, resamples, sizeof *means, compare_double);
	*low = exp(means[(uint32_t)(0.025 * (resamples - 1) + 0.5)]);
	*high = exp(means[(uint32_t)(0.975 * (resamples - 1) + 0.5)]);
	ok = true;
done:
	free(logs);
	free(start);
	free(count);
	free(one);
	free(per);
	free(means);
	return ok;
}
