// The free ranges of one region, by offset: taken first fit and given back
// merged with their neighbours. The device heap (sched/device_heap.cpp) and
// the regions small device buffers come from (memory/small_buffers.cpp)
// keep their free space in one; the caller holds whatever lock guards it.
#pragma once
#include <cstddef>
#include <iterator>
#include <map>
#include <optional>

namespace cusim::detail {

class free_ranges {
 public:
  free_ranges() = default;
  explicit free_ranges(std::size_t size) { free_.emplace(0, size); }

  // The offset of the first free range that holds `size` bytes, now taken;
  // none when no range does.
  std::optional<std::size_t> take(std::size_t size) {
    for (auto it = free_.begin(); it != free_.end(); ++it) {
      if (it->second < size) continue;
      const std::size_t offset = it->first;
      const std::size_t left = it->second - size;
      free_.erase(it);
      if (left > 0) free_.emplace(offset + size, left);
      return offset;
    }
    return std::nullopt;
  }

  // Returns [start, start + size) to the free ranges.
  void give_back(std::size_t start, std::size_t size) {
    auto next = free_.lower_bound(start);
    if (next != free_.end() && next->first == start + size) {
      size += next->second;
      next = free_.erase(next);
    }
    if (next != free_.begin()) {
      auto prev = std::prev(next);
      if (prev->first + prev->second == start) {
        start = prev->first;
        size += prev->second;
        free_.erase(prev);
      }
    }
    free_.emplace(start, size);
  }

 private:
  std::map<std::size_t, std::size_t> free_;  // offset -> size, ordered for first fit and merging
};

}  // namespace cusim::detail
