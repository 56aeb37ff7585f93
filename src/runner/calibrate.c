/* calibrate.c: the calibration kernel that every timing run measures at
 * its start, between its groups and at its end (the machine-drift guard),
 * written as records into one sample stream or both sides' of an A/B. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/calib.h"
#include "runner-int.h"

/* The calibration of one run: the kernel's memory, the machine at start. */
struct calibrate_run {
	struct prof_calib k;
	struct prof_calib_machine m;
};

/* rec into a, and into b when there is one; rec is dropped. */
static int
put(struct json_object *rec, FILE *a, FILE *b)
{
	int rc = 0;

	if (!rec)
		return 0;	/* out of memory: no point, no failure */
	if (output_write_record(a, rec) < 0 ||
	    (b && output_write_record(b, rec) < 0))
		rc = -1;
	json_object_put(rec);
	return rc;
}

/*
 * Start a run's calibration: the machine's state, then the kernel once
 * ("start"). NULL (no calibration, and no failure) when out of memory.
 */
struct calibrate_run *
calibrate_begin(FILE *a, FILE *b)
{
	struct calibrate_run *c = calloc(1, sizeof(*c));
	struct prof_err err = {0};

	if (!c)
		return NULL;
	if (prof_calib_init(&c->k, &err) < 0) {
		free(c);
		return NULL;
	}
	prof_calib_machine_start(&c->m);
	if (calibrate_point(c, "start", a, b) < 0) {
		calibrate_free(c);
		return NULL;
	}
	return c;
}

/* The kernel once more; at is "between" or "end". -1: a failed write. */
int
calibrate_point(struct calibrate_run *c, const char *at, FILE *a, FILE *b)
{
	if (!c)
		return 0;
	return put(prof_calib_measure(&c->k, at), a, b);
}

/* The last point and the machine record (steal over the run). */
int
calibrate_end(struct calibrate_run *c, FILE *a, FILE *b)
{
	if (!c)
		return 0;
	if (calibrate_point(c, "end", a, b) < 0)
		return -1;
	return put(prof_calib_machine_json(&c->m), a, b);
}

void
calibrate_free(struct calibrate_run *c)
{
	if (!c)
		return;
	prof_calib_free(&c->k);
	free(c);
}
