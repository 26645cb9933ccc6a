// What one warp-wide memory request costs, by the rules of NVIDIA GPUs since
// Volta: shared memory has 32 banks of 4-byte words, each serving one word
// per pass (a wavefront), and lanes reading the same word share it; global
// memory is fetched in 32-byte sectors. Pure functions of the lanes'
// addresses, for the access-pattern check (cusim-cc --check=banks).
#pragma once
#include <cstdint>
#include <span>

namespace cusim::detail {

struct lane_access {
  std::uintptr_t address;
  unsigned int bytes;
};

struct request_cost {
  unsigned int actual;  // wavefronts (shared) or sectors (global)
  unsigned int ideal;   // the same for the request's bytes laid out contiguously
};

// Wavefronts: the most distinct words any one bank must serve. Ideal: the
// distinct words over 32 (rounded up): a request without bank conflicts.
request_cost shared_request_cost(std::span<const lane_access> lanes);

// Sectors: distinct 32-byte sectors touched. Ideal: the distinct bytes
// requested over 32 (rounded up): a fully coalesced request.
request_cost global_request_cost(std::span<const lane_access> lanes);

}  // namespace cusim::detail
