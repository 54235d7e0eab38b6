//===- host_test.cpp - A host program using the HIP module API ------------===//
//
//   asmevo-capture-host-test CODEOBJ
//
// An ordinary HIP host program (module API, no ROCm headers: hip_api.h):
// loads the in-tree elementwise code object, runs axpy_f32 twice with
// kernelParams (the second launch reads the first one's result) and
// vadd_i32_gridstride with a packed `extra` kernarg buffer, copies the
// results back and checks them against the host. Linked against
// libamdhip64: the real runtime on a GPU machine, the test runtime
// (tools/capture/testrt.cpp) in the build. Exit 0 when the results match.
//
//===----------------------------------------------------------------------===//

#include "hip_api.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#define CHECK(X)                                                               \
  do {                                                                         \
    hipError_t E_ = (X);                                                       \
    if (E_ != hipSuccess) {                                                    \
      std::fprintf(stderr, "%s: %s\n", #X, hipGetErrorString(E_));             \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s elementwise-gfx942-v5.hsaco\n", argv[0]);
    return 2;
  }
  std::ifstream F(argv[1], std::ios::binary);
  std::vector<char> Image((std::istreambuf_iterator<char>(F)),
                          std::istreambuf_iterator<char>());
  if (Image.empty()) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  CHECK(hipInit(0));
  hipModule_t Mod;
  CHECK(hipModuleLoadData(&Mod, Image.data()));
  hipFunction_t Axpy, Vadd;
  CHECK(hipModuleGetFunction(&Axpy, Mod, "axpy_f32"));
  CHECK(hipModuleGetFunction(&Vadd, Mod, "vadd_i32_gridstride"));

  // axpy: y = a * x + y, twice.
  const int N = 1000;
  std::vector<float> X(N), Y(N), Ref(N);
  for (int I = 0; I < N; ++I) {
    X[I] = float(I % 17) * 0.25f - 2.0f;
    Y[I] = float(I % 5) - 1.5f;
  }
  float *DX, *DY;
  CHECK(hipMalloc(reinterpret_cast<void **>(&DX), N * sizeof(float)));
  CHECK(hipMalloc(reinterpret_cast<void **>(&DY), N * sizeof(float)));
  CHECK(hipMemcpy(DX, X.data(), N * sizeof(float), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(DY, Y.data(), N * sizeof(float), hipMemcpyHostToDevice));
  int Count = N;
  float A = 1.75f;
  void *Args[] = {&Count, &A, &DX, &DY};
  for (int Rep = 0; Rep < 2; ++Rep)
    CHECK(hipModuleLaunchKernel(Axpy, (N + 255) / 256, 1, 1, 256, 1, 1, 0,
                                nullptr, Args, nullptr));
  CHECK(hipDeviceSynchronize());
  CHECK(hipMemcpy(Ref.data(), DY, N * sizeof(float), hipMemcpyDeviceToHost));
  for (int I = 0; I < N; ++I) {
    float E = std::fma(A, X[I], std::fma(A, X[I], Y[I]));
    if (std::memcmp(&E, &Ref[I], 4) != 0) {
      std::fprintf(stderr, "axpy_f32: y[%d] = %g, expected %g\n", I, Ref[I], E);
      return 1;
    }
  }

  // vadd_i32_gridstride(int n, const int *a, const int *b, int *out) with
  // the kernarg packed by the host (HIP_LAUNCH_PARAM_BUFFER_POINTER).
  const int M = 3000;
  std::vector<int> VA(M), VB(M), VO(M);
  for (int I = 0; I < M; ++I) {
    VA[I] = I * 7 - 1000;
    VB[I] = 123456 - I * I;
  }
  int *DA, *DB, *DO;
  CHECK(hipMalloc(reinterpret_cast<void **>(&DA), M * sizeof(int)));
  CHECK(hipMalloc(reinterpret_cast<void **>(&DB), M * sizeof(int)));
  CHECK(hipMalloc(reinterpret_cast<void **>(&DO), M * sizeof(int)));
  CHECK(hipMemcpy(DA, VA.data(), M * sizeof(int), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(DB, VB.data(), M * sizeof(int), hipMemcpyHostToDevice));
  CHECK(hipMemset(DO, 0, M * sizeof(int)));
  struct {
    int N;
    int Pad;
    int *A, *B, *Out;
  } Packed = {M, 0, DA, DB, DO};
  size_t Size = sizeof Packed;
  void *Extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &Packed,
                   HIP_LAUNCH_PARAM_BUFFER_SIZE, &Size, HIP_LAUNCH_PARAM_END};
  CHECK(hipModuleLaunchKernel(Vadd, 4, 1, 1, 128, 1, 1, 0, nullptr, nullptr,
                              Extra));
  CHECK(hipMemcpy(VO.data(), DO, M * sizeof(int), hipMemcpyDeviceToHost));
  for (int I = 0; I < M; ++I)
    if (VO[I] != VA[I] + VB[I]) {
      std::fprintf(stderr, "vadd: out[%d] = %d, expected %d\n", I, VO[I],
                   VA[I] + VB[I]);
      return 1;
    }
  for (void *P : {(void *)DX, (void *)DY, (void *)DA, (void *)DB, (void *)DO})
    CHECK(hipFree(P));
  CHECK(hipModuleUnload(Mod));
  std::printf("host test: axpy_f32 x2 and vadd_i32_gridstride results match\n");
  return 0;
}
