// NVTX, NVIDIA's annotations for profilers (<nvtx3/nvToolsExt.h>, and
// <nvToolsExt.h> from older toolkits): marks, ranges, names for threads,
// categories and domains. A program runs as it does on a GPU without a
// profiler attached: every call is accepted and does nothing, and
// nvtxRangePush/Pop answer NVTX_NO_PUSH_POP_TRACKING, as NVTX does when no
// tool is loaded. (cusim's own timeline is CUSIM_TRACE, docs/observability.md.)
#pragma once
#include <cstddef>
#include <cstdint>

#define NVTX_VERSION 3
#define NVTX_NO_PUSH_POP_TRACKING ((int)-2)

typedef uint64_t nvtxRangeId_t;
typedef struct nvtxDomainRegistration_st* nvtxDomainHandle_t;
typedef struct nvtxStringRegistration_st* nvtxStringHandle_t;

typedef enum nvtxColorType_t { NVTX_COLOR_UNKNOWN = 0, NVTX_COLOR_ARGB = 1 } nvtxColorType_t;
typedef enum nvtxMessageType_t {
  NVTX_MESSAGE_UNKNOWN = 0,
  NVTX_MESSAGE_TYPE_ASCII = 1,
  NVTX_MESSAGE_TYPE_UNICODE = 2,
  NVTX_MESSAGE_TYPE_REGISTERED = 3
} nvtxMessageType_t;
typedef enum nvtxPayloadType_t {
  NVTX_PAYLOAD_UNKNOWN = 0,
  NVTX_PAYLOAD_TYPE_UNSIGNED_INT64 = 1,
  NVTX_PAYLOAD_TYPE_INT64 = 2,
  NVTX_PAYLOAD_TYPE_DOUBLE = 3,
  NVTX_PAYLOAD_TYPE_UNSIGNED_INT32 = 4,
  NVTX_PAYLOAD_TYPE_INT32 = 5,
  NVTX_PAYLOAD_TYPE_FLOAT = 6
} nvtxPayloadType_t;

typedef union nvtxMessageValue_t {
  const char* ascii;
  const wchar_t* unicode;
  nvtxStringHandle_t registered;
} nvtxMessageValue_t;

typedef struct nvtxEventAttributes_v2 {
  uint16_t version;
  uint16_t size;
  uint32_t category;
  int32_t colorType;
  uint32_t color;
  int32_t payloadType;
  int32_t reserved0;
  union payload_t {
    uint64_t ullValue;
    int64_t llValue;
    double dValue;
    uint32_t uiValue;
    int32_t iValue;
    float fValue;
  } payload;
  int32_t messageType;
  nvtxMessageValue_t message;
} nvtxEventAttributes_t;

#define NVTX_EVENT_ATTRIB_STRUCT_SIZE ((uint16_t)(sizeof(nvtxEventAttributes_t)))

inline void nvtxInitialize(const void*) {}

inline void nvtxMarkEx(const nvtxEventAttributes_t*) {}
inline void nvtxMarkA(const char*) {}
inline void nvtxMarkW(const wchar_t*) {}
inline nvtxRangeId_t nvtxRangeStartEx(const nvtxEventAttributes_t*) { return 0; }
inline nvtxRangeId_t nvtxRangeStartA(const char*) { return 0; }
inline nvtxRangeId_t nvtxRangeStartW(const wchar_t*) { return 0; }
inline void nvtxRangeEnd(nvtxRangeId_t) {}
inline int nvtxRangePushEx(const nvtxEventAttributes_t*) { return NVTX_NO_PUSH_POP_TRACKING; }
inline int nvtxRangePushA(const char*) { return NVTX_NO_PUSH_POP_TRACKING; }
inline int nvtxRangePushW(const wchar_t*) { return NVTX_NO_PUSH_POP_TRACKING; }
inline int nvtxRangePop() { return NVTX_NO_PUSH_POP_TRACKING; }

inline void nvtxNameCategoryA(uint32_t, const char*) {}
inline void nvtxNameCategoryW(uint32_t, const wchar_t*) {}
inline void nvtxNameOsThreadA(uint32_t, const char*) {}
inline void nvtxNameOsThreadW(uint32_t, const wchar_t*) {}

inline nvtxDomainHandle_t nvtxDomainCreateA(const char*) { return nullptr; }
inline nvtxDomainHandle_t nvtxDomainCreateW(const wchar_t*) { return nullptr; }
inline void nvtxDomainDestroy(nvtxDomainHandle_t) {}
inline nvtxStringHandle_t nvtxDomainRegisterStringA(nvtxDomainHandle_t, const char*) { return nullptr; }
inline nvtxStringHandle_t nvtxDomainRegisterStringW(nvtxDomainHandle_t, const wchar_t*) { return nullptr; }
inline void nvtxDomainMarkEx(nvtxDomainHandle_t, const nvtxEventAttributes_t*) {}
inline nvtxRangeId_t nvtxDomainRangeStartEx(nvtxDomainHandle_t, const nvtxEventAttributes_t*) { return 0; }
inline void nvtxDomainRangeEnd(nvtxDomainHandle_t, nvtxRangeId_t) {}
inline int nvtxDomainRangePushEx(nvtxDomainHandle_t, const nvtxEventAttributes_t*) {
  return NVTX_NO_PUSH_POP_TRACKING;
}
inline int nvtxDomainRangePop(nvtxDomainHandle_t) { return NVTX_NO_PUSH_POP_TRACKING; }
inline void nvtxDomainNameCategoryA(nvtxDomainHandle_t, uint32_t, const char*) {}
inline void nvtxDomainNameCategoryW(nvtxDomainHandle_t, uint32_t, const wchar_t*) {}

#ifdef UNICODE
#define nvtxMark nvtxMarkW
#define nvtxRangeStart nvtxRangeStartW
#define nvtxRangePush nvtxRangePushW
#define nvtxNameCategory nvtxNameCategoryW
#define nvtxNameOsThread nvtxNameOsThreadW
#define nvtxDomainCreate nvtxDomainCreateW
#define nvtxDomainRegisterString nvtxDomainRegisterStringW
#define nvtxDomainNameCategory nvtxDomainNameCategoryW
#else
#define nvtxMark nvtxMarkA
#define nvtxRangeStart nvtxRangeStartA
#define nvtxRangePush nvtxRangePushA
#define nvtxNameCategory nvtxNameCategoryA
#define nvtxNameOsThread nvtxNameOsThreadA
#define nvtxDomainCreate nvtxDomainCreateA
#define nvtxDomainRegisterString nvtxDomainRegisterStringA
#define nvtxDomainNameCategory nvtxDomainNameCategoryA
#endif
