// Device profiles: the GPU cusim models. Every limit a launch is checked
// against, every cudaDeviceProp field and every device attribute comes from
// the active profile. Choose one with CUSIM_DEVICE=sm_80 (default sm_90) or
// with cusim::select_profile before the first CUDA call.
#pragma once
#include <cstddef>
#include <span>
#include <string_view>

namespace cusim {

struct device_profile {
  std::string_view id;    // "sm_90"
  std::string_view name;  // what cudaDeviceProp::name reports
  int major, minor;
  int multiprocessor_count;
  int max_threads_per_block;
  int max_block_dim[3];
  int max_grid_dim[3];
  int max_threads_per_multiprocessor;
  int max_blocks_per_multiprocessor;
  std::size_t shared_mem_per_block;           // without opt-in
  std::size_t shared_mem_per_block_optin;     // cudaFuncAttributeMaxDynamicSharedMemorySize ceiling
  std::size_t shared_mem_per_multiprocessor;
  std::size_t reserved_shared_mem_per_block;  // taken by the system from each block's share
  int regs_per_block;
  int regs_per_multiprocessor;
  std::size_t total_global_mem;
  std::size_t total_const_mem;
  int clock_rate_khz;
  int memory_clock_rate_khz;
  int memory_bus_width;
  int l2_cache_size;
  int persisting_l2_cache_max_size;
  int async_engine_count;
  int ecc_enabled;
  int single_to_double_perf_ratio;
  unsigned int gpu_pci_device_id;
  int max_cluster_size;  // portable maximum; 0 where clusters are unsupported
  int pci_device_id;     // the measured board's PCI device (slot) number
};

// All built-in profiles, oldest architecture first.
std::span<const device_profile> profiles();

// The profile named `id` ("sm_75", ...), or nullptr.
const device_profile* find_profile(std::string_view id);

// The emulated devices: one of the program's profile by default;
// CUSIM_DEVICES=N makes N of them, CUSIM_DEVICES=sm_90,sm_86 one of each
// profile listed (at most 16).
int device_count();
const device_profile& device_profile_of(int device);

// The profile of the calling thread's current device (cudaSetDevice).
const device_profile& active_profile();

// Makes `id` the profile of the current device. Returns false (and changes
// nothing) for an unknown id. Meant for program start; switching while
// kernels run is not supported.
bool select_profile(std::string_view id);

namespace detail {
// The calling thread's current device. Work queued to a stream runs with
// its stream's device current.
int current_device();
void set_current_device(int device);
bool valid_device(int device);  // 0 <= device < device_count()
}  // namespace detail

}  // namespace cusim
