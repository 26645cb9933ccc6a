// 140 — the Mandelbrot set by adaptive refinement: work spent only where the picture has detail.
//
// A pixel's dwell is how many steps of z = z*z + c it takes |z| to pass 2
// (max_dwell if it never does: the point is in the set). The plain way
// computes every pixel: one thread each. Most of the picture, though, is
// large areas of one dwell. The Mariani–Silver algorithm uses that: compute
// only the border of a rectangle; if every border pixel has the same dwell,
// fill the rectangle with it; if not, cut the rectangle into smaller ones
// and treat each the same way, down to a minimum size where it computes
// every pixel. The set has no holes, so a rectangle whose border lies in it
// lies in it whole; for other dwells the fill is almost always right (a
// detail thinner than a pixel can slip between the border's samples).
//
// Dynamic parallelism makes the recursion a tree of grids. One block handles
// one rectangle: its threads compute the border together and combine the
// dwells with shared-memory atomicMin/atomicMax (one dwell if min == max).
// To subdivide, one thread of the block launches a child grid of
// subdiv x subdiv blocks, one for each sub-rectangle, and the block is done:
// in the CUDA 12 model it cannot wait for the child, nor does it need to.
// Where the picture is smooth the tree stays shallow; along the set's
// boundary it goes deep. The grids launched at each depth are counted with
// atomicAdd, and the result is checked against the plain per-pixel kernel.
// Build: cusim-cc mandelbrot.cu -o mandelbrot, or nvcc -arch=sm_90 -rdc=true mandelbrot.cu -lcudadevrt
#include <cstdio>
#include <cuda_runtime.h>

#include "../common/check.h"  // CHECK(call): stop with the error's text if a CUDA call fails

const int width = 512, height = 512;  // the image: the square from -1.5-1i to 0.5+1i
const int max_dwell = 256;
const int init_subdiv = 4;      // the host's grid: 4x4 rectangles of 128x128 pixels
const int subdiv = 4;           // a child grid: 4x4 sub-rectangles of its parent's rectangle
const int min_size = 8;         // no rectangle smaller than 8x8: compute each pixel of one that would be
const int max_depth = 3;        // depths 0, 1, 2 (rectangles of 128, 32 and 8 pixels a side)
const dim3 block_shape(32, 4);  // 128 threads handle one rectangle

__device__ int grids_at_depth[max_depth];  // grids launched, per nesting depth
__device__ int filled_rectangles, computed_rectangles, computed_pixels;
__device__ int launch_errors;

// The dwell of pixel (x, y).
__device__ int pixel_dwell(int x, int y) {
  const float cr = -1.5f + 2.0f * x / width, ci = -1.0f + 2.0f * y / height;
  float zr = cr, zi = ci;
  int dwell = 0;
  while (dwell < max_dwell && zr * zr + zi * zi < 4.0f) {
    const float next_r = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = next_r;
    ++dwell;
  }
  return dwell;
}

// The reference: one thread per pixel.
__global__ void per_pixel(int* dwells) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) dwells[y * width + x] = pixel_dwell(x, y);
}

// One block per rectangle of size x size pixels; block (i, j) of the grid
// takes the one at (x0 + i*size, y0 + j*size).
__global__ void mariani_silver(int* dwells, int x0, int y0, int size, int depth) {
  __shared__ int lowest, highest;  // the border's dwells range over [lowest, highest]
  const int tid = threadIdx.y * blockDim.x + threadIdx.x, threads = blockDim.x * blockDim.y;
  x0 += blockIdx.x * size;
  y0 += blockIdx.y * size;
  if (tid == 0) {
    lowest = max_dwell + 1;
    highest = -1;
    if (blockIdx.x == 0 && blockIdx.y == 0) atomicAdd(&grids_at_depth[depth], 1);
  }
  __syncthreads();

  // The border: 4 sides of size - 1 pixels, each starting at a corner.
  int lo = max_dwell + 1, hi = -1;
  for (int i = tid; i < 4 * (size - 1); i += threads) {
    const int side = i / (size - 1), k = i % (size - 1);
    const int x = side == 0 ? x0 + k : side == 1 ? x0 + size - 1 : side == 2 ? x0 + size - 1 - k : x0;
    const int y = side == 0 ? y0 : side == 1 ? y0 + k : side == 2 ? y0 + size - 1 : y0 + size - 1 - k;
    const int d = pixel_dwell(x, y);
    lo = min(lo, d);
    hi = max(hi, d);
  }
  atomicMin(&lowest, lo);
  atomicMax(&highest, hi);
  __syncthreads();

  if (lowest == highest) {
    // One dwell all round: fill the rectangle with it.
    for (int i = tid; i < size * size; i += threads) dwells[(y0 + i / size) * width + x0 + i % size] = lowest;
    if (tid == 0) atomicAdd(&filled_rectangles, 1);
  } else if (depth + 1 < max_depth && size / subdiv >= min_size) {
    // Detail inside: one thread launches a grid with one block per sub-rectangle.
    if (tid == 0) {
      mariani_silver<<<dim3(subdiv, subdiv), blockDim>>>(dwells, x0, y0, size / subdiv, depth + 1);
      if (cudaGetLastError() != cudaSuccess) atomicAdd(&launch_errors, 1);
    }
  } else {
    // Small enough: compute every pixel.
    for (int i = tid; i < size * size; i += threads) {
      const int x = x0 + i % size, y = y0 + i / size;
      dwells[y * width + x] = pixel_dwell(x, y);
    }
    if (tid == 0) {
      atomicAdd(&computed_rectangles, 1);
      atomicAdd(&computed_pixels, size * size);
    }
  }
}

// A character per dwell: the set itself as '#', the rest darker the longer it took to escape.
char shade(int dwell) {
  if (dwell >= max_dwell) return '#';
  const char ramp[] = " .,:;-=+*%";
  int band = 0;
  while ((2 << band) <= dwell && band < 9) ++band;  // about log2(dwell)
  return ramp[band];
}

int main() {
  const int pixels = width * height;
  int *adaptive, *reference;
  CHECK(cudaMallocManaged(&adaptive, pixels * sizeof(int)));
  CHECK(cudaMallocManaged(&reference, pixels * sizeof(int)));
  for (int i = 0; i < pixels; ++i) adaptive[i] = -1;  // any pixel left unwritten shows as a difference

  const int size = width / init_subdiv;
  mariani_silver<<<dim3(init_subdiv, init_subdiv), block_shape>>>(adaptive, 0, 0, size, 0);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());  // the whole tree of grids has finished

  per_pixel<<<dim3(width / block_shape.x, height / block_shape.y), block_shape>>>(reference);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  int grids[max_depth], filled = 0, computed = 0, computed_px = 0, errors = 0;
  CHECK(cudaMemcpyFromSymbol(grids, grids_at_depth, sizeof grids));
  CHECK(cudaMemcpyFromSymbol(&filled, filled_rectangles, sizeof filled));
  CHECK(cudaMemcpyFromSymbol(&computed, computed_rectangles, sizeof computed));
  CHECK(cudaMemcpyFromSymbol(&computed_px, computed_pixels, sizeof computed_px));
  CHECK(cudaMemcpyFromSymbol(&errors, launch_errors, sizeof errors));

  for (int row = 0; row < 24; ++row) {
    char line[65];
    for (int col = 0; col < 64; ++col) {
      const int x = col * width / 64 + width / 128, y = row * height / 24 + height / 48;
      line[col] = shade(adaptive[y * width + x]);
    }
    line[64] = '\0';
    std::printf("  %s\n", line);
  }
  std::printf("grids launched per depth:");
  for (int d = 0; d < max_depth; ++d) std::printf(" %d:%d", d, grids[d]);
  std::printf(" (rectangles of %d", size);
  for (int d = 1, s = size / subdiv; d < max_depth; ++d, s /= subdiv) std::printf(", %d", s);
  std::printf(" pixels a side)\n");
  std::printf("%d rectangles filled from their border, %d computed pixel by pixel (%d pixels, %.1f%% of the image)\n",
              filled, computed, computed_px, 100.0 * computed_px / pixels);

  int differ = 0;
  for (int i = 0; i < pixels; ++i) differ += adaptive[i] != reference[i];
  // Filling from the border is a heuristic: a detail thinner than a pixel
  // may cross a rectangle without touching its border pixels. Allow 1%.
  const bool ok = differ * 100 < pixels && errors == 0;
  std::printf("%dx%d image, max dwell %d: %d pixels differ from the per-pixel kernel (%.3f%%; allowed < 1%%), %d "
              "failed launches: %s\n",
              width, height, max_dwell, differ, 100.0 * differ / pixels, errors, ok ? "PASSED" : "FAILED");
  CHECK(cudaFree(adaptive));
  CHECK(cudaFree(reference));
  return ok ? 0 : 1;
}
