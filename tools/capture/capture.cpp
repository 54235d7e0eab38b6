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
// (docs/capture-format.md) in ASMEVO_CAPTURE_DIR.
//
// Environment:
//   ASMEVO_CAPTURE_DIR       where to write captures (default: .)
//   ASMEVO_CAPTURE_KERNELS   comma-separated kernel names (default: all)
//   ASMEVO_CAPTURE_MAX       captures to write at most (default: 64)
//   ASMEVO_CAPTURE_MAX_BYTES skip a launch whose live allocations exceed
//                            this many bytes (default: 1 GiB)
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

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

using namespace asmevo;

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
};

State &state() {
  static State *S = new State(); // never destroyed: launches may run late
  return *S;
}

template <typename F> F real(const char *Name) {
  void *P = dlsym(RTLD_NEXT, Name);
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
  static auto Sync = real<hipError_t (*)()>("hipDeviceSynchronize");
  static auto Copy = real<hipError_t (*)(void *, const void *, size_t,
                                         hipMemcpyKind)>("hipMemcpy");
  State &S = state();
  std::shared_ptr<Module> M;
  std::string Kernel;
  std::map<uintptr_t, size_t> Allocs;
  unsigned Index = 0;
  {
    std::lock_guard<std::mutex> L(S.Mu);
    auto It = S.Fns.find(F);
    if (It != S.Fns.end()) {
      M = It->second.first;
      Kernel = It->second.second;
    }
    Allocs = S.Allocs;
    Index = S.Written;
  }
  unsigned Max = unsigned(std::strtoul(env("ASMEVO_CAPTURE_MAX", "64").c_str(),
                                       nullptr, 10));
  const lite::KernelLayout *K = M && M->Ok ? M->Info.kernel(Kernel) : nullptr;
  if (!K || !wanted(Kernel) || Index >= Max)
    return R(F, GX, GY, GZ, BX, BY, BZ, Shared, Stream, Params, Extra);
  uint64_t Total = 0;
  for (auto &A : Allocs)
    Total += A.second;
  uint64_t Limit = std::strtoull(
      env("ASMEVO_CAPTURE_MAX_BYTES", "1073741824").c_str(), nullptr, 10);
  if (Total > Limit) {
    std::fprintf(stderr, "asmevo-capture: %s: %llu bytes of live allocations "
                         "exceed ASMEVO_CAPTURE_MAX_BYTES: not captured\n",
                 Kernel.c_str(), (unsigned long long)Total);
    return R(F, GX, GY, GZ, BX, BY, BZ, Shared, Stream, Params, Extra);
  }

  verify::CaptureData C;
  C.Producer = "libasmevo-capture 1";
  C.Target = M->Info.Target;
  C.Kernel = Kernel;
  C.CodeObjectSha256 = M->Sha;
  C.CodeObject = M->Image;
  C.Workgroups = {GX, GY, GZ};
  C.WorkgroupSize = {BX, BY, BZ};
  C.DynamicLds = Shared;
  C.KernargHasHidden = false;
  if (!lite::kernargFromExtra(Extra, C.Kernarg))
    C.Kernarg = lite::packKernelParams(*K, Params);
  if (C.Kernarg.size() < K->KernargSize)
    C.Kernarg.resize(K->KernargSize, 0);

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
      return R(F, GX, GY, GZ, BX, BY, BZ, Shared, Stream, Params, Extra);
    }
    C.Regions.push_back(std::move(CR));
  }
  hipError_t E = R(F, GX, GY, GZ, BX, BY, BZ, Shared, Stream, Params, Extra);
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
  std::string Path = env("ASMEVO_CAPTURE_DIR", ".") + File + Kernel + ".cap";
  if (verify::writeCapture(C, Path))
    std::fprintf(stderr, "asmevo-capture: %s (%zu regions)\n", Path.c_str(),
                 C.Regions.size());
  else
    std::fprintf(stderr, "asmevo-capture: cannot write %s\n", Path.c_str());
  return E;
}

} // extern "C"
