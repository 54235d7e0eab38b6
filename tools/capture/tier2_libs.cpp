//===- tier2_libs.cpp - Real ROCm host libraries on a HIP runtime ---------===//
//
//   asmevo-tier2-libs [--rocsparse LIB] [--rocrand LIB] [--fatbin CODEOBJ]
//
// A host program that calls real, hipcc-built ROCm libraries (Debian's
// librocsparse.so.0 of ROCm 5.3, librocrand.so.1) and checks every result
// against a host computation, so that their dispatches, whose arguments
// agree with each other (a CSR matrix with its sizes), can be captured and
// trusted. The libraries are opened with dlopen and the HIP entry points
// are looked up in them, so nothing of ROCm is needed to build this and the
// same binary runs on a real GPU; in the build it runs on the test HIP
// runtime (LD_LIBRARY_PATH=<build>/lib/asmevo-testrt, which provides
// libamdhip64.so.5/.7 and, with ASMEVO_TESTRT_CAPTURE_DIR, writes a capture
// per dispatch): see utils/tier2-real.sh.
//
// --fatbin CODEOBJ needs no ROCm library: it plays a hipcc-built library
// itself (an offload bundle with the code object registered through
// __hipRegisterFatBinary, a host stub through __hipRegisterFunction, and
// a kernel<<<>>> launch of axpy_f32 from the in-tree elementwise object as
// push/pop call configuration + hipLaunchKernel) to test that path.
//
// Exit 0 when every check passes, 1 on a wrong result or a failed call,
// 2 on bad usage or a library that cannot be loaded.
//
//===----------------------------------------------------------------------===//

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

typedef int hipError_t;
struct Dim3 {
  uint32_t X, Y, Z;
};

// HIP entry points, from the library's own dependency scope.
struct Hip {
  hipError_t (*Malloc)(void **, size_t);
  hipError_t (*Free)(void *);
  hipError_t (*Memcpy)(void *, const void *, size_t, int);
  void **(*RegisterFatBinary)(const void *);
  void (*RegisterFunction)(void **, const void *, char *, const char *,
                           unsigned, void *, void *, Dim3 *, Dim3 *, int *);
  hipError_t (*PushCall)(Dim3, Dim3, size_t, void *);
  hipError_t (*PopCall)(Dim3 *, Dim3 *, size_t *, void **);
  hipError_t (*LaunchKernel)(const void *, Dim3, Dim3, void **, size_t, void *);
};
const int H2D = 1, D2H = 2;

int Failures = 0;

void fail(const char *What) {
  std::fprintf(stderr, "FAIL: %s\n", What);
  ++Failures;
}

template <typename T> bool sym(void *Lib, const char *Name, T &Out) {
  Out = reinterpret_cast<T>(dlsym(Lib, Name));
  if (!Out)
    std::fprintf(stderr, "asmevo-tier2-libs: no %s: %s\n", Name, dlerror());
  return Out != nullptr;
}

/// The HIP entry points as the library itself binds them: from the global
/// scope (Lib was opened RTLD_GLOBAL), so that an LD_PRELOAD interposer
/// sees this program's allocations and launches too.
bool loadHip(void *Lib, Hip &H) {
  void *G = RTLD_DEFAULT;
  return Lib && sym(G, "hipMalloc", H.Malloc) && sym(G, "hipFree", H.Free) &&
         sym(G, "hipMemcpy", H.Memcpy) &&
         sym(G, "__hipRegisterFatBinary", H.RegisterFatBinary) &&
         sym(G, "__hipRegisterFunction", H.RegisterFunction) &&
         sym(G, "__hipPushCallConfiguration", H.PushCall) &&
         sym(G, "__hipPopCallConfiguration", H.PopCall) &&
         sym(G, "hipLaunchKernel", H.LaunchKernel);
}

void *open(const char *Path) {
  // RTLD_GLOBAL: an LD_PRELOAD interposer (libasmevo-capture.so) finds the
  // HIP runtime, a dependency of the library, with dlsym(RTLD_NEXT).
  void *L = dlopen(Path, RTLD_NOW | RTLD_GLOBAL);
  if (!L)
    std::fprintf(stderr, "asmevo-tier2-libs: cannot load %s: %s\n", Path,
                 dlerror());
  return L;
}

template <typename T> T *toDevice(const Hip &H, const std::vector<T> &V) {
  void *P = nullptr;
  if (H.Malloc(&P, V.size() * sizeof(T)) ||
      H.Memcpy(P, V.data(), V.size() * sizeof(T), H2D))
    return nullptr;
  return static_cast<T *>(P);
}

template <typename T>
std::vector<T> fromDevice(const Hip &H, const T *P, size_t N) {
  std::vector<T> V(N);
  if (H.Memcpy(V.data(), P, N * sizeof(T), D2H))
    fail("hipMemcpy device to host");
  return V;
}

//===-- rocSPARSE (ROCm 5.3 C API: rocsparse-functions.h) -----------------===//

typedef void *Handle;
typedef void *MatDescr;
const int OperationNone = 111, IndexBaseZero = 0, ActionNumeric = 1;

/// A CSR matrix with small-integer values, so every float/double sum is
/// exact whatever the order of the kernel's additions. Rows of MinLen..MaxLen
/// entries (consecutive columns from a random start); every LongEvery-th row
/// (from row 7) has LongLen + row entries, row 11 is full and every 7th row
/// from row 3 empty when Holes is set.
struct CsrShape {
  int M, N, MinLen, MaxLen, LongEvery, LongLen;
  bool Holes;
};
// Pairs of matrices whose average row length falls in the same bucket
// (rocSPARSE 5.3's csrmvn_general picks its rows-per-wavefront variant from
// nnz / m), one or many workgroups, and long rows for the adaptive and
// segmented kernels.
const CsrShape Shapes[] = {
    {37, 29, 1, 6, 0, 0, true},         {900, 300, 0, 6, 0, 0, false},
    {1500, 200, 0, 47, 0, 0, false},    {120, 100, 16, 30, 0, 0, true},
    {300, 5000, 0, 8, 50, 2000, false}, {2000, 3000, 32, 60, 400, 1500, false},
};

// Small matrices for csr2csc alone: rocPRIM sorts the (column, position)
// pairs in one workgroup when there are few, sort_single_kernel<64, 3> for
// 129..192 pairs and <256, 12> for 2561..3072, over as many key bits as
// the column count needs; these give those two kernels other sizes (129,
// about 150, 192; about 2700, 3072) and bit ranges than the six above,
// which reach each of them once or twice.
const CsrShape SortShapes[] = {
    {43, 64, 3, 3, 0, 0, false},     {30, 7, 4, 6, 0, 0, false},
    {60, 1000, 2, 3, 0, 0, false},   {64, 3, 3, 3, 0, 0, false},
    {300, 2000, 8, 10, 0, 0, false}, {512, 9, 6, 6, 0, 0, false},
};

// Two full rows of 70000 entries for coomv: rocSPARSE's segmented COO
// kernel leaves one carry per workgroup of about 512 entries, so each row
// spans over 128 consecutive carries, which the single-workgroup reduction
// adds up in its steps of 32, 64 and 128 (the six matrices above give runs
// of at most 5); and for the analysed csrmv, whose adaptive row blocks
// split a row that long over several workgroups.
const CsrShape LongRows = {2, 70000, 70000, 70000, 0, 0, false};

// For the analysed csrmv only: rows of 150 + r entries every 50th row from
// row 7, between rows of at most 8. A row over 128 entries followed by one
// under 32 closes a one-row block (csrmv_analysis' row blocks), which
// csrmvn_adaptive computes on its CSR-Vector path; rows 7 and 57 give it
// 157 and 207 entries, fewer than the workgroup's 256 lanes (the six shapes
// above give it only rows of over 1024).
const CsrShape ShortVectorRows = {300, 5000, 0, 8, 50, 150, false};

// For coomv only: rows of exactly 128 entries, so rows start at positions
// 0 and 128 of each 256-entry chunk of coomvn_segmented_loops, and the
// segmented scan's last step (128) compares a row's last entry with the
// entry just before the row.
const CsrShape Rows128 = {12, 1000, 128, 128, 0, 0, false};

// For csr2coo only: 4..7 and 8..15 entries per row, so that
// csr2coo_kernel<512, 4> and <512, 8> (nnz / m picks the lanes per row)
// take several grid-stride steps (row += gridDim.x * 512 / WF_SIZE, and
// rocSPARSE 5.3 launches only (m - 1) / 512 + 1 workgroups), with one and
// with three workgroups, so that a wrong gridDim.x skips rows.
const CsrShape CooStrideShapes[] = {{300, 400, 4, 7, 0, 0, false},
                                    {1100, 400, 4, 7, 0, 0, false},
                                    {1100, 400, 8, 15, 0, 0, false}};

struct Csr {
  int M, N;
  std::vector<int> RowPtr, Col;
  std::vector<double> Val;
  explicit Csr(const CsrShape &S, unsigned Seed) : M(S.M), N(S.N) {
    uint32_t Rng = 12345u + 77u * Seed;
    auto next = [&] { return (Rng = Rng * 1664525u + 1013904223u) >> 8; };
    RowPtr.push_back(0);
    for (int R = 0; R < M; ++R) {
      int Len = S.MinLen + int(next() % uint32_t(S.MaxLen - S.MinLen + 1));
      if (S.LongEvery && R % S.LongEvery == 7)
        Len = S.LongLen + R;
      if (S.Holes && R % 7 == 3)
        Len = 0;
      if (S.Holes && R == 11)
        Len = N;
      Len = std::min(Len, N);
      int Start = int(next() % uint32_t(N - Len + 1));
      for (int K = 0; K < Len; ++K) {
        Col.push_back(Start + K);
        Val.push_back(double((R + 2 * K + int(next() % 3)) % 9) - 4);
      }
      RowPtr.push_back(int(Col.size()));
    }
  }
  int nnz() const { return int(Col.size()); }
  std::string name() const {
    return std::to_string(M) + "x" + std::to_string(N) + ", " +
           std::to_string(nnz()) + " nnz";
  }
};

template <typename T>
void checkVector(const char *What, const std::vector<T> &Got,
                 const std::vector<double> &Want) {
  for (size_t I = 0; I < Want.size(); ++I)
    if (double(Got[I]) != Want[I]) {
      std::fprintf(stderr, "FAIL: %s: [%zu] = %.17g, expected %.17g\n", What, I,
                   double(Got[I]), Want[I]);
      ++Failures;
      return;
    }
  std::printf("ok: %s (%zu values)\n", What, Want.size());
}

/// Scalars of y = Alpha A x + Beta y (exact in float for the test data).
struct Scalars {
  double Alpha, Beta;
};

/// Host reference of y = Alpha A x + Beta y; y is not read when Beta == 0
/// (BLAS convention, which rocSPARSE follows: y may hold NaN then).
std::vector<double> reference(const Csr &A, const std::vector<double> &X,
                              const std::vector<double> &Y, Scalars C) {
  std::vector<double> Want(A.M);
  for (int R = 0; R < A.M; ++R) {
    double S = 0;
    for (int K = A.RowPtr[R]; K < A.RowPtr[R + 1]; ++K)
      S += A.Val[K] * X[A.Col[K]];
    Want[R] = C.Alpha * S + (C.Beta == 0 ? 0 : C.Beta * Y[R]);
  }
  return Want;
}

/// What y holds before a call: the usual small integers, NaN everywhere
/// (only with beta == 0, where y must not be read) or zeros (with a
/// denormal alpha, so that alpha * A x is exact and not lost in y).
enum class YFill { Ints, NaN, Zero };

std::string label(const char *Fn, const Csr &A, Scalars C,
                  const char *Extra = "") {
  char B[64];
  std::snprintf(B, sizeof B, ", alpha %g, beta %g", C.Alpha, C.Beta);
  return std::string(Fn) + Extra + " (" + A.name() + B + ")";
}

/// rocsparse_[sd]csrmv; with Analysis, after rocsparse_[sd]csrmv_analysis
/// into a mat_info (the adaptive kernels, whose row blocks must agree with
/// the matrix).
template <typename T>
void csrmv(void *Lib, const Hip &H, Handle Hd, MatDescr D, const Csr &A,
           Scalars C, const char *Fn, const char *Analysis = nullptr,
           YFill Fill = YFill::Ints) {
  typedef int (*CsrmvFn)(Handle, int, int, int, int, const T *, MatDescr,
                         const T *, const int *, const int *, void *, const T *,
                         const T *, T *);
  typedef int (*AnalysisFn)(Handle, int, int, int, int, MatDescr, const T *,
                            const int *, const int *, void *);
  CsrmvFn F;
  AnalysisFn FA = nullptr;
  int (*CreateInfo)(void **) = nullptr, (*DestroyInfo)(void *) = nullptr;
  if (!sym(Lib, Fn, F) ||
      (Analysis && (!sym(Lib, Analysis, FA) ||
                    !sym(Lib, "rocsparse_create_mat_info", CreateInfo) ||
                    !sym(Lib, "rocsparse_destroy_mat_info", DestroyInfo))))
    return fail(Fn);
  std::string What = label(Fn, A, C,
                           Analysis              ? " analysed"
                           : Fill == YFill::NaN  ? " y NaN"
                           : Fill == YFill::Zero ? " y 0"
                                                 : "");
  std::vector<T> Val(A.Val.begin(), A.Val.end()), X(A.N), Y(A.M);
  std::vector<double> XD(A.N), YD(A.M);
  for (int I = 0; I < A.N; ++I)
    X[I] = T(XD[I] = (I * 3) % 5 - 2);
  for (int I = 0; I < A.M; ++I)
    Y[I] = T(YD[I] = Fill == YFill::NaN    ? NAN
                     : Fill == YFill::Zero ? 0
                                           : I % 4);
  T *DVal = toDevice(H, Val), *DX = toDevice(H, X), *DY = toDevice(H, Y);
  int *DRow = toDevice(H, A.RowPtr), *DCol = toDevice(H, A.Col);
  if (!DVal || !DX || !DY || !DRow || !DCol)
    return fail("device buffers");
  T Alpha = T(C.Alpha), Beta = T(C.Beta);
  void *Info = nullptr;
  if (Analysis && (CreateInfo(&Info) || FA(Hd, OperationNone, A.M, A.N, A.nnz(),
                                           D, DVal, DRow, DCol, Info)))
    return fail(Analysis);
  if (int S = F(Hd, OperationNone, A.M, A.N, A.nnz(), &Alpha, D, DVal, DRow,
                DCol, Info, DX, &Beta, DY)) {
    std::fprintf(stderr, "FAIL: %s returned status %d\n", What.c_str(), S);
    ++Failures;
  } else {
    checkVector(What.c_str(), fromDevice(H, DY, A.M), reference(A, XD, YD, C));
  }
  if (Info)
    DestroyInfo(Info);
  for (void *P :
       {(void *)DVal, (void *)DX, (void *)DY, (void *)DRow, (void *)DCol})
    H.Free(P);
}

/// rocsparse_sellmv on the matrix in ELL form (column major, width = the
/// longest row, padding column -1), built on the host.
void ellmv(void *Lib, const Hip &H, Handle Hd, MatDescr D, const Csr &A,
           Scalars C) {
  int (*F)(Handle, int, int, int, const float *, MatDescr, const float *,
           const int *, int, const float *, const float *, float *);
  if (!sym(Lib, "rocsparse_sellmv", F))
    return fail("rocsparse_sellmv");
  int W = 0;
  for (int R = 0; R < A.M; ++R)
    W = std::max(W, A.RowPtr[R + 1] - A.RowPtr[R]);
  std::vector<float> Val(size_t(A.M) * W, 0), X(A.N), Y(A.M);
  std::vector<int> Col(size_t(A.M) * W, -1);
  for (int R = 0; R < A.M; ++R)
    for (int K = A.RowPtr[R]; K < A.RowPtr[R + 1]; ++K) {
      size_t I = size_t(K - A.RowPtr[R]) * A.M + R;
      Val[I] = float(A.Val[K]);
      Col[I] = A.Col[K];
    }
  std::vector<double> XD(A.N), YD(A.M);
  for (int I = 0; I < A.N; ++I)
    X[I] = float(XD[I] = I % 7 - 3);
  for (int I = 0; I < A.M; ++I)
    Y[I] = float(YD[I] = I % 5);
  float *DVal = toDevice(H, Val), *DX = toDevice(H, X), *DY = toDevice(H, Y);
  int *DCol = toDevice(H, Col);
  if (!DVal || !DX || !DY || !DCol)
    return fail("device buffers");
  float Alpha = float(C.Alpha), Beta = float(C.Beta);
  std::string What = label("rocsparse_sellmv", A, C);
  if (int S = F(Hd, OperationNone, A.M, A.N, &Alpha, D, DVal, DCol, W, DX,
                &Beta, DY)) {
    std::fprintf(stderr, "FAIL: %s returned status %d\n", What.c_str(), S);
    ++Failures;
  } else {
    checkVector(What.c_str(), fromDevice(H, DY, A.M), reference(A, XD, YD, C));
  }
  for (void *P : {(void *)DVal, (void *)DX, (void *)DY, (void *)DCol})
    H.Free(P);
}

/// rocsparse_csr2coo (the row index of every non-zero), then
/// rocsparse_scoomv on the converted matrix.
void coo(void *Lib, const Hip &H, Handle Hd, MatDescr D, const Csr &A,
         Scalars C) {
  int (*Csr2coo)(Handle, const int *, int, int, int *, int);
  int (*Scoomv)(Handle, int, int, int, int, const float *, MatDescr,
                const float *, const int *, const int *, const float *,
                const float *, float *);
  if (!sym(Lib, "rocsparse_csr2coo", Csr2coo) ||
      !sym(Lib, "rocsparse_scoomv", Scoomv))
    return fail("rocsparse_csr2coo/scoomv");
  int *DRow = toDevice(H, A.RowPtr);
  std::vector<int> Minus(A.nnz(), -1);
  int *DCoo = toDevice(H, Minus);
  std::vector<float> Val(A.Val.begin(), A.Val.end()), X(A.N), Y(A.M);
  std::vector<double> XD(A.N), YD(A.M);
  for (int I = 0; I < A.N; ++I)
    X[I] = float(XD[I] = I % 3 - 1);
  for (int I = 0; I < A.M; ++I)
    Y[I] = float(YD[I] = 2 * (I % 3));
  float *DVal = toDevice(H, Val), *DX = toDevice(H, X), *DY = toDevice(H, Y);
  int *DCol = toDevice(H, A.Col);
  if (!DRow || !DCoo || !DVal || !DX || !DY || !DCol)
    return fail("device buffers");
  std::string What = "rocsparse_csr2coo (" + A.name() + ")";
  if (int S = Csr2coo(Hd, DRow, A.nnz(), A.M, DCoo, IndexBaseZero)) {
    std::fprintf(stderr, "FAIL: %s returned status %d\n", What.c_str(), S);
    ++Failures;
    return;
  }
  std::vector<double> Rows;
  for (int R = 0; R < A.M; ++R)
    for (int K = A.RowPtr[R]; K < A.RowPtr[R + 1]; ++K)
      Rows.push_back(R);
  checkVector(What.c_str(), fromDevice(H, DCoo, A.nnz()), Rows);
  float Alpha = float(C.Alpha), Beta = float(C.Beta);
  What = label("rocsparse_scoomv", A, C);
  if (int S = Scoomv(Hd, OperationNone, A.M, A.N, A.nnz(), &Alpha, D, DVal,
                     DCoo, DCol, DX, &Beta, DY)) {
    std::fprintf(stderr, "FAIL: %s returned status %d\n", What.c_str(), S);
    ++Failures;
  } else {
    checkVector(What.c_str(), fromDevice(H, DY, A.M), reference(A, XD, YD, C));
  }
  for (void *P : {(void *)DRow, (void *)DCoo, (void *)DVal, (void *)DX,
                  (void *)DY, (void *)DCol})
    H.Free(P);
}

/// rocsparse_scsrmm: C = alpha A B + beta C with column-major B (k x n, ldb
/// = k + 3) and C (m x n, ldc = m + 5); the padding rows must stay as
/// they were.
void csrmm(void *Lib, const Hip &H, Handle Hd, MatDescr D, const Csr &A,
           Scalars C, int N) {
  int (*F)(Handle, int, int, int, int, int, int, const float *, MatDescr,
           const float *, const int *, const int *, const float *, int,
           const float *, float *, int);
  if (!sym(Lib, "rocsparse_scsrmm", F))
    return fail("rocsparse_scsrmm");
  int Ldb = A.N + 3, Ldc = A.M + 5;
  std::vector<float> Val(A.Val.begin(), A.Val.end()), B(size_t(Ldb) * N),
      Cm(size_t(Ldc) * N);
  for (size_t I = 0; I < B.size(); ++I)
    B[I] = float(int(I * 7 % 5) - 2);
  for (size_t I = 0; I < Cm.size(); ++I)
    Cm[I] = float(int(I % 3));
  float *DVal = toDevice(H, Val), *DB = toDevice(H, B), *DC = toDevice(H, Cm);
  int *DRow = toDevice(H, A.RowPtr), *DCol = toDevice(H, A.Col);
  if (!DVal || !DB || !DC || !DRow || !DCol)
    return fail("device buffers");
  float Alpha = float(C.Alpha), Beta = float(C.Beta);
  std::string What =
      label("rocsparse_scsrmm", A, C, (" n " + std::to_string(N)).c_str());
  if (int S = F(Hd, OperationNone, OperationNone, A.M, N, A.N, A.nnz(), &Alpha,
                D, DVal, DRow, DCol, DB, Ldb, &Beta, DC, Ldc)) {
    std::fprintf(stderr, "FAIL: %s returned status %d\n", What.c_str(), S);
    ++Failures;
  } else {
    std::vector<double> Want(Cm.begin(), Cm.end());
    for (int J = 0; J < N; ++J)
      for (int R = 0; R < A.M; ++R) {
        double Sum = 0;
        for (int K = A.RowPtr[R]; K < A.RowPtr[R + 1]; ++K)
          Sum += A.Val[K] * B[size_t(J) * Ldb + A.Col[K]];
        Want[size_t(J) * Ldc + R] =
            C.Alpha * Sum + C.Beta * Cm[size_t(J) * Ldc + R];
      }
    checkVector(What.c_str(), fromDevice(H, DC, Cm.size()), Want);
  }
  for (void *P :
       {(void *)DVal, (void *)DB, (void *)DC, (void *)DRow, (void *)DCol})
    H.Free(P);
}

/// rocsparse_spmm (generic API, CSR, default algorithm) with row-major B
/// and C and op(B) = B^T: rocSPARSE 5.3's csrmm_template_general sends
/// order row with trans_B transpose to csrmmnn_general_kernel, whose
/// row-major C stores rocsparse_scsrmm (column-major only) never reaches.
/// B is n x k (ldb = k + 3), C is m x n (ldc = n + 2); the padding columns
/// must stay as they were.
void spmmRowMajor(void *Lib, const Hip &H, Handle Hd, const Csr &A, Scalars C,
                  int N) {
  typedef void *SpMat, *DnMat;
  int (*CreateCsr)(SpMat *, int64_t, int64_t, int64_t, void *, void *, void *,
                   int, int, int, int);
  int (*CreateDn)(DnMat *, int64_t, int64_t, int64_t, void *, int, int);
  int (*DestroySp)(SpMat), (*DestroyDn)(DnMat);
  int (*Spmm)(Handle, int, int, const void *, SpMat, DnMat, const void *, DnMat,
              int, int, int, size_t *, void *);
  if (!sym(Lib, "rocsparse_create_csr_descr", CreateCsr) ||
      !sym(Lib, "rocsparse_create_dnmat_descr", CreateDn) ||
      !sym(Lib, "rocsparse_destroy_spmat_descr", DestroySp) ||
      !sym(Lib, "rocsparse_destroy_dnmat_descr", DestroyDn) ||
      !sym(Lib, "rocsparse_spmm", Spmm))
    return fail("rocsparse_spmm");
  // rocsparse-types.h (5.3): indextype i32 2, datatype f32_r 151, order row
  // 0, operation transpose 112, spmm_alg_default 0, stages buffer_size 1
  // and compute 3.
  const int I32 = 2, F32 = 151, OrderRow = 0, OpTranspose = 112,
            StageBufferSize = 1, StageCompute = 3;
  int K = A.N, Ldb = K + 3, Ldc = N + 2;
  std::vector<float> Val(A.Val.begin(), A.Val.end()), B(size_t(Ldb) * N),
      Cm(size_t(Ldc) * A.M);
  for (size_t I = 0; I < B.size(); ++I)
    B[I] = float(int(I * 5 % 7) - 3);
  for (size_t I = 0; I < Cm.size(); ++I)
    Cm[I] = float(int(I % 4) - 1);
  float *DVal = toDevice(H, Val), *DB = toDevice(H, B), *DC = toDevice(H, Cm);
  int *DRow = toDevice(H, A.RowPtr), *DCol = toDevice(H, A.Col);
  if (!DVal || !DB || !DC || !DRow || !DCol)
    return fail("device buffers");
  SpMat MA = nullptr;
  DnMat MB = nullptr, MC = nullptr;
  if (CreateCsr(&MA, A.M, A.N, A.nnz(), DRow, DCol, DVal, I32, I32,
                IndexBaseZero, F32) ||
      CreateDn(&MB, N, K, Ldb, DB, F32, OrderRow) ||
      CreateDn(&MC, A.M, N, Ldc, DC, F32, OrderRow))
    return fail("rocsparse_create_csr_descr / rocsparse_create_dnmat_descr");
  float Alpha = float(C.Alpha), Beta = float(C.Beta);
  std::string What = label("rocsparse_spmm row-major, B^T", A, C,
                           (" n " + std::to_string(N)).c_str());
  size_t Bytes = 0;
  void *Buf = nullptr;
  if (Spmm(Hd, OperationNone, OpTranspose, &Alpha, MA, MB, &Beta, MC, F32, 0,
           StageBufferSize, &Bytes, nullptr) ||
      H.Malloc(&Buf, Bytes ? Bytes : 4))
    return fail("rocsparse_spmm buffer size");
  if (int S = Spmm(Hd, OperationNone, OpTranspose, &Alpha, MA, MB, &Beta, MC,
                   F32, 0, StageCompute, &Bytes, Buf)) {
    std::fprintf(stderr, "FAIL: %s returned status %d\n", What.c_str(), S);
    ++Failures;
  } else {
    std::vector<double> Want(Cm.begin(), Cm.end());
    for (int R = 0; R < A.M; ++R)
      for (int J = 0; J < N; ++J) {
        double Sum = 0;
        for (int E = A.RowPtr[R]; E < A.RowPtr[R + 1]; ++E)
          Sum += A.Val[E] * B[size_t(J) * Ldb + A.Col[E]];
        double Old = Cm[size_t(R) * Ldc + J];
        Want[size_t(R) * Ldc + J] =
            C.Alpha * Sum + (C.Beta == 0 ? 0 : C.Beta * Old);
      }
    checkVector(What.c_str(), fromDevice(H, DC, Cm.size()), Want);
  }
  DestroySp(MA);
  DestroyDn(MB);
  DestroyDn(MC);
  for (void *P :
       {(void *)DVal, (void *)DB, (void *)DC, (void *)DRow, (void *)DCol, Buf})
    H.Free(P);
}

/// rocsparse_csr2csc_buffer_size + rocsparse_scsr2csc (numeric): column
/// pointers, row indices sorted within each column, values along.
void csr2csc(void *Lib, const Hip &H, Handle Hd, const Csr &A) {
  int (*Size)(Handle, int, int, int, const int *, const int *, int, size_t *);
  int (*F)(Handle, int, int, int, const float *, const int *, const int *,
           float *, int *, int *, int, int, void *);
  if (!sym(Lib, "rocsparse_csr2csc_buffer_size", Size) ||
      !sym(Lib, "rocsparse_scsr2csc", F))
    return fail("rocsparse_scsr2csc");
  std::vector<float> Val(A.Val.begin(), A.Val.end());
  std::vector<int> ColPtr0(A.N + 1, -1), RowInd0(A.nnz(), -1);
  float *DVal = toDevice(H, Val), *DCscVal = toDevice(H, Val);
  int *DRow = toDevice(H, A.RowPtr), *DCol = toDevice(H, A.Col),
      *DColPtr = toDevice(H, ColPtr0), *DRowInd = toDevice(H, RowInd0);
  if (!DVal || !DCscVal || !DRow || !DCol || !DColPtr || !DRowInd)
    return fail("device buffers");
  std::string What = "rocsparse_scsr2csc (" + A.name() + ")";
  size_t Bytes = 0;
  void *Buf = nullptr;
  if (Size(Hd, A.M, A.N, A.nnz(), DRow, DCol, ActionNumeric, &Bytes) ||
      H.Malloc(&Buf, Bytes ? Bytes : 4))
    return fail("rocsparse_csr2csc_buffer_size");
  if (int S = F(Hd, A.M, A.N, A.nnz(), DVal, DRow, DCol, DCscVal, DRowInd,
                DColPtr, ActionNumeric, IndexBaseZero, Buf)) {
    std::fprintf(stderr, "FAIL: %s returned status %d\n", What.c_str(), S);
    ++Failures;
  } else {
    std::vector<double> Ptr(A.N + 1, 0), Rows(A.nnz()), Vals(A.nnz());
    for (int C : A.Col)
      ++Ptr[C + 1];
    for (int C = 0; C < A.N; ++C)
      Ptr[C + 1] += Ptr[C];
    std::vector<double> Next(Ptr.begin(), Ptr.end() - 1);
    for (int R = 0; R < A.M; ++R)
      for (int K = A.RowPtr[R]; K < A.RowPtr[R + 1]; ++K) {
        size_t At = size_t(Next[A.Col[K]]++);
        Rows[At] = R;
        Vals[At] = A.Val[K];
      }
    checkVector((What + " column pointers").c_str(),
                fromDevice(H, DColPtr, A.N + 1), Ptr);
    checkVector((What + " row indices").c_str(),
                fromDevice(H, DRowInd, A.nnz()), Rows);
    checkVector((What + " values").c_str(), fromDevice(H, DCscVal, A.nnz()),
                Vals);
  }
  for (void *P : {(void *)DVal, (void *)DCscVal, (void *)DRow, (void *)DCol,
                  (void *)DColPtr, (void *)DRowInd, Buf})
    H.Free(P);
}

void rocsparse(const char *Path) {
  void *Lib = open(Path);
  Hip H;
  if (!Lib || !loadHip(Lib, H))
    std::exit(2);
  int (*CreateHandle)(Handle *), (*DestroyHandle)(Handle);
  int (*CreateDescr)(MatDescr *), (*DestroyDescr)(MatDescr);
  if (!sym(Lib, "rocsparse_create_handle", CreateHandle) ||
      !sym(Lib, "rocsparse_destroy_handle", DestroyHandle) ||
      !sym(Lib, "rocsparse_create_mat_descr", CreateDescr) ||
      !sym(Lib, "rocsparse_destroy_mat_descr", DestroyDescr))
    std::exit(2);
  Handle Hd = nullptr;
  MatDescr D = nullptr;
  if (CreateHandle(&Hd) || CreateDescr(&D))
    return fail("rocsparse_create_handle / rocsparse_create_mat_descr");
  // Each routine on several matrices and scalars, so that every kernel is
  // captured on unlike dispatches (one or many workgroups, long rows, beta
  // zero or not).
  const Scalars Cs[] = {{2, -1}, {1, 1}, {1, 0}, {-1, 2}, {-3, 0.5}, {2, 0}};
  for (unsigned I = 0; I < std::size(Shapes); ++I) {
    Csr A(Shapes[I], I);
    Scalars C = Cs[I];
    csrmv<float>(Lib, H, Hd, D, A, C, "rocsparse_scsrmv");
    csrmv<double>(Lib, H, Hd, D, A, C, "rocsparse_dcsrmv");
    csrmv<float>(Lib, H, Hd, D, A, C, "rocsparse_scsrmv",
                 "rocsparse_scsrmv_analysis");
    csrmv<double>(Lib, H, Hd, D, A, C, "rocsparse_dcsrmv",
                  "rocsparse_dcsrmv_analysis");
    ellmv(Lib, H, Hd, D, A, C);
    coo(Lib, H, Hd, D, A, C);
    csrmm(Lib, H, Hd, D, A, C, 3 + int(I));
    csr2csc(Lib, H, Hd, A);
    // csrmvn_general's beta == 0 path must not read y (NaN here), and its
    // alpha == 0 && beta == 1 quick return must not fire for the smallest
    // denormal alpha, whose products are exact with y = 0.
    csrmv<double>(Lib, H, Hd, D, A, {C.Alpha, 0}, "rocsparse_dcsrmv", nullptr,
                  YFill::NaN);
    csrmv<float>(Lib, H, Hd, D, A, {0x1p-149, 1}, "rocsparse_scsrmv", nullptr,
                 YFill::Zero);
    csrmv<double>(Lib, H, Hd, D, A, {0x1p-1074, 1}, "rocsparse_dcsrmv", nullptr,
                  YFill::Zero);
  }
  Csr Long(LongRows, 200);
  coo(Lib, H, Hd, D, Long, {2, -1});
  csrmv<float>(Lib, H, Hd, D, Long, {-1, 2}, "rocsparse_scsrmv",
               "rocsparse_scsrmv_analysis");
  csrmv<double>(Lib, H, Hd, D, Long, {-1, 2}, "rocsparse_dcsrmv",
                "rocsparse_dcsrmv_analysis");
  coo(Lib, H, Hd, D, Csr(Rows128, 202), {1, 1});
  for (unsigned I = 0; I < std::size(CooStrideShapes); ++I)
    coo(Lib, H, Hd, D, Csr(CooStrideShapes[I], 203 + I), {1, 1});
  spmmRowMajor(Lib, H, Hd, Csr(Shapes[0], 0), {2, 0}, 5);
  spmmRowMajor(Lib, H, Hd, Csr(Shapes[3], 3), {-1, 0}, 9);
  spmmRowMajor(Lib, H, Hd, Csr(Shapes[3], 3), {1, 2}, 4);
  Csr Short(ShortVectorRows, 201);
  csrmv<float>(Lib, H, Hd, D, Short, {3, -2}, "rocsparse_scsrmv",
               "rocsparse_scsrmv_analysis");
  csrmv<double>(Lib, H, Hd, D, Short, {3, -2}, "rocsparse_dcsrmv",
                "rocsparse_dcsrmv_analysis");
  for (unsigned I = 0; I < std::size(SortShapes); ++I)
    csr2csc(Lib, H, Hd, Csr(SortShapes[I], 100 + I));
  DestroyDescr(D);
  DestroyHandle(Hd);
}

//===-- rocRAND (rocrand.h)
//------------------------------------------------===//

const int RngPhilox = 404, RngSobol32 = 501;

/// Philox4x32-10 (Salmon et al., SC'11): key = seed, counter = the index of
/// the block of four outputs.
void philox(uint64_t Seed, uint64_t Counter, uint32_t Out[4]) {
  uint32_t C[4] = {uint32_t(Counter), uint32_t(Counter >> 32), 0, 0};
  uint32_t K0 = uint32_t(Seed), K1 = uint32_t(Seed >> 32);
  for (int R = 0; R < 10; ++R) {
    uint64_t P0 = uint64_t(0xD2511F53u) * C[0],
             P1 = uint64_t(0xCD9E8D57u) * C[2];
    uint32_t N[4] = {uint32_t(P1 >> 32) ^ C[1] ^ K0, uint32_t(P1),
                     uint32_t(P0 >> 32) ^ C[3] ^ K1, uint32_t(P0)};
    std::memcpy(C, N, sizeof C);
    K0 += 0x9E3779B9u;
    K1 += 0xBB67AE85u;
  }
  std::memcpy(Out, C, sizeof C);
}

/// Value Index of the sequential Philox stream of Seed.
uint32_t philoxValue(uint64_t Seed, uint64_t Index) {
  uint32_t V[4];
  philox(Seed, Index / 4, V);
  return V[Index % 4];
}

void rocrand(const char *Path) {
  void *Lib = open(Path);
  Hip H;
  if (!Lib || !loadHip(Lib, H))
    std::exit(2);
  int (*Create)(void **, int), (*Destroy)(void *);
  int (*SetSeed)(void *, unsigned long long);
  int (*SetOffset)(void *, unsigned long long);
  int (*Generate)(void *, unsigned *, size_t);
  int (*Uniform)(void *, float *, size_t);
  if (!sym(Lib, "rocrand_create_generator", Create) ||
      !sym(Lib, "rocrand_destroy_generator", Destroy) ||
      !sym(Lib, "rocrand_set_seed", SetSeed) ||
      !sym(Lib, "rocrand_set_offset", SetOffset) ||
      !sym(Lib, "rocrand_generate", Generate) ||
      !sym(Lib, "rocrand_generate_uniform", Uniform))
    std::exit(2);
  // Several sizes (a multiple of 4, odd ones: the kernels' tails) and
  // seeds, so that each kernel is captured on unlike dispatches.
  // The output at element offsets 0, 1 and 3 from the allocation: rocRAND's
  // kernels store 16-byte vectors and handle a misaligned head and tail
  // apart.
  // The fourth case starts the stream 1999 values before Philox's counter
  // crosses 2^32 (its low dword wraps, the carry moves into the next one)
  // and Sobol at point 2^31 - 1000 (the top direction numbers). The last
  // is larger than the 1024 x 256 threads' first pass of Philox (4 values
  // each), so the kernels' grid-stride loop takes a second step; its
  // uniform floats' last 3 values start at the 3rd of a Philox block, so
  // they take one value of the next block (the head makes the output
  // 16-byte aligned, the tail is what remains).
  const size_t Sizes[] = {4000, 1237, 65539, 4001, (1u << 20) + 4102},
               Offsets[] = {0, 1, 3, 2, 1};
  const uint64_t PhiloxOffsets[] = {0, 0, 0, (uint64_t(1) << 34) - 1999, 5},
                 SobolOffsets[] = {0, 0, 0, (uint64_t(1) << 31) - 1000, 0};
  void *Out = nullptr;
  if (H.Malloc(&Out,
               (*std::max_element(std::begin(Sizes), std::end(Sizes)) + 4) * 4))
    return fail("hipMalloc");
  for (unsigned Case = 0; Case < std::size(Sizes); ++Case) {
    size_t N = Sizes[Case];
    unsigned *OutU = static_cast<unsigned *>(Out) + Offsets[Case];
    float *OutF = static_cast<float *>(Out) + Offsets[Case];
    const uint64_t Seed = 0x1234567887654321ull + N * 0x9E3779B97F4A7C15ull;
    const uint64_t Off = PhiloxOffsets[Case], SOff = SobolOffsets[Case];

    // Philox: the sequential Philox stream in order, whatever the grid; the
    // generator's offset moves on by N, so the uniform floats continue it:
    // 2^-32 + float(u) * 2^-32 in f32 (rocrand_uniform.h; the product is
    // exact, so one rounding).
    void *G = nullptr;
    if (Create(&G, RngPhilox) || SetSeed(G, Seed) || SetOffset(G, Off))
      return fail("rocrand_create_generator(PHILOX4_32_10)");
    std::vector<double> Want(N);
    for (size_t I = 0; I < N; ++I)
      Want[I] = philoxValue(Seed, Off + I);
    if (int S = Generate(G, OutU, N))
      std::fprintf(stderr, "FAIL: rocrand_generate(philox) status %d\n", S),
          ++Failures;
    else
      checkVector("rocrand_generate philox4x32-10", fromDevice(H, OutU, N),
                  Want);
    // The fourth case's floats cross the counter wrap too: back to Off.
    const uint64_t UOff = Case == 3 ? Off : Off + N;
    for (size_t I = 0; I < N; ++I)
      Want[I] = double(
          std::fma(float(philoxValue(Seed, UOff + I)), 0x1p-32f, 0x1p-32f));
    if (int S =
            (UOff != Off + N && SetOffset(G, UOff)) ? -1 : Uniform(G, OutF, N))
      std::fprintf(stderr, "FAIL: rocrand_generate_uniform status %d\n", S),
          ++Failures;
    else
      checkVector("rocrand_generate_uniform philox4x32-10",
                  fromDevice(H, OutF, N), Want);
    Destroy(G);

    // Sobol32, one dimension: direction numbers 2^(31-k), so point i is the
    // bit reversal of its Gray code i ^ (i >> 1).
    if (Create(&G, RngSobol32) || SetOffset(G, SOff))
      return fail("rocrand_create_generator(SOBOL32)");
    for (size_t I = 0; I < N; ++I) {
      uint64_t P = SOff + I;
      uint32_t Gray = uint32_t(P ^ (P >> 1)), R = 0;
      for (int B = 0; B < 32; ++B)
        R |= ((Gray >> B) & 1u) << (31 - B);
      Want[I] = R;
    }
    if (int S = Generate(G, OutU, N))
      std::fprintf(stderr, "FAIL: rocrand_generate(sobol32) status %d\n", S),
          ++Failures;
    else
      checkVector("rocrand_generate sobol32", fromDevice(H, OutU, N), Want);
    Destroy(G);
  }
  // Philox uniform floats alone, into an aligned output. 1055 values from
  // stream offset 3: the vector loop starts at substate 3 and the last 3
  // values are the tail, whose last one is word 1 of the next Philox block
  // (stream value 1057; for this seed u and u + 1 convert to different
  // floats, as most neighbours do not). 2^20 + 4102 values from offset 8:
  // a second grid-stride pass of the 1024 x 256 threads at substate 0,
  // which takes all four words of the block the first pass computed for
  // it (the other calls' floats start their passes at substate 2 or 3).
  const size_t AloneSizes[] = {1055, (1u << 20) + 4102};
  const uint64_t AloneOffsets[] = {3, 8};
  for (unsigned Case = 0; Case < std::size(AloneSizes); ++Case) {
    const size_t N = AloneSizes[Case];
    const uint64_t Seed = 0x1234567887654321ull + N * 0x9E3779B97F4A7C15ull,
                   Off = AloneOffsets[Case];
    void *G = nullptr;
    if (Create(&G, RngPhilox) || SetSeed(G, Seed) || SetOffset(G, Off))
      return fail("rocrand_create_generator(PHILOX4_32_10)");
    std::vector<double> Want(N);
    for (size_t I = 0; I < N; ++I)
      Want[I] = double(
          std::fma(float(philoxValue(Seed, Off + I)), 0x1p-32f, 0x1p-32f));
    float *OutF = static_cast<float *>(Out);
    if (int S = Uniform(G, OutF, N))
      std::fprintf(stderr, "FAIL: rocrand_generate_uniform status %d\n", S),
          ++Failures;
    else
      checkVector("rocrand_generate_uniform philox4x32-10 (alone)",
                  fromDevice(H, OutF, N), Want);
    Destroy(G);
  }
  H.Free(Out);
}

//===-- --fatbin: the hipcc registration and launch path, self-made -------===//

// The host stub of "axpy_f32"; its address is the kernel's identity.
void axpyStub(const Hip &H, int N, float A, float *X, float *Y) {
  Dim3 Grid, Block;
  size_t Shared;
  void *Stream;
  if (H.PopCall(&Grid, &Block, &Shared, &Stream))
    return fail("__hipPopCallConfiguration");
  void *Args[] = {&N, &A, &X, &Y};
  if (H.LaunchKernel(reinterpret_cast<const void *>(&axpyStub), Grid, Block,
                     Args, Shared, Stream))
    fail("hipLaunchKernel axpy_f32");
}

void appendBundleEntry(std::vector<uint8_t> &Header, uint64_t Off,
                       uint64_t Size, const std::string &Id) {
  for (uint64_t V : {Off, Size, uint64_t(Id.size())})
    for (int B = 0; B < 8; ++B)
      Header.push_back(uint8_t(V >> (8 * B)));
  Header.insert(Header.end(), Id.begin(), Id.end());
}

void fatbin(const char *Path, const char *Runtime) {
  std::ifstream F(Path, std::ios::binary);
  std::vector<uint8_t> Obj((std::istreambuf_iterator<char>(F)),
                           std::istreambuf_iterator<char>());
  void *Lib = Obj.empty() ? nullptr : open(Runtime);
  Hip H;
  if (!Lib || !loadHip(Lib, H))
    std::exit(2);
  // A bundle as clang-offload-bundler writes it: the host entry (empty), a
  // decoy for an xnack+ device (which must not be picked: its bytes are
  // garbage) and the code object, ids as hipcc names them.
  std::string Proc = "gfx942";
  for (size_t I = 0; I + 6 < Obj.size() && I < 4096; ++I)
    if (std::memcmp(&Obj[I], "gfx9", 4) == 0) {
      Proc = std::string(reinterpret_cast<char *>(&Obj[I]), 6);
      break;
    }
  std::vector<uint8_t> Decoy(256, 0xAB);
  std::vector<std::string> Ids = {"host-x86_64-unknown-linux",
                                  "hipv4-amdgcn-amd-amdhsa--" + Proc +
                                      ":xnack+",
                                  "hipv4-amdgcn-amd-amdhsa--" + Proc};
  size_t HeaderSize = 32;
  for (const std::string &Id : Ids)
    HeaderSize += 24 + Id.size();
  std::vector<uint8_t> B(24 + 8);
  std::memcpy(B.data(), "__CLANG_OFFLOAD_BUNDLE__", 24);
  B[24] = uint8_t(Ids.size());
  uint64_t DecoyOff = (HeaderSize + 4095) / 4096 * 4096;
  uint64_t ObjOff = DecoyOff + 4096;
  appendBundleEntry(B, 0, 0, Ids[0]);
  appendBundleEntry(B, DecoyOff, Decoy.size(), Ids[1]);
  appendBundleEntry(B, ObjOff, Obj.size(), Ids[2]);
  B.resize(ObjOff, 0);
  std::memcpy(&B[DecoyOff], Decoy.data(), Decoy.size());
  B.insert(B.end(), Obj.begin(), Obj.end());
  struct {
    uint32_t Magic, Version;
    const void *Binary, *Unused;
  } Wrapper = {0x48495046, 1, B.data(), nullptr};
  void **Module = H.RegisterFatBinary(&Wrapper);
  H.RegisterFunction(Module, reinterpret_cast<const void *>(&axpyStub),
                     const_cast<char *>("axpy_f32"), "axpy_f32", ~0u, nullptr,
                     nullptr, nullptr, nullptr, nullptr);

  const int N = 777;
  std::vector<float> X(N), Y(N);
  for (int I = 0; I < N; ++I) {
    X[I] = float(I % 13) - 6;
    Y[I] = float(I % 4) * 0.5f;
  }
  float *DX = toDevice(H, X), *DY = toDevice(H, Y);
  if (!DX || !DY)
    return fail("device buffers");
  // axpy_f32<<<dim3((N + 127) / 128), dim3(128)>>>(N, 3, DX, DY);
  if (H.PushCall({(N + 127) / 128, 1, 1}, {128, 1, 1}, 0, nullptr))
    return fail("__hipPushCallConfiguration");
  axpyStub(H, N, 3.0f, DX, DY);
  std::vector<double> Want(N);
  for (int I = 0; I < N; ++I)
    Want[I] = double(std::fma(3.0f, X[I], Y[I]));
  checkVector("axpy_f32<<<>>> through a registered fat binary",
              fromDevice(H, DY, N), Want);
}

} // namespace

int main(int Argc, char **Argv) {
  const char *Runtime = "libamdhip64.so";
  bool Any = false;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (I + 1 < Argc && A == "--runtime")
      Runtime = Argv[++I];
    else if (I + 1 < Argc && A == "--rocsparse")
      rocsparse(Argv[++I]), Any = true;
    else if (I + 1 < Argc && A == "--rocrand")
      rocrand(Argv[++I]), Any = true;
    else if (I + 1 < Argc && A == "--fatbin")
      fatbin(Argv[++I], Runtime), Any = true;
    else {
      std::fprintf(stderr,
                   "usage: %s [--runtime LIBAMDHIP64] [--fatbin CODEOBJ] "
                   "[--rocsparse LIB] [--rocrand LIB]\n",
                   Argv[0]);
      return 2;
    }
  }
  if (!Any) {
    std::fprintf(stderr, "%s: nothing to run (see --help)\n", Argv[0]);
    return 2;
  }
  if (Failures) {
    std::fprintf(stderr, "%d check(s) failed\n", Failures);
    return 1;
  }
  std::printf("all checks passed\n");
  return 0;
}
