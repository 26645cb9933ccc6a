// Texture and surface misuse that a GPU leaves undefined or refuses:
// fetching through a destroyed object and a surface access past the edge in
// trap mode stop the grid with a report; a format no array holds and linear
// filtering of integer elements are refused when made.
//   texture_misuse <case>   where case is one of the names in main()
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void fetch(cudaTextureObject_t t, float* out) { out[threadIdx.x] = tex2D<float>(t, 0.5f, 0.5f); }

__global__ void write_past(cudaSurfaceObject_t s) { surf2Dwrite(1.0f, s, 4 * 4, 0); }

int main(int argc, char** argv) {
  const char* which = argc > 1 ? argv[1] : "";
  const cudaChannelFormatDesc format = cudaCreateChannelDesc<float>();
  cudaArray_t array;
  cudaMallocArray(&array, &format, 4, 4, cudaArraySurfaceLoadStore);
  cudaResourceDesc resource{};
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = array;
  cudaTextureDesc desc{};
  float* out;
  cudaMallocManaged(&out, 32 * sizeof(float));
  if (!std::strcmp(which, "destroyed")) {
    cudaTextureObject_t t;
    cudaCreateTextureObject(&t, &resource, &desc, nullptr);
    cudaDestroyTextureObject(t);
    fetch<<<1, 32>>>(t, out);
    std::printf("destroyed: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  } else if (!std::strcmp(which, "never-made")) {
    fetch<<<1, 1>>>(12345, out);
    std::printf("never-made: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  } else if (!std::strcmp(which, "surface-trap")) {
    cudaSurfaceObject_t s;
    cudaCreateSurfaceObject(&s, &resource);
    write_past<<<1, 1>>>(s);
    std::printf("surface-trap: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  } else if (!std::strcmp(which, "format")) {
    const cudaChannelFormatDesc three = cudaCreateChannelDesc(8, 8, 8, 0, cudaChannelFormatKindUnsigned);
    cudaArray_t bad;
    std::printf("format: %s\n", cudaGetErrorName(cudaMallocArray(&bad, &three, 4, 4)));
  } else if (!std::strcmp(which, "integer-linear")) {
    const cudaChannelFormatDesc ints = cudaCreateChannelDesc<int>();
    cudaArray_t int_array;
    cudaMallocArray(&int_array, &ints, 4, 4);
    resource.res.array.array = int_array;
    desc.filterMode = cudaFilterModeLinear;
    cudaTextureObject_t t;
    std::printf("integer-linear: %s\n", cudaGetErrorName(cudaCreateTextureObject(&t, &resource, &desc, nullptr)));
  }
  return 0;
}
