// Texture and surface objects, and what device code's fetches do with them:
// address modes, point and linear filtering (with the GPU's 8-bit fraction
// weights), normalised coordinates, normalised-float reads of integer
// formats, cubemap faces; surfaces' byte addressing and boundary modes.
// docs/textures.md says what matches a GPU and what does not.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>

#include <cuda_runtime_api.h>
#include <cusim/detail/half_bits.hpp>
#include <cusim/detail/texture_functions.hpp>

#include "api/arrays.hpp"
#include "api/device_queue.hpp"
#include "memory/runtime_writes.hpp"
#include "runtime/errors.hpp"
#include "sched/device_failure.hpp"
#include "support/diagnostics.hpp"


using namespace cusim::detail;

namespace {

// What an object reads: texels at `base`, rows `pitch` bytes apart, slices
// (depth, layers or cube faces) `slice` bytes apart.
struct texture_record {
  bool surface = false;
  std::atomic<bool> live{true};  // cleared by the host, read by fetches on workers
  cudaResourceDesc resource{};
  cudaTextureDesc texture{};
  cudaChannelFormatDesc format{};
  char* base = nullptr;
  std::size_t element_bytes = 0;
  std::size_t width = 0, height = 1, depth = 1;
  std::size_t pitch = 0, slice = 0;
  unsigned int array_flags = 0;
  int dimensions = 1;  // of the array (1, 2 or 3); linear memory 1, pitch 2D 2
};

// Objects by handle (index + 1), never reused, so a destroyed object is
// recognised. Two levels of lazily made chunks: fetches look up without a
// lock.
constexpr std::size_t chunk_size = 4096, chunk_count = 4096;
std::atomic<texture_record*>* chunks[chunk_count];
std::atomic<std::uint64_t> next_handle{1};
std::mutex registry_mutex;

std::atomic<texture_record*>& slot(std::uint64_t handle) {
  const std::uint64_t index = handle - 1;
  return chunks[index / chunk_size][index % chunk_size];
}

texture_record* find(std::uint64_t handle) {
  if (handle == 0 || handle >= next_handle.load(std::memory_order_acquire)) return nullptr;
  return slot(handle).load(std::memory_order_acquire);
}

cudaError_t add(std::unique_ptr<texture_record> record, unsigned long long* handle) {
  std::lock_guard lock(registry_mutex);
  const std::uint64_t h = next_handle.load(std::memory_order_relaxed);
  const std::uint64_t index = h - 1;
  if (index / chunk_size >= chunk_count) return set_error(cudaErrorMemoryAllocation);
  if (index % chunk_size == 0) chunks[index / chunk_size] = new std::atomic<texture_record*>[chunk_size]();
  slot(h).store(record.release(), std::memory_order_release);
  next_handle.store(h + 1, std::memory_order_release);
  *handle = h;
  return cudaSuccess;
}

// The storage a resource names, or an error.
cudaError_t resolve(const cudaResourceDesc& resource, texture_record& r, const char* api) {
  switch (resource.resType) {
    case cudaResourceTypeArray: {
      const cudaArray* a = resource.res.array.array;
      if (!is_live_array(a)) return set_error(cudaErrorInvalidResourceHandle);
      r.format = a->desc;
      r.base = a->data;
      r.element_bytes = a->element_bytes;
      r.width = a->width;
      r.height = a->height;
      r.depth = a->depth;
      r.pitch = a->pitch();
      r.slice = a->slice();
      r.array_flags = a->flags;
      const bool layered = (a->flags & (cudaArrayLayered | cudaArrayCubemap)) != 0;
      r.dimensions = a->declared.height == 0 ? 1 : (a->declared.depth == 0 || layered) ? 2 : 3;
      if (layered && a->declared.height == 0) r.dimensions = 1;
      return cudaSuccess;
    }
    case cudaResourceTypeLinear:
      r.format = resource.res.linear.desc;
      r.base = static_cast<char*>(resource.res.linear.devPtr);
      r.element_bytes = format_bytes(r.format);
      if (r.base == nullptr || r.element_bytes == 0) return set_error(cudaErrorInvalidValue);
      r.width = resource.res.linear.sizeInBytes / r.element_bytes;
      if (r.width == 0) return set_error(cudaErrorInvalidValue);
      r.pitch = r.slice = resource.res.linear.sizeInBytes;
      r.dimensions = 1;
      return cudaSuccess;
    case cudaResourceTypePitch2D:
      r.format = resource.res.pitch2D.desc;
      r.base = static_cast<char*>(resource.res.pitch2D.devPtr);
      r.element_bytes = format_bytes(r.format);
      if (r.base == nullptr || r.element_bytes == 0 || resource.res.pitch2D.width == 0 ||
          resource.res.pitch2D.height == 0 ||
          resource.res.pitch2D.pitchInBytes < resource.res.pitch2D.width * r.element_bytes) {
        return set_error(cudaErrorInvalidValue);
      }
      r.width = resource.res.pitch2D.width;
      r.height = resource.res.pitch2D.height;
      r.pitch = resource.res.pitch2D.pitchInBytes;
      r.slice = r.pitch * r.height;
      r.dimensions = 2;
      return cudaSuccess;
    case cudaResourceTypeMipmappedArray:
      report("{}: mipmapped arrays are not supported by cusim (docs/textures.md). It returns cudaErrorNotSupported.",
             api);
      return set_error(cudaErrorNotSupported);
  }
  return set_error(cudaErrorInvalidValue);
}

[[noreturn]] void bad_object(const char* what, std::uint64_t handle, const texture_record* r, const char* file,
                             unsigned int line) {
  const char* why = r == nullptr ? "was never created" : "was destroyed";
  stop_grid_with(cudaErrorIllegalAddress, file, line, "{} object {} {}", what, handle, why);
}

const texture_record& live_object(std::uint64_t handle, bool surface, const char* file, unsigned int line) {
  const texture_record* r = find(handle);
  if (r == nullptr || !r->live || r->surface != surface) bad_object(surface ? "surface" : "texture", handle, r, file, line);
  return *r;
}

// The channels of the texel at `p`, decoded by the format and read mode.
texel decode(const texture_record& r, const char* p, bool normalized_read) {
  texel t{};
  const cudaChannelFormatDesc& f = r.format;
  const int channels = channel_count(f);
  const int bits = f.x;
  for (int c = 0; c < channels; ++c) {
    const char* q = p + c * bits / 8;
    std::uint32_t raw = 0;
    std::memcpy(&raw, q, static_cast<std::size_t>(bits / 8));
    if (f.f == cudaChannelFormatKindFloat) {
      t.f[c] = bits == 16 ? half_bits_to_float(static_cast<std::uint16_t>(raw)) : std::bit_cast<float>(raw);
      t.bits[c] = std::bit_cast<std::uint32_t>(t.f[c]);
      continue;
    }
    if (f.f == cudaChannelFormatKindSigned) {
      const int shift = 32 - bits;
      const auto value = static_cast<std::int32_t>(raw << shift) >> shift;
      t.bits[c] = static_cast<std::uint32_t>(value);
      const float largest = static_cast<float>((1u << (bits - 1)) - 1);
      t.f[c] = normalized_read && bits < 32 ? std::max(static_cast<float>(value) / largest, -1.0f)
                                            : static_cast<float>(value);
    } else {
      t.bits[c] = raw;
      const float largest = bits == 32 ? 4294967295.0f : static_cast<float>((1u << bits) - 1);
      t.f[c] = normalized_read && bits < 32 ? static_cast<float>(raw) / largest : static_cast<float>(raw);
    }
  }
  return t;
}

bool reads_floats(const texture_record& r) {
  return r.format.f == cudaChannelFormatKindFloat || r.texture.readMode == cudaReadModeNormalizedFloat;
}

// One axis: a texel index and whether it falls outside (border mode).
struct axis_index {
  long long index;
  bool outside;
};

long long mirror(long long i, long long n) {
  long long m = i % (2 * n);
  if (m < 0) m += 2 * n;
  return m < n ? m : 2 * n - 1 - m;
}

axis_index address(long long i, long long n, cudaTextureAddressMode mode, bool normalized) {
  // Wrap and mirror need normalised coordinates; otherwise they clamp.
  if (normalized && mode == cudaAddressModeWrap) return {((i % n) + n) % n, false};
  if (normalized && mode == cudaAddressModeMirror) return {mirror(i, n), false};
  if (mode == cudaAddressModeBorder) return {i, i < 0 || i >= n};
  return {std::clamp(i, 0LL, n - 1), false};
}

// The texel coordinate of `u` along an axis of `n` texels, as an H100
// computes it (diff.generated.textures.*, and probes of mirror mode): a
// NaN is 0; a normalised coordinate goes to fixed point with 21 fractional
// bits, rounded down (a denormal flushed to 0), and is then scaled by n, so
// u = k/n, which binary cannot hold, reads texel k - 1. Wrap and mirror
// then apply to the texel index (address()), not to u: -k/n mirrors to
// texel k - 1, 1.5 to just below 0.5. Under them an infinity, or a float
// too large to have a fraction, is 0.
double texel_coordinate(float u, long long n, bool normalized, cudaTextureAddressMode mode) {
  if (std::isnan(u)) return 0;
  if (!normalized) return u;
  if (std::fpclassify(u) == FP_SUBNORMAL) u = 0;
  const bool folds = mode == cudaAddressModeWrap || mode == cudaAddressModeMirror;
  if (folds && !(std::fabs(u) < 0x1p24f)) return 0;  // infinite, or an even integer
  constexpr double one = 1 << 21;
  return std::floor(static_cast<double>(u) * one) / one * static_cast<double>(n);
}

// floor(x) as an index (huge values stay far outside any array without
// overflowing).
long long index_below(double x) { return static_cast<long long>(std::clamp(std::floor(x), -1e12, 1e12)); }

// The largest texel value of a normalised read of an integer format of up
// to 16 bits (255, 127, 65535, 32767); 0 for other formats and reads.
int normalized_levels(const texture_record& r) {
  const cudaChannelFormatDesc& f = r.format;
  if (r.texture.readMode != cudaReadModeNormalizedFloat || f.f == cudaChannelFormatKindFloat || f.x > 16) return 0;
  return (1 << (f.f == cudaChannelFormatKindSigned ? f.x - 1 : f.x)) - 1;
}

// A border colour as the texture reads it: through the texel format, so a
// normalised read of an integer format gets it clamped to the format's
// range and rounded to one of its steps, as an H100 gives it: the product
// with the largest value is rounded to float, then to an integer with
// halves toward zero (0.1 reads back as 25/255 from 8 bits). A NaN is 0.
float border_channel(float colour, const cudaChannelFormatDesc& f, bool normalized_read) {
  if (!normalized_read || f.f == cudaChannelFormatKindFloat || f.x >= 32) return colour;
  if (std::isnan(colour)) return 0;
  const bool is_signed = f.f == cudaChannelFormatKindSigned;
  const float largest = static_cast<float>((1u << (is_signed ? f.x - 1 : f.x)) - 1);
  const float clamped = std::clamp(colour, is_signed ? -1.0f : 0.0f, 1.0f);
  const float scaled = clamped * largest;
  const float steps = std::copysign(std::ceil(std::fabs(scaled) - 0.5f), scaled);
  return steps / largest;
}

struct sampler {
  const texture_record& r;
  bool floats;
  bool normalized;
  int mode_override = -1;  // a cudaTextureAddressMode every axis uses instead of the object's (cube faces)

  cudaTextureAddressMode mode(int axis) const {
    return mode_override >= 0 ? static_cast<cudaTextureAddressMode>(mode_override) : r.texture.addressMode[axis];
  }

  texel at(long long i, long long j, long long k, std::size_t layer) const {
    const std::size_t slice_index = r.dimensions == 3 ? static_cast<std::size_t>(k) : layer;
    return decode(r, r.base + slice_index * r.slice + static_cast<std::size_t>(j) * r.pitch +
                         static_cast<std::size_t>(i) * r.element_bytes,
                  r.texture.readMode == cudaReadModeNormalizedFloat);
  }
  texel border() const {
    texel t{};
    const int levels = normalized_levels(r);
    for (int c = 0; c < 4; ++c) {
      t.f[c] = border_channel(r.texture.borderColor[c], r.format, r.texture.readMode == cudaReadModeNormalizedFloat);
      // A normalised read's border as a texel value (linear() filters those).
      const float value = levels != 0 ? std::nearbyint(t.f[c] * static_cast<float>(levels)) : r.texture.borderColor[c];
      t.bits[c] = static_cast<std::uint32_t>(static_cast<std::int32_t>(value));
    }
    return t;
  }
  texel fetch(const axis_index* axes, int dims, std::size_t layer) const {
    for (int d = 0; d < dims; ++d) {
      if (axes[d].outside) return border();
    }
    return at(axes[0].index, dims > 1 ? axes[1].index : 0, dims > 2 ? axes[2].index : 0, layer);
  }

  // Point sampling: the texel the coordinate falls in.
  texel point(const float* coords, const long long* sizes, int dims, std::size_t layer) const {
    axis_index axes[3];
    for (int d = 0; d < dims; ++d) {
      const long long n = sizes[d];
      const auto mode = this->mode(d);
      axes[d] = address(index_below(texel_coordinate(coords[d], n, normalized, mode)), n, mode, normalized);
    }
    return fetch(axes, dims, layer);
  }

  // Linear filtering: the 2, 4 or 8 texels around the coordinate. A GPU
  // keeps each axis's fraction with 8 fractional bits (the weight of the
  // higher texel, in 256ths), and in 2D rounds the weight of the corner
  // both fractions point to (their product, halves up) and gives the other
  // corners what the fractions leave: an H100's results match this
  // exactly. A 3D filter is two such 2D filters, one per slice, mixed by
  // the third fraction (an H100 differs from that by a few 256ths of a
  // texel step: docs/textures.md).
  texel linear(const float* coords, const long long* sizes, int dims, std::size_t layer) const {
    long long low[3] = {};
    int weight[3] = {};
    for (int d = 0; d < dims; ++d) {
      const double x = texel_coordinate(coords[d], sizes[d], normalized, mode(d)) - 0.5;
      const double whole = std::floor(x);
      low[d] = index_below(x);
      // In 256ths, rounded half up (an H100's: x.5 + 1/512 weighs the next texel 1/256).
      weight[d] = std::isfinite(x) ? static_cast<int>(std::floor((x - whole) * 256.0 + 0.5)) : 0;
    }
    // Corner c of the plane: bit 0 the higher x, bit 1 the higher y.
    int plane[4] = {256 - weight[0], weight[0], 0, 0};
    if (dims >= 2) {
      const int both = (weight[0] * weight[1] + 128) / 256;
      plane[3] = both;
      plane[1] = weight[0] - both;
      plane[2] = weight[1] - both;
      plane[0] = 256 - weight[0] - weight[1] + both;
    }
    const int plane_axes = std::min(dims, 2);
    texel sum{};
    const int levels = normalized_levels(r);
    double value_sum[4] = {};  // of the texel values, weighted in 65536ths (normalised integer formats)
    for (int slice = 0; slice < (dims == 3 ? 2 : 1); ++slice) {
      const float slice_weight = dims == 3 ? static_cast<float>(slice ? weight[2] : 256 - weight[2]) / 256.0f : 1.0f;
      if (slice_weight == 0.0f) continue;
      for (int corner = 0; corner < (1 << plane_axes); ++corner) {
        if (plane[corner] == 0) continue;
        axis_index axes[3];
        for (int d = 0; d < plane_axes; ++d) {
          axes[d] = address(low[d] + ((corner >> d) & 1), sizes[d], mode(d), normalized);
        }
        if (dims == 3) axes[2] = address(low[2] + slice, sizes[2], mode(2), normalized);
        const texel t = fetch(axes, dims, layer);
        const float w = slice_weight * static_cast<float>(plane[corner]) / 256.0f;
        for (int c = 0; c < 4; ++c) sum.f[c] += w * t.f[c];
        if (levels != 0) {
          const double corner_weight = slice_weight * 256.0f * static_cast<float>(plane[corner]);
          for (int c = 0; c < 4; ++c) {
            const double value = std::max(static_cast<double>(static_cast<std::int32_t>(t.bits[c])), -double(levels));
            value_sum[c] += corner_weight * value;
          }
        }
      }
    }
    // An H100 filters normalised 8- and 16-bit texels as 16-bit ones and
    // gives the result as one too: a step of 1/65535 unsigned, 1/32767
    // signed, rounded half up (8-bit texels so read back within 2^-17 of
    // the exact filter).
    if (levels != 0) {
      const double steps = r.format.f == cudaChannelFormatKindSigned ? 32767.0 : 65535.0;
      for (int c = 0; c < 4; ++c) {
        sum.f[c] = static_cast<float>(std::floor(value_sum[c] * steps / (65536.0 * levels) + 0.5) / steps);
      }
    }
    for (int c = 0; c < 4; ++c) sum.bits[c] = std::bit_cast<std::uint32_t>(sum.f[c]);
    return sum;
  }

  texel sample(const float* coords, int dims, std::size_t layer) const {
    const long long sizes[3] = {static_cast<long long>(r.width), static_cast<long long>(r.height),
                                static_cast<long long>(r.depth)};
    if (r.texture.filterMode == cudaFilterModeLinear && floats) {
      if (dims == 1) {
        // An H100 filters a 1D texture as a 2D one of one row read at
        // y = 0, the row's edge: in border mode half the weight goes to the
        // border colour (diff.generated.texture_shapes.*).
        const float plane_coords[2] = {coords[0], 0.0f};
        const long long plane_sizes[2] = {sizes[0], 1};
        return linear(plane_coords, plane_sizes, 2, layer);
      }
      return linear(coords, sizes, dims, layer);
    }
    return point(coords, sizes, dims, layer);
  }
};

// The face of a cube a direction points at, and where on it (0 to 1).
std::size_t cube_face(float x, float y, float z, float& s, float& t) {
  const float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  float sc, tc, ma;
  std::size_t face;
  // Ties go to z, then y (an H100 reads (-1, 0.5, -1) from face 5).
  if (az >= ax && az >= ay) {
    face = z >= 0 ? 4 : 5;
    sc = z >= 0 ? x : -x;
    tc = -y;
    ma = az;
  } else if (ay >= ax) {
    face = y >= 0 ? 2 : 3;
    sc = x;
    tc = y >= 0 ? z : -z;
    ma = ay;
  } else {
    face = x >= 0 ? 0 : 1;
    sc = x >= 0 ? -z : z;
    tc = -y;
    ma = ax;
  }
  s = (sc / ma + 1.0f) / 2.0f;
  t = (tc / ma + 1.0f) / 2.0f;
  return face;
}

}  // namespace

namespace cusim::detail {

texel texture_read(cudaTextureObject_t object, texture_shape shape, float x, float y, float z, int layer,
                   const char* file, unsigned int line) {
  const texture_record& r = live_object(object, false, file, line);
  if (shape == texture_shape::fetch) {
    // tex1Dfetch: an integer index into linear memory, no filtering; past
    // the end reads zero.
    if (!(x >= 0.0f) || static_cast<std::size_t>(x) >= r.width) return texel{};
    const auto i = static_cast<long long>(x);
    return decode(r, r.base + static_cast<std::size_t>(i) * r.element_bytes,
                  r.texture.readMode == cudaReadModeNormalizedFloat);
  }
  const sampler s{r, reads_floats(r), r.texture.normalizedCoords != 0};
  float coords[3] = {x, y, z};
  switch (shape) {
    case texture_shape::d1: return s.sample(coords, 1, 0);
    case texture_shape::d2: return s.sample(coords, 2, 0);
    case texture_shape::d3: return s.sample(coords, 3, 0);
    case texture_shape::layered1:
    case texture_shape::layered2: {
      // The layer as an unsigned index, clamped: a negative one reads the last layer.
      const auto clamped = std::min<std::size_t>(static_cast<unsigned int>(layer), r.depth - 1);
      return s.sample(coords, shape == texture_shape::layered1 ? 1 : 2, clamped);
    }
    case texture_shape::cubemap:
    case texture_shape::cubemap_layered: {
      float u, v;
      const std::size_t face = cube_face(x, y, z, u, v);
      // The face is read with normalised coordinates, clamped at its edges.
      if ((r.array_flags & cudaArrayCubemap) == 0) {
        stop_grid_with(cudaErrorIllegalAddress, file, line,
                       "texture object {} is read as a cubemap, but its array was not made with cudaArrayCubemap",
                       object);
      }
      const sampler on_face{r, s.floats, true, cudaAddressModeClamp};
      float face_coords[2] = {u, v};
      const long long cubes = static_cast<long long>(r.depth / 6);
      const std::size_t cube =
          shape == texture_shape::cubemap_layered ? static_cast<std::size_t>(std::clamp<long long>(layer, 0, cubes - 1)) : 0;
      return on_face.sample(face_coords, 2, 6 * cube + face);
    }
    case texture_shape::fetch: break;
  }
  return texel{};
}

texel texture_gather(cudaTextureObject_t object, float x, float y, int component, const char* file,
                     unsigned int line) {
  // The four texels bilinear filtering would weigh, one channel of each,
  // in the order (i, j+1), (i+1, j+1), (i+1, j), (i, j).
  const texture_record& r = live_object(object, false, file, line);
  const bool normalized = r.texture.normalizedCoords != 0;
  const sampler s{r, reads_floats(r), normalized};
  const long long sizes[2] = {static_cast<long long>(r.width), static_cast<long long>(r.height)};
  long long low[2];
  const float coords[2] = {x, y};
  for (int d = 0; d < 2; ++d) {
    low[d] = index_below(texel_coordinate(coords[d], sizes[d], normalized, r.texture.addressMode[d]) - 0.5);
  }
  const int offsets[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
  texel out{};
  const int c = std::clamp(component, 0, 3);
  for (int k = 0; k < 4; ++k) {
    axis_index axes[2];
    for (int d = 0; d < 2; ++d) axes[d] = address(low[d] + offsets[k][d], sizes[d], r.texture.addressMode[d], normalized);
    const texel t = s.fetch(axes, 2, 0);
    out.f[k] = t.f[c];
    out.bits[k] = t.bits[c];
  }
  return out;
}

void surface_access(cudaSurfaceObject_t object, int dimensions, int x, int y, int z, bool layered, void* value,
                    std::size_t bytes, bool write, int boundary, const char* file, unsigned int line) {
  const texture_record& r = live_object(object, true, file, line);
  // x in bytes, y in rows (2D and 3D), z in slices: depth (3D) or the layer.
  long long coords[3] = {x, y, z};
  const long long row = static_cast<long long>(r.width * r.element_bytes);
  const long long last[3] = {row - static_cast<long long>(bytes), static_cast<long long>(r.height) - 1,
                             static_cast<long long>(r.depth) - 1};
  const bool checked[3] = {true, dimensions >= 2, dimensions == 3 || layered};
  for (int d = 0; d < 3; ++d) {
    if (!checked[d]) {
      coords[d] = 0;
      continue;
    }
    if (coords[d] >= 0 && coords[d] <= last[d]) continue;
    if (boundary == cudaBoundaryModeZero || last[d] < 0) {  // (an element wider than the row is never inside)
      if (!write) std::memset(value, 0, bytes);
      if (boundary == cudaBoundaryModeZero) return;
    }
    if (boundary == cudaBoundaryModeClamp && last[d] >= 0) {
      coords[d] = std::clamp(coords[d], 0LL, last[d]);
      continue;
    }
    stop_grid_with(cudaErrorIllegalAddress, file, line,
                   "surface object {}: {} of {} bytes at ({}, {}, {}) (x in bytes) is outside its {} x {} x {}", object,
                   write ? "a write" : "a read", bytes, x, y, z, row, r.height, r.depth);
  }
  char* p = r.base + static_cast<std::size_t>(coords[2]) * r.slice + static_cast<std::size_t>(coords[1]) * r.pitch +
            static_cast<std::size_t>(coords[0]);
  if (write) {
    std::memcpy(p, value, bytes);
    note_written(p, bytes);
  } else {
    std::memcpy(value, p, bytes);
  }
}

}  // namespace cusim::detail

namespace {

// Work queued before the destruction may still read the object: it ends
// once the device has done that work (cuda-samples' NV12toBGRandResize
// destroys its textures right after an asynchronous launch).
void retire(texture_record& r) {
  the_device().wait_all();
  r.live = false;  // kept: a later fetch through it is reported
}

}  // namespace

extern "C" {

cudaError_t cudaCreateTextureObject(cudaTextureObject_t* pTexObject, const cudaResourceDesc* pResDesc,
                                    const cudaTextureDesc* pTexDesc, const cudaResourceViewDesc* pResViewDesc) {
  if (cudaError_t e = context_error()) return e;
  if (pTexObject == nullptr || pResDesc == nullptr || pTexDesc == nullptr) return set_error(cudaErrorInvalidValue);
  (void)pResViewDesc;  // accepted: a view of the resource's own format
  auto record = std::make_unique<texture_record>();
  record->resource = *pResDesc;
  record->texture = *pTexDesc;
  if (cudaError_t e = resolve(*pResDesc, *record, "cudaCreateTextureObject")) return e;
  const bool integer_elements = record->format.f != cudaChannelFormatKindFloat &&
                                pTexDesc->readMode == cudaReadModeElementType;
  if (pTexDesc->filterMode == cudaFilterModeLinear && integer_elements) {
    report("cudaCreateTextureObject: linear filtering of integer texels read as cudaReadModeElementType (a GPU "
           "filters only floats: use cudaReadModeNormalizedFloat or point filtering). It returns "
           "cudaErrorInvalidValue.");
    return set_error(cudaErrorInvalidValue);
  }
  return add(std::move(record), pTexObject);
}

// Destroying an object twice succeeds, as on an H100.
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject) {
  texture_record* r = find(texObject);
  if (r == nullptr || r->surface) return set_error(cudaErrorInvalidValue);
  retire(*r);
  return cudaSuccess;
}

cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc* pResDesc, cudaTextureObject_t texObject) {
  const texture_record* r = find(texObject);
  if (pResDesc == nullptr || r == nullptr || !r->live || r->surface) return set_error(cudaErrorInvalidValue);
  *pResDesc = r->resource;
  return cudaSuccess;
}

cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc* pTexDesc, cudaTextureObject_t texObject) {
  const texture_record* r = find(texObject);
  if (pTexDesc == nullptr || r == nullptr || !r->live || r->surface) return set_error(cudaErrorInvalidValue);
  *pTexDesc = r->texture;
  return cudaSuccess;
}

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t* pSurfObject, const cudaResourceDesc* pResDesc) {
  if (cudaError_t e = context_error()) return e;
  if (pSurfObject == nullptr || pResDesc == nullptr || pResDesc->resType != cudaResourceTypeArray) {
    return set_error(cudaErrorInvalidValue);
  }
  auto record = std::make_unique<texture_record>();
  record->surface = true;
  record->resource = *pResDesc;
  if (cudaError_t e = resolve(*pResDesc, *record, "cudaCreateSurfaceObject")) return e;
  return add(std::move(record), pSurfObject);
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject) {
  texture_record* r = find(surfObject);
  if (r == nullptr || !r->surface) return set_error(cudaErrorInvalidValue);
  retire(*r);
  return cudaSuccess;
}

cudaError_t cudaGetSurfaceObjectResourceDesc(cudaResourceDesc* pResDesc, cudaSurfaceObject_t surfObject) {
  const texture_record* r = find(surfObject);
  if (pResDesc == nullptr || r == nullptr || !r->live || !r->surface) return set_error(cudaErrorInvalidValue);
  *pResDesc = r->resource;
  return cudaSuccess;
}

}  // extern "C"
