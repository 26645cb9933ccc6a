// The access-pattern check's tallies: per instruction (its address in the
// program) and kind of access, the warp requests made and what they cost;
// summed at exit, by source line, into the report (access_report.cpp).
#pragma once
#include <cstdint>

namespace cusim::detail {

enum class memory_space : std::uint8_t { shared, global };

struct site_key {
  const void* pc;  // just after the access
  memory_space space;
  bool write;
  bool operator==(const site_key&) const = default;
};

struct site_tally {
  std::uint64_t requests = 0;
  std::uint64_t actual = 0, ideal = 0;  // wavefronts or sectors, summed
  unsigned int worst_actual = 0, worst_ideal = 1;
  std::uint64_t partial = 0;  // requests some lanes of the warp did not make
};

// Adds one warp request of `lanes` lanes to the calling thread's tallies.
void tally_request(const site_key& site, unsigned int actual, unsigned int ideal, bool partial);

}  // namespace cusim::detail
