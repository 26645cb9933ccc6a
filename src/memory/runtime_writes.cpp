#include "memory/runtime_writes.hpp"

#include <cstring>

namespace cusim::detail {

namespace {
const runtime_write_observer* observer = nullptr;
}  // namespace

void observe_runtime_writes(const runtime_write_observer* o) { observer = o; }

void copy_bytes(void* dst, const void* src, std::size_t count) {
  if (observer != nullptr) observer->copied_from(src, count);
  std::memmove(dst, src, count);
  note_written(dst, count);
}

void set_bytes(void* dst, int value, std::size_t count) {
  std::memset(dst, value, count);
  note_written(dst, count);
}

void note_written(const void* dst, std::size_t count) {
  if (observer != nullptr) observer->written(dst, count);
}

void note_allocation_made() {
  if (observer != nullptr) observer->made();
}

void note_allocation_freed(const void* base) {
  if (observer != nullptr) observer->freed(base);
}

}  // namespace cusim::detail
