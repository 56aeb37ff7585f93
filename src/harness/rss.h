/* rss.h: this process's peak resident set (VmHWM), for the worker's memory
 * phase and the Google Benchmark loop's preload, which links nothing of
 * prof's (a static function each includes). */
#ifndef PROF_HARNESS_RSS_H
#define PROF_HARNESS_RSS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* VmHWM of this process in bytes, -1 when unknown. */
static inline long long
rss_peak(void)
{
	FILE *fp = fopen("/proc/self/status", "r");
	char line[256];
	long long kb = -1;

	if (!fp)
		return -1;
	while (fgets(line, sizeof(line), fp))
		if (!strncmp(line, "VmHWM:", 6))
			kb = strtoll(line + 6, NULL, 10);
	fclose(fp);
	return kb < 0 ? -1 : kb * 1024;
}

#endif
