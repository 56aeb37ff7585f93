/* lib-afile-links.c: outputs through links, into open files, over inputs. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/afile.h"
#include "tap.h"

static char dir[64] = "/tmp/lib-afile.XXXXXX";

/* A path in the test's folder (one of four rotating buffers). */
static const char *
at(const char *name)
{
	static char buf[4][4200];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}

static const char *
slurp(const char *path)
{
	static char buf[256];
	FILE *fp = fopen(path, "r");
	size_t n = 0;

	buf[0] = '\0';
	if (fp) {
		n = fread(buf, 1, sizeof(buf) - 1, fp);
		fclose(fp);
	}
	buf[n] = '\0';
	return buf;
}

static int
is_link(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

int
main(void)
{
	struct prof_err err = {0};
	struct prof_afile af, af2;
	char proc[64], rm[128];
	FILE *fp;
	int fd, rc;

	plan(17);
	if (!mkdtemp(dir))
		return 1;
	if (mkdir(at("sub"), 0755) != 0 || mkdir(at("other"), 0755) != 0)
		return 1;

	/* A relative link is read from its own folder. */
	if (symlink("../other/t.txt", at("sub/l.txt")) != 0)
		return 1;
	rc = prof_afile_write(at("sub/l.txt"), "one\n", 4, &err);
	is_int(rc, 0, "write through a relative link");
	ok(is_link(at("sub/l.txt")), "the link is still a link");
	is_str(slurp(at("other/t.txt")), "one\n", "its target holds the text");
	ok(access(at("sub/t.txt"), F_OK) != 0,
	   "nothing is made beside the link");

	/* A chain: link -> link -> file, replaced atomically at the end. */
	if (symlink("sub/l.txt", at("l2.txt")) != 0)
		return 1;
	rc = prof_afile_write(at("l2.txt"), "two\n", 4, &err);
	ok(rc == 0 && is_link(at("l2.txt")) && is_link(at("sub/l.txt")),
	   "a chain of links stays links");
	is_str(slurp(at("other/t.txt")), "two\n", "the last target is written");

	/* A loop is an error, not a hang. */
	if (symlink("loop2", at("loop1")) != 0 ||
	    symlink("loop1", at("loop2")) != 0)
		return 1;
	rc = prof_afile_write(at("loop1"), "x", 1, &err);
	ok(rc < 0 && strstr(err.reason, "too many symbolic links") &&
		   is_link(at("loop1")),
	   "a loop of links is refused");

	/* An open file named by /proc: appended to, the link kept. */
	fd = open(at("open.txt"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, "head\n", 5) != 5)
		return 1;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (symlink(proc, at("fd")) != 0)
		return 1;
	fp = prof_afile_open(&af, at("fd"), &err);
	ok(fp && af.direct, "a link to /proc/self/fd/N is written through");
	if (fp)
		fputs("body\n", fp);
	is_int(fp ? prof_afile_commit(&af, &err) : -1, 0, "and committed");
	close(fd);
	ok(is_link(at("fd")), "the /proc link is still a link");
	is_str(slurp(at("open.txt")), "head\nbody\n",
	       "what the file held before stays, the output follows it");

	/* An input is refused at open, through a link, and at commit. */
	if (prof_afile_write(at("in.json"), "{}\n", 3, &err) != 0 ||
	    symlink("in.json", at("in-link.json")) != 0)
		return 1;
	fp = prof_afile_open(&af, at("out.json"), &err);
	if (!fp)
		return 1;
	fd = open(at("in.json"), O_RDONLY);
	prof_afile_note_input(fd);
	close(fd);
	ok(!prof_afile_open(&af2, at("in-link.json"), &err) &&
		   !strcmp(err.reason,
			   "is an input; refusing to overwrite it"),
	   "an output that is a noted input is refused at open");
	if (rename(at("in.json"), at("out.json")) != 0)
		return 1;
	fputs("[]\n", fp);
	prof_err_clear(&err);
	ok(prof_afile_commit(&af, &err) < 0 &&
		   !strcmp(err.reason,
			   "is an input; refusing to overwrite it"),
	   "and at commit, when the input took its name after open");
	is_str(slurp(at("out.json")), "{}\n", "the input is intact");

	/* prof_same_file: "-" is stdin's file. */
	fd = open(at("out.json"), O_RDONLY);
	if (fd < 0 || dup2(fd, STDIN_FILENO) < 0)
		return 1;
	close(fd);
	ok(prof_same_file(at("out.json"), "-"), "stdin's file is input '-'");
	ok(!prof_same_file("/dev/null", "-") &&
		   !prof_same_file("-", at("out.json")),
	   "a device or an output '-' never is");

	/* The registry of temporary files: a stdin copy goes with them. */
	{
		char tmpl[4200];

		snprintf(tmpl, sizeof(tmpl), "%s", at("copy.XXXXXX"));
		fd = prof_afile_mkstemp(tmpl);
		if (fd >= 0)
			close(fd);
		prof_afile_unlink_all();
		ok(fd >= 0 && access(tmpl, F_OK) != 0,
		   "a registered temporary file is removed on an interrupt");
	}
	snprintf(rm, sizeof(rm), "rm -rf '%s'", dir);
	if (system(rm) != 0)
		return 1;
	return done();
}
