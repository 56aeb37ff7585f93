/* session.c: the pluggable GPU backend and the context calls workloads use. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

static const struct prof_gpu_ops *gpu_ops;

void
prof_gpu_register(const struct prof_gpu_ops *ops)
{
	gpu_ops = ops;
}

const struct prof_gpu_ops *
prof_gpu_backend(void)
{
	return gpu_ops;
}

enum prof_backend
prof_backend(const struct prof_ctx *ctx)
{
	return ctx->backend;
}

const struct prof_workload *
prof_current(const struct prof_ctx *ctx)
{
	return ctx->w;
}

int
prof_fail(struct prof_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx->reason, sizeof(ctx->reason), fmt, ap);
	va_end(ap);
	return -1;
}

void
prof_metric(struct prof_ctx *ctx, const char *name, double value)
{
	int i;

	for (i = 0; i < ctx->n_metrics; i++)
		if (!strcmp(ctx->metrics[i].name, name)) {
			ctx->metrics[i].value = value;
			return;
		}
	if (ctx->n_metrics == PROF_MAX_METRICS)
		return;
	snprintf(ctx->metrics[i].name, sizeof(ctx->metrics[i].name), "%s",
		 name);
	ctx->metrics[i].value = value;
	ctx->n_metrics++;
}

void
prof_output_checksum(struct prof_ctx *ctx, const char *hex)
{
	snprintf(ctx->checksum, sizeof(ctx->checksum), "%s", hex);
}

void
prof_fixture_checksum(struct prof_ctx *ctx, const char *hex)
{
	snprintf(ctx->fixture_checksum, sizeof(ctx->fixture_checksum), "%s",
		 hex);
}

void
prof_fixture_bytes(struct prof_ctx *ctx, const void *data, size_t n)
{
	char hex[PROF_SUM_HEX];

	if (prof_sum_buffer(data, n, hex) == 0)
		prof_fixture_checksum(ctx, hex);
}
