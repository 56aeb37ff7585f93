/* heaprec.c: the heap records of a command's processes read back, and why
 * the loader would not have preloaded the interposer into a program. */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "base/err.h"
#include "base/spawn.h"
#include "base/grow.h"
#include "base/utf8.h"
#include "model/heaprec.h"

/* A record's text field as valid UTF-8, malloc'd; NULL when out of
 * memory. */
static char *
text(const char *s, size_t max)
{
	return prof_utf8_fix(s, strnlen(s, max), 0, NULL);
}

/* The file fname of dir, of exactly size bytes, into buf: 0, or -1 when
 * it is not a regular file of that size. */
static int
read_whole(int dirfd, const char *fname, void *buf, size_t size)
{
	struct stat st;
	size_t got = 0;
	int fd = openat(dirfd, fname,
			O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	int rc = -1;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size != (off_t)size)
		goto out;
	while (got < size) {
		ssize_t n = read(fd, (char *)buf + got, size - got);

		if (n <= 0)
			goto out;
		got += (size_t)n;
	}
	rc = 0;
out:
	close(fd);
	return rc;
}

/* One record file: 1 read and kept, 0 not a whole record, -1 out of
 * memory. */
static int
read_one(int dirfd, const char *fname, struct prof_heapproc *p)
{
	struct prof_heaprec *r = malloc(sizeof(*r));
	int rc = 0;

	if (!r)
		return -1;
	if (read_whole(dirfd, fname, r, sizeof(*r)) < 0 ||
	    r->magic != PROF_HEAPREC_MAGIC)
		goto out;
	memset(p, 0, sizeof(*p));
	p->pid = r->pid;
	p->ppid = r->ppid;
	p->state = r->state;
	p->exec_env = r->exec_env;
	p->start = r->start;
	p->peak = r->c.peak - r->c.base;
	p->live_end = r->c.live - r->c.base;
	p->allocs = r->c.allocs;
	p->bytes = r->c.bytes;
	p->rss_peak = r->state == PROF_HEAPREC_EXITED ? r->rss_peak : -1;
	p->untracked = r->untracked;
	p->exe = text(r->exe, sizeof(r->exe));
	if (r->state == PROF_HEAPREC_EXEC)
		p->exec = text(r->exec, sizeof(r->exec));
	if (r->untracked > 0)
		p->spawned = text(r->spawned, sizeof(r->spawned));
	rc = 1;
	if (!p->exe || (r->state == PROF_HEAPREC_EXEC && !p->exec) ||
	    (r->untracked > 0 && !p->spawned)) {
		free(p->exe);
		free(p->exec);
		free(p->spawned);
		rc = -1;
	}
out:
	free(r);
	return rc;
}

/* The notes as read, before they are matched with the records. */
struct note {
	int pid, ppid, exec_env;
	unsigned long long start;
	char *by, *prog;
};

/* One note: 1 read and kept, 0 not a whole note, -1 out of memory. */
static int
read_note(int dirfd, const char *fname, struct note *n)
{
	size_t max = sizeof(struct prof_heaprec_note) + 2 * PROF_HEAPREC_PATH;
	struct prof_heaprec_note h;
	char *buf = malloc(max + 1), *by, *prog, *end;
	ssize_t len = 0, got;
	int fd, rc = 0;

	if (!buf)
		return -1;
	fd = openat(dirfd, fname,
		    O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		goto out;
	while ((size_t)len < max &&
	       (got = read(fd, buf + len, max - (size_t)len)) > 0)
		len += got;
	close(fd);
	if ((size_t)len < sizeof(h) + 2)
		goto out;
	memcpy(&h, buf, sizeof(h));
	buf[len] = '\0';
	by = buf + sizeof(h);
	end = memchr(by, '\0', (size_t)len - sizeof(h));
	if (h.magic != PROF_HEAPREC_SPAWN_MAGIC || !end || end + 1 >= buf + len)
		goto out;
	prog = end + 1;
	if (!memchr(prog, '\0', (size_t)(buf + len - prog)))
		goto out;
	n->pid = h.pid;
	n->ppid = h.ppid;
	n->exec_env = h.exec_env;
	n->start = h.start;
	n->by = text(by, PROF_HEAPREC_PATH);
	n->prog = text(prog, PROF_HEAPREC_PATH);
	rc = n->by && n->prog ? 1 : -1;
	if (rc < 0) {
		free(n->by);
		free(n->prog);
	}
out:
	free(buf);
	return rc;
}

static int
by_pid(const void *a, const void *b)
{
	const struct prof_heapmiss *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* The notes with no record of their pid and start into out->miss; the
 * notes are taken (their strings moved or freed). */
static void
match_notes(struct prof_heaprecs *out, struct note *notes, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		struct prof_heapmiss *m;
		int found = 0;

		for (j = 0; j < out->n && !found; j++)
			found = out->p[j].pid == notes[i].pid &&
				out->p[j].start == notes[i].start;
		if (found) {
			free(notes[i].by);
			free(notes[i].prog);
			continue;
		}
		m = &out->miss[out->n_miss++];
		m->pid = notes[i].pid;
		m->ppid = notes[i].ppid;
		m->exec_env = notes[i].exec_env;
		m->by = notes[i].by;
		m->prog = notes[i].prog;
	}
	if (out->n_miss)
		qsort(out->miss, out->n_miss, sizeof(*out->miss), by_pid);
}

static int
by_start(const void *a, const void *b)
{
	const struct prof_heapproc *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* Whether name ends in suffix, after at least one character. */
static int
ends_in(const char *name, const char *suffix)
{
	size_t len = strlen(name), n = strlen(suffix);

	return len > n && !strcmp(name + len - n, suffix);
}

int
prof_heaprec_read(const char *dir, struct prof_heaprecs *out,
		  struct prof_err *err)
{
	size_t cap = 0, n_notes = 0, cap_notes = 0, i;
	struct note *notes = NULL;
	DIR *d;
	struct dirent *e;

	memset(out, 0, sizeof(*out));
	d = opendir(dir);
	if (!d)
		return prof_err_set(err, "cannot read '%s': %s", dir,
				    strerror(errno));
	while ((e = readdir(d))) {
		int rc;

		if (ends_in(e->d_name, PROF_HEAPREC_SUFFIX)) {
			if (PROF_GROW(out->p, out->n + 1, cap) < 0)
				goto oom;
			rc = read_one(dirfd(d), e->d_name, &out->p[out->n]);
			if (rc > 0)
				out->n++;
		} else if (ends_in(e->d_name, PROF_HEAPREC_SPAWN_SUFFIX)) {
			if (PROF_GROW(notes, n_notes + 1, cap_notes) < 0)
				goto oom;
			rc = read_note(dirfd(d), e->d_name, &notes[n_notes]);
			if (rc > 0)
				n_notes++;
		} else {
			continue;
		}
		if (rc < 0)
			goto oom;
		if (rc == 0)
			out->incomplete++;
	}
	closedir(d);
	d = NULL;
	if (out->n)
		qsort(out->p, out->n, sizeof(*out->p), by_start);
	if (n_notes) {
		out->miss = calloc(n_notes, sizeof(*out->miss));
		if (!out->miss)
			goto oom;
		match_notes(out, notes, n_notes);
	}
	free(notes);
	return 0;
oom:
	if (d)
		closedir(d);
	for (i = 0; i < n_notes; i++) {
		free(notes[i].by);
		free(notes[i].prog);
	}
	free(notes);
	prof_heaprec_free(out);
	return prof_err_set(err, "out of memory");
}

void
prof_heaprec_free(struct prof_heaprecs *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		free(r->p[i].exe);
		free(r->p[i].exec);
		free(r->p[i].spawned);
	}
	free(r->p);
	for (i = 0; i < r->n_miss; i++) {
		free(r->miss[i].by);
		free(r->miss[i].prog);
	}
	free(r->miss);
	memset(r, 0, sizeof(*r));
}

/* prog as a path: itself with a slash, else the first executable of that
 * name in PATH. 0, or -1. */
static int
find(const char *prog, char *out, size_t n)
{
	if (strchr(prog, '/')) {
		snprintf(out, n, "%s", prog);
		return 0;
	}
	return prof_path_search(prog, NULL, out, n);
}

/* Whether the ELF file fd has no PT_INTERP: 1 static, 0 dynamic (or not
 * an ELF file), -1 unreadable. */
static int
elf_static(int fd)
{
	unsigned char id[EI_NIDENT];
	union {
		Elf64_Ehdr e64;
		Elf32_Ehdr e32;
	} h;
	unsigned long long phoff, phnum, phentsize, i;
	int is64;
	size_t n;

	if (pread(fd, id, sizeof(id), 0) != (ssize_t)sizeof(id) ||
	    memcmp(id, ELFMAG, SELFMAG))
		return 0;
	if (id[EI_CLASS] != ELFCLASS64 && id[EI_CLASS] != ELFCLASS32)
		return 0;
	/* The file's header in its class's layout. */
	is64 = id[EI_CLASS] == ELFCLASS64;
	n = is64 ? sizeof(h.e64) : sizeof(h.e32);
	if (pread(fd, &h, n, 0) != (ssize_t)n)
		return -1;
	phoff = is64 ? h.e64.e_phoff : h.e32.e_phoff;
	phnum = is64 ? h.e64.e_phnum : h.e32.e_phnum;
	phentsize = is64 ? h.e64.e_phentsize : h.e32.e_phentsize;
	if (phentsize < sizeof(Elf32_Word))
		return -1;
	for (i = 0; i < phnum && i < 4096; i++) {
		Elf32_Word type;	/* p_type leads both classes' header */

		if (pread(fd, &type, sizeof(type),
			  (off_t)(phoff + i * phentsize)) !=
		    (ssize_t)sizeof(type))
			return -1;
		if (type == PT_INTERP)
			return 0;
	}
	return 1;
}

static const char *
unloaded(const char *prog, int depth)
{
	char path[PATH_MAX], line[PATH_MAX];
	struct stat st;
	ssize_t n;
	int fd, st_static;

	if (depth > 4 || find(prog, path, sizeof(path)) < 0)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return NULL;
	}
	n = pread(fd, line, sizeof(line) - 1, 0);
	if (n > 2 && line[0] == '#' && line[1] == '!') {
		char *p = line + 2, *end;

		close(fd);
		line[n] = '\0';
		p += strspn(p, " \t");
		end = p + strcspn(p, " \t\n");
		*end = '\0';
		/* The kernel runs the interpreter; the loader preloads into
		 * it, and a set-id bit on a script is never honoured. */
		return p[0] == '/' ? unloaded(p, depth + 1) : NULL;
	}
	st_static = elf_static(fd);
	close(fd);
	if (st_static == 1)
		return "a static program";
	if ((st.st_mode & S_ISUID) && st.st_uid != getuid())
		return "a setuid program";
	if ((st.st_mode & S_ISGID) && st.st_gid != getgid())
		return "a setgid program";
	if (getuid() != 0 &&
	    getxattr(path, "security.capability", NULL, 0) > 0)
		return "a program with file capabilities";
	return NULL;
}

const char *
prof_heaprec_unloaded(const char *prog)
{
	return prog && prog[0] ? unloaded(prog, 0) : NULL;
}
