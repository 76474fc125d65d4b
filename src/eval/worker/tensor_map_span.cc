#include "eval/worker/tensor_map_span.h"

#include <limits>

namespace ptxbench::eval::worker {
namespace {

// Bytes of `n` elements along the innermost dimension, by CUtensorMapDataType (cuda.h): the
// whole-byte types, then the packed 4- and 6-bit types, whose elements come in 16-element
// groups of 8 or 16 bytes.
std::optional<std::uint64_t> innermost_bytes(std::int32_t type, std::uint64_t n) {
  static constexpr std::uint8_t kBytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
  if (type >= 0 && type < static_cast<std::int32_t>(sizeof kBytes)) {
    if (n > std::numeric_limits<std::uint64_t>::max() / 8) return std::nullopt;
    return n * kBytes[type];
  }
  const std::uint64_t groups = n / 16 + (n % 16 != 0);
  if (groups > std::numeric_limits<std::uint64_t>::max() / 16) return std::nullopt;
  if (type == 13) return groups * 8;                 // CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B
  if (type == 14 || type == 15) return groups * 16;  // 16U4_ALIGN16B, 16U6_ALIGN16B
  return std::nullopt;
}

}  // namespace

std::optional<std::uint64_t> tensor_map_span(const host::EncodeTensorMap& m) {
  if (m.rank < 1 || m.rank > 5 || m.global_dim.size() != m.rank ||
      m.global_strides.size() + 1 != m.rank)
    return std::nullopt;
  for (std::uint64_t d : m.global_dim)
    if (d == 0) return std::nullopt;
  auto span = innermost_bytes(m.data_type, m.global_dim[0]);
  if (!span) return std::nullopt;
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  for (std::uint32_t i = 1; i < m.rank; ++i) {
    const std::uint64_t extent = m.global_dim[i] - 1, stride = m.global_strides[i - 1];
    if (stride != 0 && extent > max / stride) return std::nullopt;
    if (extent * stride > max - *span) return std::nullopt;
    *span += extent * stride;
  }
  return span;
}

}  // namespace ptxbench::eval::worker
