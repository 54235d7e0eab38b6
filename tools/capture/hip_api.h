//===- hip_api.h - The HIP module API subset asmevo uses, declared here ---===//
//
// Declarations of the HIP runtime entry points used by the capture
// interposer, the test runtime and the HIP executor, so that nothing needs
// ROCm's headers. Types and values follow HIP's public ABI
// (hip_runtime_api.h): hipError_t is an int enum (hipSuccess = 0), modules,
// functions and streams are opaque pointers, device pointers are void *.
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_TOOLS_CAPTURE_HIP_API_H
#define ASMEVO_TOOLS_CAPTURE_HIP_API_H

#include <cstddef>

extern "C" {

typedef int hipError_t;
enum {
  hipSuccess = 0,
  hipErrorInvalidValue = 1,
  hipErrorOutOfMemory = 2,
  hipErrorNotInitialized = 3,
  hipErrorInvalidDevice = 101,
  hipErrorNoDevice = 100,
  hipErrorInvalidImage = 200,
  hipErrorNotFound = 500,
  hipErrorLaunchFailure = 719,
  hipErrorUnknown = 999,
};
typedef enum hipMemcpyKind {
  hipMemcpyHostToHost = 0,
  hipMemcpyHostToDevice = 1,
  hipMemcpyDeviceToHost = 2,
  hipMemcpyDeviceToDevice = 3,
  hipMemcpyDefault = 4,
} hipMemcpyKind;
typedef struct ihipModule_t *hipModule_t;
typedef struct ihipModuleSymbol_t *hipFunction_t;
typedef struct ihipStream_t *hipStream_t;
typedef void *hipDeviceptr_t;
typedef struct ihipEvent_t *hipEvent_t;

#define HIP_LAUNCH_PARAM_BUFFER_POINTER ((void *)0x01)
#define HIP_LAUNCH_PARAM_BUFFER_SIZE ((void *)0x02)
#define HIP_LAUNCH_PARAM_END ((void *)0x03)

hipError_t hipInit(unsigned int flags);
hipError_t hipGetDeviceCount(int *count);
hipError_t hipSetDevice(int device);
hipError_t hipDeviceGetName(char *name, int len, int device);
hipError_t hipRuntimeGetVersion(int *version);
const char *hipGetErrorString(hipError_t error);
hipError_t hipMalloc(void **ptr, size_t size);
hipError_t hipFree(void *ptr);
hipError_t hipMemcpy(void *dst, const void *src, size_t size,
                     hipMemcpyKind kind);
hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void *src, size_t size);
hipError_t hipMemcpyDtoH(void *dst, hipDeviceptr_t src, size_t size);
hipError_t hipMemset(void *dst, int value, size_t size);
hipError_t hipModuleLoad(hipModule_t *module, const char *fname);
hipError_t hipModuleLoadData(hipModule_t *module, const void *image);
hipError_t hipModuleUnload(hipModule_t module);
hipError_t hipModuleGetFunction(hipFunction_t *function, hipModule_t module,
                                const char *kname);
hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gridDimX,
                                 unsigned int gridDimY, unsigned int gridDimZ,
                                 unsigned int blockDimX, unsigned int blockDimY,
                                 unsigned int blockDimZ,
                                 unsigned int sharedMemBytes,
                                 hipStream_t stream, void **kernelParams,
                                 void **extra);
hipError_t hipDeviceSynchronize(void);
hipError_t hipEventCreate(hipEvent_t *event);
hipError_t hipEventDestroy(hipEvent_t event);
hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream);
hipError_t hipEventSynchronize(hipEvent_t event);
hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop);
hipError_t hipStreamSynchronize(hipStream_t stream);
}

#endif
