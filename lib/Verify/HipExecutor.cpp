//===- HipExecutor.cpp - Real GPU executor through the HIP runtime --------===//
//
// Runs one dispatch on an AMD GPU: in a forked child process, dlopen the HIP
// runtime (no ROCm needed at build time: the entry points are declared in
// tools/capture/hip_api.h and resolved with dlsym), allocate every Buffer
// region, copy the before-state, load the code object, launch, synchronize
// and copy every region back through a pipe. The parent enforces a timeout
// and kills the child. Without a runtime or a device the child says which,
// and run() returns an llvm::Error (the oracle then cannot decide).
//
// Addresses: HIP offers no allocation at a chosen address through
// hipMalloc, so regions land where the runtime puts them and every 8-byte
// value of the explicit kernarg arguments that points into a region is
// relocated. Pointers stored inside buffers are not relocated (documented
// limit). Guard regions cannot be enforced on hardware; hidden arguments
// are the runtime's.
//
// Timing (ExecOptions::TimeReps): after the run whose memory is returned,
// the child restores every buffer's before-state (outside the timed
// interval), launches TimeWarmup uncounted times, then TimeReps times, each
// bracketed by hipEventRecord on the null stream and read with
// hipEventElapsedTime after hipEventSynchronize. A runtime without the event
// API is timed with the host's steady clock around launch + synchronize
// (reported as "host clock"). The samples go back to the parent, which
// summarizes them (Timing.h); they are always reported as "measured".
//
//===----------------------------------------------------------------------===//

#include "asmevo/CodeObject/CodeObject.h"
#include "asmevo/Verify/Executor.h"

#include "../../tools/capture/hip_api.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <dlfcn.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <functional>

using namespace llvm;

namespace asmevo {
namespace verify {

namespace {

struct Hip {
  void *Lib = nullptr;
  hipError_t (*Init)(unsigned) = nullptr;
  hipError_t (*GetDeviceCount)(int *) = nullptr;
  hipError_t (*SetDevice)(int) = nullptr;
  hipError_t (*DeviceGetName)(char *, int, int) = nullptr;
  const char *(*ErrorString)(hipError_t) = nullptr;
  hipError_t (*Malloc)(void **, size_t) = nullptr;
  hipError_t (*Free)(void *) = nullptr;
  hipError_t (*Memcpy)(void *, const void *, size_t, hipMemcpyKind) = nullptr;
  hipError_t (*ModuleLoadData)(hipModule_t *, const void *) = nullptr;
  hipError_t (*ModuleGetFunction)(hipFunction_t *, hipModule_t,
                                  const char *) = nullptr;
  hipError_t (*Launch)(hipFunction_t, unsigned, unsigned, unsigned, unsigned,
                       unsigned, unsigned, unsigned, hipStream_t, void **,
                       void **) = nullptr;
  hipError_t (*Sync)() = nullptr;
  hipError_t (*EventCreate)(hipEvent_t *) = nullptr;
  hipError_t (*EventDestroy)(hipEvent_t) = nullptr;
  hipError_t (*EventRecord)(hipEvent_t, hipStream_t) = nullptr;
  hipError_t (*EventSynchronize)(hipEvent_t) = nullptr;
  hipError_t (*EventElapsedTime)(float *, hipEvent_t, hipEvent_t) = nullptr;
  bool hasEvents() const {
    return EventCreate && EventDestroy && EventRecord && EventSynchronize &&
           EventElapsedTime;
  }

  std::string err(const char *What, hipError_t E) const {
    return formatv("{0} failed: {1} ({2})", What,
                   ErrorString ? ErrorString(E) : "?", E)
        .str();
  }
};

/// In the child: load the runtime and pick the device. "" on success.
std::string openHip(const HipExecutorOptions &O, Hip &H, std::string &Desc) {
  std::vector<std::string> Names;
  if (!O.Runtime.empty())
    Names.push_back(O.Runtime);
  else
    Names = {"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5"};
  std::string Errors;
  for (const std::string &N : Names) {
    H.Lib = dlopen(N.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (H.Lib)
      break;
    const char *E = dlerror();
    Errors += "\n  " + N + ": " + (E ? E : "?");
  }
  if (!H.Lib)
    return "no HIP runtime: cannot load libamdhip64" + Errors;
  auto sym = [&](auto &F, const char *Name) -> bool {
    F = reinterpret_cast<std::remove_reference_t<decltype(F)>>(dlsym(H.Lib, Name));
    return F != nullptr;
  };
  for (auto [Ok, Name] : {std::pair{sym(H.Init, "hipInit"), "hipInit"},
                          {sym(H.GetDeviceCount, "hipGetDeviceCount"), "hipGetDeviceCount"},
                          {sym(H.SetDevice, "hipSetDevice"), "hipSetDevice"},
                          {sym(H.ErrorString, "hipGetErrorString"), "hipGetErrorString"},
                          {sym(H.Malloc, "hipMalloc"), "hipMalloc"},
                          {sym(H.Free, "hipFree"), "hipFree"},
                          {sym(H.Memcpy, "hipMemcpy"), "hipMemcpy"},
                          {sym(H.ModuleLoadData, "hipModuleLoadData"), "hipModuleLoadData"},
                          {sym(H.ModuleGetFunction, "hipModuleGetFunction"), "hipModuleGetFunction"},
                          {sym(H.Launch, "hipModuleLaunchKernel"), "hipModuleLaunchKernel"},
                          {sym(H.Sync, "hipDeviceSynchronize"), "hipDeviceSynchronize"}})
    if (!Ok)
      return std::string("the HIP runtime has no ") + Name;
  sym(H.DeviceGetName, "hipDeviceGetName");
  // Optional: without events, timing falls back to the host clock.
  sym(H.EventCreate, "hipEventCreate");
  sym(H.EventDestroy, "hipEventDestroy");
  sym(H.EventRecord, "hipEventRecord");
  sym(H.EventSynchronize, "hipEventSynchronize");
  sym(H.EventElapsedTime, "hipEventElapsedTime");
  hipError_t E = H.Init(0);
  if (E != hipSuccess)
    return "no device: " + H.err("hipInit", E);
  int N = 0;
  E = H.GetDeviceCount(&N);
  if (E != hipSuccess)
    return "no device: " + H.err("hipGetDeviceCount", E);
  if (N <= 0)
    return "no device: the HIP runtime sees no GPU";
  if (O.Device >= N)
    return formatv("no device {0}: the runtime sees {1}", O.Device, N).str();
  E = H.SetDevice(O.Device);
  if (E != hipSuccess)
    return H.err("hipSetDevice", E);
  char Name[256] = "?";
  if (H.DeviceGetName)
    H.DeviceGetName(Name, sizeof Name, O.Device);
  Desc = formatv("device {0} of {1}: {2}", O.Device, N, Name).str();
  return "";
}

bool writeAll(int Fd, const void *P, size_t N) {
  const char *C = static_cast<const char *>(P);
  while (N) {
    ssize_t W = write(Fd, C, N);
    if (W <= 0)
      return false;
    C += W;
    N -= size_t(W);
  }
  return true;
}
void writeStr(int Fd, const std::string &S) {
  uint64_t N = S.size();
  writeAll(Fd, &N, 8);
  writeAll(Fd, S.data(), S.size());
}

/// Times Reps launches after Warmup uncounted ones, each on the buffers'
/// before-state. Returns "" and fills Ms and Clock, or an error.
std::string timeLaunches(const Hip &H, const DispatchImage &Img,
                         const std::vector<void *> &Dev,
                         const std::function<hipError_t()> &Launch,
                         unsigned Warmup, unsigned Reps,
                         std::vector<double> &Ms, std::string &Clock) {
  hipEvent_t Start = nullptr, Stop = nullptr;
  bool Events = H.hasEvents();
  if (Events) {
    hipError_t E = H.EventCreate(&Start);
    if (E == hipSuccess)
      E = H.EventCreate(&Stop);
    if (E != hipSuccess)
      return H.err("hipEventCreate", E);
  }
  Clock = Events ? "hipEvent" : "host clock";
  std::string Err;
  for (unsigned I = 0; I < Warmup + Reps && Err.empty(); ++I) {
    // Same inputs for every launch; the copies are outside the interval.
    for (size_t R = 0; R < Img.Regions.size() && Err.empty(); ++R) {
      const MemRegion &M = Img.Regions[R];
      if (!Dev[R] || !M.Size)
        continue;
      if (hipError_t E =
              H.Memcpy(Dev[R], M.Data.data(), M.Size, hipMemcpyHostToDevice))
        Err = H.err("hipMemcpy (restoring inputs)", E);
    }
    if (!Err.empty())
      break;
    if (hipError_t E = H.Sync())
      return H.err("hipDeviceSynchronize", E);
    double T = 0;
    if (Events) {
      hipError_t E = H.EventRecord(Start, nullptr);
      if (E == hipSuccess)
        E = Launch();
      if (E == hipSuccess)
        E = H.EventRecord(Stop, nullptr);
      if (E == hipSuccess)
        E = H.EventSynchronize(Stop);
      float F = 0;
      if (E == hipSuccess)
        E = H.EventElapsedTime(&F, Start, Stop);
      if (E != hipSuccess) {
        Err = H.err("timed launch", E);
        break;
      }
      T = F;
    } else {
      auto T0 = std::chrono::steady_clock::now();
      hipError_t E = Launch();
      if (E == hipSuccess)
        E = H.Sync();
      if (E != hipSuccess) {
        Err = H.err("timed launch", E);
        break;
      }
      T = std::chrono::duration<double, std::milli>(
              std::chrono::steady_clock::now() - T0)
              .count();
    }
    if (I >= Warmup)
      Ms.push_back(T);
  }
  if (Events) {
    H.EventDestroy(Start);
    H.EventDestroy(Stop);
  }
  return Err;
}

/// The child's work. Protocol on Fd: u32 status (0 ok, 1 kernel failed,
/// 2 cannot run), string message, then for status 0/1 each Buffer region's
/// bytes in image order, then the timing: u32 sample count, that many f64
/// milliseconds, string clock, string timing error ("" when none).
[[noreturn]] void child(int Fd, const HipExecutorOptions &O,
                        const DispatchImage &Img, const ExecOptions &EO,
                        bool ProbeOnly) {
  Hip H;
  std::string Desc;
  std::string Err = openHip(O, H, Desc);
  auto finish = [&](uint32_t St, const std::string &Msg) {
    writeAll(Fd, &St, 4);
    writeStr(Fd, Msg);
  };
  if (!Err.empty()) {
    finish(2, Err);
    _exit(0);
  }
  if (ProbeOnly) {
    finish(0, Desc);
    _exit(0);
  }
  hipModule_t Mod;
  hipError_t E = H.ModuleLoadData(&Mod, Img.CodeObject.data());
  if (E != hipSuccess) {
    finish(2, H.err("hipModuleLoadData", E));
    _exit(0);
  }
  hipFunction_t Fn;
  E = H.ModuleGetFunction(&Fn, Mod, Img.Kernel.c_str());
  if (E != hipSuccess) {
    finish(2, H.err("hipModuleGetFunction", E));
    _exit(0);
  }
  // Explicit-argument bytes: up to the first hidden argument.
  size_t Explicit = Img.Launch.Kernarg.size();
  auto CO = CodeObject::parse(
      MemoryBuffer::getMemBuffer(
          StringRef(reinterpret_cast<const char *>(Img.CodeObject.data()),
                    Img.CodeObject.size()),
          "K", false),
      "K");
  if (CO) {
    if (const KernelInfo *K = (*CO)->kernel(Img.Kernel); K && K->Meta)
      for (const KernelArgMetadata &A : K->Meta->Args)
        if (A.isHidden())
          Explicit = std::min<size_t>(Explicit, A.Offset);
  } else {
    consumeError(CO.takeError());
  }
  std::vector<uint8_t> Kernarg(Img.Launch.Kernarg.begin(),
                               Img.Launch.Kernarg.begin() + Explicit);
  std::vector<void *> Dev(Img.Regions.size(), nullptr);
  for (size_t I = 0; I < Img.Regions.size(); ++I) {
    const MemRegion &R = Img.Regions[I];
    if (R.K != MemRegion::Buffer)
      continue;
    E = H.Malloc(&Dev[I], std::max<uint64_t>(R.Size, 4));
    if (E != hipSuccess) {
      finish(2, H.err("hipMalloc", E));
      _exit(0);
    }
    if (R.Size && (E = H.Memcpy(Dev[I], R.Data.data(), R.Size,
                                hipMemcpyHostToDevice)) != hipSuccess) {
      finish(2, H.err("hipMemcpy", E));
      _exit(0);
    }
  }
  for (size_t Off = 0; Off + 8 <= Kernarg.size(); Off += 8) {
    uint64_t V;
    std::memcpy(&V, &Kernarg[Off], 8);
    for (size_t I = 0; I < Img.Regions.size(); ++I) {
      const MemRegion &R = Img.Regions[I];
      if (Dev[I] && V >= R.Base && V - R.Base <= R.Size) {
        uint64_t NV = reinterpret_cast<uint64_t>(Dev[I]) + (V - R.Base);
        std::memcpy(&Kernarg[Off], &NV, 8);
        break;
      }
    }
  }
  size_t KSize = Kernarg.size();
  void *Extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, Kernarg.data(),
                   HIP_LAUNCH_PARAM_BUFFER_SIZE, &KSize, HIP_LAUNCH_PARAM_END};
  const emu::Dispatch &D = Img.Launch;
  auto Launch = [&]() {
    return H.Launch(Fn, D.Workgroups[0], D.Workgroups[1], D.Workgroups[2],
                    D.WorkgroupSize[0], D.WorkgroupSize[1], D.WorkgroupSize[2],
                    D.DynamicLds, nullptr, nullptr, Extra);
  };
  E = Launch();
  hipError_t SE = E == hipSuccess ? H.Sync() : E;
  uint32_t St = (E == hipSuccess && SE == hipSuccess) ? 0 : 1;
  std::vector<std::vector<uint8_t>> After(Img.Regions.size());
  for (size_t I = 0; I < Img.Regions.size(); ++I) {
    const MemRegion &R = Img.Regions[I];
    if (R.K != MemRegion::Buffer)
      continue;
    After[I].assign(R.Size, 0);
    if (!St && R.Size)
      H.Memcpy(After[I].data(), Dev[I], R.Size, hipMemcpyDeviceToHost);
  }
  std::vector<double> Ms;
  std::string Clock, TimeErr;
  if (!St && EO.TimeReps)
    TimeErr = timeLaunches(H, Img, Dev, Launch, EO.TimeWarmup, EO.TimeReps, Ms,
                           Clock);
  writeAll(Fd, &St, 4);
  writeStr(Fd, St ? H.err("launch", E != hipSuccess ? E : SE) : Desc);
  for (size_t I = 0; I < Img.Regions.size(); ++I)
    if (Img.Regions[I].K == MemRegion::Buffer)
      writeAll(Fd, After[I].data(), After[I].size());
  uint32_t NT = uint32_t(Ms.size());
  writeAll(Fd, &NT, 4);
  writeAll(Fd, Ms.data(), Ms.size() * sizeof(double));
  writeStr(Fd, Clock);
  writeStr(Fd, TimeErr);
  _exit(0);
}

struct ChildOut {
  uint32_t Status = 2;
  std::string Message;
  std::vector<uint8_t> Rest;
};

Expected<ChildOut> runChild(const HipExecutorOptions &O,
                            const DispatchImage &Img, const ExecOptions &EO,
                            bool Probe, double Timeout) {
  int P[2];
  if (pipe(P) != 0)
    return createStringError("pipe failed");
  fflush(nullptr);
  pid_t Pid = fork();
  if (Pid < 0)
    return createStringError("fork failed");
  if (Pid == 0) {
    close(P[0]);
    child(P[1], O, Img, EO, Probe);
  }
  close(P[1]);
  std::vector<uint8_t> Buf;
  auto T0 = std::chrono::steady_clock::now();
  bool TimedOut = false;
  for (;;) {
    pollfd F{P[0], POLLIN, 0};
    int R = poll(&F, 1, 200);
    if (R > 0) {
      uint8_t B[65536];
      ssize_t N = read(P[0], B, sizeof B);
      if (N <= 0)
        break;
      Buf.insert(Buf.end(), B, B + N);
    }
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - T0)
            .count() > Timeout) {
      kill(Pid, SIGKILL);
      TimedOut = true;
      break;
    }
  }
  close(P[0]);
  int St = 0;
  waitpid(Pid, &St, 0);
  if (TimedOut)
    return createStringError(
        formatv("HIP executor: the dispatch did not finish within {0} s "
                "(child killed)",
                Timeout)
            .str());
  ChildOut Out;
  if (Buf.size() < 12)
    return createStringError(
        formatv("HIP executor: the child process died (status {0}) before "
                "reporting; the HIP runtime may have crashed",
                St)
            .str());
  std::memcpy(&Out.Status, Buf.data(), 4);
  uint64_t L;
  std::memcpy(&L, Buf.data() + 4, 8);
  if (12 + L > Buf.size())
    return createStringError("HIP executor: truncated report from the child");
  Out.Message.assign(reinterpret_cast<const char *>(Buf.data() + 12), L);
  Out.Rest.assign(Buf.begin() + 12 + L, Buf.end());
  return Out;
}

class HipExecutor : public Executor {
  HipExecutorOptions O;

public:
  HipExecutor(const HipExecutorOptions &O) : O(O) {}
  StringRef name() const override { return "hip"; }
  Expected<ExecResult> run(const DispatchImage &Img,
                           const ExecOptions &Opts) override {
    auto C = runChild(O, Img, Opts, false, Opts.TimeoutSeconds);
    if (!C)
      return C.takeError();
    if (C->Status == 2)
      return createStringError("HIP executor: " + C->Message);
    ExecResult R;
    if (C->Status == 1) {
      R.Kind = emu::ErrorKind::Fault;
      R.Message = "on the GPU: " + C->Message;
    }
    size_t Off = 0;
    for (const MemRegion &M : Img.Regions) {
      MemRegion Out = M;
      if (M.K == MemRegion::Buffer) {
        if (Off + M.Size > C->Rest.size())
          return createStringError("HIP executor: truncated memory from the child");
        Out.Data.assign(C->Rest.begin() + Off, C->Rest.begin() + Off + M.Size);
        Off += M.Size;
      }
      R.Regions.push_back(std::move(Out));
    }
    // The timing trailer.
    auto Take = [&](void *Dst, size_t N) {
      if (Off + N > C->Rest.size())
        return false;
      std::memcpy(Dst, C->Rest.data() + Off, N);
      Off += N;
      return true;
    };
    auto TakeStr = [&](std::string &S) {
      uint64_t L;
      if (!Take(&L, 8) || Off + L > C->Rest.size())
        return false;
      S.assign(reinterpret_cast<const char *>(C->Rest.data() + Off), L);
      Off += L;
      return true;
    };
    uint32_t NT = 0;
    std::string Clock, TimeErr;
    if (!Take(&NT, 4))
      return createStringError("HIP executor: truncated timing from the child");
    std::vector<double> Ms(NT);
    if (!Take(Ms.data(), NT * sizeof(double)) || !TakeStr(Clock) ||
        !TakeStr(TimeErr))
      return createStringError("HIP executor: truncated timing from the child");
    if (R.ok() && Opts.TimeReps) {
      if (!TimeErr.empty())
        return createStringError("HIP executor: timing failed: " + TimeErr);
      if (Ms.size() != Opts.TimeReps)
        return createStringError(
            formatv("HIP executor: {0} timed repetitions reported, {1} asked",
                    Ms.size(), Opts.TimeReps)
                .str());
      TimingStats T = summarizeTimes(Ms);
      T.Clock = Clock;
      T.Device = C->Message;
      T.Warmup = Opts.TimeWarmup;
      R.Timing = std::move(T);
    }
    return R;
  }
};

} // namespace

std::unique_ptr<Executor> createHipExecutor(const HipExecutorOptions &O) {
  return std::make_unique<HipExecutor>(O);
}

Expected<std::string> probeHip(const HipExecutorOptions &O) {
  DispatchImage None;
  auto C = runChild(O, None, ExecOptions(), true, 60);
  if (!C)
    return C.takeError();
  if (C->Status != 0)
    return createStringError(C->Message);
  return C->Message;
}

} // namespace verify
} // namespace asmevo
