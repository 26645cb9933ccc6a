// 230 — textures and surfaces: rotate an image by reading it through a
// texture and writing the result through a surface.
//
// The image lives in a CUDA array. A texture object reads it with
// normalised coordinates (0 to 1 across the image, whatever its size),
// wrap addressing (the image repeats past its edges) and linear filtering
// (each read blends the four nearest texels, as a GPU's texture unit does
// in hardware). Each thread computes where its output pixel comes from in
// the source, reads there, and stores the value into a second array
// through a surface object, whose x coordinate counts bytes.
//
// The host rotates the same image with its own bilinear filter; the GPU's
// keeps 8 bits of each blending weight, so the two agree to about 1/256.
#include <cmath>
#include <cstdio>
#include <vector>

#include "../common/check.h"

constexpr int width = 96, height = 64;

__global__ void rotate(cudaTextureObject_t source, cudaSurfaceObject_t target, float angle) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  // Normalised coordinates of the pixel's centre, relative to the image's centre.
  const float u = (x + 0.5f) / width - 0.5f, v = (y + 0.5f) / height - 0.5f;
  const float su = u * cosf(angle) - v * sinf(angle) + 0.5f;
  const float sv = u * sinf(angle) + v * cosf(angle) + 0.5f;
  const float value = tex2D<float>(source, su, sv);
  surf2Dwrite(value, target, x * static_cast<int>(sizeof(float)), y);
}

// The host's bilinear read with wrap addressing, for the check.
float bilinear(const std::vector<float>& image, float su, float sv) {
  const float fx = su * width - 0.5f, fy = sv * height - 0.5f;
  const int x0 = static_cast<int>(std::floor(fx)), y0 = static_cast<int>(std::floor(fy));
  const float a = fx - x0, b = fy - y0;
  const auto at = [&](int x, int y) { return image[((y % height + height) % height) * width + (x % width + width) % width]; };
  return (1 - a) * (1 - b) * at(x0, y0) + a * (1 - b) * at(x0 + 1, y0) + (1 - a) * b * at(x0, y0 + 1) +
         a * b * at(x0 + 1, y0 + 1);
}

int main() {
  std::vector<float> image(width * height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) image[y * width + x] = 0.5f + 0.5f * std::sin(x * 0.2f) * std::cos(y * 0.3f);
  }
  const cudaChannelFormatDesc format = cudaCreateChannelDesc<float>();
  cudaArray_t source_array, target_array;
  CHECK(cudaMallocArray(&source_array, &format, width, height));
  CHECK(cudaMallocArray(&target_array, &format, width, height, cudaArraySurfaceLoadStore));
  CHECK(cudaMemcpy2DToArray(source_array, 0, 0, image.data(), width * sizeof(float), width * sizeof(float), height,
                            cudaMemcpyHostToDevice));

  cudaResourceDesc resource{};
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = source_array;
  cudaTextureDesc texture{};
  texture.addressMode[0] = texture.addressMode[1] = cudaAddressModeWrap;
  texture.filterMode = cudaFilterModeLinear;
  texture.readMode = cudaReadModeElementType;
  texture.normalizedCoords = 1;
  cudaTextureObject_t source;
  CHECK(cudaCreateTextureObject(&source, &resource, &texture, nullptr));
  resource.res.array.array = target_array;
  cudaSurfaceObject_t target;
  CHECK(cudaCreateSurfaceObject(&target, &resource));

  const float angle = 0.5f;  // radians
  rotate<<<dim3((width + 15) / 16, (height + 15) / 16), dim3(16, 16)>>>(source, target, angle);
  CHECK(cudaGetLastError());
  std::vector<float> rotated(width * height);
  CHECK(cudaMemcpy2DFromArray(rotated.data(), width * sizeof(float), target_array, 0, 0, width * sizeof(float), height,
                              cudaMemcpyDeviceToHost));

  float worst = 0;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const float u = (x + 0.5f) / width - 0.5f, v = (y + 0.5f) / height - 0.5f;
      const float su = u * std::cos(angle) - v * std::sin(angle) + 0.5f;
      const float sv = u * std::sin(angle) + v * std::cos(angle) + 0.5f;
      const float wrapped_u = su - std::floor(su), wrapped_v = sv - std::floor(sv);
      worst = std::fmax(worst, std::fabs(rotated[y * width + x] - bilinear(image, wrapped_u, wrapped_v)));
    }
  }
  std::printf("rotated %dx%d by %.2f rad through a texture; largest difference from the host's filter: %s\n", width,
              height, angle, worst < 0.02f ? "below 0.02" : "0.02 or more");
  const bool passed = worst < 0.02f;
  std::printf("%s\n", passed ? "PASSED" : "FAILED");
  CHECK(cudaDestroySurfaceObject(target));
  CHECK(cudaDestroyTextureObject(source));
  CHECK(cudaFreeArray(source_array));
  CHECK(cudaFreeArray(target_array));
  return passed ? 0 : 1;
}
