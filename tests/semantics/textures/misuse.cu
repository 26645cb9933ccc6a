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

__global__ void cube_read(cudaTextureObject_t t, float* out) { out[0] = texCubemap<float>(t, 1.0f, 0.0f, 0.0f); }

__global__ void layers(cudaSurfaceObject_t s) {
  surf1DLayeredwrite(static_cast<int>(threadIdx.y * 10 + threadIdx.x), s, threadIdx.x * 4, threadIdx.y);
}

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
  } else if (!std::strcmp(which, "not-a-cube")) {
    cudaTextureObject_t t;
    cudaCreateTextureObject(&t, &resource, &desc, nullptr);
    cube_read<<<1, 1>>>(t, out);
    std::printf("not-a-cube: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  } else if (!std::strcmp(which, "cube-shape")) {
    cudaArray_t cube;
    std::printf("cube-shape: %s", cudaGetErrorName(cudaMalloc3DArray(&cube, &format, make_cudaExtent(4, 4, 0), cudaArrayCubemap)));
    std::printf(" %s\n", cudaGetErrorName(cudaMalloc3DArray(&cube, &format, make_cudaExtent(4, 4, 6), cudaArrayCubemap)));
  } else if (!std::strcmp(which, "layered-surface")) {
    const cudaChannelFormatDesc ints = cudaCreateChannelDesc<int>();
    cudaArray_t layered;
    cudaMalloc3DArray(&layered, &ints, make_cudaExtent(4, 0, 3), cudaArrayLayered | cudaArraySurfaceLoadStore);
    resource.res.array.array = layered;
    cudaSurfaceObject_t s;
    cudaCreateSurfaceObject(&s, &resource);
    layers<<<1, dim3(4, 3)>>>(s);
    cudaDeviceSynchronize();
    int back[3][4];
    cudaMemcpy3DParms p{};
    p.srcArray = layered;
    p.dstPtr = make_cudaPitchedPtr(back, sizeof back[0], 4, 1);
    p.extent = make_cudaExtent(4, 1, 3);
    p.kind = cudaMemcpyDeviceToHost;
    std::printf("layered-surface: %s", cudaGetErrorName(cudaMemcpy3D(&p)));
    for (auto& row : back) {
      for (int v : row) std::printf(" %d", v);
    }
    std::printf("\n");
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
