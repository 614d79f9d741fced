/* Latency samples in the load benchmarks: kept as floats (millions of them
 * in a run) and read as nearest-rank percentiles. */
#ifndef CHESS_BENCH_SAMPLES_H
#define CHESS_BENCH_SAMPLES_H

#include <stddef.h>

struct samples {
	float *ms;
	size_t count, cap;
};

/* Adds one sample; out of memory loses the sample, not the run. */
void samples_add(struct samples *s, double ms);
/* Sorts the samples and reads the 50th and 99th percentiles and the maximum; -1 without samples. */
void samples_summary(struct samples *s, double *p50, double *p99, double *max);
void samples_free(struct samples *s);

#endif
