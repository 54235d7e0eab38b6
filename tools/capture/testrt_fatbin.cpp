//===- testrt_fatbin.cpp - Test HIP runtime: the API of hipcc-built libraries //
//
// Host libraries compiled with hipcc (rocSPARSE, rocRAND, ...) do not use
// the module API: their constructors register fat binaries
// (__hipRegisterFatBinary, an offload bundle per translation unit) and
// kernel host stubs (__hipRegisterFunction); `kernel<<<g, b, s, q>>>(...)`
// becomes __hipPushCallConfiguration in the caller and, in the stub,
// __hipPopCallConfiguration + hipLaunchKernel(stub, g, b, args, s, q) with
// one pointer per explicit argument. This file implements that ABI (as
// declared by HIP's hip_runtime_api.h) and the device queries, streams and
// asynchronous copies such libraries call, on top of testrt.cpp's device
// memory and emulator launches. Everything is synchronous.
//
// The device is the processor named by ASMEVO_TESTRT_TARGET (gfx942 or
// gfx90a; default gfx942), reported as <proc>:sramecc+:xnack- like an
// MI300X / MI250X GCD; a launch runs the bundle's code object for that
// device (plain, :xnack-, :sramecc+ or both, never :xnack+ or :sramecc-).
// Compressed bundles (CCOB) are not supported: their launches fail with a
// message. Pinned host memory (hipHostMalloc) is host memory that kernels
// cannot reach here: a kernel touching it faults on the emulator and its
// launch fails.
//
//===----------------------------------------------------------------------===//

#include "CodeObjectLite.h"
#include "hip_api.h"
#include "testrt.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

using namespace asmevo;

extern "C" {
struct dim3 {
  uint32_t x, y, z;
};
typedef void (*hipHostFn_t)(void *);
}

namespace {

const uint32_t HipFatMagic = 0x48495046; // "HIPF"

/// clang's __CudaFatBinaryWrapper as HIP emits it in .hipFatBinSegment.
struct FatWrapper {
  uint32_t Magic, Version;
  const void *Binary;
  const void *Unused;
};

struct FatBinary {
  const uint8_t *Bundle = nullptr;
  bool Loaded = false;
  std::string Error; // why no code object could be used
  std::vector<uint8_t> Image;
  lite::CodeObjectInfo Info;
};

struct Kernel {
  FatBinary *FB;
  std::string Name;
};

struct Config {
  dim3 Grid, Block;
  size_t Shared;
  hipStream_t Stream;
};

std::mutex RegMu;
std::vector<std::unique_ptr<FatBinary>> FatBinaries;
std::map<const void *, Kernel> Kernels; // host stub -> kernel
thread_local std::vector<Config> Configs;
thread_local hipError_t LastError = hipSuccess;

std::string targetProcessor() {
  const char *T = std::getenv("ASMEVO_TESTRT_TARGET");
  return T && *T ? T : "gfx942";
}

hipError_t record(hipError_t E) {
  if (E != hipSuccess)
    LastError = E;
  return E;
}

/// Picks and copies the code object for our device out of the bundle.
void load(FatBinary &FB) {
  FB.Loaded = true;
  if (!FB.Bundle) {
    FB.Error = "no bundle";
    return;
  }
  if (!lite::codeObjectFromBundle(FB.Bundle,
                                  targetProcessor() + ":sramecc+:xnack-",
                                  FB.Image, FB.Error) ||
      !lite::readCodeObject(FB.Image.data(), FB.Image.size(), FB.Info,
                            FB.Error))
    FB.Image.clear();
}

/// Fields of hipDeviceProp_t that libraries read, at their offsets in the
/// two layouts of HIP's ABI: the original one (hipGetDeviceProperties of
/// HIP 5) and R0600 (hipGetDevicePropertiesR0600, HIP >= 6). Offsets were
/// taken from Debian's libamdhip64-dev 5.2.3 and 7.2.4 headers with
/// offsetof.
struct PropLayout {
  size_t Size, TotalGlobalMem, SharedMemPerBlock, RegsPerBlock, WarpSize,
      MaxThreadsPerBlock, MaxThreadsDim, MaxGridSize, ClockRate,
      MemoryClockRate, MemoryBusWidth, TotalConstMem, Major, Minor,
      MultiProcessorCount, L2CacheSize, MaxThreadsPerMultiProcessor,
      ConcurrentKernels, MaxSharedMemoryPerMultiProcessor, CanMapHostMemory,
      GcnArch, GcnArchName, ManagedMemory;
};
const PropLayout R0000 = {792, 256, 264, 272, 276, 280, 284, 296,
                          308, 312, 316, 320, 328, 332, 336, 340,
                          344, 360, 376, 388, 392, 396, 772};
const PropLayout R0600 = {1472, 288, 296,  304, 308,        320,  324, 336,
                          348,  608, 612,  352, 360,        364,  388, 616,
                          624,  576, 1416, 400, ~size_t(0), 1160, 652};

template <typename T> void put(uint8_t *P, size_t Off, T V) {
  std::memcpy(P + Off, &V, sizeof V);
}

hipError_t fillProps(uint8_t *P, const PropLayout &L, int Device) {
  if (!P)
    return hipErrorInvalidValue;
  if (Device != 0)
    return hipErrorInvalidDevice;
  std::memset(P, 0, L.Size);
  // MI300X (gfx942) or one MI250X GCD (gfx90a); the numbers only steer
  // libraries' launch-shape choices, never a result.
  std::string Proc = targetProcessor();
  bool Mi300 = Proc == "gfx942";
  std::snprintf(reinterpret_cast<char *>(P), 256,
                "asmevo CPU emulator (test runtime, %s)", Proc.c_str());
  put<size_t>(P, L.TotalGlobalMem, size_t(64) << 30);
  put<size_t>(P, L.SharedMemPerBlock, 65536);
  put<int>(P, L.RegsPerBlock, 65536);
  put<int>(P, L.WarpSize, 64);
  put<int>(P, L.MaxThreadsPerBlock, 1024);
  for (int I = 0; I < 3; ++I) {
    put<int>(P, L.MaxThreadsDim + 4 * I, 1024);
    put<int>(P, L.MaxGridSize + 4 * I, I == 0 ? 0x7fffffff : 65536);
  }
  put<int>(P, L.ClockRate, Mi300 ? 2100000 : 1700000);
  put<int>(P, L.MemoryClockRate, Mi300 ? 1300000 : 1600000);
  put<int>(P, L.MemoryBusWidth, 8192);
  put<size_t>(P, L.TotalConstMem, size_t(2) << 30);
  put<int>(P, L.Major, 9);
  put<int>(P, L.Minor, Mi300 ? 4 : 0);
  put<int>(P, L.MultiProcessorCount, Mi300 ? 304 : 110);
  put<int>(P, L.L2CacheSize, Mi300 ? 4 << 20 : 8 << 20);
  put<int>(P, L.MaxThreadsPerMultiProcessor, 2048);
  put<int>(P, L.ConcurrentKernels, 1);
  put<size_t>(P, L.MaxSharedMemoryPerMultiProcessor, 65536);
  put<int>(P, L.CanMapHostMemory, 1);
  if (L.GcnArch != ~size_t(0))
    put<int>(P, L.GcnArch, Mi300 ? 942 : 910);
  std::snprintf(reinterpret_cast<char *>(P + L.GcnArchName), 256,
                "%s:sramecc+:xnack-", Proc.c_str());
  put<int>(P, L.ManagedMemory, 0);
  return hipSuccess;
}

hipError_t copy(void *Dst, const void *Src, size_t N) {
  std::lock_guard<std::mutex> L(testrt::mutex());
  uint8_t *D = static_cast<uint8_t *>(Dst);
  const uint8_t *S = static_cast<const uint8_t *>(Src);
  if (testrt::isDevice(Dst))
    D = testrt::deviceBytes(reinterpret_cast<uint64_t>(Dst), N);
  if (testrt::isDevice(Src))
    S = testrt::deviceBytes(reinterpret_cast<uint64_t>(Src), N);
  if (!D || !S)
    return hipErrorInvalidValue;
  if (N)
    std::memmove(D, S, N);
  return hipSuccess;
}

} // namespace

extern "C" {

void **__hipRegisterFatBinary(const void *Data) {
  auto FB = std::make_unique<FatBinary>();
  const FatWrapper *W = static_cast<const FatWrapper *>(Data);
  if (W && W->Magic == HipFatMagic)
    FB->Bundle = static_cast<const uint8_t *>(W->Binary);
  else
    FB->Error = "fat binary wrapper without the HIPF magic";
  std::lock_guard<std::mutex> L(RegMu);
  FatBinaries.push_back(std::move(FB));
  return reinterpret_cast<void **>(FatBinaries.back().get());
}

void __hipUnregisterFatBinary(void **) {
  // Kept until exit: destructors of other libraries may still launch.
}

void __hipRegisterFunction(void **Modules, const void *HostFunction, char *,
                           const char *DeviceName, unsigned, void *, void *,
                           dim3 *, dim3 *, int *) {
  if (!Modules || !HostFunction || !DeviceName)
    return;
  std::lock_guard<std::mutex> L(RegMu);
  Kernels[HostFunction] = {reinterpret_cast<FatBinary *>(Modules), DeviceName};
}

void __hipRegisterVar(void **, void *, char *HostVar, char *, int, size_t, int,
                      int) {
  // Device globals would need the code object's data at a device address
  // known to the host; not modelled: say so once.
  static bool Said = false;
  if (!Said)
    std::fprintf(stderr,
                 "asmevo test runtime: __hipRegisterVar(%s): device globals "
                 "are not supported (kernels using them fail)\n",
                 HostVar ? HostVar : "?");
  Said = true;
}

hipError_t __hipPushCallConfiguration(dim3 Grid, dim3 Block, size_t Shared,
                                      hipStream_t Stream) {
  Configs.push_back({Grid, Block, Shared, Stream});
  return hipSuccess;
}

hipError_t __hipPopCallConfiguration(dim3 *Grid, dim3 *Block, size_t *Shared,
                                     hipStream_t *Stream) {
  if (Configs.empty())
    return record(hipErrorInvalidValue);
  Config C = Configs.back();
  Configs.pop_back();
  if (Grid)
    *Grid = C.Grid;
  if (Block)
    *Block = C.Block;
  if (Shared)
    *Shared = C.Shared;
  if (Stream)
    *Stream = C.Stream;
  return hipSuccess;
}

hipError_t hipLaunchKernel(const void *Function, dim3 Grid, dim3 Block,
                           void **Args, size_t Shared, hipStream_t) {
  FatBinary *FB;
  std::string Name;
  {
    std::lock_guard<std::mutex> L(RegMu);
    auto It = Kernels.find(Function);
    if (It == Kernels.end()) {
      std::fprintf(stderr, "asmevo test runtime: hipLaunchKernel of an "
                           "unregistered function\n");
      return record(hipErrorInvalidValue);
    }
    FB = It->second.FB;
    Name = It->second.Name;
    if (!FB->Loaded)
      load(*FB);
  }
  if (FB->Image.empty()) {
    std::fprintf(stderr, "asmevo test runtime: cannot launch %s: %s\n",
                 Name.c_str(), FB->Error.c_str());
    return record(hipErrorInvalidImage);
  }
  const lite::KernelLayout *K = FB->Info.kernel(Name);
  if (!K) {
    std::fprintf(stderr,
                 "asmevo test runtime: %s is not in the code object for %s\n",
                 Name.c_str(), targetProcessor().c_str());
    return record(hipErrorNotFound);
  }
  if (!Grid.x || !Grid.y || !Grid.z || !Block.x || !Block.y || !Block.z ||
      uint64_t(Block.x) * Block.y * Block.z > 1024)
    return record(hipErrorInvalidValue);
  return record(testrt::launch(FB->Image, FB->Info.Target, Name,
                               {Grid.x, Grid.y, Grid.z},
                               {Block.x, Block.y, Block.z}, uint32_t(Shared),
                               lite::packKernelParams(*K, Args)));
}

hipError_t hipGetLastError(void) {
  hipError_t E = LastError;
  LastError = hipSuccess;
  return E;
}
hipError_t hipPeekAtLastError(void) { return LastError; }
const char *hipGetErrorName(hipError_t E) { return hipGetErrorString(E); }

hipError_t hipGetDevice(int *D) {
  if (!D)
    return hipErrorInvalidValue;
  *D = 0;
  return hipSuccess;
}
int hipGetStreamDeviceId(hipStream_t) { return 0; }
hipError_t hipGetDeviceProperties(void *Props, int Device) {
  return fillProps(static_cast<uint8_t *>(Props), R0000, Device);
}
hipError_t hipGetDevicePropertiesR0600(void *Props, int Device) {
  return fillProps(static_cast<uint8_t *>(Props), R0600, Device);
}

// Streams: every operation completes before its call returns, so a stream
// is only a handle.
hipError_t hipStreamCreate(hipStream_t *S) {
  if (!S)
    return hipErrorInvalidValue;
  *S = reinterpret_cast<hipStream_t>(new char);
  return hipSuccess;
}
hipError_t hipStreamDestroy(hipStream_t S) {
  delete reinterpret_cast<char *>(S);
  return hipSuccess;
}
hipError_t hipStreamGetFlags(hipStream_t, unsigned *Flags) {
  if (!Flags)
    return hipErrorInvalidValue;
  *Flags = 0;
  return hipSuccess;
}
hipError_t hipLaunchHostFunc(hipStream_t, hipHostFn_t Fn, void *Data) {
  if (!Fn)
    return hipErrorInvalidValue;
  Fn(Data);
  return hipSuccess;
}

hipError_t hipHostMalloc(void **Ptr, size_t Size, unsigned) {
  if (!Ptr)
    return hipErrorInvalidValue;
  *Ptr = std::calloc(1, Size ? Size : 1);
  return *Ptr ? hipSuccess : hipErrorOutOfMemory;
}
hipError_t hipHostFree(void *Ptr) {
  std::free(Ptr);
  return hipSuccess;
}

hipError_t hipMemcpyAsync(void *Dst, const void *Src, size_t N, hipMemcpyKind K,
                          hipStream_t) {
  return hipMemcpy(Dst, Src, N, K);
}
hipError_t hipMemsetAsync(void *Dst, int V, size_t N, hipStream_t) {
  return hipMemset(Dst, V, N);
}
hipError_t hipMemset2DAsync(void *Dst, size_t Pitch, int V, size_t Width,
                            size_t Height, hipStream_t) {
  if (Width > Pitch && Height > 1)
    return hipErrorInvalidValue;
  for (size_t R = 0; R < Height; ++R)
    if (hipError_t E =
            hipMemset(static_cast<uint8_t *>(Dst) + R * Pitch, V, Width);
        E != hipSuccess)
      return E;
  return hipSuccess;
}
hipError_t hipMemcpy2D(void *Dst, size_t DPitch, const void *Src, size_t SPitch,
                       size_t Width, size_t Height, hipMemcpyKind) {
  if (Height > 1 && (Width > DPitch || Width > SPitch))
    return hipErrorInvalidValue;
  for (size_t R = 0; R < Height; ++R)
    if (hipError_t E =
            copy(static_cast<uint8_t *>(Dst) + R * DPitch,
                 static_cast<const uint8_t *>(Src) + R * SPitch, Width);
        E != hipSuccess)
      return E;
  return hipSuccess;
}

} // extern "C"
