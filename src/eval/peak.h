// Dense bf16 tensor-core peaks (datasheet, no sparsity), by GPU name, for "% of peak".
#pragma once

#include <optional>
#include <string_view>

namespace ptxbench::eval {

// TFLOP/s, or nullopt for a GPU the table does not know.
std::optional<double> dense_bf16_peak_tflops(std::string_view gpu_name);

}  // namespace ptxbench::eval
