// What a '{' in a preprocessed translation unit opens, read back from it:
// a function's or lambda's body and its execution space (the markers
// cuda_runtime.h makes of __global__, __device__ and __host__ for
// cusim-cc), a control statement's block, or a class, namespace or
// initializer. The merge of the __CUDA_ARCH__ passes (device_pass.hpp)
// takes each function body from the pass its execution space names.
#pragma once
#include <cstddef>
#include <utility>

#include "preprocessed.hpp"

namespace cusim::cc {

// Which pass a function body is taken from: both for __host__ __device__
// (and, as under relaxed constexpr, an unmarked constexpr function).
enum class body_pass { host, device, both };

// The '{' of the function body that holds tokens [first, last], and its
// pass; npos when they lie outside every function body. An unmarked lambda
// runs where the function around it does; an unmarked function is host code
// unless it is a member of a class local to device code.
std::pair<std::size_t, body_pass> enclosing_function_body(const preprocessed& p, std::size_t first, std::size_t last);

}  // namespace cusim::cc
