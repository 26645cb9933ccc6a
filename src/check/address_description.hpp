// What an address a kernel touched is, in CUDA's terms, for the checkers'
// reports (check/memory_check.cpp, check/race_check.cpp): the sanitizers see
// one large runtime allocation where the program has a __shared__ variable
// of some block, a device-heap block or a cudaMalloc'd buffer.
#pragma once
#include <string>

namespace cusim::detail {

// The end of "<address> is ...": "4 bytes after __shared__ tile (f.cu:16,
// 256 bytes), in the shared memory of block (0,0,0)", "12 bytes into the
// 400-byte buffer at 0x... (cudaMalloc and the like, device 0)". Empty when
// cusim knows nothing of it. Shared memory is looked up among the calling
// worker's resident blocks.
std::string describe_device_address(const void* address);

}  // namespace cusim::detail
