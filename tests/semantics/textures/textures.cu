// Texture and surface objects over CUDA arrays, pitched and linear memory:
// address modes (clamp, border, wrap, mirror) with and without normalised
// coordinates, point and linear filtering (the GPU's 8-bit weights),
// normalised-float reads of 8- and 16-bit integers, layered, 3D and cubemap
// arrays, gather, tex1Dfetch past the end, and surfaces with their boundary
// modes. A differential test: an H100 recorded the golden
// (tests/differential.txt).
#include <cstdio>
#include <cuda_runtime.h>

constexpr int width = 4, height = 3;
// Coordinates that probe every edge: inside, on texel centres, past both ends.
__constant__ float probes[] = {-1.25f, -0.5f, 0.0f, 0.3f, 0.5f, 1.0f, 1.7f, 2.5f, 3.49f, 3.99f, 4.0f, 5.6f};
constexpr int probe_count = 12;

__global__ void sample_2d(cudaTextureObject_t t, float scale, float* out) {
  const int i = threadIdx.x, j = threadIdx.y;
  out[j * probe_count + i] = tex2D<float>(t, probes[i] * scale, probes[j] * scale * 0.75f);
}

__global__ void sample_uchar4(cudaTextureObject_t t, float4* out) {
  const int i = threadIdx.x;
  out[i] = tex2D<float4>(t, probes[i], 1.3f);
}

__global__ void fetch_1d(cudaTextureObject_t t, int* out) {
  const int i = threadIdx.x;
  out[i] = tex1Dfetch<int>(t, i - 2);
}

__global__ void sample_misc(cudaTextureObject_t layered, cudaTextureObject_t volume, cudaTextureObject_t cube,
                            cudaTextureObject_t pitched, cudaTextureObject_t shorts, float* out) {
  const int i = threadIdx.x;
  const float p = probes[i];
  out[i * 8 + 0] = tex2DLayered<float>(layered, p, 1.5f, 1);
  out[i * 8 + 1] = tex3D<float>(volume, p * 0.5f, 1.25f, 0.8f);
  const float d = p - 2.0f;
  out[i * 8 + 2] = texCubemap<float>(cube, d, 0.5f, -1.0f);
  out[i * 8 + 3] = texCubemap<float>(cube, 0.25f, d, 0.75f);
  out[i * 8 + 4] = tex2D<float>(pitched, p, 0.7f);
  out[i * 8 + 5] = tex2D<float>(shorts, p, 0.5f);
  const float4 g = tex2Dgather<float4>(pitched, p, 1.2f, 0);
  out[i * 8 + 6] = g.x + 10 * g.y;
  out[i * 8 + 7] = g.z + 10 * g.w;
}

__global__ void surfaces(cudaSurfaceObject_t s, int* out) {
  const int x = threadIdx.x, y = threadIdx.y;
  surf2Dwrite(x * 10 + y, s, x * 4, y);
  __syncthreads();
  int v = -1;
  if (x == 0 && y == 0) {
    surf2Dread(&v, s, 12, 2);
    out[0] = v;
    out[1] = surf2Dread<int>(s, 100, 1, cudaBoundaryModeZero);
    out[2] = surf2Dread<int>(s, 100, 1, cudaBoundaryModeClamp);
    out[3] = surf2Dread<int>(s, -8, -3, cudaBoundaryModeClamp);
    surf2Dwrite(777, s, 400, 0, cudaBoundaryModeZero);  // dropped
  }
}

cudaTextureObject_t make_texture(const cudaResourceDesc& resource, cudaTextureAddressMode mode,
                                 cudaTextureFilterMode filter, bool normalized,
                                 cudaTextureReadMode read = cudaReadModeElementType) {
  cudaTextureDesc desc{};
  desc.addressMode[0] = desc.addressMode[1] = desc.addressMode[2] = mode;
  desc.filterMode = filter;
  desc.readMode = read;
  desc.normalizedCoords = normalized;
  desc.borderColor[0] = 9.0f;
  cudaTextureObject_t t = 0;
  const cudaError_t e = cudaCreateTextureObject(&t, &resource, &desc, nullptr);
  if (e != cudaSuccess) std::printf("cudaCreateTextureObject: %s\n", cudaGetErrorName(e));
  return t;
}

cudaResourceDesc array_resource(cudaArray_t a) {
  cudaResourceDesc r{};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  return r;
}

int main() {
  // A 4x3 float array: texel (i, j) holds 10 * j + i.
  float texels[height][width];
  for (int j = 0; j < height; ++j) {
    for (int i = 0; i < width; ++i) texels[j][i] = 10.0f * j + i;
  }
  const cudaChannelFormatDesc float_format = cudaCreateChannelDesc<float>();
  cudaArray_t array;
  cudaMallocArray(&array, &float_format, width, height);
  cudaMemcpy2DToArray(array, 0, 0, texels, width * sizeof(float), width * sizeof(float), height,
                      cudaMemcpyHostToDevice);
  float* out;
  cudaMallocManaged(&out, 1024 * sizeof(float));
  const char* mode_names[] = {"wrap", "clamp", "mirror", "border"};
  const char* filter_names[] = {"point", "linear"};
  for (int normalized = 0; normalized < 2; ++normalized) {
    for (int mode = 0; mode < 4; ++mode) {
      for (int filter = 0; filter < 2; ++filter) {
        const cudaTextureObject_t t = make_texture(array_resource(array), cudaTextureAddressMode(mode),
                                                   cudaTextureFilterMode(filter), normalized);
        sample_2d<<<1, dim3(probe_count, probe_count)>>>(t, normalized ? 0.25f : 1.0f, out);
        cudaDeviceSynchronize();
        std::printf("%s %s %s:\n", normalized ? "normalized" : "texel", mode_names[mode], filter_names[filter]);
        for (int j = 0; j < probe_count; j += 3) {
          for (int i = 0; i < probe_count; ++i) std::printf(" %.6g", out[j * probe_count + i]);
          std::printf("\n");
        }
        cudaDestroyTextureObject(t);
      }
    }
  }

  // uchar4 texels read as normalised floats, filtered.
  uchar4 bytes[2][4];
  for (int j = 0; j < 2; ++j) {
    for (int i = 0; i < 4; ++i) bytes[j][i] = make_uchar4(i * 80, j * 255, 7 * i + j, 255 - i);
  }
  const cudaChannelFormatDesc uchar4_format = cudaCreateChannelDesc<uchar4>();
  cudaArray_t byte_array;
  cudaMallocArray(&byte_array, &uchar4_format, 4, 2);
  cudaMemcpy2DToArray(byte_array, 0, 0, bytes, sizeof bytes[0], sizeof bytes[0], 2, cudaMemcpyHostToDevice);
  const cudaTextureObject_t byte_texture = make_texture(array_resource(byte_array), cudaAddressModeClamp,
                                                        cudaFilterModeLinear, false, cudaReadModeNormalizedFloat);
  float4* colours;
  cudaMallocManaged(&colours, probe_count * sizeof(float4));
  sample_uchar4<<<1, probe_count>>>(byte_texture, colours);
  cudaDeviceSynchronize();
  std::printf("uchar4 normalized linear:\n");
  for (int i = 0; i < probe_count; ++i) {
    std::printf(" (%.6g %.6g %.6g %.6g)", colours[i].x, colours[i].y, colours[i].z, colours[i].w);
  }
  std::printf("\n");

  // tex1Dfetch over linear memory: past either end reads 0.
  int* linear;
  cudaMalloc(&linear, 8 * sizeof(int));
  const int values[8] = {5, -6, 7, -8, 9, -10, 11, -12};
  cudaMemcpy(linear, values, sizeof values, cudaMemcpyHostToDevice);
  cudaResourceDesc linear_resource{};
  linear_resource.resType = cudaResourceTypeLinear;
  linear_resource.res.linear.devPtr = linear;
  linear_resource.res.linear.desc = cudaCreateChannelDesc<int>();
  linear_resource.res.linear.sizeInBytes = sizeof values;
  const cudaTextureObject_t linear_texture = make_texture(linear_resource, cudaAddressModeClamp, cudaFilterModePoint, false);
  int* fetched;
  cudaMallocManaged(&fetched, 12 * sizeof(int));
  fetch_1d<<<1, 12>>>(linear_texture, fetched);
  cudaDeviceSynchronize();
  std::printf("tex1Dfetch:");
  for (int i = 0; i < 12; ++i) std::printf(" %d", fetched[i]);
  std::printf("\n");

  // A layered array (2 layers of 4x3), a 4x3x2 volume, a cubemap of 2x2
  // faces, pitched memory, and signed shorts read as normalised floats.
  float layers[2][height][width], volume[2][height][width], faces[6][2][2];
  for (int k = 0; k < 2; ++k) {
    for (int j = 0; j < height; ++j) {
      for (int i = 0; i < width; ++i) layers[k][j][i] = volume[k][j][i] = 100.0f * k + 10.0f * j + i;
    }
  }
  for (int f = 0; f < 6; ++f) {
    for (int j = 0; j < 2; ++j) {
      for (int i = 0; i < 2; ++i) faces[f][j][i] = 100.0f * f + 10.0f * j + i;
    }
  }
  cudaArray_t layered, volume_array, cube;
  cudaMalloc3DArray(&layered, &float_format, make_cudaExtent(width, height, 2), cudaArrayLayered);
  cudaMalloc3DArray(&volume_array, &float_format, make_cudaExtent(width, height, 2));
  cudaMalloc3DArray(&cube, &float_format, make_cudaExtent(2, 2, 6), cudaArrayCubemap);
  const auto copy_3d = [](cudaArray_t to, void* from, size_t w, size_t h, size_t d) {
    cudaMemcpy3DParms p{};
    p.srcPtr = make_cudaPitchedPtr(from, w * sizeof(float), w, h);
    p.dstArray = to;
    p.extent = make_cudaExtent(w, h, d);
    p.kind = cudaMemcpyHostToDevice;
    return cudaMemcpy3D(&p);
  };
  std::printf("3D copies: %s %s %s\n", cudaGetErrorName(copy_3d(layered, layers, width, height, 2)),
              cudaGetErrorName(copy_3d(volume_array, volume, width, height, 2)),
              cudaGetErrorName(copy_3d(cube, faces, 2, 2, 6)));
  float* pitched;
  size_t pitch;
  cudaMallocPitch(reinterpret_cast<void**>(&pitched), &pitch, width * sizeof(float), height);
  cudaMemcpy2D(pitched, pitch, texels, width * sizeof(float), width * sizeof(float), height, cudaMemcpyHostToDevice);
  cudaResourceDesc pitched_resource{};
  pitched_resource.resType = cudaResourceTypePitch2D;
  pitched_resource.res.pitch2D.devPtr = pitched;
  pitched_resource.res.pitch2D.desc = float_format;
  pitched_resource.res.pitch2D.width = width;
  pitched_resource.res.pitch2D.height = height;
  pitched_resource.res.pitch2D.pitchInBytes = pitch;
  short shorts[2][4] = {{-32768, -100, 0, 100}, {32767, 16384, -16384, 1}};
  const cudaChannelFormatDesc short_format = cudaCreateChannelDesc<short>();
  cudaArray_t short_array;
  cudaMallocArray(&short_array, &short_format, 4, 2);
  cudaMemcpy2DToArray(short_array, 0, 0, shorts, sizeof shorts[0], sizeof shorts[0], 2, cudaMemcpyHostToDevice);
  const cudaTextureObject_t t_layered = make_texture(array_resource(layered), cudaAddressModeClamp, cudaFilterModeLinear, false);
  // (Point: an H100's 3D linear filter rounds its weights in a way cusim
  // does not reproduce exactly; docs/textures.md.)
  const cudaTextureObject_t t_volume = make_texture(array_resource(volume_array), cudaAddressModeClamp, cudaFilterModePoint, false);
  const cudaTextureObject_t t_cube = make_texture(array_resource(cube), cudaAddressModeClamp, cudaFilterModePoint, true);
  const cudaTextureObject_t t_pitched = make_texture(pitched_resource, cudaAddressModeBorder, cudaFilterModeLinear, false);
  const cudaTextureObject_t t_shorts = make_texture(array_resource(short_array), cudaAddressModeClamp, cudaFilterModePoint, false,
                                                    cudaReadModeNormalizedFloat);
  sample_misc<<<1, probe_count>>>(t_layered, t_volume, t_cube, t_pitched, t_shorts, out);
  std::printf("misc: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  for (int i = 0; i < probe_count; ++i) {
    std::printf(" %d:", i);
    for (int k = 0; k < 8; ++k) std::printf(" %.6g", out[i * 8 + k]);
    std::printf("\n");
  }

  // A surface over a 4x3 int array.
  const cudaChannelFormatDesc int_format = cudaCreateChannelDesc<int>();
  cudaArray_t surface_array;
  cudaMallocArray(&surface_array, &int_format, width, height, cudaArraySurfaceLoadStore);
  cudaSurfaceObject_t surface;
  const cudaResourceDesc surface_resource = array_resource(surface_array);
  cudaCreateSurfaceObject(&surface, &surface_resource);
  int* read_back;
  cudaMallocManaged(&read_back, 4 * sizeof(int));
  surfaces<<<1, dim3(width, height)>>>(surface, read_back);
  const cudaError_t surfaced = cudaDeviceSynchronize();
  std::printf("surfaces: %s %d %d %d %d\n", cudaGetErrorName(surfaced), read_back[0], read_back[1], read_back[2],
              read_back[3]);
  int grid[height][width];
  cudaMemcpy2DFromArray(grid, sizeof grid[0], surface_array, 0, 0, sizeof grid[0], height, cudaMemcpyDeviceToHost);
  for (int j = 0; j < height; ++j) {
    for (int i = 0; i < width; ++i) std::printf(" %d", grid[j][i]);
  }
  std::printf("\n");
  cudaChannelFormatDesc info;
  cudaExtent extent;
  unsigned int flags;
  cudaArrayGetInfo(&info, &extent, &flags, layered);
  std::printf("info: %d %d %d %d %d, %zu x %zu x %zu, flags %u\n", info.x, info.y, info.z, info.w, int(info.f),
              extent.width, extent.height, extent.depth, flags);
  std::printf("destroyed twice: %s\n", cudaGetErrorName((cudaDestroyTextureObject(t_volume),
                                                         cudaDestroyTextureObject(t_volume))));
  cudaGetLastError();
  return 0;
}
