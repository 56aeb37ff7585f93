/* registry.c: the workloads a binary registered, checked at start-up. */
#include <stdlib.h>
#include <string.h>

#include "base/id.h"
#include "internal.h"

#define MAX_WORKLOADS 512

#define MAX_FACTS 32

static const struct prof_workload *table[MAX_WORKLOADS];
static const struct prof_build_facts *facts[MAX_WORKLOADS];
static size_t count;
static struct {
	const char *name;
	const char *value;
} project_facts[MAX_FACTS];
static size_t n_project_facts;
static const char *duplicate;
static int overflow;

void
prof_workload_register(const struct prof_workload *w)
{
	prof_workload_register_built(w, NULL);
}

void
prof_workload_register_built(const struct prof_workload *w,
			     const struct prof_build_facts *b)
{
	size_t i;

	for (i = 0; i < count; i++)
		if (w->id && table[i]->id && !strcmp(table[i]->id, w->id)) {
			if (!duplicate)
				duplicate = w->id;
			return;
		}
	if (count == MAX_WORKLOADS) {
		overflow = 1;
		return;
	}
	facts[count] = b;
	table[count++] = w;
}

const struct prof_build_facts *
prof_registry_facts(const struct prof_workload *w)
{
	size_t i;

	for (i = 0; i < count; i++)
		if (table[i] == w)
			return facts[i];
	return NULL;
}

void
prof_build_fact(const char *name, const char *value)
{
	size_t i;

	if (!name || !name[0] || !value)
		return;
	for (i = 0; i < n_project_facts; i++)
		if (!strcmp(project_facts[i].name, name)) {
			project_facts[i].value = value;
			return;
		}
	if (n_project_facts == MAX_FACTS)
		return;
	project_facts[n_project_facts].name = name;
	project_facts[n_project_facts++].value = value;
}

size_t
prof_registry_build_facts(const char ***names, const char ***values)
{
	static const char *n[MAX_FACTS], *v[MAX_FACTS];
	size_t i;

	for (i = 0; i < n_project_facts; i++) {
		n[i] = project_facts[i].name;
		v[i] = project_facts[i].value;
	}
	*names = n;
	*values = v;
	return n_project_facts;
}

size_t
prof_registry_count(void)
{
	return count;
}

const struct prof_workload *
prof_registry_at(size_t i)
{
	return i < count ? table[i] : NULL;
}

const struct prof_workload *
prof_registry_find(const char *id)
{
	size_t i;

	for (i = 0; i < count; i++)
		if (!strcmp(table[i]->id, id))
			return table[i];
	return NULL;
}

const char *
prof_registry_duplicate(void)
{
	return duplicate;
}

const struct prof_workload *
prof_registry_invalid(const char **why)
{
	size_t i;
	static const struct prof_workload none;
	static char id_why[256];

	if (overflow) {
		*why = "more workloads than the harness holds (512)";
		return &none;
	}
	for (i = 0; i < count; i++) {
		const struct prof_workload *w = table[i];

		if (!w->id || !w->id[0])
			*why = "a workload has no id";
		else if (!prof_id_valid(w->id, id_why, sizeof(id_why)))
			*why = id_why;
		else if (!w->category || !w->category[0])
			*why = "no category";
		else if (!w->run)
			*why = "no run()";
		else if (!(w->backends & (PROF_CPU | PROF_GPU)))
			*why = "no backend (PROF_CPU, PROF_GPU)";
		else if (w->warning_floor_ms < 0)
			*why = "a negative warning floor";
		else if (w->version < 0)
			*why = "a negative version";
		else if (!(w->count_threshold_pct >= 0))
			*why = "a negative count threshold";
		else if (w->threads < 0)
			*why = "a negative thread count";
		else if (!(w->time_threshold_pct >= 0) ||
			 w->time_threshold_pct > 1000)
			*why = "a time threshold not in 0 to 1000";
		else
			continue;
		return w;
	}
	return NULL;
}

long
prof_threads(const struct prof_workload *w)
{
	return w->threads > 1 ? w->threads : 1;
}

double
prof_count_threshold(const struct prof_workload *w)
{
	return w->count_threshold_pct > 0 ? w->count_threshold_pct : 1.0;
}
