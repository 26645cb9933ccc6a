#include "fiber/stack.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "support/diagnostics.hpp"

// Valgrind, told where each fiber stack is, follows the switches between them
// instead of taking every frame on one for a wild access (a handful of
// instructions when not under Valgrind, and only when a stack is made).
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define CUSIM_STACK_REGISTER(begin, end) VALGRIND_STACK_REGISTER(begin, end)
#define CUSIM_STACK_DEREGISTER(id) VALGRIND_STACK_DEREGISTER(id)
#else
#define CUSIM_STACK_REGISTER(begin, end) 0u
#define CUSIM_STACK_DEREGISTER(id) static_cast<void>(id)
#endif

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
  valgrind_id_ = CUSIM_STACK_REGISTER(usable_, static_cast<char*>(usable_) + usable_size_);
}

std::size_t fiber_stack::used_bytes() const {
  const std::size_t page = page_size();
  const std::size_t pages = usable_size_ / page;
  std::vector<unsigned char> resident(pages);
  if (mincore(usable_, usable_size_, resident.data()) != 0) return 0;
  for (std::size_t i = 0; i < pages; ++i) {
    if ((resident[i] & 1) != 0) return usable_size_ - i * page;
  }
  return 0;
}

fiber_stack::~fiber_stack() {
  if (mapping_ == nullptr) return;
  CUSIM_STACK_DEREGISTER(valgrind_id_);
  munmap(mapping_, mapping_size_);
}

}  // namespace cusim::detail
