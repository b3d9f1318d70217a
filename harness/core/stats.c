/*
 * stats.c: the statistics of a row and of a comparison (see stats.h).
 * Within a process, medians and median absolute deviations (nanobench's choice: a few slow
 * samples do not move them); across processes, the mean and spread of the processes' log
 * medians, which is what a row's centre, its interval and every ratio are made of.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

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

double stats_quantile(double *v, uint32_t n, double q)
{
	if (n == 0 || !(q >= 0 && q <= 1))
		return NAN;
	qsort(v, n, sizeof *v, compare_double);
	double h = (double)(n - 1) * q;
	uint32_t lo = (uint32_t)floor(h);
	if (lo >= n - 1)
		return v[n - 1];
	return v[lo] + (h - lo) * (v[lo + 1] - v[lo]);
}

uint64_t stats_count_at_least(const double *v, size_t n, double threshold)
{
	uint64_t count = 0;
	for (size_t i = 0; i < n; i++)
		count += v[i] >= threshold; /* false for NaN */
	return count;
}

/* The regularised incomplete beta function I_x(a, b), by its continued fraction (Lentz's
 * method, as in Numerical Recipes' betacf): what Student's t distribution function needs. */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1);
	d = 1 / (fabs(d) < tiny ? tiny : d);
	double h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + num * d;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = 1 + num / c;
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + num * d;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = 1 + num / c;
		c = fabs(c) < tiny ? tiny : c;
		double step = d * c;
		h *= step;
		if (fabs(step - 1) < 1e-15)
			break;
	}
	return h;
}

static double incomplete_beta(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(a, b, x) / a;
	return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

/* P(T > t) for t >= 0, df degrees of freedom. */
static double t_upper_tail(double t, double df)
{
	return 0.5 * incomplete_beta(df / 2, 0.5, df / (df + t * t));
}

double stats_t_quantile(double p, double df)
{
	if (!(df > 0) || !(p > 0 && p < 1))
		return NAN;
	if (p < 0.5)
		return -stats_t_quantile(1 - p, df);
	double tail = 1 - p, lo = 0, hi = 1;
	while (t_upper_tail(hi, df) > tail && hi < 1e12)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;
		if (t_upper_tail(mid, df) > tail)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double stats_t975(double df)
{
	return df >= 1 ? stats_t_quantile(0.975, df) : NAN;
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

/* How many units a row measured in `processes` processes of `reps` rounds has. */
static uint32_t unit_count(uint32_t processes, uint32_t reps)
{
	return processes >= 2 ? processes : reps;
}

/*
 * The units' log values of a row, NaN where a unit has none: per process, the median over its
 * rounds of log(sample) (processes >= 2), or each round's log(sample) (one process). A process
 * whose participant took a single sample (a long run) is valued at that sample. Samples <= 0
 * are left out: a log needs a positive time. Returns the units with a value; `scratch` holds
 * reps values.
 */
static uint32_t unit_logs(const double *samples, uint32_t processes, uint32_t reps, double *out,
                          double *scratch)
{
	uint32_t valued = 0;
	if (processes < 2) {
		for (uint32_t r = 0; r < reps; r++) {
			double x = processes ? samples[r] : NAN;
			out[r] = !isnan(x) && x > 0 ? log(x) : NAN;
			valued += !isnan(out[r]);
		}
		return valued;
	}
	for (uint32_t p = 0; p < processes; p++) {
		uint32_t m = 0;
		for (uint32_t r = 0; r < reps; r++) {
			double x = samples[(size_t)p * reps + r];
			if (!isnan(x) && x > 0)
				scratch[m++] = log(x);
		}
		out[p] = m ? stats_median(scratch, m) : NAN;
		valued += m > 0;
	}
	return valued;
}

/* Mean of the values that are not NaN (NaN if none), and how many there were. */
static double mean_present(const double *v, uint32_t n, uint32_t *count)
{
	double s = 0;
	uint32_t m = 0;
	for (uint32_t i = 0; i < n; i++)
		if (!isnan(v[i])) {
			s += v[i];
			m++;
		}
	*count = m;
	return m ? s / m : NAN;
}

/* The present values of v, packed at the front of out; their number. */
static uint32_t pack_present(const double *v, uint32_t n, double *out)
{
	uint32_t m = 0;
	for (uint32_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			out[m++] = v[i];
	return m;
}

void stats_row(const double *samples, uint32_t processes, uint32_t reps, struct row_stats *out)
{
	memset(out, 0, sizeof *out);
	uint32_t units = unit_count(processes, reps);
	double *logs = malloc((units ? units : 1) * sizeof *logs);
	double *packed = malloc((units ? units : 1) * sizeof *packed);
	double *mads = malloc((processes ? processes : 1) * sizeof *mads);
	double *one = malloc((reps ? reps : 1) * sizeof *one);
	if (!logs || !packed || !mads || !one)
		goto done;
	uint32_t n = 0, used = 0;
	out->min = INFINITY;
	out->max = -INFINITY;
	for (uint32_t p = 0; p < processes; p++) {
		uint32_t m = 0;
		for (uint32_t r = 0; r < reps; r++) {
			double x = samples[(size_t)p * reps + r];
			if (isnan(x))
				continue;
			one[m++] = x;
			out->min = fmin(out->min, x);
			out->max = fmax(out->max, x);
		}
		if (m == 0)
			continue;
		n += m;
		double med = stats_median(one, m);
		for (uint32_t r = 0; r < m; r++)
			one[r] = fabs(one[r] - med);
		mads[used++] = med > 0 ? 100 * stats_median(one, m) / med : 0;
	}
	out->samples = n;
	out->processes = used;
	if (n == 0) {
		out->min = out->max = 0;
		goto done;
	}
	out->mad_pct = stats_median(mads, used);
	out->across_processes = processes >= 2;
	unit_logs(samples, processes, reps, logs, one);
	uint32_t m = pack_present(logs, units, packed);
	out->units = m;
	if (m == 0)
		goto done;
	out->log_centre = mean_present(logs, units, &m);
	out->centre = exp(out->log_centre);
	if (m >= 2) {
		double sd = sd_of(packed, m), half = stats_t975(m - 1) * sd / sqrt(m);
		if (out->across_processes) {
			out->has_spread = true;
			out->spread_pct = 100 * sd;
		}
		out->has_interval = true;
		out->log_se = sd / sqrt(m);
		out->ci_low = exp(out->log_centre - half);
		out->ci_high = exp(out->log_centre + half);
		out->has_rerun = stats_rerun(out->centre, out->log_se, m - 1, STATS_RERUN_ROW_SD,
		                             &out->rerun_low, &out->rerun_high);
	}
done:
	free(logs);
	free(packed);
	free(mads);
	free(one);
}

bool stats_ratio(const double *x, uint32_t x_reps, const double *y, uint32_t y_reps,
                 uint32_t processes, double level, struct stats_ratio *out)
{
	memset(out, 0, sizeof *out);
	uint32_t ux = unit_count(processes, x_reps), uy = unit_count(processes, y_reps);
	uint32_t units = ux > uy ? ux : uy, most_reps = x_reps > y_reps ? x_reps : y_reps;
	double *lx = malloc((units ? units : 1) * sizeof *lx);
	double *ly = malloc((units ? units : 1) * sizeof *ly);
	double *d = malloc((units ? units : 1) * sizeof *d);
	double *scratch = malloc((most_reps ? most_reps : 1) * sizeof *scratch);
	bool ok = false;
	if (!lx || !ly || !d || !scratch)
		goto done;
	for (uint32_t i = 0; i < units; i++)
		lx[i] = ly[i] = NAN;
	unit_logs(x, processes, x_reps, lx, scratch);
	unit_logs(y, processes, y_reps, ly, scratch);
	/* The centres exactly as stats_row makes them (the same sums in the same order), so that a
	 * row with the lower centre never has a ratio below 1 to one with a higher centre. */
	uint32_t nx, ny, n = 0;
	double mx = mean_present(lx, ux, &nx), my = mean_present(ly, uy, &ny);
	if (!nx || !ny)
		goto done;
	out->ratio = exp(mx - my);
	for (uint32_t i = 0; i < units; i++)
		if (!isnan(lx[i]) && !isnan(ly[i]))
			d[n++] = lx[i] - ly[i];
	out->pairs = n;
	if (n >= 2) {
		out->log_se = sd_of(d, n) / sqrt(n);
		double half = stats_t_quantile(1 - (1 - level) / 2, n - 1) * out->log_se;
		out->has_interval = true;
		out->low = out->ratio * exp(-half);
		out->high = out->ratio * exp(half);
	}
	ok = true;
done:
	free(lx);
	free(ly);
	free(d);
	free(scratch);
	return ok;
}

bool stats_rerun(double estimate, double se, double df, double between_sd, double *low,
                 double *high)
{
	*low = *high = NAN;
	if (!(df >= 1) || !(estimate > 0) || isnan(se))
		return false;
	double own = stats_t975(df) * se, between = 1.959964 * between_sd;
	double half = sqrt(2 * own * own + between * between);
	*low = estimate * exp(-half);
	*high = estimate * exp(half);
	return true;
}

double stats_group_level(uint32_t candidates)
{
	/* Every pair, not the K - 1 comparisons with the best: which row is the best is decided by
	 * the same samples, so any pair may be the one compared (docs/method.md). */
	double pairs = candidates > 2 ? candidates * (candidates - 1.0) / 2 : 1;
	return 1 - 0.05 / pairs;
}

int stats_group(struct stats_member *m, uint32_t count, uint32_t processes)
{
	int best = -1;
	uint32_t candidates = 0;
	for (uint32_t i = 0; i < count; i++) {
		stats_row(m[i].samples, processes, m[i].reps, &m[i].row);
		m[i].has_ratio = false;
		m[i].has_rerun = false;
		m[i].verdict = "";
		m[i].noisy = false;
		if (!m[i].candidate || m[i].row.units == 0)
			continue;
		candidates++;
		if (best < 0 || m[i].row.log_centre < m[best].row.log_centre)
			best = (int)i;
	}
	if (best < 0)
		return -1;
	double level = stats_group_level(candidates);
	bool any_noisy = false;
	for (uint32_t i = 0; i < count; i++) {
		struct stats_member *x = &m[i];
		if (!x->candidate || x->row.units == 0)
			continue;
		if ((int)i == best) {
			x->has_ratio = true;
			x->vs_best.ratio = x->vs_best.low = x->vs_best.high = 1;
			x->vs_best.has_interval = true;
			x->vs_best.pairs = x->row.units;
			x->verdict = "best";
			continue;
		}
		x->has_ratio = stats_ratio(x->samples, x->reps, m[best].samples, m[best].reps, processes,
		                           level, &x->vs_best);
		if (!x->has_ratio)
			continue;
		x->has_rerun = x->vs_best.has_interval &&
		               stats_rerun(x->vs_best.ratio, x->vs_best.log_se, x->vs_best.pairs - 1,
		                           STATS_RERUN_RATIO_SD, &x->rerun_low, &x->rerun_high);
		bool slower = x->vs_best.has_interval && x->vs_best.low > 1;
		x->verdict = slower ? "slower" : "tied";
		x->noisy = !slower && !(x->vs_best.has_interval && x->vs_best.high <= STATS_NOISY_RATIO);
		any_noisy = any_noisy || x->noisy;
	}
	m[best].noisy = any_noisy;
	return best;
}

bool stats_ratio_rounds(const double *x, const double *y, uint32_t processes, uint32_t reps,
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
		half = stats_t975(used - 1) * sd_of(d, used) / sqrt(used);
	} else {
		uint32_t m = 0;
		for (uint32_t r = 0; r < reps; r++) {
			double a = x[(size_t)last * reps + r], b = y[(size_t)last * reps + r];
			if (!isnan(a) && !isnan(b) && a > 0 && b > 0)
				one[m++] = log(a / b);
		}
		mean = mean_of(one, m);
		if (m >= 2)
			half = stats_t975(m - 1) * sd_of(one, m) / sqrt(m);
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

void stats_tail(const double *samples, uint32_t processes, uint32_t reps, double q,
                struct stats_tail *out)
{
	memset(out, 0, sizeof *out);
	out->value = out->ci_low = out->ci_high = NAN;
	double *scratch = malloc((reps ? reps : 1) * sizeof *scratch);
	double *logs = malloc((processes ? processes : 1) * sizeof *logs);
	if (!scratch || !logs) {
		free(scratch);
		free(logs);
		return;
	}
	uint32_t units = 0;
	for (uint32_t p = 0; p < processes; p++) {
		uint32_t m = 0;
		for (uint32_t r = 0; r < reps; r++) {
			double x = samples[(size_t)p * reps + r];
			if (x > 0) /* false for NaN */
				scratch[m++] = x;
		}
		double v = stats_quantile(scratch, m, q);
		if (v > 0)
			logs[units++] = log(v);
	}
	out->units = units;
	if (units) {
		double mean = mean_of(logs, units);
		out->value = exp(mean);
		if (units >= 2) {
			double half = stats_t975(units - 1) * sd_of(logs, units) / sqrt(units);
			out->has_interval = true;
			out->ci_low = exp(mean - half);
			out->ci_high = exp(mean + half);
		}
	}
	free(scratch);
	free(logs);
}
