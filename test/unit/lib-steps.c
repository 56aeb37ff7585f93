/* lib-steps.c: the penalized L1 step fit that finds change points. */
#include "history/steps.h"
#include "tap.h"

int
main(void)
{
	static const double noise[20] = {
		1.00, 1.03, 0.98, 1.02, 0.97, 1.01, 1.03, 0.99, 0.98, 1.02,
		1.01, 0.97, 1.03, 0.99, 1.02, 0.98, 1.01, 1.03, 0.97, 1.00,
	};
	double x[40];
	size_t cuts[40];
	long n;
	int i;

	plan(12);
	for (i = 0; i < 20; i++)
		x[i] = 10 * noise[i] * (i >= 10 ? 1.3 : 1);
	n = prof_steps_fit(x, 20, cuts);
	is_int(n, 1, "a 30% step in 20 noisy runs: one cut");
	is_int((long long)cuts[0], 10, "at the first run after the step");
	for (i = 0; i < 20; i++)
		x[i] = 10 * noise[i];
	is_int(prof_steps_fit(x, 20, cuts), 0, "a flat noisy series: none");
	for (i = 0; i < 20; i++)
		x[i] = 10;
	x[7] = 20;
	is_int(prof_steps_fit(x, 20, cuts), 0, "one slow run is no change");
	for (i = 0; i < 20; i++)
		x[i] = 10;
	is_int(prof_steps_fit(x, 20, cuts), 0, "a constant series: none");
	for (i = 0; i < 30; i++)
		x[i] = 10 * noise[i % 20] * (i >= 10 ? 0.5 : 1) *
		       (i >= 20 ? 3 : 1);
	n = prof_steps_fit(x, 30, cuts);
	is_int(n, 2, "two steps: two cuts");
	is_int((long long)(n == 2 ? cuts[0] * 100 + cuts[1] : 0), 1020,
	       "at 10 and 20");
	x[0] = 1;
	x[1] = 1;
	x[2] = 5;
	is_int(prof_steps_fit(x, 3, cuts), 0, "fewer than 4 runs: none");
	x[0] = 1, x[1] = 1, x[2] = 5, x[3] = 5;
	n = prof_steps_fit(x, 4, cuts);
	is_int(n, 1, "4 runs with a clear step: one cut");
	is_int((long long)cuts[0], 2, "between the pairs");
	is_num(prof_steps_median(x, 4), 3, 0, "median of an even count");
	is_num(prof_steps_median(noise, 3), 1.00, 0, "median of an odd count");
	return done();
}
