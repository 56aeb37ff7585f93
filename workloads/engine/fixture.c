/* fixture.c: the dense-circles and layered SVG fixtures, from the seed. */
#include "fixture.h"
#include "rng.h"

static void
header(struct pk_buf *b)
{
	pk_buf_str(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		      "<svg xmlns=\"http://www.w3.org/2000/svg\"\n"
		      "     xmlns:inkscape=\"http://www.inkscape.org/"
		      "namespaces/inkscape\"\n"
		      "     width=\"420mm\" height=\"297mm\" "
		      "viewBox=\"0 0 420 297\">\n");
}

/* Circle i of the dense pattern, jittered by rng. */
static void
circle(struct pk_buf *b, struct pk_rng *rng, size_t i)
{
	double cx = 10 + (double)(i % PK_DENSE_COLUMNS) * 4.0 +
		    pk_rng_range(rng, -0.2, 0.2);
	double cy = 10 + (double)(i / PK_DENSE_COLUMNS) * 3.5 +
		    pk_rng_range(rng, -0.2, 0.2);
	double r = 1.0 + (double)(i % 7) * 0.25;

	pk_buf_printf(b, "  <circle cx=\"%.6f\" cy=\"%.6f\" r=\"%.6f\"/>\n",
		      cx, cy, r);
}

int
pk_fixture_dense_circles(struct pk_buf *out)
{
	struct pk_rng rng;
	size_t i;

	pk_buf_reset(out);
	pk_rng_seed(&rng, PK_FIXTURE_SEED);
	header(out);
	pk_buf_str(out, "<g id=\"dense-circles\" stroke=\"#000000\" "
			"fill=\"none\" stroke-width=\"0.300000\">\n");
	for (i = 0; i < PK_DENSE_CIRCLES; i++)
		circle(out, &rng, i);
	pk_buf_str(out, "</g>\n</svg>\n");
	return out->oom ? -1 : 0;
}

int
pk_fixture_layers(struct pk_buf *out)
{
	struct pk_rng rng;
	size_t i, k;

	pk_buf_reset(out);
	pk_rng_seed(&rng, PK_FIXTURE_SEED);
	header(out);
	pk_buf_str(out, "<g inkscape:groupmode=\"layer\" id=\"layer1\" "
			"inkscape:label=\"circles\"\n   style=\"stroke:#000000;"
			"fill:none;stroke-width:0.3\">\n");
	for (i = 0; i < PK_LAYERS_CIRCLES; i++)
		circle(out, &rng, i);
	pk_buf_str(out, "</g>\n<g inkscape:groupmode=\"layer\" id=\"layer2\" "
			"inkscape:label=\"walks\" stroke=\"#1f77b4\" "
			"fill=\"none\" stroke-width=\"0.5\">\n");
	for (i = 0; i < PK_LAYERS_WALKS; i++) {
		double x = pk_rng_range(&rng, 30, 390);
		double y = pk_rng_range(&rng, 30, 267);

		pk_buf_str(out, "  <polyline points=\"");
		for (k = 0; k < 40; k++) {
			x += pk_rng_range(&rng, -2, 2);
			y += pk_rng_range(&rng, -2, 2);
			pk_buf_printf(out, "%s%.3f,%.3f", k ? " " : "", x, y);
		}
		pk_buf_str(out, "\"/>\n");
	}
	pk_buf_str(out, "</g>\n<g inkscape:groupmode=\"layer\" id=\"layer3\" "
			"inkscape:label=\"hidden\" style=\"display:none\" "
			"stroke=\"#d62728\" fill=\"none\">\n");
	for (i = 0; i < PK_LAYERS_HIDDEN; i++)
		circle(out, &rng, i);
	pk_buf_str(out, "</g>\n<g inkscape:groupmode=\"layer\" id=\"layer4\" "
			"inkscape:label=\"frames\" stroke=\"#2ca02c\" "
			"fill=\"none\">\n");
	for (i = 0; i < PK_LAYERS_FRAMES; i++) {
		double x = pk_rng_range(&rng, 10, 380);
		double y = pk_rng_range(&rng, 10, 260);
		double w = pk_rng_range(&rng, 8, 30);
		double h = pk_rng_range(&rng, 8, 25);
		double a = pk_rng_range(&rng, -30, 30);

		pk_buf_printf(out,
			      "  <rect x=\"%.3f\" y=\"%.3f\" width=\"%.3f\" "
			      "height=\"%.3f\" rx=\"%.3f\" "
			      "transform=\"rotate(%.3f %.3f %.3f)\"/>\n",
			      x, y, w, h, w / 6, a, x + w / 2, y + h / 2);
		pk_buf_printf(out,
			      "  <path d=\"M%.3f %.3fh%.3fc4 0 6 3 6 6"
			      "a%.3f %.3f 0 0 1-6 6H%.3fz\"/>\n",
			      x, y, w / 2, w / 4, w / 5, x);
	}
	pk_buf_str(out, "</g>\n</svg>\n");
	return out->oom ? -1 : 0;
}
