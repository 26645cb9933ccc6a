// CUDA arrays, channel formats, and the texture objects that read them
// (the CUDA Runtime API's texture object management). cusim's
// implementation: src/api/arrays.cpp, src/api/textures.cpp; what the
// device-side fetches do: docs/textures.md.
#pragma once
#include <cstddef>

struct cudaArray;
typedef struct cudaArray* cudaArray_t;
typedef const struct cudaArray* cudaArray_const_t;
typedef struct cudaMipmappedArray* cudaMipmappedArray_t;
typedef const struct cudaMipmappedArray* cudaMipmappedArray_const_t;

enum cudaChannelFormatKind {
  cudaChannelFormatKindSigned = 0, cudaChannelFormatKindUnsigned = 1, cudaChannelFormatKindFloat = 2,
  cudaChannelFormatKindNone = 3, cudaChannelFormatKindNV12 = 4, cudaChannelFormatKindUnsignedNormalized8X1 = 5,
  cudaChannelFormatKindUnsignedNormalized8X2 = 6, cudaChannelFormatKindUnsignedNormalized8X4 = 7,
  cudaChannelFormatKindUnsignedNormalized16X1 = 8, cudaChannelFormatKindUnsignedNormalized16X2 = 9,
  cudaChannelFormatKindUnsignedNormalized16X4 = 10, cudaChannelFormatKindSignedNormalized8X1 = 11,
  cudaChannelFormatKindSignedNormalized8X2 = 12, cudaChannelFormatKindSignedNormalized8X4 = 13,
  cudaChannelFormatKindSignedNormalized16X1 = 14, cudaChannelFormatKindSignedNormalized16X2 = 15,
  cudaChannelFormatKindSignedNormalized16X4 = 16, cudaChannelFormatKindUnsignedBlockCompressed1 = 17,
  cudaChannelFormatKindUnsignedBlockCompressed1SRGB = 18, cudaChannelFormatKindUnsignedBlockCompressed2 = 19,
  cudaChannelFormatKindUnsignedBlockCompressed2SRGB = 20, cudaChannelFormatKindUnsignedBlockCompressed3 = 21,
  cudaChannelFormatKindUnsignedBlockCompressed3SRGB = 22, cudaChannelFormatKindUnsignedBlockCompressed4 = 23,
  cudaChannelFormatKindSignedBlockCompressed4 = 24, cudaChannelFormatKindUnsignedBlockCompressed5 = 25,
  cudaChannelFormatKindSignedBlockCompressed5 = 26, cudaChannelFormatKindUnsignedBlockCompressed6H = 27,
  cudaChannelFormatKindSignedBlockCompressed6H = 28, cudaChannelFormatKindUnsignedBlockCompressed7 = 29,
  cudaChannelFormatKindUnsignedBlockCompressed7SRGB = 30, cudaChannelFormatKindUnsignedNormalized1010102 = 31,
};

// Bits per channel (0: the channel is absent) and how they are read.
struct cudaChannelFormatDesc {
  int x;
  int y;
  int z;
  int w;
  enum cudaChannelFormatKind f;
};

// cudaMallocArray / cudaMalloc3DArray flags.
#define cudaArrayDefault 0x00
#define cudaArrayLayered 0x01
#define cudaArraySurfaceLoadStore 0x02
#define cudaArrayCubemap 0x04
#define cudaArrayTextureGather 0x08

enum cudaResourceType {
  cudaResourceTypeArray = 0x00, cudaResourceTypeMipmappedArray = 0x01, cudaResourceTypeLinear = 0x02,
  cudaResourceTypePitch2D = 0x03,
};

struct cudaResourceDesc {
  enum cudaResourceType resType;
  union {
    struct {
      cudaArray_t array;
    } array;
    struct {
      cudaMipmappedArray_t mipmap;
    } mipmap;
    struct {
      void* devPtr;
      struct cudaChannelFormatDesc desc;
      size_t sizeInBytes;
    } linear;
    struct {
      void* devPtr;
      struct cudaChannelFormatDesc desc;
      size_t width;
      size_t height;
      size_t pitchInBytes;
    } pitch2D;
  } res;
  unsigned int flags;
};

// Views (reinterpreting the resource's format) are accepted and ignored.
enum cudaResourceViewFormat {
  cudaResViewFormatNone = 0x00, cudaResViewFormatUnsignedChar1 = 0x01, cudaResViewFormatUnsignedChar2 = 0x02,
  cudaResViewFormatUnsignedChar4 = 0x03, cudaResViewFormatSignedChar1 = 0x04, cudaResViewFormatSignedChar2 =
  0x05, cudaResViewFormatSignedChar4 = 0x06, cudaResViewFormatUnsignedShort1 = 0x07,
  cudaResViewFormatUnsignedShort2 = 0x08, cudaResViewFormatUnsignedShort4 = 0x09, cudaResViewFormatSignedShort1
  = 0x0a, cudaResViewFormatSignedShort2 = 0x0b, cudaResViewFormatSignedShort4 = 0x0c,
  cudaResViewFormatUnsignedInt1 = 0x0d, cudaResViewFormatUnsignedInt2 = 0x0e, cudaResViewFormatUnsignedInt4 =
  0x0f, cudaResViewFormatSignedInt1 = 0x10, cudaResViewFormatSignedInt2 = 0x11, cudaResViewFormatSignedInt4 =
  0x12, cudaResViewFormatHalf1 = 0x13, cudaResViewFormatHalf2 = 0x14, cudaResViewFormatHalf4 = 0x15,
  cudaResViewFormatFloat1 = 0x16, cudaResViewFormatFloat2 = 0x17, cudaResViewFormatFloat4 = 0x18,
  cudaResViewFormatUnsignedBlockCompressed1 = 0x19, cudaResViewFormatUnsignedBlockCompressed2 = 0x1a,
  cudaResViewFormatUnsignedBlockCompressed3 = 0x1b, cudaResViewFormatUnsignedBlockCompressed4 = 0x1c,
  cudaResViewFormatSignedBlockCompressed4 = 0x1d, cudaResViewFormatUnsignedBlockCompressed5 = 0x1e,
  cudaResViewFormatSignedBlockCompressed5 = 0x1f, cudaResViewFormatUnsignedBlockCompressed6H = 0x20,
  cudaResViewFormatSignedBlockCompressed6H = 0x21, cudaResViewFormatUnsignedBlockCompressed7 = 0x22,
};
struct cudaResourceViewDesc {
  enum cudaResourceViewFormat format;
  size_t width;
  size_t height;
  size_t depth;
  unsigned int firstMipmapLevel;
  unsigned int lastMipmapLevel;
  unsigned int firstLayer;
  unsigned int lastLayer;
};

enum cudaTextureAddressMode {
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3,
};
enum cudaTextureFilterMode {
  cudaFilterModePoint = 0,
  cudaFilterModeLinear = 1,
};
enum cudaTextureReadMode {
  cudaReadModeElementType = 0,
  cudaReadModeNormalizedFloat = 1,
};

struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};

typedef unsigned long long cudaTextureObject_t;
