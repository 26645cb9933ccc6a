// 16-byte compare-and-swap on x86-64 (include/cusim/detail/atomic16.hpp):
// every x86-64 CPU cusim runs on has cmpxchg16b.
#include <cusim/detail/atomic16.hpp>

#include <cstdint>
#include <cstring>

namespace cusim::detail {

bool compare_exchange_16(void* address, void* expected, const void* desired) {
  std::uint64_t expected_half[2], desired_half[2];
  std::memcpy(expected_half, expected, sizeof expected_half);
  std::memcpy(desired_half, desired, sizeof desired_half);
  bool swapped = false;
  asm volatile("lock cmpxchg16b %1"
               : "=@ccz"(swapped), "+m"(*static_cast<unsigned __int128*>(address)), "+a"(expected_half[0]),
                 "+d"(expected_half[1])
               : "b"(desired_half[0]), "c"(desired_half[1])
               : "memory");
  std::memcpy(expected, expected_half, sizeof expected_half);
  return swapped;
}

}  // namespace cusim::detail
