/* sum.h: the library of the tiny library project (its tests): a sum of
 * n integers. */
#ifndef TINY_SUM_H
#define TINY_SUM_H

#include <stddef.h>
#include <stdint.h>

uint64_t tiny_sum(const uint32_t *v, size_t n);

#endif
