// The cost of one warp request: shared-memory wavefronts (32 banks of 4
// bytes, one word per bank per pass, a word shared by lanes read once) and
// global-memory sectors (32 bytes).
#include <catch2/catch.hpp>

#include <vector>

#include "check/access_patterns.hpp"

using cusim::detail::global_request_cost;
using cusim::detail::lane_access;
using cusim::detail::shared_request_cost;

namespace {

// Lane i accesses base + i * stride, `bytes` bytes each.
std::vector<lane_access> strided(std::uintptr_t base, std::uintptr_t stride, unsigned int bytes, unsigned int lanes = 32) {
  std::vector<lane_access> accesses;
  for (unsigned int i = 0; i < lanes; ++i) accesses.push_back({base + i * stride, bytes});
  return accesses;
}

void expect_cost(cusim::detail::request_cost cost, unsigned int actual, unsigned int ideal) {
  CHECK(cost.actual == actual);
  CHECK(cost.ideal == ideal);
}

}  // namespace

TEST_CASE("consecutive words are conflict-free", "[accesses]") {
  expect_cost(shared_request_cost(strided(0x1000, 4, 4)), 1, 1);
}

TEST_CASE("a column of a 32x32 float tile hits one bank 32 times, and padding spreads it", "[accesses]") {
  CHECK(shared_request_cost(strided(0x1000, 32 * 4, 4)).actual == 32);
  CHECK(shared_request_cost(strided(0x1000, 33 * 4, 4)).actual == 1);
}

TEST_CASE("stride 2 words conflicts two ways", "[accesses]") {
  expect_cost(shared_request_cost(strided(0x1000, 8, 4)), 2, 1);
}

TEST_CASE("lanes reading one word share it (broadcast)", "[accesses]") {
  expect_cost(shared_request_cost(strided(0x1000, 0, 4)), 1, 1);
}

TEST_CASE("8-byte lanes need two wavefronts, which is ideal", "[accesses]") {
  expect_cost(shared_request_cost(strided(0x1000, 8, 8)), 2, 2);
}

TEST_CASE("a partial warp counts only its lanes", "[accesses]") {
  expect_cost(shared_request_cost(strided(0x1000, 32 * 4, 4, 8)), 8, 1);
}

TEST_CASE("consecutive floats take 4 sectors, coalesced", "[accesses]") {
  expect_cost(global_request_cost(strided(0x1000, 4, 4)), 4, 4);
}

TEST_CASE("a misaligned run touches one sector more", "[accesses]") {
  CHECK(global_request_cost(strided(0x1004, 4, 4)).actual == 5);
}

TEST_CASE("a 32-byte stride gives every lane its own sector", "[accesses]") {
  expect_cost(global_request_cost(strided(0x1000, 32, 4)), 32, 4);
}

TEST_CASE("one address for all lanes is one sector", "[accesses]") {
  expect_cost(global_request_cost(strided(0x1000, 0, 4)), 1, 1);
}
