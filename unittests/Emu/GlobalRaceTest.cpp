//===- GlobalRaceTest.cpp - Dispatch-wide race shadow at byte granularity -===//
//
// Snippets run as one-wave workgroups in order (0, then 1, ...) under one
// dispatch-wide race shadow (GlobalRace.cpp). Hardware reads and writes
// bytes: workgroups that touch different bytes of one dword do not race,
// workgroups that touch a common byte, unordered, do. Each case runs on
// gfx942 and gfx90a, with the shadow's one-thread paths and its
// several-thread (compare-and-swap) paths.
//
//===----------------------------------------------------------------------===//

#include "EmuTestUtil.h"

#include "asmevo/Emu/Emulator.h"

#include "gtest/gtest.h"

#include <cstring>
#include <tuple>

using namespace asmevo;
using namespace asmevo::emu;

namespace {

constexpr uint64_t BufBase = 0x10000;

struct RaceSnip {
  std::string CPU;
  SnippetState S;
  RunOptions Opts;
  Memory M;
  Region *Buf = nullptr;
  RaceSnip(std::string C, unsigned Threads) : CPU(std::move(C)) {
    Opts.Budget = 10000;
    Opts.Threads = Threads;
    Buf = *M.map(BufBase, 1024, PermRW, "buf");
    for (unsigned K = 0; K < 1024; ++K)
      Buf->Data[K] = uint8_t(K);
    S.S[0] = uint32_t(BufBase); // s[0:1]: buf
    S.S[1] = 0;
    S.WorkgroupIdSgpr = 4;
  }
  // Lane L's v0 is L * Bytes; s5 (load offset) and s6 (store offset) are
  // s8/s10 in workgroup 0 and s9/s11 in the others.
  SnippetResult run(unsigned Workgroups, uint64_t Exec, unsigned Bytes,
                    std::vector<std::string> Body) {
    S.Workgroups = Workgroups;
    S.Exec = Exec;
    for (unsigned L = 0; L < 64; ++L)
      S.V[0][L] = L * Bytes;
    std::vector<std::string> Lines = {
        "s_cmp_eq_u32 s4, 0", "s_cselect_b32 s5, s8, s9",
        "s_cselect_b32 s6, s10, s11", "v_add_u32 v1, s5, v0",
        "v_add_u32 v3, s6, v0"};
    Lines.insert(Lines.end(), Body.begin(), Body.end());
    std::vector<uint8_t> Code = test::assembleSnippet(CPU, std::move(Lines));
    if (Code.empty())
      return {};
    return runSnippet(CPU, Code, S, &M, Opts);
  }
  void offsets(uint32_t Load0, uint32_t Load1, uint32_t Store0,
               uint32_t Store1) {
    S.S[8] = Load0;
    S.S[9] = Load1;
    S.S[10] = Store0;
    S.S[11] = Store1;
  }
  uint16_t half(unsigned Byte) const {
    uint16_t V;
    std::memcpy(&V, Buf->Data.data() + Byte, 2);
    return V;
  }
};

class GlobalRace
    : public ::testing::TestWithParam<std::tuple<const char *, unsigned>> {
protected:
  RaceSnip snip() {
    return RaceSnip(std::get<0>(GetParam()), std::get<1>(GetParam()));
  }
};

#define RUN_OK(R) ASSERT_TRUE((R).Run.ok()) << (R).Run.Message
#define RACE(R, Text)                                                          \
  do {                                                                         \
    EXPECT_EQ((R).Run.Kind, ErrorKind::Race) << (R).Run.Message;               \
    EXPECT_NE((R).Run.Message.find(Text), std::string::npos)                   \
        << (R).Run.Message;                                                    \
  } while (0)

// In-place update of 16-bit data, as haxpy (y[i] = a * x[i] + y[i]).
const std::vector<std::string> HalfUpdate = {
    "global_load_ushort v2, v1, s[0:1]", "s_waitcnt vmcnt(0)",
    "v_add_u16 v2, v2, 1", "global_store_short v3, v2, s[0:1]",
    "s_waitcnt vmcnt(0)"};

// haxpy with an odd block: workgroup 0 updates y[0..2] (the low half of
// y[2..3]'s dword), workgroup 1 y[3..5] (its high half). No byte is shared.
TEST_P(GlobalRace, HalvesOfOneDword) {
  RaceSnip T = snip();
  T.offsets(0, 6, 0, 6);
  std::vector<uint16_t> Before;
  for (unsigned K = 0; K < 8; ++K)
    Before.push_back(T.half(2 * K));
  auto R = T.run(2, 0x7, 2, HalfUpdate);
  RUN_OK(R);
  for (unsigned K = 0; K < 8; ++K)
    EXPECT_EQ(T.half(2 * K), uint16_t(Before[K] + (K < 6))) << K;
}

// The same with overlapping halves: workgroup 1 updates y[2..4], so it
// reads y[2] (bytes 4..5) that workgroup 0 stored.
TEST_P(GlobalRace, OverlappingHalves) {
  RaceSnip T = snip();
  T.offsets(0, 4, 0, 4);
  auto R = T.run(2, 0x7, 2, HalfUpdate);
  RACE(R, "address 0x10004 (lane 0): reads bytes stored by workgroup (0,0,0)");
}

// Write-after-read at half granularity: workgroup 0 reads y[0..2] (and
// stores elsewhere); workgroup 1 (reading elsewhere) stores y[3..5]: no
// byte shared; storing y[2..4] overwrites y[2], which workgroup 0 read.
TEST_P(GlobalRace, HalfReadOtherHalfStore) {
  RaceSnip T = snip();
  T.offsets(0, 256, 512, 6);
  RUN_OK(T.run(2, 0x7, 2, HalfUpdate));
  RaceSnip U = snip();
  U.offsets(0, 256, 512, 4);
  auto R = U.run(2, 0x7, 2, HalfUpdate);
  RACE(R,
       "address 0x10004 (lane 0): stores to bytes read by workgroup (0,0,0)");
}

// A whole-dword read and a store of half of it conflict.
TEST_P(GlobalRace, DwordReadHalfStore) {
  RaceSnip T = snip();
  T.offsets(0, 256, 512, 2);
  auto R = T.run(2, 0x1, 4,
                 {"global_load_dword v2, v1, s[0:1]", "s_waitcnt vmcnt(0)",
                  "global_store_short v3, v2, s[0:1]", "s_waitcnt vmcnt(0)"});
  RACE(R,
       "address 0x10002 (lane 0): stores to bytes read by workgroup (0,0,0)");
}

// Two workgroups store the two halves of a dword; one then reads the other's
// half: a race (one writer tag per dword took both halves for the last
// writer and missed it), its own half: none.
TEST_P(GlobalRace, HalfStoresThenRead) {
  const std::vector<std::string> StoreThenLoad = {
      "global_store_short v3, v0, s[0:1]", "s_waitcnt vmcnt(0)",
      "global_load_ushort v2, v1, s[0:1]", "s_waitcnt vmcnt(0)"};
  RaceSnip T = snip();
  T.offsets(256, 0, 0, 2);
  auto R = T.run(2, 0x1, 2, StoreThenLoad);
  RACE(R, "address 0x10000 (lane 0): reads bytes stored by workgroup (0,0,0)");
  RaceSnip U = snip();
  U.offsets(256, 2, 0, 2);
  RUN_OK(U.run(2, 0x1, 2, StoreThenLoad));
  // A whole-dword read of both halves.
  RaceSnip V = snip();
  V.offsets(256, 0, 0, 2);
  R = V.run(2, 0x1, 2,
            {"global_store_short v3, v0, s[0:1]", "s_waitcnt vmcnt(0)",
             "global_load_dword v2, v1, s[0:1]", "s_waitcnt vmcnt(0)"});
  RACE(R, "address 0x10000 (lane 0): reads bytes stored by workgroup (0,0,0)");
}

// Byte stores of four workgroups into the four bytes of one dword, and
// into one byte.
TEST_P(GlobalRace, ByteStores) {
  const std::vector<std::string> Store = {
      "v_add_u32 v1, s4, v0", "v_add_u32 v2, 0x10, v1",
      "global_store_byte v1, v2, s[0:1]", "s_waitcnt vmcnt(0)"};
  RaceSnip T = snip();
  auto R = T.run(4, 0x1, 1, Store);
  RUN_OK(R);
  for (unsigned K = 0; K < 4; ++K)
    EXPECT_EQ(T.Buf->Data[K], 0x10 + K);
  EXPECT_EQ(T.Buf->Data[4], 4);
  RaceSnip U = snip();
  R = U.run(4, 0x1, 1,
            {"v_add_u32 v1, s4, v0", "v_lshrrev_b32 v1, 1, v1",
             "global_store_byte v1, v0, s[0:1]", "s_waitcnt vmcnt(0)"});
  RACE(R, "in workgroup (1,0,0)");
  RACE(R, "address 0x10000 (lane 0): stores to bytes stored by workgroup "
          "(0,0,0)");
}

// Byte reads and stores: each workgroup updates its own byte (no race); or
// reads the next workgroup's byte, which that one then stores.
TEST_P(GlobalRace, ByteReadStore) {
  const std::vector<std::string> Update = {
      "v_add_u32 v1, s4, v0", "global_load_ubyte v2, v1, s[0:1]",
      "s_waitcnt vmcnt(0)",   "v_add_u32 v2, 1, v2",
      "v_add_u32 v1, s7, v1", "global_store_byte v1, v2, s[0:1]",
      "s_waitcnt vmcnt(0)"};
  RaceSnip T = snip();
  T.S.S[7] = 0; // store to the byte read
  RUN_OK(T.run(4, 0x1, 1, Update));
  for (unsigned K = 0; K < 4; ++K)
    EXPECT_EQ(T.Buf->Data[K], K + 1);
  RaceSnip U = snip();
  U.S.S[7] = uint32_t(-1); // store to the previous workgroup's byte
  auto R = U.run(4, 0x1, 1,
                 {"v_add_u32 v1, s4, v0", "v_add_u32 v1, 1, v1",
                  "global_load_ubyte v2, v1, s[0:1]", "s_waitcnt vmcnt(0)",
                  "v_add_u32 v1, s7, v1", "global_store_byte v1, v2, s[0:1]",
                  "s_waitcnt vmcnt(0)"});
  // Workgroup 1 stores byte 1, which workgroup 0 read.
  RACE(R, "in workgroup (1,0,0)");
  RACE(R,
       "address 0x10001 (lane 0): stores to bytes read by workgroup (0,0,0)");
}

INSTANTIATE_TEST_SUITE_P(
    Targets, GlobalRace,
    ::testing::Combine(::testing::Values("gfx942", "gfx90a"),
                       ::testing::Values(1u, 0u)),
    [](const ::testing::TestParamInfo<GlobalRace::ParamType> &I) {
      return std::string(std::get<0>(I.param)) +
             (std::get<1>(I.param) == 1 ? "_OneThread" : "_Concurrent");
    });

} // namespace
