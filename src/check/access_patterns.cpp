#include "check/access_patterns.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace cusim::detail {

namespace {

constexpr std::uintptr_t bank_bytes = 4;
constexpr unsigned int banks = 32;
constexpr std::uintptr_t sector_bytes = 32;

// The distinct units of `unit` bytes the lanes touch, sorted.
std::vector<std::uintptr_t> distinct_units(std::span<const lane_access> lanes, std::uintptr_t unit) {
  std::vector<std::uintptr_t> units;
  for (const lane_access& lane : lanes) {
    if (lane.bytes == 0) continue;
    for (std::uintptr_t u = lane.address / unit; u <= (lane.address + lane.bytes - 1) / unit; ++u) units.push_back(u);
  }
  std::sort(units.begin(), units.end());
  units.erase(std::unique(units.begin(), units.end()), units.end());
  return units;
}

unsigned int at_least_one(std::size_t count, std::size_t per) {
  return static_cast<unsigned int>(std::max<std::size_t>(1, (count + per - 1) / per));
}

}  // namespace

request_cost shared_request_cost(std::span<const lane_access> lanes) {
  const std::vector<std::uintptr_t> words = distinct_units(lanes, bank_bytes);
  std::array<unsigned int, banks> per_bank{};
  for (std::uintptr_t word : words) ++per_bank[word % banks];
  const unsigned int wavefronts = std::max(1u, *std::max_element(per_bank.begin(), per_bank.end()));
  return {wavefronts, at_least_one(words.size(), banks)};
}

request_cost global_request_cost(std::span<const lane_access> lanes) {
  const std::vector<std::uintptr_t> sectors = distinct_units(lanes, sector_bytes);
  const std::vector<std::uintptr_t> bytes = distinct_units(lanes, 1);
  return {static_cast<unsigned int>(std::max<std::size_t>(1, sectors.size())), at_least_one(bytes.size(), sector_bytes)};
}

}  // namespace cusim::detail
