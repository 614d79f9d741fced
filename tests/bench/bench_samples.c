/* Latency samples of the load benchmarks (bench_samples.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_samples.h"

void samples_add(struct samples *s, double ms)
{
	if (s->count == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 4096;
		float *grown = realloc(s->ms, cap * sizeof *grown);
		if (!grown)
			return;
		s->ms = grown;
		s->cap = cap;
	}
	s->ms[s->count++] = (float)ms;
}

static int float_cmp(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return (x > y) - (x < y);
}

void samples_summary(struct samples *s, double *p50, double *p99, double *max)
{
	*p50 = *p99 = *max = -1;
	if (!s->count)
		return;
	qsort(s->ms, s->count, sizeof *s->ms, float_cmp);
	*p50 = s->ms[(size_t)ceil(0.50 * (double)s->count) - 1];
	*p99 = s->ms[(size_t)ceil(0.99 * (double)s->count) - 1];
	*max = s->ms[s->count - 1];
}

void samples_free(struct samples *s)
{
	free(s->ms);
	memset(s, 0, sizeof *s);
}
