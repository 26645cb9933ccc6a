// Every allocation the program made through the CUDA API, so that copies and
// frees can be checked as a GPU's driver checks them (a host pointer where a
// device pointer belongs, a copy past the end of a buffer, a double free).
#pragma once
#include <cstddef>
#include <optional>
#include <string>

namespace cusim::detail {

// registered_host: the program's own memory, page-locked with
// cudaHostRegister (cusim does not own it).
enum class memory_kind { device, pinned_host, managed, registered_host };

struct allocation {
  void* base;
  std::size_t size;
  memory_kind kind;
  int device;  // current when it was made
  // A large device allocation's bytes before it in its own mapping
  // (allocations.cpp: successive ones start at different offsets).
  std::size_t lead = 0;
};

// Allocates `size` bytes (256-byte aligned, as cudaMalloc guarantees) on
// the current device; a device or managed one of 2 MiB or more is followed
// by address space that faults, as a GPU's would (allocations.cpp). Returns nullptr when that device's memory (its
// profile's), or the host's, is exhausted.
void* allocate(std::size_t size, memory_kind kind);

// Frees the allocation starting exactly at `base` if it is of one of the
// accepted kinds. Returns false otherwise.
bool release(void* base, bool accept_device_or_managed, bool accept_pinned);

// The allocation containing `address`, if any.
std::optional<allocation> find_allocation(const void* address);
// For reports of bad accesses, where `address` lies: "12 bytes into (4 bytes
// after) the 400-byte buffer at 0x... (cudaMalloc and the like, device 0)",
// counting the padding up to the next 256-byte boundary, where the program
// has no business either. Empty when in no allocation.
std::string describe_allocation_address(const void* address);
// For a fault: where `address` lies past the end of a large device
// allocation, in the address space that faults after it ("3 MiB after the
// end of ..."). Empty elsewhere.
std::string describe_address_past_allocation(const void* address);

// True when [address, address + bytes) lies inside one device or managed
// allocation: memory a kernel or a device-side copy may touch.
bool is_device_range(const void* address, std::size_t bytes);

std::size_t device_bytes_in_use(int device);

// Where `address` lies in the device heap (device_heap.cpp), for reports of
// bad accesses: "4 bytes after the 16-byte block at 0x...", "inside a freed
// block". Empty when it is not in the heap.
std::string describe_device_heap_address(const void* address);

// cudaHostRegister / cudaHostUnregister: false when the range overlaps a
// known one, or (unregistering) `base` starts none.
bool register_host_range(void* base, std::size_t size);
bool unregister_host_range(void* base);

// cudaDeviceReset: frees everything `device` allocated (host allocations
// belong to the device current when they were made).
void release_all(int device);

}  // namespace cusim::detail
