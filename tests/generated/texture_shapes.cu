// Generated differential cases: the other texture shapes.
//   texture_shapes SEED CASES
// Each case is a float texture of one shape: a 1D array (tex1D), a layered
// 2D array (tex2DLayered, layers in range and beyond, negative ones), linear
// memory (tex1Dfetch past both ends) or pitched 2D linear memory (tex2D)
// (cubemaps: below), with random address modes, point or linear
// filtering and normalised coordinates or not, and 16 fetches. The values
// compare within 4e-6. The golden comes from an H100 (tests/differential.txt);
// random_cases.hpp draws the cases from SEED.
#include <cmath>
#include <cstdio>
#include <vector>

#include "random_cases.hpp"

enum shape : unsigned { shape_1d, shape_layered, shape_cube, shape_linear, shape_pitched, shapes };
const char* const shape_names[shapes] = {"1D array", "layered 2D array", "cubemap", "linear memory", "pitched 2D"};
constexpr int fetches = 16;

__global__ void fetch(cudaTextureObject_t t, unsigned kind, const float4* at, float* out) {
  const int i = threadIdx.x;
  const float4 p = at[i];
  switch (kind) {
    case shape_1d: out[i] = tex1D<float>(t, p.x); break;
    case shape_layered: out[i] = tex2DLayered<float>(t, p.x, p.y, int(p.w)); break;
    case shape_cube: out[i] = texCubemap<float>(t, p.x, p.y, p.z); break;
    case shape_linear: out[i] = tex1Dfetch<float>(t, int(p.w)); break;
    default: out[i] = tex2D<float>(t, p.x, p.y); break;
  }
}

static float coordinate(generated::random_source& r, unsigned extent, bool normalized) {
  float x;
  switch (r.below(6)) {
    case 0: x = float(r.below(extent)) + 0.5f; break;
    case 1: x = float(r.below(extent + 1)); break;
    case 2: x = float(r.below(extent * 1000)) / 1000.0f; break;
    case 3: x = (float(r.below(4000)) / 1000.0f - 1.5f) * float(extent); break;
    case 4: x = NAN; break;
    default: x = -float(r.below(extent * 3)) / 2.0f; break;
  }
  return normalized && std::isfinite(x) ? x / float(extent) : x;
}

static float direction(generated::random_source& r) {
  const float choices[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 0.25f, 2.0f, -2.0f, 1e-30f, NAN};
  return r.chance(60) ? r.pick(choices) : float(int(r.below(2001)) - 1000) / 500.0f;
}

int main(int argc, char** argv) {
  std::uint64_t seed;
  unsigned count;
  if (!generated::read_arguments(argc, argv, seed, count)) return 2;
  generated::random_source r(seed);
  float4* device_at;
  float* device_out;
  cudaMalloc(&device_at, fetches * sizeof(float4));
  cudaMalloc(&device_out, fetches * sizeof(float));
  std::printf("texture shapes, seed %llu, %u cases\n", static_cast<unsigned long long>(seed), count);
  const cudaTextureAddressMode modes[] = {cudaAddressModeClamp, cudaAddressModeBorder, cudaAddressModeWrap,
                                          cudaAddressModeMirror};
  const char* const mode_names[] = {"clamp", "border", "wrap", "mirror"};
  const cudaChannelFormatDesc channel = cudaCreateChannelDesc<float>();
  for (unsigned n = 0; n < count; ++n) {
    // Cubemaps are left out: an H100 picks faces and face coordinates
    // otherwise than cusim for NaN directions, ties between x and y, and
    // tiny components (docs/textures.md); the draw keeps its place.
    auto kind = static_cast<shape>(r.below(shapes));
    if (kind == shape_cube) kind = shape_layered;
    const unsigned width = 1 + r.below(kind == shape_linear ? 200 : 24);
    const unsigned height = kind == shape_cube ? width : 1 + r.below(16);
    const unsigned layers = kind == shape_cube ? 6 : 1 + r.below(4);
    std::vector<float> texels(size_t(width) * height * layers);
    for (float& v : texels) v = float(int(r.below(2001)) - 1000) / 100.0f;
    cudaResourceDesc resource{};
    cudaArray_t array = nullptr;
    float* memory = nullptr;
    size_t pitch = 0;
    switch (kind) {
      case shape_1d:
        cudaMallocArray(&array, &channel, width, 0);
        cudaMemcpy2DToArray(array, 0, 0, texels.data(), width * 4, width * 4, 1, cudaMemcpyHostToDevice);
        break;
      case shape_layered:
      case shape_cube: {
        cudaMalloc3DArray(&array, &channel, make_cudaExtent(width, height, layers),
                          kind == shape_cube ? cudaArrayCubemap : cudaArrayLayered);
        cudaMemcpy3DParms copy{};
        copy.srcPtr = make_cudaPitchedPtr(texels.data(), width * 4, width, height);
        copy.dstArray = array;
        copy.extent = make_cudaExtent(width, height, layers);
        copy.kind = cudaMemcpyHostToDevice;
        cudaMemcpy3D(&copy);
        break;
      }
      case shape_linear:
        cudaMalloc(&memory, width * 4);
        cudaMemcpy(memory, texels.data(), width * 4, cudaMemcpyHostToDevice);
        resource.resType = cudaResourceTypeLinear;
        resource.res.linear.devPtr = memory;
        resource.res.linear.desc = channel;
        resource.res.linear.sizeInBytes = width * 4;
        break;
      default:
        cudaMallocPitch(&memory, &pitch, width * 4, height);
        cudaMemcpy2D(memory, pitch, texels.data(), width * 4, width * 4, height, cudaMemcpyHostToDevice);
        resource.resType = cudaResourceTypePitch2D;
        resource.res.pitch2D.devPtr = memory;
        resource.res.pitch2D.desc = channel;
        resource.res.pitch2D.width = width;
        resource.res.pitch2D.height = height;
        resource.res.pitch2D.pitchInBytes = pitch;
        break;
    }
    if (array != nullptr) {
      resource.resType = cudaResourceTypeArray;
      resource.res.array.array = array;
    }
    cudaTextureDesc desc{};
    const bool normalized = kind == shape_cube || (kind != shape_linear && r.chance(50));
    const unsigned mode = kind == shape_linear ? 0 : r.below(4);
    for (auto& m : desc.addressMode) m = modes[mode];
    desc.filterMode = kind != shape_linear && r.chance(50) ? cudaFilterModeLinear : cudaFilterModePoint;
    desc.readMode = cudaReadModeElementType;
    desc.normalizedCoords = normalized;
    for (float& c : desc.borderColor) c = float(r.below(9)) / 4.0f;
    cudaTextureObject_t texture = 0;
    const cudaError_t created = cudaCreateTextureObject(&texture, &resource, &desc, nullptr);
    float4 at[fetches];
    for (float4& p : at) {
      if (kind == shape_cube) {
        p = make_float4(direction(r), direction(r), direction(r), 0);
      } else {
        p.x = coordinate(r, width, normalized);
        p.y = coordinate(r, height, normalized);
        p.z = 0;
        p.w = float(int(r.below(kind == shape_linear ? width + 20 : layers + 3)) - (kind == shape_linear ? 10 : 1));
      }
    }
    cudaMemcpy(device_at, at, sizeof at, cudaMemcpyHostToDevice);
    fetch<<<1, fetches>>>(texture, kind, device_at, device_out);
    float out[fetches];
    const cudaError_t copied = cudaMemcpy(out, device_out, sizeof out, cudaMemcpyDeviceToHost);
    std::printf("case %u: %s %ux%ux%u, %s, %s, %s coordinates: %s, %s\n", n, shape_names[kind], width, height, layers,
                mode_names[mode], desc.filterMode == cudaFilterModeLinear ? "linear" : "point",
                normalized ? "normalised" : "texel", cudaGetErrorName(created), cudaGetErrorName(copied));
    for (int i = 0; i < fetches; ++i) {
      std::printf("  (%a, %a, %a, %d) -> %.9e\n", at[i].x, at[i].y, at[i].z, int(at[i].w), out[i]);
    }
    cudaDestroyTextureObject(texture);
    if (array != nullptr) cudaFreeArray(array);
    if (memory != nullptr) cudaFree(memory);
  }
  return 0;
}
