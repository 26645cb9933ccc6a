#include <cusim/profile.hpp>

#include <array>
#include <atomic>
#include <cstdlib>
#include <string>
#include <vector>

#include "support/diagnostics.hpp"
#include "support/env.hpp"

namespace cusim {

namespace {

constexpr std::size_t KiB = 1024;
constexpr std::size_t GiB = 1024 * 1024 * KiB;

// Published figures of one representative board per architecture. sm_90 is
// the H100 80GB HBM3 as measured (shared/reference/h100-sm90-properties.txt).
constexpr std::array<device_profile, 5> builtin_profiles{{
    {"sm_75", "Tesla T4 (cusim sm_75)", 7, 5, 40, 1024, {1024, 1024, 64}, {2147483647, 65535, 65535},
     1024, 16, 48 * KiB, 64 * KiB, 64 * KiB, 0, 65536, 65536, 15ull * GiB, 64 * KiB, 1590000, 5001000, 256,
     4194304, 0, 3, 1, 32, 0x1EB810DE, 0, 0},
    {"sm_80", "NVIDIA A100-SXM4-40GB (cusim sm_80)", 8, 0, 108, 1024, {1024, 1024, 64},
     {2147483647, 65535, 65535}, 2048, 32, 48 * KiB, 163 * KiB, 164 * KiB, 1 * KiB, 65536, 65536, 40ull * GiB,
     64 * KiB, 1410000, 1215000, 5120, 41943040, 30932992, 3, 1, 2, 0x20B010DE, 0, 0},
    {"sm_86", "NVIDIA GeForce RTX 3090 (cusim sm_86)", 8, 6, 82, 1024, {1024, 1024, 64},
     {2147483647, 65535, 65535}, 1536, 16, 48 * KiB, 99 * KiB, 100 * KiB, 1 * KiB, 65536, 65536, 24ull * GiB,
     64 * KiB, 1695000, 9751000, 384, 6291456, 0, 2, 0, 32, 0x220410DE, 0, 0},
    {"sm_89", "NVIDIA GeForce RTX 4090 (cusim sm_89)", 8, 9, 128, 1024, {1024, 1024, 64},
     {2147483647, 65535, 65535}, 1536, 24, 48 * KiB, 99 * KiB, 100 * KiB, 1 * KiB, 65536, 65536, 24ull * GiB,
     64 * KiB, 2520000, 10501000, 384, 75497472, 0, 2, 0, 64, 0x268410DE, 0, 0},
    {"sm_90", "NVIDIA H100 80GB HBM3", 9, 0, 132, 1024, {1024, 1024, 64}, {2147483647, 65535, 65535}, 2048, 32,
     48 * KiB, 227 * KiB, 228 * KiB, 1 * KiB, 65536, 65536, 85017493504ull, 64 * KiB, 1980000, 2619000, 5120,
     52428800, 32768000, 3, 1, 2, 0x233010DE, 8, 6},
}};

}  // namespace
}  // namespace cusim

// `cusim-cc -arch=sm_XX` puts a (weak) definition of this into every object it
// builds. Here it is only a weak reference: null means "not chosen at build
// time", whatever order the linker sees the objects in.
extern "C" __attribute__((weak)) const char cusim_program_profile[];

namespace cusim {
namespace {

const device_profile* initial_profile() {
  const char* chosen = cusim_program_profile;  // null unless a definition was linked in
  const char* built_for = chosen != nullptr && chosen[0] != '\0' ? chosen : "sm_90";
  const std::string wanted = detail::env_string("CUSIM_DEVICE").value_or(built_for);
  if (const device_profile* p = find_profile(wanted)) return p;
  std::string known;
  for (const auto& p : builtin_profiles) known.append(known.empty() ? "" : ", ").append(p.id);
  detail::report("CUSIM_DEVICE='{}' is not a known profile ({}); using sm_90", wanted, known);
  return find_profile("sm_90");
}

constexpr int max_devices = 16;

struct device_set {
  int count = 1;
  std::array<std::atomic<const device_profile*>, max_devices> profiles{};
};

// CUSIM_DEVICES: a count of devices of the program's profile, or a list of profiles.
device_set& devices() {
  static device_set& set = [] () -> device_set& {
    auto* made = new device_set;  // never destroyed: device threads may run at exit
    const device_profile* initial = initial_profile();
    made->profiles[0] = initial;
    const std::string wanted = detail::env_string("CUSIM_DEVICES").value_or("1");
    std::vector<const device_profile*> listed;
    if (wanted.find_first_not_of("0123456789") == std::string::npos) {
      const int n = std::atoi(wanted.c_str());
      if (n < 1 || n > max_devices) {
        detail::report("CUSIM_DEVICES={} is not a count from 1 to {}; using 1 device", wanted, max_devices);
      }
      listed.assign(std::size_t(n >= 1 && n <= max_devices ? n : 1), initial);
    } else {
      for (std::size_t start = 0; start <= wanted.size() && listed.size() < max_devices;) {
        const std::size_t end = std::min(wanted.find(',', start), wanted.size());
        const std::string id = wanted.substr(start, end - start);
        if (const device_profile* p = find_profile(id)) {
          listed.push_back(p);
        } else {
          detail::report("CUSIM_DEVICES: '{}' is not a known profile; that device is left out", id);
        }
        start = end + 1;
      }
      if (listed.empty()) listed.push_back(initial);
    }
    made->count = int(listed.size());
    for (std::size_t i = 0; i < listed.size(); ++i) made->profiles[i] = listed[i];
    return *made;
  }();
  return set;
}

thread_local int current = 0;  // a new host thread starts on device 0, as with CUDA

}  // namespace

std::span<const device_profile> profiles() { return builtin_profiles; }

const device_profile* find_profile(std::string_view id) {
  for (const auto& p : builtin_profiles) {
    if (p.id == id) return &p;
  }
  return nullptr;
}

int device_count() { return devices().count; }

const device_profile& device_profile_of(int device) {
  return *devices().profiles[std::size_t(device)].load(std::memory_order_acquire);
}

const device_profile& active_profile() { return device_profile_of(current); }

bool select_profile(std::string_view id) {
  const device_profile* p = find_profile(id);
  if (p == nullptr) return false;
  devices().profiles[std::size_t(current)].store(p, std::memory_order_release);
  return true;
}

int detail::current_device() { return current; }
void detail::set_current_device(int device) { current = device; }
bool detail::valid_device(int device) { return device >= 0 && device < device_count(); }

}  // namespace cusim
