#include "api/kernels.hpp"

#include <cusim/detail/kernel_call.hpp>

#include <map>
#include <memory>
#include <mutex>

namespace cusim::detail {

namespace {
struct registry {
  std::mutex mutex;
  std::map<const void*, std::unique_ptr<kernel_info>> kernels;
  // Survives cudaDeviceReset: it describes the program's code, not the device.
  std::map<const void*, std::pair<argument_array_launcher, const char*>> launchers;
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

void register_kernel(const void* kernel, argument_array_launcher launcher, const char* name) {
  registry& r = the_registry();
  std::lock_guard lock(r.mutex);
  r.launchers[kernel] = {launcher, name};
}

argument_array_launcher registered_launcher(const void* kernel, const char** name) {
  registry& r = the_registry();
  std::lock_guard lock(r.mutex);
  const auto it = r.launchers.find(kernel);
  if (it == r.launchers.end()) return nullptr;
  if (name != nullptr) *name = it->second.second;
  return it->second.first;
}

void forget_kernels() {
  registry& r = the_registry();
  std::lock_guard lock(r.mutex);
  r.kernels.clear();
}

}  // namespace cusim::detail
