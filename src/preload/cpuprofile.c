/* cpuprofile.c: libprof-cpuprofile.so, an LD_PRELOAD shim that CPU-profiles
 * one program that is not ours with gperftools, and only that program.
 *
 * With PROF_CPUPROFILE=FILE it loads libprofiler, starts it on FILE and
 * stops it at exit. It then removes itself and that variable from the
 * environment, so the children the program starts are not profiled into
 * the same file. CPUPROFILE_FREQUENCY is honoured (default 1000 Hz: the
 * kernel's timer gives at most about 250 samples a second here anyway).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void (*stop)(void);

/* Drop our own entries from LD_PRELOAD (colon or space separated). */
static void
scrub_preload(void)
{
	const char *pre = getenv("LD_PRELOAD");
	char out[4096], item[1024];
	size_t k = 0;

	if (!pre)
		return;
	out[0] = '\0';
	while (*pre) {
		size_t n = strcspn(pre, ": ");

		if (n && n < sizeof(item)) {
			memcpy(item, pre, n);
			item[n] = '\0';
			if (!strstr(item, "libprof-cpuprofile") &&
			    k + n + 2 < sizeof(out)) {
				if (k)
					out[k++] = ':';
				memcpy(out + k, item, n);
				k += n;
				out[k] = '\0';
			}
		}
		pre += n;
		while (*pre == ':' || *pre == ' ')
			pre++;
	}
	if (k)
		setenv("LD_PRELOAD", out, 1);
	else
		unsetenv("LD_PRELOAD");
}

static void __attribute__((constructor))
start(void)
{
	const char *file = getenv("PROF_CPUPROFILE");
	char path[4096];
	int (*start_fn)(const char *);
	void *lib;

	if (!file || !file[0])
		return;
	snprintf(path, sizeof(path), "%s", file);
	unsetenv("PROF_CPUPROFILE");
	scrub_preload();
	setenv("CPUPROFILE_FREQUENCY", "1000", 0);
	lib = dlopen("libprofiler.so.0", RTLD_NOW | RTLD_GLOBAL);
	if (!lib) {
		fprintf(stderr, "libprof-cpuprofile: %s\n", dlerror());
		return;
	}
	start_fn = (int (*)(const char *))dlsym(lib, "ProfilerStart");
	stop = (void (*)(void))dlsym(lib, "ProfilerStop");
	if (!start_fn || !stop || !start_fn(path)) {
		fprintf(stderr, "libprof-cpuprofile: cannot start the profiler on '%s'\n",
			path);
		stop = NULL;
	}
}

static void __attribute__((destructor))
finish(void)
{
	if (stop)
		stop();
}
