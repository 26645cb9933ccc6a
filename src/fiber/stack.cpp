#include "fiber/stack.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "support/diagnostics.hpp"

namespace cusim::detail {

namespace {
std::size_t page_size() {
  static const std::size_t size = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return size;
}
}  // namespace

fiber_stack::fiber_stack(std::size_t usable_bytes) {
  const std::size_t page = page_size();
  usable_size_ = (usable_bytes + page - 1) / page * page;
  mapping_size_ = usable_size_ + page;
  mapping_ = mmap(nullptr, mapping_size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                  -1, 0);
  if (mapping_ == MAP_FAILED) {
    fatal("cannot reserve a {} KiB fiber stack: {}", mapping_size_ / 1024, std::strerror(errno));
  }
  // Stacks grow down: the guard page sits below the usable part.
  if (mprotect(mapping_, page, PROT_NONE) != 0) {
    fatal("cannot protect a fiber stack's guard page: {}", std::strerror(errno));
  }
  usable_ = static_cast<char*>(mapping_) + page;
}

fiber_stack::~fiber_stack() {
  if (mapping_ != nullptr) munmap(mapping_, mapping_size_);
}

}  // namespace cusim::detail
