/* runfiles.c: the run files under folders, as prof-history import finds
 * them (runfiles.h). */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/grow.h"
#include "base/htab.h"
#include "cli.h"
#include "runfiles.h"

/* The *.json files under the folders, sorted, for import; those of them
 * that are not regular files, which import skips; and the symbolic links
 * met on the way, followed once the folders themselves are walked. */
static struct cli_paths found, odd, links;

static int
add_path(struct cli_paths *l, const char *path)
{
	char *copy;

	if (PROF_GROW(l->paths, l->n + 1, l->cap) < 0)
		return -1;
	copy = strdup(path);
	if (!copy)
		return -1;
	l->paths[l->n++] = copy;
	return 0;
}

void
cli_paths_free(struct cli_paths *l)
{
	prof_strv_free(l->paths, l->n);
	memset(l, 0, sizeof(*l));
}

/*
 * The folders walked and the run files found, by device and inode: a
 * symbolic link to one of them (a loop, a second name for a folder or a
 * file) is not followed again, so each is read once however many links
 * lead to it.
 */
static struct prof_htab walked;
/* Not through links (they are followed after: follow_links()); a folder
 * walked already is skipped whole (GNU nftw's FTW_ACTIONRETVAL). */
#define WALK_FLAGS (FTW_PHYS | FTW_ACTIONRETVAL)

/* Whether sb's file was walked or found (1, or 0); with mark, it is now
 * (-1 when out of memory). */
static int
walked_before(const struct stat *sb, int mark)
{
	struct {
		unsigned long long dev, ino;
	} key = {(unsigned long long)sb->st_dev,
		 (unsigned long long)sb->st_ino};

	if (prof_htab_get(&walked, &key, sizeof(key)) >= 0)
		return 1;
	if (mark && prof_htab_put(&walked, &key, sizeof(key), 0) < 0)
		return -1;
	return 0;
}

static int
is_json_name(const char *path)
{
	size_t len = strlen(path);

	return len >= 5 && !strcmp(path + len - 5, ".json");
}

/*
 * Only regular files are read: a FIFO named x.json would block the import
 * for ever, and a device could be read without end. A symbolic link, of
 * any name, is kept in links and followed after the walk
 * (follow_links()); a folder that cannot be read is said, not passed over.
 */
static int
collect(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	char safe[512];
	int k;

	(void)ftw;
	if (type == FTW_SL)
		return add_path(&links, path) < 0 ? FTW_STOP : FTW_CONTINUE;
	if (type == FTW_D) {
		k = walked_before(sb, 1);
		return k < 0 ? FTW_STOP : k ? FTW_SKIP_SUBTREE : FTW_CONTINUE;
	}
	if (type == FTW_DNR || type == FTW_NS) {
		cli_say("skipped '%s': %s", cli_safe(path, safe, sizeof(safe)),
			type == FTW_DNR ? "a folder that cannot be read" :
					  "cannot be looked at (stat failed)");
		return FTW_CONTINUE;
	}
	if (type != FTW_F || !is_json_name(path))
		return FTW_CONTINUE;
	if (!S_ISREG(sb->st_mode))
		return add_path(&odd, path) < 0 ? FTW_STOP : FTW_CONTINUE;
	k = walked_before(sb, 1);
	if (k < 0 || (!k && add_path(&found, path) < 0)) {
		errno = ENOMEM;
		return FTW_STOP;
	}
	return FTW_CONTINUE;
}

/* What a file that is not a regular file is, in words. */
static const char *
file_kind(mode_t m)
{
	return S_ISFIFO(m)  ? "a FIFO" :
	       S_ISSOCK(m)  ? "a socket" :
	       S_ISCHR(m)   ? "a character device" :
	       S_ISBLK(m)   ? "a block device" :
	       S_ISLNK(m)   ? "a symbolic link" :
	       S_ISDIR(m)   ? "a folder" :
			      "not a regular file";
}

void
cli_run_file_skipped(const char *path)
{
	struct stat sb;
	char safe[512];

	cli_say("skipped '%s': %s (import reads regular files only)",
		cli_safe(path, safe, sizeof(safe)),
		lstat(path, &sb) == 0 ? file_kind(sb.st_mode) :
					"no longer there");
}

static int
cmp_paths(const void *a, const void *b);

/*
 * The symbolic links the walk met, followed (as find -L would), those
 * that its folders' walks meet in turn too, in path order: a link to a
 * folder walks it, a link named *.json to a regular file reads it; a
 * link to what was walked or read already (a loop, another name for it:
 * walked_before()) is not followed again, and one to nothing is said,
 * one line each. *followed and *again count them. 0, or -1 after saying
 * why.
 */
static int
follow_links(size_t *followed, size_t *again)
{
	char safe[512];
	size_t i;

	for (i = 0; i < links.n; i++) {
		const char *path;
		struct stat sb;
		char *real;
		int k;

		/* In path order, those found by the last walk among them. */
		qsort(links.paths + i, links.n - i, sizeof(*links.paths),
		      cmp_paths);
		path = links.paths[i];
		if (stat(path, &sb) != 0) {
			cli_say("skipped '%s': a symbolic link to nothing "
				"(%s)", cli_safe(path, safe, sizeof(safe)),
				strerror(errno));
			continue;
		}
		if (!S_ISDIR(sb.st_mode) && !is_json_name(path))
			continue;	/* no run file, as by its own name */
		if (!S_ISDIR(sb.st_mode) && !S_ISREG(sb.st_mode)) {
			cli_say("skipped '%s': a symbolic link to %s (import "
				"reads regular files only)",
				cli_safe(path, safe, sizeof(safe)),
				file_kind(sb.st_mode));
			continue;
		}
		/* A folder is marked walked by its walk (collect()). */
		k = walked_before(&sb, S_ISREG(sb.st_mode));
		if (k < 0)
			goto oom;
		if (k == 1) {
			++*again;
			continue;
		}
		++*followed;
		if (S_ISREG(sb.st_mode)) {
			if (add_path(&found, path) < 0)
				goto oom;
			continue;
		}
		/* The folder by its own name: nftw does not go through a
		 * link. */
		real = realpath(path, NULL);
		if (!real || nftw(real, collect, 32, WALK_FLAGS) != 0) {
			cli_say("cannot read '%s': %s",
				cli_safe(path, safe, sizeof(safe)),
				strerror(errno));
			free(real);
			return -1;
		}
		free(real);
	}
	return 0;
oom:
	cli_say("out of memory");
	return -1;
}

static int
cmp_paths(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
cli_run_files(int n, char **dirs, struct cli_paths *out, size_t *followed,
	      size_t *again)
{
	struct stat sb;
	char safe[512];
	size_t i;
	int k, rc = -1;

	for (k = 0; k < n; k++) {
		if (stat(dirs[k], &sb) != 0 || !S_ISDIR(sb.st_mode)) {
			cli_say("'%s' is not a folder (import takes folders; "
				"add takes files)",
				cli_safe(dirs[k], safe, sizeof(safe)));
			goto out;
		}
		/* Not through symbolic links: those are followed once the
		 * folders are walked, so that each folder is walked once. */
		if (nftw(dirs[k], collect, 32, WALK_FLAGS) != 0) {
			cli_say("cannot read '%s': %s",
				cli_safe(dirs[k], safe, sizeof(safe)),
				strerror(errno));
			goto out;
		}
	}
	if (follow_links(followed, again) < 0)
		goto out;
	if (found.n)
		qsort(found.paths, found.n, sizeof(*found.paths), cmp_paths);
	if (odd.n)
		qsort(odd.paths, odd.n, sizeof(*odd.paths), cmp_paths);
	for (i = 0; i < odd.n; i++)
		cli_run_file_skipped(odd.paths[i]);
	*out = found;
	memset(&found, 0, sizeof(found));
	rc = 0;
out:
	cli_paths_free(&found);
	cli_paths_free(&odd);
	cli_paths_free(&links);
	prof_htab_free(&walked);
	return rc;
}
