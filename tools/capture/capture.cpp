//===- capture.cpp - libasmevo-capture.so: LD_PRELOAD capture of HIP launches //
//
//   LD_PRELOAD=libasmevo-capture.so ASMEVO_CAPTURE_DIR=dir ./app
//
// Interposes the HIP module API of any host program: tracks device
// allocations (hipMalloc/hipFree), remembers loaded code objects
// (hipModuleLoadData/hipModuleLoad) and kernel handles
// (hipModuleGetFunction), and around each hipModuleLaunchKernel snapshots
// every live allocation (device synchronize, copy to host), launches, and
// snapshots again. Each launch becomes one capture file
// (docs/capture-format.md) in ASMEVO_CAPTURE_DIR. The hipcc ABI of host
// libraries is followed too: __hipRegisterFatBinary (offload bundle),
// __hipRegisterFunction (host stub -> kernel) and hipLaunchKernel.
//
// Environment:
//   ASMEVO_CAPTURE_DIR       where to write captures (default: .)
//   ASMEVO_CAPTURE_KERNELS   comma-separated kernel names (default: all)
//   ASMEVO_CAPTURE_MAX       captures to write at most (default: 64)
//   ASMEVO_CAPTURE_MAX_BYTES skip a launch whose live allocations exceed
//                            this many bytes (default: 1 GiB)
//   ASMEVO_CAPTURE_TARGET    device target id for fat binaries (default:
//                            gcnArchName of the runtime's device)
//
// Standard library and libdl only: nothing of LLVM enters the host process.
// The kernarg segment is recorded as the application passes it (explicit
// arguments; hidden arguments are the runtime's and are left zero:
// "hidden_filled": false).
//
//===----------------------------------------------------------------------===//

#include "CodeObjectLite.h"
#include "hip_api.h"

#include "asmevo/Verify/CaptureWriter.h"

#include <dlfcn.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

using namespace asmevo;

extern "C" {
struct Dim3 {
  uint32_t X, Y, Z;
};
}

namespace {

struct Module {
  std::vector<uint8_t> Image;
  lite::CodeObjectInfo Info;
  std::string Sha;
  bool Ok = false;
};

struct State {
  std::mutex Mu;
  std::map<hipModule_t, std::shared_ptr<Module>> Modules;
  std::map<hipFunction_t, std::pair<std::shared_ptr<Module>, std::string>> Fns;
  std::map<uintptr_t, size_t> Allocs;
  unsigned Written = 0;
  // The hipcc ABI: registered fat binaries (their code object for this
  // device is chosen at the first launch) and kernel host stubs.
  struct FatBinary {
    const uint8_t *Bundle = nullptr;
    bool Tried = false;
    std::shared_ptr<Module> M;
  };
  std::map<void **, FatBinary> FatBinaries;
  std::map<const void *, std::pair<void **, std::string>> Stubs;
};

State &state() {
  static State *S = new State(); // never destroyed: launches may run late
  return *S;
}

template <typename F> F real(const char *Name) {
  void *P = dlsym(RTLD_NEXT, Name);
  // A library opened with dlopen registers its fat binaries from its
  // constructors, before it and its HIP runtime join the global scope that
  // RTLD_NEXT searches: ask the already loaded runtime by its SONAME.
  for (const char *So : {"libamdhip64.so.7", "libamdhip64.so.6",
                         "libamdhip64.so.5", "libamdhip64.so"})
    if (void *H = P ? nullptr : dlopen(So, RTLD_LAZY | RTLD_NOLOAD))
      P = dlsym(H, Name);
  if (!P) {
    std::fprintf(stderr, "asmevo-capture: no next definition of %s: %s\n",
                 Name, dlerror());
    std::abort();
  }
  return reinterpret_cast<F>(P);
}

std::string env(const char *N, const char *Def) {
  const char *V = std::getenv(N);
  return V && *V ? V : Def;
}

bool wanted(const std::string &Kernel) {
  std::string L = env("ASMEVO_CAPTURE_KERNELS", "");
  if (L.empty())
    return true;
  size_t P = 0;
  while (P <= L.size()) {
    size_t C = L.find(',', P);
    if (L.substr(P, C == std::string::npos ? std::string::npos : C - P) == Kernel)
      return true;
    if (C == std::string::npos)
      break;
    P = C + 1;
  }
  return false;
}

std::shared_ptr<Module> makeModule(const uint8_t *Image, size_t Size) {
  auto M = std::make_shared<Module>();
  M->Image.assign(Image, Image + Size);
  std::string Err;
  M->Ok = lite::readCodeObject(M->Image.data(), M->Image.size(), M->Info, Err);
  if (!M->Ok)
    std::fprintf(stderr,
                 "asmevo-capture: code object not understood (%s): launches "
                 "of its kernels are not captured\n",
                 Err.c_str());
  M->Sha = verify::sha256HexStd(M->Image.data(), M->Image.size());
  return M;
}

/// The device's target id for choosing a fat binary's code object:
/// ASMEVO_CAPTURE_TARGET, else gcnArchName from the runtime's device
/// properties (the R0600 layout when the runtime has it, HIP 6+, else the
/// original one; offsets from HIP's hip_runtime_api.h).
std::string deviceTargetId() {
  std::string T = env("ASMEVO_CAPTURE_TARGET", "");
  if (!T.empty())
    return T;
  int Dev = 0;
  if (auto GetDevice = reinterpret_cast<hipError_t (*)(int *)>(
          dlsym(RTLD_NEXT, "hipGetDevice")))
    GetDevice(&Dev);
  std::vector<char> Props(8192, 0);
  size_t NameAt = 0;
  if (auto R6 = reinterpret_cast<hipError_t (*)(void *, int)>(
          dlsym(RTLD_NEXT, "hipGetDevicePropertiesR0600"));
      R6 && R6(Props.data(), Dev) == hipSuccess)
    NameAt = 1160;
  else if (auto R0 = reinterpret_cast<hipError_t (*)(void *, int)>(
               dlsym(RTLD_NEXT, "hipGetDeviceProperties"));
           R0 && R0(Props.data(), Dev) == hipSuccess)
    NameAt = 396;
  if (!NameAt)
    return "";
  return std::string(Props.data() + NameAt,
                     strnlen(Props.data() + NameAt, 256));
}

/// Snapshots every live allocation, runs Launch, snapshots again and
/// writes the capture (or just launches when over the limits).
hipError_t capturedLaunch(const Module &M, const std::string &Kernel,
                          const lite::KernelLayout &K,
                          std::array<uint32_t, 3> Grid,
                          std::array<uint32_t, 3> Block, uint32_t Shared,
                          std::vector<uint8_t> Kernarg,
                          const std::function<hipError_t()> &Launch) {
  static auto Sync = real<hipError_t (*)()>("hipDeviceSynchronize");
  static auto Copy =
      real<hipError_t (*)(void *, const void *, size_t, hipMemcpyKind)>(
          "hipMemcpy");
  State &S = state();
  std::map<uintptr_t, size_t> Allocs;
  unsigned Index = 0;
  {
    std::lock_guard<std::mutex> L(S.Mu);
    Allocs = S.Allocs;
    Index = S.Written;
  }
  unsigned Max = unsigned(
      std::strtoul(env("ASMEVO_CAPTURE_MAX", "64").c_str(), nullptr, 10));
  if (!wanted(Kernel) || Index >= Max)
    return Launch();
  uint64_t Total = 0;
  for (auto &A : Allocs)
    Total += A.second;
  uint64_t Limit = std::strtoull(
      env("ASMEVO_CAPTURE_MAX_BYTES", "1073741824").c_str(), nullptr, 10);
  if (Total > Limit) {
    std::fprintf(stderr,
                 "asmevo-capture: %s: %llu bytes of live allocations "
                 "exceed ASMEVO_CAPTURE_MAX_BYTES: not captured\n",
                 Kernel.c_str(), (unsigned long long)Total);
    return Launch();
  }

  verify::CaptureData C;
  C.Producer = "libasmevo-capture 1";
  C.Target = M.Info.Target;
  C.Kernel = Kernel;
  C.CodeObjectSha256 = M.Sha;
  C.CodeObject = M.Image;
  C.Workgroups = Grid;
  C.WorkgroupSize = Block;
  C.DynamicLds = Shared;
  C.KernargHasHidden = false;
  C.Kernarg = std::move(Kernarg);
  if (C.Kernarg.size() < K.KernargSize)
    C.Kernarg.resize(K.KernargSize, 0);
  // The runtime's kernarg buffers come in 16-byte units, which compiled
  // code relies on (s_load_dwordx4 past .kernarg_segment_size).
  C.Kernarg.resize((C.Kernarg.size() + 15) / 16 * 16, 0);

  Sync();
  unsigned N = 0;
  for (auto &[Addr, Size] : Allocs) {
    verify::CaptureRegion CR;
    CR.Address = Addr;
    CR.Size = Size;
    char Name[64];
    std::snprintf(Name, sizeof Name, "hipMalloc #%u", N++);
    CR.Name = Name;
    CR.Before.resize(Size);
    if (Size && Copy(CR.Before.data(), reinterpret_cast<void *>(Addr), Size,
                     hipMemcpyDeviceToHost) != hipSuccess) {
      std::fprintf(stderr, "asmevo-capture: cannot read allocation %#llx\n",
                   (unsigned long long)Addr);
      return Launch();
    }
    C.Regions.push_back(std::move(CR));
  }
  hipError_t E = Launch();
  hipError_t SE = Sync();
  if (E != hipSuccess || SE != hipSuccess)
    C.Note = "the launch reported an error: no after-state";
  else
    for (verify::CaptureRegion &CR : C.Regions) {
      CR.After.resize(CR.Size);
      CR.HasAfter = !CR.Size ||
                    Copy(CR.After.data(), reinterpret_cast<void *>(CR.Address),
                         CR.Size, hipMemcpyDeviceToHost) == hipSuccess;
    }
  {
    std::lock_guard<std::mutex> L(S.Mu);
    Index = S.Written++;
  }
  char File[64];
  std::snprintf(File, sizeof File, "/%04u-", Index);
  // Mangled names of library kernels can exceed a file name's 255 bytes.
  std::string Path =
      env("ASMEVO_CAPTURE_DIR", ".") + File + Kernel.substr(0, 96) + ".cap";
  if (verify::writeCapture(C, Path))
    std::fprintf(stderr, "asmevo-capture: %s (%zu regions)\n", Path.c_str(),
                 C.Regions.size());
  else
    std::fprintf(stderr, "asmevo-capture: cannot write %s\n", Path.c_str());
  return E;
}

} // namespace

extern "C" {

hipError_t hipMalloc(void **Ptr, size_t Size) {
  static auto R = real<hipError_t (*)(void **, size_t)>("hipMalloc");
  hipError_t E = R(Ptr, Size);
  if (E == hipSuccess && Ptr && *Ptr) {
    std::lock_guard<std::mutex> L(state().Mu);
    state().Allocs[reinterpret_cast<uintptr_t>(*Ptr)] = Size;
  }
  return E;
}

hipError_t hipFree(void *Ptr) {
  static auto R = real<hipError_t (*)(void *)>("hipFree");
  {
    std::lock_guard<std::mutex> L(state().Mu);
    state().Allocs.erase(reinterpret_cast<uintptr_t>(Ptr));
  }
  return R(Ptr);
}

hipError_t hipModuleLoadData(hipModule_t *Mod, const void *Image) {
  static auto R = real<hipError_t (*)(hipModule_t *, const void *)>(
      "hipModuleLoadData");
  hipError_t E = R(Mod, Image);
  if (E != hipSuccess || !Mod)
    return E;
  size_t Size = lite::elfImageSize(static_cast<const uint8_t *>(Image));
  if (!Size) {
    std::fprintf(stderr, "asmevo-capture: hipModuleLoadData image is not a "
                         "plain ELF code object (offload bundles are not "
                         "supported): not captured\n");
    return E;
  }
  auto M = makeModule(static_cast<const uint8_t *>(Image), Size);
  std::lock_guard<std::mutex> L(state().Mu);
  state().Modules[*Mod] = M;
  return E;
}

hipError_t hipModuleLoad(hipModule_t *Mod, const char *Path) {
  static auto R =
      real<hipError_t (*)(hipModule_t *, const char *)>("hipModuleLoad");
  hipError_t E = R(Mod, Path);
  if (E != hipSuccess || !Mod || !Path)
    return E;
  std::ifstream F(Path, std::ios::binary);
  std::vector<uint8_t> B((std::istreambuf_iterator<char>(F)),
                         std::istreambuf_iterator<char>());
  if (!lite::elfImageSize(B.data())) {
    std::fprintf(stderr, "asmevo-capture: %s is not a plain ELF code object: "
                         "not captured\n", Path);
    return E;
  }
  auto M = makeModule(B.data(), B.size());
  std::lock_guard<std::mutex> L(state().Mu);
  state().Modules[*Mod] = M;
  return E;
}

hipError_t hipModuleUnload(hipModule_t Mod) {
  static auto R = real<hipError_t (*)(hipModule_t)>("hipModuleUnload");
  {
    std::lock_guard<std::mutex> L(state().Mu);
    state().Modules.erase(Mod);
  }
  return R(Mod);
}

hipError_t hipModuleGetFunction(hipFunction_t *F, hipModule_t Mod,
                                const char *Name) {
  static auto R = real<hipError_t (*)(hipFunction_t *, hipModule_t,
                                      const char *)>("hipModuleGetFunction");
  hipError_t E = R(F, Mod, Name);
  if (E == hipSuccess && F && Name) {
    std::lock_guard<std::mutex> L(state().Mu);
    auto It = state().Modules.find(Mod);
    if (It != state().Modules.end())
      state().Fns[*F] = {It->second, Name};
  }
  return E;
}

hipError_t hipModuleLaunchKernel(hipFunction_t F, unsigned GX, unsigned GY,
                                 unsigned GZ, unsigned BX, unsigned BY,
                                 unsigned BZ, unsigned Shared,
                                 hipStream_t Stream, void **Params,
                                 void **Extra) {
  static auto R = real<hipError_t (*)(hipFunction_t, unsigned, unsigned,
                                      unsigned, unsigned, unsigned, unsigned,
                                      unsigned, hipStream_t, void **, void **)>(
      "hipModuleLaunchKernel");
  auto Launch = [&] {
    return R(F, GX, GY, GZ, BX, BY, BZ, Shared, Stream, Params, Extra);
  };
  std::shared_ptr<Module> M;
  std::string Kernel;
  {
    std::lock_guard<std::mutex> L(state().Mu);
    auto It = state().Fns.find(F);
    if (It != state().Fns.end()) {
      M = It->second.first;
      Kernel = It->second.second;
    }
  }
  const lite::KernelLayout *K = M && M->Ok ? M->Info.kernel(Kernel) : nullptr;
  if (!K)
    return Launch();
  std::vector<uint8_t> Kernarg;
  if (!lite::kernargFromExtra(Extra, Kernarg))
    Kernarg = lite::packKernelParams(*K, Params);
  return capturedLaunch(*M, Kernel, *K, {GX, GY, GZ}, {BX, BY, BZ}, Shared,
                        std::move(Kernarg), Launch);
}

// The hipcc ABI of host libraries: fat binaries (offload bundles) and
// kernel host stubs are registered by the libraries' constructors;
// kernel<<<>>> ends in hipLaunchKernel(stub, ...).

void **__hipRegisterFatBinary(const void *Data) {
  static auto R = real<void **(*)(const void *)>("__hipRegisterFatBinary");
  void **Handle = R(Data);
  struct Wrapper {
    uint32_t Magic, Version;
    const uint8_t *Binary;
    const void *Unused;
  };
  const Wrapper *W = static_cast<const Wrapper *>(Data);
  if (Handle && W && W->Magic == 0x48495046 /*HIPF*/) {
    std::lock_guard<std::mutex> L(state().Mu);
    state().FatBinaries[Handle].Bundle = W->Binary;
  }
  return Handle;
}

void __hipRegisterFunction(void **Modules, const void *HostFunction,
                           char *DeviceFunction, const char *DeviceName,
                           unsigned ThreadLimit, void *Tid, void *Bid,
                           void *BlockDim, void *GridDim, int *WSize) {
  static auto R =
      real<void (*)(void **, const void *, char *, const char *, unsigned,
                    void *, void *, void *, void *, int *)>(
          "__hipRegisterFunction");
  R(Modules, HostFunction, DeviceFunction, DeviceName, ThreadLimit, Tid, Bid,
    BlockDim, GridDim, WSize);
  if (HostFunction && DeviceName) {
    std::lock_guard<std::mutex> L(state().Mu);
    state().Stubs[HostFunction] = {Modules, DeviceName};
  }
}

hipError_t hipLaunchKernel(const void *Function, Dim3 Grid, Dim3 Block,
                           void **Args, size_t Shared, hipStream_t Stream) {
  static auto R = real<hipError_t (*)(const void *, Dim3, Dim3, void **, size_t,
                                      hipStream_t)>("hipLaunchKernel");
  auto Launch = [&] { return R(Function, Grid, Block, Args, Shared, Stream); };
  std::shared_ptr<Module> M;
  std::string Kernel;
  {
    std::lock_guard<std::mutex> L(state().Mu);
    auto It = state().Stubs.find(Function);
    if (It == state().Stubs.end())
      return Launch();
    Kernel = It->second.second;
    auto FB = state().FatBinaries.find(It->second.first);
    if (FB == state().FatBinaries.end())
      return Launch();
    if (!FB->second.Tried) {
      FB->second.Tried = true;
      std::vector<uint8_t> Image;
      std::string Err, Device = deviceTargetId();
      if (lite::codeObjectFromBundle(FB->second.Bundle, Device, Image, Err))
        FB->second.M = makeModule(Image.data(), Image.size());
      else
        std::fprintf(stderr,
                     "asmevo-capture: fat binary of %s not captured: %s\n",
                     Kernel.c_str(), Err.c_str());
    }
    M = FB->second.M;
  }
  const lite::KernelLayout *K = M && M->Ok ? M->Info.kernel(Kernel) : nullptr;
  if (!K)
    return Launch();
  return capturedLaunch(*M, Kernel, *K, {Grid.X, Grid.Y, Grid.Z},
                        {Block.X, Block.Y, Block.Z}, uint32_t(Shared),
                        lite::packKernelParams(*K, Args), Launch);
}

} // extern "C"
