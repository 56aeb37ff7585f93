/* reference.c: libxml2 alone on the dense fixture, the parser's share. */
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/parserInternals.h>

#include "engine/fixture.h"
#include "suite.h"

struct ref {
	struct pk_buf svg;
	long elements;
	int well_formed;
};

/* The callbacks do nothing but count, which costs next to nothing. */
static void
ref_start(void *ctx, const xmlChar *localname, const xmlChar *prefix,
	  const xmlChar *uri, int nb_namespaces, const xmlChar **namespaces,
	  int nb_attributes, int nb_defaulted, const xmlChar **attributes)
{
	struct ref *s = ctx;

	(void)localname;
	(void)prefix;
	(void)uri;
	(void)nb_namespaces;
	(void)namespaces;
	(void)nb_attributes;
	(void)nb_defaulted;
	(void)attributes;
	s->elements++;
}

static void
ref_end(void *ctx, const xmlChar *localname, const xmlChar *prefix,
	const xmlChar *uri)
{
	(void)ctx;
	(void)localname;
	(void)prefix;
	(void)uri;
}

static void
ref_error(void *ctx, xmlErrorPtr e)
{
	(void)ctx;
	(void)e;
}

static int
ref_prepare(struct prof_ctx *ctx, void **state)
{
	struct ref *s = calloc(1, sizeof(*s));

	if (!s)
		return prof_fail(ctx, "out of memory");
	*state = s;
	pk_buf_init(&s->svg);
	xmlInitParser();
	return suite_fixture(ctx, pk_fixture_dense_circles, &s->svg);
}

/* What pk_svg_parse() does around its callbacks, and nothing more. */
static int
ref_run(struct prof_ctx *ctx, void *state)
{
	struct ref *s = state;
	xmlSAXHandler sax;
	xmlParserCtxtPtr p;

	memset(&sax, 0, sizeof(sax));
	sax.initialized = XML_SAX2_MAGIC;
	sax.startElementNs = ref_start;
	sax.endElementNs = ref_end;
	sax.serror = ref_error;
	p = xmlCreateMemoryParserCtxt(s->svg.data, (int)s->svg.len);
	if (!p)
		return prof_fail(ctx, "out of memory");
	xmlCtxtUseOptions(p, XML_PARSE_NONET);
	memcpy(p->sax, &sax, sizeof(sax));
	p->userData = s;
	s->elements = 0;
	xmlParseDocument(p);
	s->well_formed = p->wellFormed;
	xmlFreeParserCtxt(p);
	return 0;
}

static int
ref_validate(struct prof_ctx *ctx, void *state)
{
	struct ref *s = state;
	struct prof_sum sum;
	char hex[PROF_SUM_HEX];

	if (!s->well_formed)
		return prof_fail(ctx, "libxml2 found the fixture malformed");
	/* <svg>, <g> and the circles. */
	if (suite_expect(ctx, "elements", (double)s->elements,
			 PK_DENSE_CIRCLES + 2))
		return -1;
	if (prof_sum_init(&sum) < 0)
		return prof_fail(ctx, "out of memory");
	prof_sum_i64(&sum, s->elements);
	prof_sum_final(&sum, hex);
	prof_output_checksum(ctx, hex);
	prof_metric(ctx, "svg_bytes", (double)s->svg.len);
	prof_metric(ctx, "elements", (double)s->elements);
	return 0;
}

static void
ref_teardown(struct prof_ctx *ctx, void *state)
{
	struct ref *s = state;

	(void)ctx;
	pk_buf_free(&s->svg);
	free(s);
}

static const struct prof_workload libxml2_sax_parse = {
	.id = "reference.libxml2_sax_parse",
	.version = 1,
	.category = "reference",
	.fixture = "dense-circles-8000-seed-20260710",
	.quick = 0,
	.backends = PROF_CPU,
	.warning_floor_ms = 5,
	.dtype = "bytes",
	.problem_size = "8000",
	.tile = "none",
	.prepare = ref_prepare,
	.run = ref_run,
	.validate = ref_validate,
	.teardown = ref_teardown,
};
PROF_WORKLOAD(libxml2_sax_parse)
