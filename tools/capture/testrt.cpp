//===- testrt.cpp - A test HIP runtime on top of the emulator -------------===//
//
// libamdhip64.so test double (output in <build>/lib/asmevo-testrt/): enough
// of the HIP module API for host programs to run without a GPU or ROCm.
// Device memory is host memory at fake device addresses (0x3000_0000_0000
// upwards, 4 KiB apart); a launch writes the dispatch as a capture (all
// live allocations before it) and runs `asmevo-verify --execute` on it in a
// child process, then reads the allocations back. Launches are synchronous.
//
// ASMEVO_VERIFY_BIN overrides the asmevo-verify used (default: the one of
// the build). Standard library only.
//
// Events (hipEventCreate/Record/Synchronize/ElapsedTime/Destroy) exist so
// that the HIP executor's timing path runs end to end without a GPU. Their
// times are NOT GPU times: by default an event records the host's steady
// clock, so an interval is the wall time of emulating the launch (fork and
// asmevo-verify --execute included). With ASMEVO_TESTRT_LAUNCH_MS=a,b,c...
// the clock is virtual instead: it stands still except that launch number
// i (counting from 0 in the process) advances it by the i-th value (the
// list repeats), so tests can check the statistics exactly. The device name
// says which clock is in use.
//
// ASMEVO_TESTRT_CAPTURE_DIR=dir keeps every successful launch as a capture
// (dir/NNNN-<kernel>.cap, the after-state being the emulator's), at most
// ASMEVO_TESTRT_CAPTURE_MAX (64) in all and ASMEVO_TESTRT_CAPTURE_PER_KERNEL
// (4) per kernel. The triple-chevron API (__hipRegisterFatBinary,
// hipLaunchKernel, ...) that real host libraries use is in testrt_fatbin.cpp.
//
//===----------------------------------------------------------------------===//

#include "CodeObjectLite.h"
#include "hip_api.h"

#include "asmevo/Verify/CaptureWriter.h"
#include "testrt.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <chrono>
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

#ifndef ASMEVO_VERIFY_BIN
#define ASMEVO_VERIFY_BIN "asmevo-verify"
#endif

using namespace asmevo;

struct ihipModule_t {
  std::vector<uint8_t> Image;
  lite::CodeObjectInfo Info;
};
struct ihipModuleSymbol_t {
  ihipModule_t *M;
  std::string Name;
};
struct ihipEvent_t {
  bool Recorded = false;
  double Ms = 0;
};

namespace {

std::mutex Mu;
std::map<uint64_t, std::vector<uint8_t>> Mem; // device address -> bytes
uint64_t Next = 0x300000000000ull;
unsigned Launches = 0;
unsigned Captured = 0;
std::map<std::string, unsigned> CapturedPerKernel;

unsigned envUnsigned(const char *Name, unsigned Default) {
  const char *V = std::getenv(Name);
  return V && *V ? unsigned(std::strtoul(V, nullptr, 10)) : Default;
}

/// Whether this launch of Kernel is kept as a capture: at most
/// ASMEVO_TESTRT_CAPTURE_MAX in all (64) and ASMEVO_TESTRT_CAPTURE_PER_KERNEL
/// per kernel name (4), so that a library's many launches of one kernel do
/// not fill the disk.
bool keepCapture(const std::string &Kernel) {
  if (Captured >= envUnsigned("ASMEVO_TESTRT_CAPTURE_MAX", 64))
    return false;
  unsigned &N = CapturedPerKernel[Kernel];
  if (N >= envUnsigned("ASMEVO_TESTRT_CAPTURE_PER_KERNEL", 4))
    return false;
  ++N;
  return true;
}

/// A file-name-safe prefix of a (possibly long, mangled) kernel name.
std::string shortName(const std::string &Kernel) {
  std::string R;
  for (char Ch : Kernel.substr(0, 96))
    R += std::isalnum(static_cast<unsigned char>(Ch)) || Ch == '_' ? Ch : '-';
  return R;
}

/// ASMEVO_TESTRT_LAUNCH_MS, parsed once; empty: the host clock.
const std::vector<double> &scriptedLaunchMs() {
  static const std::vector<double> V = [] {
    std::vector<double> R;
    const char *E = std::getenv("ASMEVO_TESTRT_LAUNCH_MS");
    for (const char *P = E; P && *P;) {
      char *End = nullptr;
      double D = std::strtod(P, &End);
      if (End == P) {
        std::fprintf(stderr,
                     "asmevo test runtime: bad ASMEVO_TESTRT_LAUNCH_MS "
                     "'%s' (expected comma-separated milliseconds)\n",
                     E);
        std::exit(2);
      }
      R.push_back(D);
      P = *End == ',' ? End + 1 : End;
    }
    return R;
  }();
  return V;
}
double VirtualMs = 0;

/// The events' clock in milliseconds.
double nowMs() {
  if (!scriptedLaunchMs().empty())
    return VirtualMs;
  static const auto T0 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - T0)
      .count();
}

/// Host pointer for [Addr, Addr+Len) in one allocation, or null.
uint8_t *dev(uint64_t Addr, size_t Len) {
  auto It = Mem.upper_bound(Addr);
  if (It == Mem.begin())
    return nullptr;
  --It;
  if (Addr - It->first > It->second.size() ||
      Len > It->second.size() - (Addr - It->first))
    return nullptr;
  return It->second.data() + (Addr - It->first);
}

bool isDev(const void *P) {
  uint64_t A = reinterpret_cast<uint64_t>(P);
  return A >= 0x300000000000ull && A < 0x400000000000ull;
}

hipError_t loadImage(hipModule_t *Mod, const uint8_t *Image, size_t Size) {
  auto M = std::make_unique<ihipModule_t>();
  M->Image.assign(Image, Image + Size);
  std::string Err;
  if (!lite::readCodeObject(M->Image.data(), Size, M->Info, Err)) {
    std::fprintf(stderr, "asmevo test runtime: %s\n", Err.c_str());
    return hipErrorInvalidImage;
  }
  *Mod = M.release();
  return hipSuccess;
}

} // namespace

namespace asmevo::testrt {

std::mutex &mutex() { return Mu; }

uint8_t *deviceBytes(uint64_t Addr, size_t Len) { return dev(Addr, Len); }

bool isDevice(const void *P) { return isDev(P); }

hipError_t launch(const std::vector<uint8_t> &Image, const std::string &Target,
                  const std::string &Kernel, std::array<uint32_t, 3> Grid,
                  std::array<uint32_t, 3> Block, uint32_t Shared,
                  std::vector<uint8_t> Kernarg) {
  std::lock_guard<std::mutex> L(Mu);
  if (const std::vector<double> &S = scriptedLaunchMs(); !S.empty())
    VirtualMs += S[Launches % S.size()];
  verify::CaptureData C;
  C.Producer = "asmevo test runtime";
  C.Target = Target;
  C.Kernel = Kernel;
  C.CodeObject = Image;
  C.CodeObjectSha256 =
      verify::sha256HexStd(C.CodeObject.data(), C.CodeObject.size());
  C.Workgroups = Grid;
  C.WorkgroupSize = Block;
  C.DynamicLds = Shared;
  C.KernargHasHidden = false;
  C.Kernarg = std::move(Kernarg);
  // HIP's kernarg buffers come in 16-byte units: compilers merge the last
  // argument loads into s_load_dwordx4 past .kernarg_segment_size (rocPRIM's
  // sort_single_kernel: 44 bytes, a 16-byte load at 0x20).
  C.Kernarg.resize((C.Kernarg.size() + 15) / 16 * 16, 0);
  unsigned N = 0;
  for (auto &[A, D] : Mem) {
    verify::CaptureRegion R;
    R.Address = A;
    R.Size = D.size();
    R.Name = "hipMalloc #" + std::to_string(N++);
    R.Before = D;
    C.Regions.push_back(std::move(R));
  }
  const char *Tmp = std::getenv("TMPDIR");
  std::string Dir = std::string(Tmp && *Tmp ? Tmp : "/tmp") +
                    "/asmevo-testrt-" + std::to_string(getpid()) + "-" +
                    std::to_string(Launches++);
  mkdir(Dir.c_str(), 0700);
  std::string In = Dir + "/launch.cap";
  if (!verify::writeCapture(C, In))
    return hipErrorUnknown;
  const char *Bin = std::getenv("ASMEVO_VERIFY_BIN");
  std::string Exe = Bin && *Bin ? Bin : ASMEVO_VERIFY_BIN;
  pid_t P = fork();
  if (P == 0) {
    execl(Exe.c_str(), Exe.c_str(), "--execute", In.c_str(), "--after-dir",
          Dir.c_str(), (char *)nullptr);
    std::fprintf(stderr, "asmevo test runtime: cannot run %s\n", Exe.c_str());
    _exit(127);
  }
  int St = 0;
  if (P < 0 || waitpid(P, &St, 0) < 0)
    return hipErrorUnknown;
  hipError_t Result = hipSuccess;
  if (!WIFEXITED(St) || WEXITSTATUS(St) != 0) {
    std::fprintf(stderr,
                 "asmevo test runtime: launch of %s failed (status %d)\n",
                 Kernel.c_str(), St);
    Result = hipErrorLaunchFailure;
  } else {
    unsigned I = 0;
    for (auto &[A, D] : Mem) {
      std::ifstream R(Dir + "/region" + std::to_string(I) + ".bin",
                      std::ios::binary);
      std::vector<uint8_t> B((std::istreambuf_iterator<char>(R)),
                             std::istreambuf_iterator<char>());
      if (B.size() != D.size()) {
        Result = hipErrorLaunchFailure;
        break;
      }
      C.Regions[I].After = B;
      C.Regions[I].HasAfter = true;
      D = std::move(B);
      ++I;
    }
  }
  // ASMEVO_TESTRT_CAPTURE_DIR keeps each successful dispatch as a capture
  // with the emulator's after-state (tier 2 from host programs that launch
  // through hipLaunchKernel, which the interposer does not see).
  if (const char *CapDir = std::getenv("ASMEVO_TESTRT_CAPTURE_DIR");
      CapDir && *CapDir && Result == hipSuccess && keepCapture(Kernel)) {
    C.Producer = "asmevo test runtime (emulator after-state)";
    char Name[32];
    std::snprintf(Name, sizeof Name, "/%04u-", Captured++);
    std::string Path = std::string(CapDir) + Name + shortName(Kernel) + ".cap";
    if (!verify::writeCapture(C, Path))
      std::fprintf(stderr, "asmevo test runtime: cannot write %s\n",
                   Path.c_str());
  }
  if (!std::getenv("ASMEVO_TESTRT_KEEP")) {
    std::string Cmd = "rm -rf '" + Dir + "'";
    if (std::system(Cmd.c_str()) != 0)
      std::fprintf(stderr, "asmevo test runtime: cannot remove %s\n",
                   Dir.c_str());
  }
  return Result;
}

} // namespace asmevo::testrt

extern "C" {

hipError_t hipInit(unsigned) { return hipSuccess; }
hipError_t hipGetDeviceCount(int *N) {
  if (N)
    *N = 1;
  return hipSuccess;
}
hipError_t hipSetDevice(int D) { return D == 0 ? hipSuccess : hipErrorInvalidDevice; }
hipError_t hipDeviceGetName(char *Name, int Len, int) {
  if (Name && Len > 0)
    std::snprintf(Name, size_t(Len), "%s",
                  scriptedLaunchMs().empty()
                      ? "asmevo CPU emulator (test runtime; event times: "
                        "host wall clock of the emulation, not GPU time)"
                      : "asmevo CPU emulator (test runtime; event times: "
                        "scripted by ASMEVO_TESTRT_LAUNCH_MS)");
  return hipSuccess;
}
hipError_t hipRuntimeGetVersion(int *V) {
  if (V)
    *V = 0;
  return hipSuccess;
}
const char *hipGetErrorString(hipError_t E) {
  switch (E) {
  case hipSuccess: return "hipSuccess";
  case hipErrorInvalidValue: return "hipErrorInvalidValue";
  case hipErrorOutOfMemory: return "hipErrorOutOfMemory";
  case hipErrorInvalidImage: return "hipErrorInvalidImage";
  case hipErrorNotFound: return "hipErrorNotFound";
  case hipErrorLaunchFailure: return "hipErrorLaunchFailure";
  default: return "hipErrorUnknown";
  }
}

hipError_t hipMalloc(void **Ptr, size_t Size) {
  if (!Ptr)
    return hipErrorInvalidValue;
  std::lock_guard<std::mutex> L(Mu);
  uint64_t A = Next;
  Next += (Size + 4095) / 4096 * 4096 + 4096;
  Mem[A].assign(Size, 0);
  *Ptr = reinterpret_cast<void *>(A);
  return hipSuccess;
}

hipError_t hipFree(void *Ptr) {
  std::lock_guard<std::mutex> L(Mu);
  if (!Ptr)
    return hipSuccess;
  return Mem.erase(reinterpret_cast<uint64_t>(Ptr)) ? hipSuccess
                                                    : hipErrorInvalidValue;
}

hipError_t hipMemcpy(void *Dst, const void *Src, size_t N, hipMemcpyKind K) {
  std::lock_guard<std::mutex> L(Mu);
  if (K == hipMemcpyDefault)
    K = isDev(Dst) ? (isDev(Src) ? hipMemcpyDeviceToDevice : hipMemcpyHostToDevice)
                   : (isDev(Src) ? hipMemcpyDeviceToHost : hipMemcpyHostToHost);
  uint8_t *D = static_cast<uint8_t *>(Dst);
  const uint8_t *S = static_cast<const uint8_t *>(Src);
  if (K == hipMemcpyHostToDevice || K == hipMemcpyDeviceToDevice)
    D = dev(reinterpret_cast<uint64_t>(Dst), N);
  if (K == hipMemcpyDeviceToHost || K == hipMemcpyDeviceToDevice)
    S = dev(reinterpret_cast<uint64_t>(Src), N);
  if (!D || !S)
    return hipErrorInvalidValue;
  std::memmove(D, S, N);
  return hipSuccess;
}
hipError_t hipMemcpyHtoD(hipDeviceptr_t Dst, void *Src, size_t N) {
  return hipMemcpy(Dst, Src, N, hipMemcpyHostToDevice);
}
hipError_t hipMemcpyDtoH(void *Dst, hipDeviceptr_t Src, size_t N) {
  return hipMemcpy(Dst, Src, N, hipMemcpyDeviceToHost);
}
hipError_t hipMemset(void *Dst, int V, size_t N) {
  std::lock_guard<std::mutex> L(Mu);
  uint8_t *D = dev(reinterpret_cast<uint64_t>(Dst), N);
  if (!D)
    return hipErrorInvalidValue;
  std::memset(D, V, N);
  return hipSuccess;
}

hipError_t hipModuleLoadData(hipModule_t *Mod, const void *Image) {
  if (!Mod || !Image)
    return hipErrorInvalidValue;
  size_t Size = lite::elfImageSize(static_cast<const uint8_t *>(Image));
  if (!Size)
    return hipErrorInvalidImage;
  return loadImage(Mod, static_cast<const uint8_t *>(Image), Size);
}

hipError_t hipModuleLoad(hipModule_t *Mod, const char *Path) {
  if (!Mod || !Path)
    return hipErrorInvalidValue;
  std::ifstream F(Path, std::ios::binary);
  if (!F)
    return hipErrorNotFound;
  std::vector<uint8_t> B((std::istreambuf_iterator<char>(F)),
                         std::istreambuf_iterator<char>());
  return loadImage(Mod, B.data(), B.size());
}

hipError_t hipModuleUnload(hipModule_t Mod) {
  delete Mod;
  return hipSuccess;
}

hipError_t hipModuleGetFunction(hipFunction_t *F, hipModule_t Mod,
                                const char *Name) {
  if (!F || !Mod || !Name)
    return hipErrorInvalidValue;
  if (!Mod->Info.kernel(Name))
    return hipErrorNotFound;
  *F = new ihipModuleSymbol_t{Mod, Name};
  return hipSuccess;
}

hipError_t hipModuleLaunchKernel(hipFunction_t F, unsigned GX, unsigned GY,
                                 unsigned GZ, unsigned BX, unsigned BY,
                                 unsigned BZ, unsigned Shared, hipStream_t,
                                 void **Params, void **Extra) {
  if (!F)
    return hipErrorInvalidValue;
  const lite::KernelLayout *K = F->M->Info.kernel(F->Name);
  if (!K)
    return hipErrorNotFound;
  std::vector<uint8_t> Kernarg;
  if (!lite::kernargFromExtra(Extra, Kernarg))
    Kernarg = lite::packKernelParams(*K, Params);
  return testrt::launch(F->M->Image, F->M->Info.Target, F->Name, {GX, GY, GZ},
                        {BX, BY, BZ}, Shared, std::move(Kernarg));
}

hipError_t hipDeviceSynchronize(void) { return hipSuccess; }

hipError_t hipEventCreate(hipEvent_t *E) {
  if (!E)
    return hipErrorInvalidValue;
  *E = new ihipEvent_t;
  return hipSuccess;
}
hipError_t hipEventDestroy(hipEvent_t E) {
  delete E;
  return hipSuccess;
}
// Launches are synchronous, so recording is immediate and synchronizing on
// an event has nothing to wait for.
hipError_t hipEventRecord(hipEvent_t E, hipStream_t) {
  if (!E)
    return hipErrorInvalidValue;
  std::lock_guard<std::mutex> L(Mu);
  E->Recorded = true;
  E->Ms = nowMs();
  return hipSuccess;
}
hipError_t hipEventSynchronize(hipEvent_t E) {
  return E && E->Recorded ? hipSuccess : hipErrorInvalidValue;
}
hipError_t hipEventElapsedTime(float *Ms, hipEvent_t Start, hipEvent_t Stop) {
  if (!Ms || !Start || !Stop || !Start->Recorded || !Stop->Recorded)
    return hipErrorInvalidValue;
  *Ms = float(Stop->Ms - Start->Ms);
  return hipSuccess;
}
hipError_t hipStreamSynchronize(hipStream_t) { return hipSuccess; }

} // extern "C"
