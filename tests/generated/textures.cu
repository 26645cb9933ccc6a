// Generated differential cases: 2D texture fetches.
//   textures SEED CASES
// Each case is a CUDA array of a random size (1 to 40 texels a side) and
// format (float; unsigned char and short read as normalised floats;
// uchar4 read as normalised float4) with random texels, a texture object
// with random address modes per axis (clamp, border with a random colour,
// wrap, mirror), point or linear filtering and normalised coordinates or
// not, and 24 fetches at coordinates from edge classes (texel centres,
// texel edges, just beside them, inside, far outside on either side, huge,
// infinite, NaN). The values compare within 4e-6 (an H100 filters
// normalised 8-bit texels with about 2^-18 of error, docs/textures.md):
// a filter weight off by one 256th moves a result by far more. The golden
// comes from an H100 (tests/differential.txt); random_cases.hpp draws the
// cases.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "random_cases.hpp"

enum texel_format : unsigned { texel_float, texel_uchar, texel_short, texel_uchar4, texel_formats };
const char* const format_names[texel_formats] = {"float", "uchar(normalised)", "short(normalised)", "uchar4(normalised)"};
constexpr int fetches = 24;

__global__ void fetch(cudaTextureObject_t texture, bool four, const float2* at, float4* out) {
  const int i = threadIdx.x;
  if (four) out[i] = tex2D<float4>(texture, at[i].x, at[i].y);
  else out[i] = make_float4(tex2D<float>(texture, at[i].x, at[i].y), 0, 0, 0);
}

static float coordinate(generated::random_source& r, unsigned extent, bool normalized) {
  float x;
  switch (r.below(9)) {
    case 0: x = float(r.below(extent)) + 0.5f; break;                                  // a texel's centre
    case 1: x = float(r.below(extent + 1)); break;                                     // a texel's edge
    case 2: x = float(r.below(extent)) + 0.5f + (r.chance(50) ? 1 : -1) / 512.0f; break;  // beside a centre
    case 3: x = float(r.below(extent * 1000)) / 1000.0f; break;                        // inside
    case 4: x = (float(r.below(4000)) / 1000.0f - 1.5f) * float(extent); break;        // around, outside too
    case 5: x = r.chance(50) ? 1e10f : -1e10f; break;
    case 6: x = r.chance(50) ? INFINITY : -INFINITY; break;
    case 7: x = NAN; break;
    default: x = -float(r.below(extent * 3)) / 2.0f; break;
  }
  return normalized && std::isfinite(x) && std::fabs(x) < 1e9f ? x / float(extent) : x;
}

int main(int argc, char** argv) {
  std::uint64_t seed;
  unsigned count;
  if (!generated::read_arguments(argc, argv, seed, count)) return 2;
  generated::random_source r(seed);
  float2* device_at;
  float4* device_out;
  cudaMalloc(&device_at, fetches * sizeof(float2));
  cudaMalloc(&device_out, fetches * sizeof(float4));
  std::printf("textures, seed %llu, %u cases\n", static_cast<unsigned long long>(seed), count);
  const cudaTextureAddressMode modes[] = {cudaAddressModeClamp, cudaAddressModeBorder, cudaAddressModeWrap,
                                          cudaAddressModeMirror};
  const char* const mode_names[] = {"clamp", "border", "wrap", "mirror"};
  for (unsigned n = 0; n < count; ++n) {
    const unsigned width = 1 + r.below(40), height = 1 + r.below(40);
    const auto format = static_cast<texel_format>(r.below(texel_formats));
    const unsigned texel_bytes[] = {4, 1, 2, 4};
    std::vector<unsigned char> texels(size_t(width) * height * texel_bytes[format]);
    if (format == texel_float) {
      for (size_t i = 0; i < texels.size(); i += 4) {
        const float v = float(int(r.below(20001)) - 10000) / 1000.0f;
        std::memcpy(&texels[i], &v, 4);
      }
    } else {
      for (unsigned char& b : texels) b = static_cast<unsigned char>(r.next32());
    }
    cudaChannelFormatDesc channel;
    switch (format) {
      case texel_float: channel = cudaCreateChannelDesc<float>(); break;
      case texel_uchar: channel = cudaCreateChannelDesc<unsigned char>(); break;
      case texel_short: channel = cudaCreateChannelDesc<short>(); break;
      default: channel = cudaCreateChannelDesc<uchar4>(); break;
    }
    cudaArray_t array;
    cudaMallocArray(&array, &channel, width, height);
    cudaMemcpy2DToArray(array, 0, 0, texels.data(), width * texel_bytes[format], width * texel_bytes[format], height,
                        cudaMemcpyHostToDevice);
    cudaResourceDesc resource{};
    resource.resType = cudaResourceTypeArray;
    resource.res.array.array = array;
    cudaTextureDesc desc{};
    const bool normalized = r.chance(50);
    const unsigned mode_x = r.below(4), mode_y = r.below(4);
    desc.addressMode[0] = modes[mode_x];
    desc.addressMode[1] = modes[mode_y];
    desc.filterMode = r.chance(50) ? cudaFilterModeLinear : cudaFilterModePoint;
    desc.readMode = format == texel_float ? cudaReadModeElementType : cudaReadModeNormalizedFloat;
    desc.normalizedCoords = normalized;
    for (float& c : desc.borderColor) c = float(r.below(9)) / 4.0f;
    cudaTextureObject_t texture = 0;
    const cudaError_t created = cudaCreateTextureObject(&texture, &resource, &desc, nullptr);
    float2 at[fetches];
    for (float2& p : at) {
      p.x = coordinate(r, width, normalized);
      p.y = coordinate(r, height, normalized);
    }
    cudaMemcpy(device_at, at, sizeof at, cudaMemcpyHostToDevice);
    fetch<<<1, fetches>>>(texture, format == texel_uchar4, device_at, device_out);
    float4 out[fetches];
    const cudaError_t copied = cudaMemcpy(out, device_out, sizeof out, cudaMemcpyDeviceToHost);
    std::printf("case %u: %ux%u %s, %s/%s, %s, %s coordinates: %s, %s\n", n, width, height, format_names[format],
                mode_names[mode_x], mode_names[mode_y], desc.filterMode == cudaFilterModeLinear ? "linear" : "point",
                normalized ? "normalised" : "texel", cudaGetErrorName(created), cudaGetErrorName(copied));
    for (const float2& p : at) {
      const int i = int(&p - at);
      std::printf("  (%a, %a) ->", p.x, p.y);
      for (const float v : {out[i].x, out[i].y, out[i].z, out[i].w}) {
        std::printf(" %.9e", v);
        if (format != texel_uchar4) break;
      }
      std::printf("\n");
    }
    cudaDestroyTextureObject(texture);
    cudaFreeArray(array);
  }
  return 0;
}
