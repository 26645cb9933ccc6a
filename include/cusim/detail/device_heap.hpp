// The device heap: what malloc/free and new/delete in device code use
// (cusim-cc rewrites them to these), and device-side cudaMalloc/cudaFree.
// In a kernel, allocations come from one region of cudaLimitMallocHeapSize
// bytes, fixed when the heap is first used, and fail (nullptr) when it is
// full, as on a GPU. Outside a kernel (a __host__ __device__ function called
// from the host) they are the host's own.
#pragma once
#include <cstddef>
#include <new>
#include <type_traits>

namespace cusim::detail {

void* device_malloc(std::size_t bytes) noexcept;
void device_free(void* p) noexcept;
// Whether `p` points into the device heap.
bool in_device_heap(const void* p) noexcept;

struct device_heap_tag {};
inline constexpr device_heap_tag device_heap{};

// The start of the object `p` points to, through a base class too.
template <class T>
void* allocation_start(T* p) {
  if constexpr (std::is_polymorphic_v<T>) {
    return const_cast<void*>(dynamic_cast<const volatile void*>(p));
  } else {
    return const_cast<void*>(static_cast<const volatile void*>(p));
  }
}

// `delete p` in device code: `device_delete() = p`.
struct device_delete {
  template <class T>
  void operator=(T* p) const {
    if (p == nullptr) return;
    void* start = allocation_start(p);
    if (!in_device_heap(start)) {
      delete p;  // the host's, in a __host__ __device__ function called from the host
      return;
    }
    p->~T();
    device_free(start);
  }
};

// `delete[] p` in device code. A new[] of a type with a destructor stores the
// element count just before the elements (the Itanium C++ ABI's cookie, of
// max(sizeof(size_t), alignof(T)) bytes), which says how many to destroy.
struct device_delete_array {
  template <class T>
  void operator=(T* p) const {
    if (p == nullptr) return;
    if (!in_device_heap(p)) {
      delete[] p;
      return;
    }
    if constexpr (std::is_trivially_destructible_v<T>) {
      device_free(const_cast<void*>(static_cast<const volatile void*>(p)));
    } else {
      constexpr std::size_t cookie = sizeof(std::size_t) > alignof(T) ? sizeof(std::size_t) : alignof(T);
      auto* bytes = reinterpret_cast<char*>(const_cast<std::remove_cv_t<T>*>(p));
      const std::size_t count = *reinterpret_cast<std::size_t*>(bytes - sizeof(std::size_t));
      for (std::size_t i = count; i > 0; --i) p[i - 1].~T();
      device_free(bytes - cookie);
    }
  }
};

}  // namespace cusim::detail

// `new T` in device code: `new (cusim::detail::device_heap) T`. Non-throwing,
// as on a GPU: a full heap gives nullptr.
void* operator new(std::size_t bytes, cusim::detail::device_heap_tag) noexcept;
void* operator new[](std::size_t bytes, cusim::detail::device_heap_tag) noexcept;
void operator delete(void* p, cusim::detail::device_heap_tag) noexcept;
void operator delete[](void* p, cusim::detail::device_heap_tag) noexcept;
