#include "api/kernels.hpp"

#include <map>
#include <memory>
#include <mutex>

namespace cusim::detail {

namespace {
struct registry {
  std::mutex mutex;
  std::map<const void*, std::unique_ptr<kernel_info>> kernels;
};
registry& the_registry() {
  static registry r;
  return r;
}
}  // namespace

kernel_info& kernel_record(const void* function) {
  registry& r = the_registry();
  std::lock_guard lock(r.mutex);
  auto& slot = r.kernels[function];
  if (!slot) slot = std::make_unique<kernel_info>();
  return *slot;
}

void forget_kernels() {
  registry& r = the_registry();
  std::lock_guard lock(r.mutex);
  r.kernels.clear();
}

}  // namespace cusim::detail
