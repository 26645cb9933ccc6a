// __CUDA_ARCH__ as nvcc's two passes set it. nvcc preprocesses a .cu file
// once for the host (no __CUDA_ARCH__) and once per GPU architecture (with
// it), and each function's code comes from the pass it is compiled in. cusim
// compiles a file once, so cusim-cc preprocesses it both ways and merges the
// two outputs (docs/cusim-cc.md, "__CUDA_ARCH__"):
//
//   - the body of a __global__ or __device__ function is the device pass's;
//   - the body of a __host__ __device__ function (or, under relaxed
//     constexpr, of an unmarked constexpr one) holds both, and picks at run
//     time: the device pass's in a CUDA thread, the host pass's elsewhere;
//   - the body of a host function is the host pass's;
//   - a declaration only the device pass has (a __device__ function under
//     #if __CUDA_ARCH__ >= 700) is added; one only the host pass has is kept.
//
// Outside function bodies, where the passes hold different declarations,
// the host pass's are kept and a warning names the place.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace cusim::cc {

struct merged_passes {
  std::string text;
  std::vector<std::string> warnings;  // "file:line: warning: ..."
};

merged_passes merge_device_pass(std::string_view host, std::string_view device);

// Whether any file the preprocessed text came from (its line markers name
// them), other than those under `own_dirs` (cusim's headers, which only
// mention it in comments), spells __CUDA_ARCH__: only then is a device pass
// worth running.
bool mentions_cuda_arch(std::string_view preprocessed_text, const std::vector<std::string>& own_dirs);

}  // namespace cusim::cc
