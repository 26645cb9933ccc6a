#include "runtime/kernels.hpp"

#include <cusim/detail/front_end_facts.hpp>
#include <cusim/detail/kernel_call.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace cusim::detail {

namespace {
struct registry {
  std::mutex mutex;
  std::map<const void*, std::unique_ptr<kernel_info>> kernels;
  // Survives cudaDeviceReset: it describes the program's code, not the device.
  struct registered {
    argument_array_launcher launcher;
    const char* name;
    dim3 cluster;
    parameter_layout layout;
    launch_bounds bounds;
  };
  std::map<const void*, registered> launchers;
  // What cusim-cc's front end registered; survives cudaDeviceReset too.
  std::map<const void*, front_end_facts> facts;
  // Kernels with internal linkage meet their facts at their definition's
  // site, whichever of the two is registered first.
  std::multimap<std::string, const void*, std::less<>> kernel_sites;  // a header's kernel: one per file
  std::map<std::string, front_end_facts, std::less<>> facts_at_sites;
};
registry& the_registry() {
  static registry r;
  return r;
}

void note_facts(kernel_info& kernel, const front_end_facts& facts) {
  kernel.note_static_shared(facts.static_shared_bytes);
  kernel.threads_never_wait.store(!facts.waits && !facts.spins && !facts.launches, std::memory_order_relaxed);
}
}  // namespace

kernel_info& kernel_record(const void* function) {
  registry& r = the_registry();
  std::lock_guard lock(r.mutex);
  auto& slot = r.kernels[function];
  if (!slot) {
    slot = std::make_unique<kernel_info>();
    // Known before the first launch when the front end registered it.
    if (const auto it = r.facts.find(function); it != r.facts.end()) note_facts(*slot, it->second);
  }
  return *slot;
}

void register_kernel(const void* kernel, argument_array_launcher launcher, const char* name, dim3 cluster,
                     parameter_layout layout, launch_bounds bounds) {
  registry& r = the_registry();
  std::lock_guard lock(r.mutex);
  auto [it, fresh] = r.launchers.try_emplace(kernel, registry::registered{launcher, name, cluster, layout, bounds});
  // A typed launch registers the kernel again, without its name or cluster: keep what cusim-cc said.
  if (!fresh && name != nullptr) it->second = {launcher, name, cluster, layout, bounds};
}

namespace {
// What either says the kernel may do, and the larger size.
void merge_facts(front_end_facts& known, const front_end_facts& more) {
  known.static_shared_bytes = std::max(known.static_shared_bytes, more.static_shared_bytes);
  known.waits |= more.waits;
  known.spins |= more.spins;
  known.launches |= more.launches;
  known.dynamic_shared |= more.dynamic_shared;
}

void register_front_end_facts_locked(registry& r, const void* kernel, const front_end_facts& facts) {
  // The same kernel from two objects (a template instantiated in both).
  auto [it, fresh] = r.facts.try_emplace(kernel, facts);
  if (!fresh) merge_facts(it->second, facts);
  if (const auto k = r.kernels.find(kernel); k != r.kernels.end()) note_facts(*k->second, it->second);
}
}  // namespace

void note_kernel_site(const void* kernel, const char* site) {
  registry& r = the_registry();
  std::lock_guard lock(r.mutex);
  r.kernel_sites.emplace(site, kernel);
  if (const auto it = r.facts_at_sites.find(std::string_view(site)); it != r.facts_at_sites.end()) {
    register_front_end_facts_locked(r, kernel, it->second);
  }
}

void register_front_end_facts_at(const char* site, const front_end_facts& facts) {
  registry& r = the_registry();
  std::lock_guard lock(r.mutex);
  // One site in two files (a static kernel in a header, under different
  // macros): what either file says.
  auto [known, fresh] = r.facts_at_sites.try_emplace(site, facts);
  if (!fresh) merge_facts(known->second, facts);
  const auto [first, last] = r.kernel_sites.equal_range(std::string_view(site));
  for (auto it = first; it != last; ++it) register_front_end_facts_locked(r, it->second, facts);
}

void register_front_end_facts(const void* kernel, const front_end_facts& facts) {
  if (kernel == nullptr) return;
  registry& r = the_registry();
  std::lock_guard lock(r.mutex);
  register_front_end_facts_locked(r, kernel, facts);
}

const front_end_facts* registered_front_end_facts(const void* kernel) {
  registry& r = the_registry();
  std::lock_guard lock(r.mutex);
  const auto it = r.facts.find(kernel);
  return it == r.facts.end() ? nullptr : &it->second;
}

launch_bounds compiled_launch_bounds(const void* kernel) {
  registry& r = the_registry();
  std::lock_guard lock(r.mutex);
  const auto it = r.launchers.find(kernel);
  return it == r.launchers.end() ? launch_bounds{} : it->second.bounds;
}

parameter_layout registered_layout(const void* kernel) {
  registry& r = the_registry();
  std::lock_guard lock(r.mutex);
  const auto it = r.launchers.find(kernel);
  return it == r.launchers.end() ? nullptr : it->second.layout;
}

const char* registered_name(const void* kernel) {
  const char* name = nullptr;
  registered_launcher(kernel, &name);
  return name;
}

const char* report_name(const void* kernel, const char* callee) {
  const char* registered = registered_name(kernel);
  if (registered == nullptr || callee == nullptr) return registered != nullptr ? registered : callee;
  const std::string_view written = callee, own = registered;
  const bool names_it = written.ends_with(own) &&
                        (written.size() == own.size() || written.substr(0, written.size() - own.size()).ends_with("::"));
  return names_it ? callee : registered;
}

dim3 compiled_cluster_dims(const void* kernel) {
  registry& r = the_registry();
  std::lock_guard lock(r.mutex);
  const auto it = r.launchers.find(kernel);
  return it == r.launchers.end() ? dim3(0, 0, 0) : it->second.cluster;
}

argument_array_launcher registered_launcher(const void* kernel, const char** name) {
  registry& r = the_registry();
  std::lock_guard lock(r.mutex);
  const auto it = r.launchers.find(kernel);
  if (it == r.launchers.end()) return nullptr;
  if (name != nullptr) *name = it->second.name;
  return it->second.launcher;
}

void forget_kernels() {
  registry& r = the_registry();
  std::lock_guard lock(r.mutex);
  r.kernels.clear();
}

}  // namespace cusim::detail
