// The distance functions of vector indexes over 32-bit float vectors, with
// products and sums in double precision (a product of two floats is exact
// in a double), as one pass over a slot's contiguous rows. On x86-64
// compiled for several CPUs (AVX-512, AVX2+FMA, baseline x86-64), the
// dynamic loader picking the one this CPU runs, in the static binary too;
// on arm64 once, for NEON.
#pragma once

#include <cstddef>

#include "service/core/catalog.h"

namespace pogi::service {

// For each of the `rows` vectors of `dims` floats at `matrix` (one after
// the other): its dot product with `query` (COSINE, DOT_PRODUCT) or its
// squared Euclidean distance to it (EUCLIDEAN), into out[row].
void DotProducts(const float* query, const float* matrix, size_t rows, size_t dims, double* out);
void SquaredDistances(const float* query, const float* matrix, size_t rows, size_t dims, double* out);

// The squared length of a vector.
double SquaredNorm(const float* v, size_t dims);

// DynamoDB's Score from the pass's value for one row:
//   COSINE: 1 - cos(angle), in [0, 2] (1 when either vector is zero);
//   EUCLIDEAN: the distance;  DOT_PRODUCT: the dot product;
// held to a 32-bit float's range (DynamoDB reports an overflowing score as
// the largest float). `query_norm2` and `row_norm2` are the squared lengths
// (COSINE only).
double ScoreOf(DistanceFunction f, double pass_value, double query_norm2, double row_norm2);

// Whether a lower Score ranks first (COSINE, EUCLIDEAN) or a higher one (DOT_PRODUCT).
inline bool LowerIsBetter(DistanceFunction f) { return f != DistanceFunction::kDotProduct; }

}  // namespace pogi::service
