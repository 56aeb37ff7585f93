/* engine-estimate.c: plot time with trapezoidal moves, pen lifts, corners. */
#include "tap.h"

#include "engine/estimate.h"

static struct pk_drawing D;

static void
path(const double *xy, size_t n)
{
	static const struct pk_style st = {0, 0, 0, 0.3};
	size_t i;

	pk_drawing_begin(&D, &st);
	for (i = 0; i < n; i++)
		pk_drawing_point(&D, xy[2 * i], xy[2 * i + 1]);
	pk_drawing_end(&D, 0, 0, 0, 0);
}

int
main(void)
{
	const struct pk_plotter p = {1000, 50, 100, 0.2, 30};
	struct pk_estimate e;

	plan(17);
	/* 50 mm/s at 1000 mm/s^2: 1.25 mm to reach it, 1.25 to stop. */
	is_num(pk_move_time(100, 1000, 50), 100.0 / 50 + 50.0 / 1000, 1e-12,
	       "a long move: d / v + v / a");
	is_num(pk_move_time(2.5, 1000, 50), 0.1, 1e-12,
	       "just long enough to reach top speed: both formulas, 0.1 s");
	is_num(pk_move_time(1, 1000, 50), 2 * sqrt(1.0 / 1000), 1e-12,
	       "a short move never reaches it: 2 sqrt(d / a)");
	is_num(pk_move_time(0, 1000, 50), 0, 0, "no move takes no time");

	pk_drawing_init(&D);
	pk_drawing_pen(&D, 0);
	{
		const double line[] = {30, 40, 130, 40};

		path(line, 2);
	}
	ok(pk_estimate_plot(&D, &p, &e) == 0, "one line");
	is_num(e.up_mm, 50, 1e-12, "pen up from the origin: 50 mm");
	is_num(e.up_s, pk_move_time(50, 1000, 100), 1e-12,
	       "at pen-up speed");
	is_num(e.down_mm, 100, 1e-12, "pen down: 100 mm");
	is_num(e.down_s, pk_move_time(100, 1000, 50), 1e-12,
	       "in one move at pen-down speed");
	is_num(e.lift_s, 0.4, 1e-12, "one drop and one lift");
	is_num(e.total_s, e.up_s + e.down_s + e.lift_s, 1e-12,
	       "the total is the sum");

	pk_drawing_clear(&D);
	pk_drawing_pen(&D, 0);
	{
		/* A square: four stops; then a path joined to its end. */
		const double sq[] = {0, 0, 10, 0, 10, 10, 0, 10, 0, 0};
		const double on[] = {0, 0, 0, -10};
		const double far[] = {100, 0, 101, 0};

		path(sq, 5);
		path(on, 2);
		path(far, 2);
	}
	pk_estimate_plot(&D, &p, &e);
	is_int((long long)e.strokes, 2, "a path that starts where the last "
					 "ended is drawn without a lift");
	is_int((long long)e.moves, 6, "the square's corners stop the pen: "
				      "4 + 1 + 1 moves");
	is_num(e.down_s, 5 * pk_move_time(10, 1000, 50) +
				 pk_move_time(1, 1000, 50),
	       1e-12, "each move from rest to rest");
	is_num(e.up_mm, sqrt(100 * 100 + 10 * 10), 1e-12,
	       "pen up from (0,-10) to (100,0)");

	pk_drawing_clear(&D);
	pk_drawing_pen(&D, 0);
	{
		/* A gentle zigzag: 20 degree turns are taken at speed. */
		double zz[22];
		int i;

		for (i = 0; i < 11; i++) {
			zz[2 * i] = 10.0 * i;
			zz[2 * i + 1] = (i % 2) * 10.0 * tan(10 * M_PI / 180);
		}
		path(zz, 11);
	}
	pk_estimate_plot(&D, &p, &e);
	is_int((long long)e.moves, 1, "turns gentler than corner_deg: one "
				      "move");
	{
		const struct pk_plotter bad = {0, 50, 100, 0.2, 30};

		is_int(pk_estimate_plot(&D, &bad, &e), -1,
		       "no acceleration is an error");
	}
	pk_drawing_free(&D);
	return done();
}
