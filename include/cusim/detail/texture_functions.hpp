// The device side of textures and surfaces: tex1Dfetch, tex2D, surf2Dwrite
// and their kin read through the runtime (src/api/textures.cpp), which
// addresses, filters and converts as a GPU's texture unit does
// (docs/textures.md); these templates turn its four channels into the
// type the caller asks for (float, float4, uchar4, int2, ...).
#pragma once
#include <cstddef>
#include <type_traits>
#include <utility>

#include <surface_types.h>
#include <texture_types.h>
#include <vector_types.h>

#include <cusim/detail/config.hpp>

namespace cusim::detail {

// A fetch's result: each channel as the float a filtered or normalized
// read gives, and as the integer an element-type read of an integer
// format gives.
struct texel {
  float f[4];
  unsigned int bits[4];
};

enum class texture_shape : unsigned char { fetch, d1, d2, d3, layered1, layered2, cubemap, cubemap_layered };

texel texture_read(cudaTextureObject_t object, texture_shape shape, float x, float y, float z, int layer,
                   const char* file, unsigned int line);
texel texture_gather(cudaTextureObject_t object, float x, float y, int component, const char* file, unsigned int line);
// Reads or writes `bytes` at byte column `x` of row `y` of slice `z` (or
// layer) of surface `object`, by `boundary` (cudaSurfaceBoundaryMode).
void surface_access(cudaSurfaceObject_t object, int dimensions, int x, int y, int z, bool layered, void* value,
                    std::size_t bytes, bool write, int boundary, const char* file, unsigned int line);

// How many components a vector type has (float4: 4), 0 for a scalar. (No
// requires-expressions: host .cpp files include this in C++17.)
template <class T, class = void>
struct has_x : std::false_type {};
template <class T>
struct has_x<T, std::void_t<decltype(std::declval<T>().x)>> : std::true_type {};
template <class T, class = void>
struct has_y : std::false_type {};
template <class T>
struct has_y<T, std::void_t<decltype(std::declval<T>().y)>> : std::true_type {};
template <class T, class = void>
struct has_z : std::false_type {};
template <class T>
struct has_z<T, std::void_t<decltype(std::declval<T>().z)>> : std::true_type {};
template <class T, class = void>
struct has_w : std::false_type {};
template <class T>
struct has_w<T, std::void_t<decltype(std::declval<T>().w)>> : std::true_type {};

template <class T>
constexpr int components_of() {
  if constexpr (has_w<T>::value) return 4;
  else if constexpr (has_z<T>::value) return 3;
  else if constexpr (has_y<T>::value) return 2;
  else if constexpr (has_x<T>::value) return 1;
  else return 0;
}

// A vector type's component type (uchar4: unsigned char); a scalar's own.
template <class T, int n = components_of<T>()>
struct component_type {
  using type = decltype(T::x);
};
template <class T>
struct component_type<T, 0> {
  using type = T;
};

template <class C>
C channel_as(const texel& v, int c) {
  if constexpr (std::is_floating_point_v<C>) return static_cast<C>(v.f[c]);
  else return static_cast<C>(v.bits[c]);
}

template <class T>
T texel_as(const texel& v) {
  constexpr int n = components_of<T>();
  if constexpr (n == 0) {
    return channel_as<T>(v, 0);
  } else {
    using C = typename component_type<T>::type;
    T r{};
    r.x = channel_as<C>(v, 0);
    if constexpr (n >= 2) r.y = channel_as<C>(v, 1);
    if constexpr (n >= 3) r.z = channel_as<C>(v, 2);
    if constexpr (n >= 4) r.w = channel_as<C>(v, 3);
    return r;
  }
}

}  // namespace cusim::detail

#define CUSIM_TEXTURE_SITE_ const char *cusim_file = __builtin_FILE(), unsigned int cusim_line = __builtin_LINE()

template <class T>
T tex1Dfetch(cudaTextureObject_t t, int x, CUSIM_TEXTURE_SITE_) {
  using namespace cusim::detail;
  return texel_as<T>(texture_read(t, texture_shape::fetch, static_cast<float>(x), 0, 0, 0, cusim_file, cusim_line));
}
template <class T>
T tex1D(cudaTextureObject_t t, float x, CUSIM_TEXTURE_SITE_) {
  using namespace cusim::detail;
  return texel_as<T>(texture_read(t, texture_shape::d1, x, 0, 0, 0, cusim_file, cusim_line));
}
template <class T>
T tex2D(cudaTextureObject_t t, float x, float y, CUSIM_TEXTURE_SITE_) {
  using namespace cusim::detail;
  return texel_as<T>(texture_read(t, texture_shape::d2, x, y, 0, 0, cusim_file, cusim_line));
}
template <class T>
T tex3D(cudaTextureObject_t t, float x, float y, float z, CUSIM_TEXTURE_SITE_) {
  using namespace cusim::detail;
  return texel_as<T>(texture_read(t, texture_shape::d3, x, y, z, 0, cusim_file, cusim_line));
}
template <class T>
T tex1DLayered(cudaTextureObject_t t, float x, int layer, CUSIM_TEXTURE_SITE_) {
  using namespace cusim::detail;
  return texel_as<T>(texture_read(t, texture_shape::layered1, x, 0, 0, layer, cusim_file, cusim_line));
}
template <class T>
T tex2DLayered(cudaTextureObject_t t, float x, float y, int layer, CUSIM_TEXTURE_SITE_) {
  using namespace cusim::detail;
  return texel_as<T>(texture_read(t, texture_shape::layered2, x, y, 0, layer, cusim_file, cusim_line));
}
template <class T>
T texCubemap(cudaTextureObject_t t, float x, float y, float z, CUSIM_TEXTURE_SITE_) {
  using namespace cusim::detail;
  return texel_as<T>(texture_read(t, texture_shape::cubemap, x, y, z, 0, cusim_file, cusim_line));
}
template <class T>
T texCubemapLayered(cudaTextureObject_t t, float x, float y, float z, int layer, CUSIM_TEXTURE_SITE_) {
  using namespace cusim::detail;
  return texel_as<T>(texture_read(t, texture_shape::cubemap_layered, x, y, z, layer, cusim_file, cusim_line));
}
// Arrays have one level (no mipmapped arrays): a level of detail reads it.
template <class T>
T tex1DLod(cudaTextureObject_t t, float x, float, CUSIM_TEXTURE_SITE_) {
  return tex1D<T>(t, x, cusim_file, cusim_line);
}
template <class T>
T tex2DLod(cudaTextureObject_t t, float x, float y, float, CUSIM_TEXTURE_SITE_) {
  return tex2D<T>(t, x, y, cusim_file, cusim_line);
}
template <class T>
T tex3DLod(cudaTextureObject_t t, float x, float y, float z, float, CUSIM_TEXTURE_SITE_) {
  return tex3D<T>(t, x, y, z, cusim_file, cusim_line);
}
template <class T>
T tex2DLayeredLod(cudaTextureObject_t t, float x, float y, int layer, float, CUSIM_TEXTURE_SITE_) {
  return tex2DLayered<T>(t, x, y, layer, cusim_file, cusim_line);
}
template <class T>
T tex2DGrad(cudaTextureObject_t t, float x, float y, float2, float2, CUSIM_TEXTURE_SITE_) {
  return tex2D<T>(t, x, y, cusim_file, cusim_line);
}
template <class T>
T tex2Dgather(cudaTextureObject_t t, float x, float y, int comp = 0, CUSIM_TEXTURE_SITE_) {
  using namespace cusim::detail;
  return texel_as<T>(texture_gather(t, x, y, comp, cusim_file, cusim_line));
}
// The forms that store through a pointer.
template <class T>
void tex1Dfetch(T* r, cudaTextureObject_t t, int x, CUSIM_TEXTURE_SITE_) { *r = tex1Dfetch<T>(t, x, cusim_file, cusim_line); }
template <class T>
void tex1D(T* r, cudaTextureObject_t t, float x, CUSIM_TEXTURE_SITE_) { *r = tex1D<T>(t, x, cusim_file, cusim_line); }
template <class T>
void tex2D(T* r, cudaTextureObject_t t, float x, float y, CUSIM_TEXTURE_SITE_) {
  *r = tex2D<T>(t, x, y, cusim_file, cusim_line);
}
template <class T>
void tex3D(T* r, cudaTextureObject_t t, float x, float y, float z, CUSIM_TEXTURE_SITE_) {
  *r = tex3D<T>(t, x, y, z, cusim_file, cusim_line);
}
template <class T>
void tex2DLayered(T* r, cudaTextureObject_t t, float x, float y, int layer, CUSIM_TEXTURE_SITE_) {
  *r = tex2DLayered<T>(t, x, y, layer, cusim_file, cusim_line);
}

// Surfaces: x counts bytes, as on a GPU.
#define CUSIM_SURFACE_READ_(name, dims, layered, params, ...)                                                  \
  template <class T>                                                                                           \
  T name(cudaSurfaceObject_t s, params, cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,                   \
         CUSIM_TEXTURE_SITE_) {                                                                                \
    T value{};                                                                                                 \
    cusim::detail::surface_access(s, dims, __VA_ARGS__, layered, &value, sizeof(T), false, mode, cusim_file,  \
                                  cusim_line);                                                                 \
    return value;                                                                                              \
  }                                                                                                            \
  template <class T>                                                                                           \
  void name(T* value, cudaSurfaceObject_t s, params, cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,      \
            CUSIM_TEXTURE_SITE_) {                                                                             \
    cusim::detail::surface_access(s, dims, __VA_ARGS__, layered, value, sizeof(T), false, mode, cusim_file,   \
                                  cusim_line);                                                                 \
  }
#define CUSIM_SURFACE_WRITE_(name, dims, layered, params, ...)                                                 \
  template <class T>                                                                                           \
  void name(T value, cudaSurfaceObject_t s, params, cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap,       \
            CUSIM_TEXTURE_SITE_) {                                                                             \
    cusim::detail::surface_access(s, dims, __VA_ARGS__, layered, &value, sizeof(T), true, mode, cusim_file,   \
                                  cusim_line);                                                                 \
  }
#define CUSIM_COMMA_ ,
CUSIM_SURFACE_READ_(surf1Dread, 1, false, int x, x, 0, 0)
CUSIM_SURFACE_READ_(surf2Dread, 2, false, int x CUSIM_COMMA_ int y, x, y, 0)
CUSIM_SURFACE_READ_(surf3Dread, 3, false, int x CUSIM_COMMA_ int y CUSIM_COMMA_ int z, x, y, z)
CUSIM_SURFACE_READ_(surf1DLayeredread, 1, true, int x CUSIM_COMMA_ int layer, x, 0, layer)
CUSIM_SURFACE_READ_(surf2DLayeredread, 2, true, int x CUSIM_COMMA_ int y CUSIM_COMMA_ int layer, x, y, layer)
CUSIM_SURFACE_WRITE_(surf1Dwrite, 1, false, int x, x, 0, 0)
CUSIM_SURFACE_WRITE_(surf2Dwrite, 2, false, int x CUSIM_COMMA_ int y, x, y, 0)
CUSIM_SURFACE_WRITE_(surf3Dwrite, 3, false, int x CUSIM_COMMA_ int y CUSIM_COMMA_ int z, x, y, z)
CUSIM_SURFACE_WRITE_(surf1DLayeredwrite, 1, true, int x CUSIM_COMMA_ int layer, x, 0, layer)
CUSIM_SURFACE_WRITE_(surf2DLayeredwrite, 2, true, int x CUSIM_COMMA_ int y CUSIM_COMMA_ int layer, x, y, layer)
#undef CUSIM_SURFACE_READ_
#undef CUSIM_SURFACE_WRITE_
#undef CUSIM_COMMA_
