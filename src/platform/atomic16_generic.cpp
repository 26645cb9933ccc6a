// 16-byte compare-and-swap anywhere (include/cusim/detail/atomic16.hpp): one
// of 64 spin locks, chosen by the address, guards each exchange. Every
// 16-byte atomic goes through here, so they are atomic with each other.
#include <cusim/detail/atomic16.hpp>

#include <atomic>
#include <cstdint>
#include <cstring>

namespace cusim::detail {

namespace {

struct alignas(64) address_lock {
  std::atomic_flag held;
};
address_lock locks[64];

}  // namespace

bool compare_exchange_16(void* address, void* expected, const void* desired) {
  std::atomic_flag& held = locks[(reinterpret_cast<std::uintptr_t>(address) >> 4) % 64].held;
  while (held.test_and_set(std::memory_order_acquire)) {
  }
  const bool equal = std::memcmp(address, expected, 16) == 0;
  if (equal) {
    std::memcpy(address, desired, 16);
  } else {
    std::memcpy(expected, address, 16);
  }
  held.clear(std::memory_order_release);
  return equal;
}

}  // namespace cusim::detail
