#include <numeric>

#include "core/check.h"
#include "eval/gpu/cuda_check.h"
#include "eval/gpu/rng.h"
#include "eval/gpu/transform.h"

namespace ptxbench::gpu {
namespace {

template <class W>
__global__ void gather_kernel(const W* src, W* dst, std::int64_t rows, std::int64_t row_words,
                              const std::int32_t* map) {
  const std::int64_t n = rows * row_words;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t r = i / row_words, k = i - r * row_words;
    const std::int64_t from = map ? map[r] : r;
    dst[i] = src[from * row_words + k];
  }
}

template <class W>
void launch_gather(const void* src, void* dst, std::int64_t rows, std::int64_t row_bytes,
                   const std::int32_t* map, cudaStream_t s) {
  const std::int64_t words = rows * (row_bytes / static_cast<std::int64_t>(sizeof(W)));
  const std::int64_t blocks = std::min<std::int64_t>((words + 255) / 256, 132 * 32);
  gather_kernel<W><<<static_cast<unsigned>(std::max<std::int64_t>(blocks, 1)), 256, 0, s>>>(
      static_cast<const W*>(src), static_cast<W*>(dst), rows,
      row_bytes / static_cast<std::int64_t>(sizeof(W)), map);
  PTXB_CUDA(cudaGetLastError());
}

std::vector<std::int32_t> permutation(std::int64_t n, std::uint64_t seed, std::uint64_t stream) {
  std::vector<std::int32_t> p(static_cast<std::size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  for (std::int64_t i = n - 1; i > 0; --i) {
    const auto j =
        static_cast<std::int64_t>(counter_hash(seed, stream, static_cast<std::uint64_t>(i), 7) %
                                  static_cast<std::uint64_t>(i + 1));
    std::swap(p[static_cast<std::size_t>(i)], p[static_cast<std::size_t>(j)]);
  }
  return p;
}

DeviceBuffer upload(const std::vector<std::int32_t>& v) {
  if (v.empty()) return {};
  DeviceBuffer b(v.size() * sizeof(std::int32_t));
  PTXB_CUDA(cudaMemcpy(b.get(), v.data(), b.bytes(), cudaMemcpyHostToDevice));
  return b;
}

}  // namespace

std::pair<std::int64_t, std::int64_t> transform_extent(const Problem& p) {
  if (p.kind == Kind::gemm) return {p.axis("M"), p.axis("N")};
  return {p.axis("B") * p.axis("H"), 0};
}

Transform random_transform(const Problem& p, std::uint64_t seed) {
  auto [rows, cols] = transform_extent(p);
  Transform t;
  if (rows > 1) t.rows = permutation(rows, seed, 1);
  if (cols > 1) t.cols = permutation(cols, seed, 2);
  return t;
}

void gather_rows(const void* src, void* dst, std::int64_t rows, std::int64_t row_bytes,
                 const std::int32_t* map, cudaStream_t s) {
  if (rows <= 0 || row_bytes <= 0) return;
  if (row_bytes % 16 == 0)
    launch_gather<uint4>(src, dst, rows, row_bytes, map, s);
  else if (row_bytes % 4 == 0)
    launch_gather<std::uint32_t>(src, dst, rows, row_bytes, map, s);
  else
    launch_gather<std::uint16_t>(src, dst, rows, row_bytes, map, s);
}

DeviceTransform::DeviceTransform(const Problem& p, const Transform& t) : host_(t) {
  auto [rows, cols] = transform_extent(p);
  PTXB_CHECK(t.rows.empty() || static_cast<std::int64_t>(t.rows.size()) == rows,
             "transform rows do not match the problem");
  PTXB_CHECK(t.cols.empty() || static_cast<std::int64_t>(t.cols.size()) == cols,
             "transform cols do not match the problem");
  rows_ = upload(t.rows);
  cols_ = upload(t.cols);
}

void DeviceTransform::apply(TensorSet& base, TensorSet& slot, cudaStream_t s) const {
  const Problem& p = slot.problem();
  auto [rows, cols] = transform_extent(p);
  for (std::size_t i = 0; i < p.inputs.size(); ++i) {
    const std::int64_t bytes = static_cast<std::int64_t>(p.inputs[i].bytes());
    if (p.kind == Kind::gemm) {
      const bool is_a = i == 0;  // A[M,K] follows the rows; B[N,K] follows the cols
      const std::int64_t n = is_a ? rows : cols;
      gather_rows(base.input(i).get(), slot.input(i).get(), n, bytes / n,
                  is_a ? this->rows() : this->cols(), s);
    } else {
      gather_rows(base.input(i).get(), slot.input(i).get(), rows, bytes / rows, this->rows(), s);
    }
  }
}

RefView DeviceTransform::view_of_output(const Problem& p, std::size_t k) const {
  RefView v;
  if (p.kind == Kind::gemm) {
    v.row_map = rows();
    v.col_map = cols();
    v.cols_per_row = p.axis("N");
  } else {
    v.row_map = rows();
    v.cols_per_row = p.outputs[k].numel() / (p.axis("B") * p.axis("H"));
  }
  return v;
}

}  // namespace ptxbench::gpu
