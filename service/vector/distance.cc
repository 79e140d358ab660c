// Distance kernels: plain loops over independent lanes, which GCC
// vectorizes for each target of target_clones (measured in
// docs/performance.md: memory-bound on AVX-512 and AVX2, 3x the time of the
// scalar loop). Sixteen lanes of double accumulators keep the order of
// additions fixed, so a score does not depend on the CPU it ran on.
#include "service/vector/distance.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace pogi::service {
namespace {

constexpr size_t kLanes = 16;

#if defined(__x86_64__)
#define POGI_VECTOR_TARGETS __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
// arm64: Advanced SIMD (NEON) is part of the baseline, so one build serves.
#define POGI_VECTOR_TARGETS
#endif

inline double Dot(const float* __restrict a, const float* __restrict b, size_t n) {
  double lane[kLanes] = {0};
  size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (size_t j = 0; j < kLanes; ++j)
      lane[j] += static_cast<double>(a[i + j]) * static_cast<double>(b[i + j]);
  }
  double sum = 0;
  for (size_t j = 0; j < kLanes; ++j) sum += lane[j];
  for (; i < n; ++i) sum += static_cast<double>(a[i]) * static_cast<double>(b[i]);
  return sum;
}

inline double Squared(const float* __restrict a, const float* __restrict b, size_t n) {
  double lane[kLanes] = {0};
  size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (size_t j = 0; j < kLanes; ++j) {
      double d = static_cast<double>(a[i + j]) - static_cast<double>(b[i + j]);
      lane[j] += d * d;
    }
  }
  double sum = 0;
  for (size_t j = 0; j < kLanes; ++j) sum += lane[j];
  for (; i < n; ++i) {
    double d = static_cast<double>(a[i]) - static_cast<double>(b[i]);
    sum += d * d;
  }
  return sum;
}

}  // namespace

POGI_VECTOR_TARGETS
void DotProducts(const float* query, const float* matrix, size_t rows, size_t dims, double* out) {
  for (size_t r = 0; r < rows; ++r) out[r] = Dot(query, matrix + r * dims, dims);
}

POGI_VECTOR_TARGETS
void SquaredDistances(const float* query, const float* matrix, size_t rows, size_t dims, double* out) {
  for (size_t r = 0; r < rows; ++r) out[r] = Squared(query, matrix + r * dims, dims);
}

double SquaredNorm(const float* v, size_t dims) {
  double out = 0;
  DotProducts(v, v, 1, dims, &out);
  return out;
}

double ScoreOf(DistanceFunction f, double pass_value, double query_norm2, double row_norm2) {
  double score;
  switch (f) {
    case DistanceFunction::kEuclidean:
      score = std::sqrt(pass_value);
      break;
    case DistanceFunction::kDotProduct:
      score = pass_value;
      break;
    default:
      if (query_norm2 == 0 || row_norm2 == 0) {
        score = 1.0;  // no direction: DynamoDB's answer for a zero vector
      } else {
        // sqrt(|q|²|s|²) rather than |q||s|: for s == q it is exactly the
        // dot product, so a vector scores exactly 0 against itself.
        score = std::clamp(1.0 - pass_value / std::sqrt(query_norm2 * row_norm2), 0.0, 2.0);
      }
  }
  return std::clamp(score, -static_cast<double>(FLT_MAX), static_cast<double>(FLT_MAX));
}

}  // namespace pogi::service
