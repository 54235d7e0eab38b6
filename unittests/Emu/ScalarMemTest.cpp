//===- ScalarMemTest.cpp - Scalar stores, atomics and the scalar cache ----===//
//
// Expected values come from the CDNA3 ISA's SMEM definitions (address
// (base + offset + soffset) & ~3; atomics return the pre-op value when glc
// is set; S_ATOMIC_DEC: old == 0 || old > data ? data : old - 1) and from
// the scalar cache's rules (write-back: s_dcache_wb; not coherent with
// vector memory), worked out by hand. Snippets run as one wave on gfx942
// and gfx90a (both have LLVM's HasScalarStores/HasScalarAtomics).
//
//===----------------------------------------------------------------------===//

#include "EmuTestUtil.h"

#include "asmevo/Emu/Emulator.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace asmevo;
using namespace asmevo::emu;

namespace {

struct ScalarSnip {
  std::string CPU;
  SnippetState S;
  RunOptions Opts;
  Memory M;
  Region *Buf = nullptr;
  explicit ScalarSnip(std::string C) : CPU(std::move(C)) {
    Opts.Budget = 10000;
    Buf = *M.map(0x10000, 256, PermRW, "buf");
    (void)*M.map(0x20000, 256, PermRead, "ro");
    for (unsigned K = 0; K < 64; ++K) {
      uint32_t V = 1000 + K;
      std::memcpy(Buf->Data.data() + 4 * K, &V, 4);
    }
    S.S[0] = 0x10000; // s[0:1]: buf
    S.S[1] = 0;
    S.S[2] = 0x20000; // s[2:3]: read-only region
    S.S[3] = 0;
    // s[8:11]: buffer resource over buf, num_records 64 bytes.
    S.S[8] = 0x10000;
    S.S[9] = 0;
    S.S[10] = 64;
    S.S[11] = 0;
    S.Exec = 0xf;
    for (unsigned L = 0; L < 64; ++L)
      S.V[0][L] = 4 * L;
  }
  SnippetResult run(std::vector<std::string> Lines) {
    std::vector<uint8_t> Code = test::assembleSnippet(CPU, std::move(Lines));
    if (Code.empty())
      return {};
    return runSnippet(CPU, Code, S, &M, Opts);
  }
  uint32_t word(unsigned K) const {
    uint32_t V;
    std::memcpy(&V, Buf->Data.data() + 4 * K, 4);
    return V;
  }
};

class ScalarMem : public ::testing::TestWithParam<const char *> {};

#define RUN_OK(R) ASSERT_TRUE((R).Run.ok()) << (R).Run.Message
#define HAS(R, Text)                                                           \
  EXPECT_NE((R).Run.Message.find(Text), std::string::npos) << (R).Run.Message

// The write-back sequence LLVM puts at the end of a wave with scalar stores.
const char *Wb = "s_dcache_wb";
const char *WaitL = "s_waitcnt lgkmcnt(0)";

TEST_P(ScalarMem, Stores) {
  ScalarSnip T(GetParam());
  T.S.S[4] = 0x11111111;
  T.S.S[5] = 0x22222222;
  T.S.S[6] = 0x33333333;
  T.S.S[7] = 0x44444444;
  T.S.S[12] = 0x13; // soffset: 0x13 + 0x8 = 0x1b -> dword at 0x18
  auto R = T.run({"s_store_dword s4, s[0:1], 0x4",
                  "s_store_dwordx2 s[4:5], s[0:1], 0x8",
                  "s_store_dwordx4 s[4:7], s[0:1], 0x20",
                  "s_store_dword s7, s[0:1], s12 offset:0x8", Wb, WaitL});
  RUN_OK(R);
  EXPECT_EQ(T.word(0), 1000u);
  EXPECT_EQ(T.word(1), 0x11111111u);
  EXPECT_EQ(T.word(2), 0x11111111u);
  EXPECT_EQ(T.word(3), 0x22222222u);
  EXPECT_EQ(T.word(6), 0x44444444u); // (0x13 + 8) & ~3 = 0x18
  EXPECT_EQ(T.word(8), 0x11111111u);
  EXPECT_EQ(T.word(11), 0x44444444u);
  EXPECT_EQ(T.word(12), 1012u);
}

TEST_P(ScalarMem, BufferStoreRange) {
  ScalarSnip T(GetParam());
  T.S.S[4] = 7;
  T.S.S[5] = 8;
  T.S.S[6] = 9;
  T.S.S[7] = 10;
  // num_records 64: dwords at 60 (in range) and 64.. (dropped).
  auto R = T.run({"s_buffer_store_dwordx4 s[4:7], s[8:11], 0x3c", Wb, WaitL});
  RUN_OK(R);
  EXPECT_EQ(T.word(15), 7u);
  EXPECT_EQ(T.word(16), 1016u);
  EXPECT_EQ(T.word(17), 1017u);
}

TEST_P(ScalarMem, Atomics) {
  ScalarSnip T(GetParam());
  T.S.S[4] = 5;
  // glc returns the old value; without glc the data register keeps its value.
  auto R = T.run({"s_atomic_add s4, s[0:1], 0x0 glc",
                  "s_atomic_add s5, s[0:1], 0x4", Wb, WaitL});
  RUN_OK(R);
  EXPECT_EQ(R.State.S[4], 1000u);
  EXPECT_EQ(T.word(0), 1005u);
  T.S.S[5] = 3;
  R = T.run({"s_atomic_add s5, s[0:1], 0x4", Wb, WaitL});
  RUN_OK(R);
  EXPECT_EQ(R.State.S[5], 3u);
  EXPECT_EQ(T.word(1), 1004u);
  // s_atomic_dec: old > data -> data; old == 0 -> data; else old - 1.
  std::memset(T.Buf->Data.data() + 8, 0, 4); // word 2 = 0
  T.S.S[4] = 500;                            // word 3 = 1003 > 500
  T.S.S[5] = 2000;                           // word 4 = 1004 <= 2000
  T.S.S[6] = 77;
  R = T.run({"s_atomic_dec s6, s[0:1], 0x8 glc",
             "s_atomic_dec s4, s[0:1], 0xc glc",
             "s_atomic_dec s5, s[0:1], 0x10 glc", Wb, WaitL});
  RUN_OK(R);
  EXPECT_EQ(R.State.S[6], 0u);
  EXPECT_EQ(T.word(2), 77u);
  EXPECT_EQ(R.State.S[4], 1003u);
  EXPECT_EQ(T.word(3), 500u);
  EXPECT_EQ(R.State.S[5], 1004u);
  EXPECT_EQ(T.word(4), 1003u);
  // cmpswap: data = {src, cmp}; match and mismatch.
  T.S.S[4] = 0xabc;
  T.S.S[5] = 1005; // word 5
  T.S.S[6] = 0xdef;
  T.S.S[7] = 1;
  R = T.run({"s_atomic_cmpswap s[4:5], s[0:1], 0x14 glc",
             "s_atomic_cmpswap s[6:7], s[0:1], 0x18 glc", Wb, WaitL});
  RUN_OK(R);
  EXPECT_EQ(T.word(5), 0xabcu);
  EXPECT_EQ(R.State.S[4], 1005u);
  EXPECT_EQ(T.word(6), 1006u);
  EXPECT_EQ(R.State.S[6], 1006u);
  // 64-bit add with a carry between the dwords, and a 64-bit cmpswap.
  uint64_t Q = 0x00000001ffffffffull;
  std::memcpy(T.Buf->Data.data() + 0x20, &Q, 8);
  T.S.S[4] = 1;
  T.S.S[5] = 0;
  R = T.run({"s_atomic_add_x2 s[4:5], s[0:1], 0x20 glc", Wb, WaitL});
  RUN_OK(R);
  EXPECT_EQ(R.State.S[4], 0xffffffffu);
  EXPECT_EQ(R.State.S[5], 1u);
  EXPECT_EQ(T.word(8), 0u);
  EXPECT_EQ(T.word(9), 2u);
  T.S.S[12] = 5;
  T.S.S[13] = 6;
  T.S.S[14] = 0; // cmp = 0x200000000
  T.S.S[15] = 2;
  R = T.run({"s_atomic_cmpswap_x2 s[12:15], s[0:1], 0x20 glc", Wb, WaitL});
  RUN_OK(R);
  EXPECT_EQ(T.word(8), 5u);
  EXPECT_EQ(T.word(9), 6u);
  EXPECT_EQ(R.State.S[12], 0u);
  EXPECT_EQ(R.State.S[13], 2u);
  // s_buffer_atomic within num_records; outside it is refused.
  T.S.S[4] = 1;
  R = T.run({"s_buffer_atomic_sub s4, s[8:11], 0x4 glc", Wb, WaitL});
  RUN_OK(R);
  EXPECT_EQ(R.State.S[4], 1004u);
  EXPECT_EQ(T.word(1), 1003u);
  R = T.run({"s_buffer_atomic_sub s4, s[8:11], 0x40 glc", Wb, WaitL});
  EXPECT_EQ(R.Run.Kind, ErrorKind::Unsupported) << R.Run.Message;
}

TEST_P(ScalarMem, FaultsAndScoreboard) {
  ScalarSnip T(GetParam());
  auto R = T.run({"s_store_dword s4, s[2:3], 0x0", Wb, WaitL});
  EXPECT_EQ(R.Run.Kind, ErrorKind::Fault);
  HAS(R, "read-only");
  R = T.run({"s_atomic_add_x2 s[4:5], s[0:1], 0x4", Wb, WaitL});
  EXPECT_EQ(R.Run.Kind, ErrorKind::Fault);
  HAS(R, "misaligned");
  R = T.run({"s_store_dword s4, s[0:1], 0x100", Wb, WaitL});
  EXPECT_EQ(R.Run.Kind, ErrorKind::Fault);
  // SGPR offset without IMM (the SGPR_IMM form with offset: is supported).
  R = T.run({"s_store_dword s4, s[0:1], s12", Wb, WaitL});
  EXPECT_EQ(R.Run.Kind, ErrorKind::Unsupported) << R.Run.Message;
  R = T.run({"s_atomic_add s4, s[0:1], s12", Wb, WaitL});
  EXPECT_EQ(R.Run.Kind, ErrorKind::Unsupported) << R.Run.Message;
  // The returned value lands out of order in lgkmcnt.
  R = T.run(
      {"s_atomic_add s4, s[0:1], 0x0 glc", "s_mov_b32 s5, s4", Wb, WaitL});
  EXPECT_EQ(R.Run.Kind, ErrorKind::Race);
  HAS(R, "reads s4");
  R = T.run({"s_atomic_add s4, s[0:1], 0x0 glc", "ds_read_b32 v1, v0",
             "s_waitcnt lgkmcnt(1)", "s_mov_b32 s5, s4", Wb, WaitL});
  EXPECT_EQ(R.Run.Kind, ErrorKind::Race);
  R = T.run({"s_atomic_add s4, s[0:1], 0x0 glc", WaitL, "s_mov_b32 s5, s4", Wb,
             WaitL});
  RUN_OK(R);
}

TEST_P(ScalarMem, ScalarCacheWriteBack) {
  ScalarSnip T(GetParam());
  // A wave that ends with scalar stores not written back.
  auto R = T.run({"s_store_dword s4, s[0:1], 0x0"});
  EXPECT_EQ(R.Run.Kind, ErrorKind::Race);
  HAS(R, "still in the scalar cache");
  // glc stores write through and atomics are performed in memory: nothing
  // is left in the scalar cache (hipSPARSELt's split-K kernels rely on it).
  R = T.run({"s_atomic_add s4, s[0:1], 0x0",
             "s_store_dword s4, s[0:1], 0x8 glc", WaitL,
             "global_load_dword v1, v0, s[0:1]", "s_waitcnt vmcnt(0)"});
  RUN_OK(R);
  // An atomic on bytes a plain scalar store left in the cache: its
  // write-back would overwrite the atomic's result.
  R = T.run(
      {"s_store_dword s4, s[0:1], 0x0", "s_atomic_add s5, s[0:1], 0x0", Wb});
  EXPECT_EQ(R.Run.Kind, ErrorKind::Race);
  HAS(R, "atomic on bytes that a scalar store");
  // s_dcache_wb right before s_endpgm (what LLVM emits) is enough.
  R = T.run({"s_store_dword s4, s[0:1], 0x0", Wb});
  RUN_OK(R);
  // A store after the write-back is not covered by it.
  R = T.run({"s_store_dword s4, s[0:1], 0x0", Wb, WaitL,
             "s_store_dword s4, s[0:1], 0x4"});
  EXPECT_EQ(R.Run.Kind, ErrorKind::Race);
  // A vector load of bytes still in the scalar cache reads stale memory.
  R = T.run({"s_store_dword s4, s[0:1], 0x0",
             "global_load_dword v1, v0, "
             "s[0:1]",
             "s_waitcnt vmcnt(0)", Wb});
  EXPECT_EQ(R.Run.Kind, ErrorKind::Race);
  HAS(R, "(lane 0): reads bytes that a scalar store");
  // ... also after s_dcache_wb when its lgkmcnt is not waited for.
  R = T.run({"s_store_dword s4, s[0:1], 0x0", Wb,
             "global_load_dword v1, v0, "
             "s[0:1]",
             "s_waitcnt vmcnt(0)"});
  EXPECT_EQ(R.Run.Kind, ErrorKind::Race);
  R = T.run({"s_store_dword s4, s[0:1], 0x0", Wb, WaitL,
             "global_load_dword v1, v0, s[0:1]", "s_waitcnt vmcnt(0)"});
  RUN_OK(R);
  // A vector store over unflushed scalar-store bytes: the write-back may
  // land after it.
  R = T.run({"s_store_dword s4, s[0:1], 0x0",
             "global_store_dword v0, v0, "
             "s[0:1]",
             Wb});
  EXPECT_EQ(R.Run.Kind, ErrorKind::Race);
  HAS(R, "write-back would land after this store");
}

TEST_P(ScalarMem, ScalarLoadCoherence) {
  ScalarSnip T(GetParam());
  // Own scalar store then scalar load: the scalar cache holds the new value.
  T.S.S[4] = 42;
  auto R = T.run({"s_store_dword s4, s[0:1], 0x0", WaitL,
                  "s_load_dword s5, s[0:1], 0x0", WaitL, Wb});
  RUN_OK(R);
  EXPECT_EQ(R.State.S[5], 42u);
  // A vector store then a scalar load: the scalar cache may hold the line
  // from before (fail closed, even with s_dcache_inv).
  R = T.run({"global_store_dword v0, v0, s[0:1]", "s_waitcnt vmcnt(0)",
             "s_dcache_inv", WaitL, "s_load_dword s5, s[0:1], 0x4", WaitL});
  EXPECT_EQ(R.Run.Kind, ErrorKind::Race);
  HAS(R, "address 0x10004 (scalar): scalar load of bytes written in this "
         "dispatch by a vector store of this wave");
  // s_buffer_load reads through the same scalar cache.
  R = T.run({"global_store_dword v0, v0, s[0:1]", "s_waitcnt vmcnt(0)",
             "s_buffer_load_dword s5, s[8:11], 0x8", WaitL});
  EXPECT_EQ(R.Run.Kind, ErrorKind::Race);
  HAS(R, "address 0x10008 (scalar): scalar load of bytes written");
  // Bytes the store did not touch are fine.
  R = T.run({"global_store_dword v0, v0, s[0:1]", "s_waitcnt vmcnt(0)",
             "s_load_dword s5, s[0:1], 0x10", WaitL});
  RUN_OK(R);
  EXPECT_EQ(R.State.S[5], 1004u);
  // glc: the load misses in the scalar cache and reads memory.
  R = T.run({"global_store_dword v0, v0, s[0:1]", "s_waitcnt vmcnt(0)",
             "s_load_dword s5, s[0:1], 0x4 glc", WaitL});
  RUN_OK(R);
  EXPECT_EQ(R.State.S[5], 4u);
  // ... and so does not see this wave's unflushed scalar store.
  R = T.run({"s_store_dword s4, s[0:1], 0x0", WaitL,
             "s_load_dword s5, s[0:1], 0x0 glc", WaitL, Wb});
  EXPECT_EQ(R.Run.Kind, ErrorKind::Race);
  // This wave's own vector atomic, then a scalar load of it.
  R = T.run({"global_atomic_add v0, v0, s[0:1]", "s_waitcnt vmcnt(0)",
             "s_load_dword s5, s[0:1], 0x0", WaitL});
  EXPECT_EQ(R.Run.Kind, ErrorKind::Race);
  // Without the dispatch-wide checks, the old behaviour.
  T.Opts.GlobalRaceCheck = false;
  R = T.run({"global_store_dword v0, v0, s[0:1]", "s_waitcnt vmcnt(0)",
             "s_load_dword s5, s[0:1], 0x4", WaitL});
  RUN_OK(R);
}

INSTANTIATE_TEST_SUITE_P(Targets, ScalarMem,
                         ::testing::Values("gfx942", "gfx90a"));

} // namespace
