// The source rewrite cusim-cc applies to a preprocessed .cu translation unit:
// the constructs a C++ compiler cannot take, or would take with the wrong meaning.
//   k<<<grid, block, shared, stream>>>(args)  ->  ::cusim::detail::launch_named("k", k, grid, block, ...)(args)
//   __shared__ float cache[256];              ->  a per-block slot (see include/cusim/detail/device_api.hpp)
//   extern __shared__ float s[];              ->  a view of the launch's dynamic shared memory
//   __constant__ float c[4];                  ->  file-local storage, and `c` a const reference to it
// Everything else, including line markers and line breaks, is kept, so that
// diagnostics still name the user's file and line.
#pragma once
#include <stdexcept>
#include <string>

namespace cusim::cc {

struct rewrite_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string rewrite_translation_unit(const std::string& source);

}  // namespace cusim::cc
