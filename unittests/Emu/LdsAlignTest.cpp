//===- LdsAlignTest.cpp - Misaligned LDS accesses -------------------------===//
//
// The LDS alignment rule (docs/emulator.md, "LDS alignment"): ROCm runs
// gfx9 queues with SH_MEM_CONFIG.ALIGNMENT_MODE = UNALIGNED, so plain DS
// reads and writes of every width take any byte address; misaligned
// ds_read2/ds_write2 elements, atomics and FLAT accesses to LDS are refused
// (no source says what they do); RunOptions::StrictLdsAlignment faults on
// all of them, as lib/Emu did before. Expected bytes are little-endian
// placements worked out by hand.
//
//===----------------------------------------------------------------------===//

#include "EmuTestUtil.h"

#include "asmevo/Emu/Emulator.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace asmevo;
using namespace asmevo::emu;

namespace {

struct LdsSnip {
  std::string CPU;
  SnippetState S;
  RunOptions Opts;
  explicit LdsSnip(const char *CPU, bool Strict = false) : CPU(CPU) {
    Opts.Budget = 10000;
    Opts.StrictLdsAlignment = Strict;
    S.Exec = 1;
    for (unsigned K = 0; K < S.Lds.size(); ++K)
      S.Lds[K] = uint8_t(K);
  }
  SnippetResult run(std::vector<std::string> Lines) {
    std::vector<uint8_t> Code = test::assembleSnippet(CPU, std::move(Lines));
    if (Code.empty())
      return {};
    return runSnippet(CPU, Code, S, nullptr, Opts);
  }
};

uint32_t word(const SnippetResult &R, unsigned Off) {
  uint32_t V;
  std::memcpy(&V, R.State.Lds.data() + Off, 4);
  return V;
}

const char *const Cpus[] = {"gfx942", "gfx90a"};

// Each width written and read back at odd offsets. LDS starts as bytes
// 0, 1, 2, ...; v0 = 0 is the base address.
TEST(EmuLdsAlign, PlainReadsAndWritesAnyAddress) {
  for (const char *Cpu : Cpus) {
    LdsSnip T(Cpu);
    T.S.V[2][0] = 0x44332211u;
    T.S.V[3][0] = 0x88776655u;
    T.S.V[4][0] = 0xccbbaa99u;
    T.S.V[5][0] = 0xf0eeddccu;
    auto R =
        T.run({"ds_write_b16 v0, v2 offset:1", "ds_write_b32 v0, v2 offset:6",
               "ds_write_b64 v0, v[2:3] offset:13",
               "ds_write_b96 v0, v[2:4] offset:35",
               "ds_write_b128 v0, v[2:5] offset:67", "s_waitcnt lgkmcnt(0)",
               "ds_read_u16 v6, v0 offset:1", "ds_read_b32 v7, v0 offset:6",
               "ds_read_b64 v[8:9], v0 offset:13",
               "ds_read_b96 v[12:14], v0 offset:35",
               "ds_read_b128 v[16:19], v0 offset:67",
               "ds_read_b32 v10, v0 offset:3", "s_waitcnt lgkmcnt(0)"});
    ASSERT_TRUE(R.Run.ok()) << Cpu << ": " << R.Run.Message;
    EXPECT_EQ(word(R, 0), 0x03221100u) << Cpu; // b16 at 1: bytes 1, 2
    EXPECT_EQ(word(R, 4), 0x22110504u) << Cpu; // b32 at 6: bytes 6..9
    EXPECT_EQ(word(R, 8), 0x0b0a4433u) << Cpu;
    EXPECT_EQ(word(R, 12), 0x3322110cu) << Cpu; // b64 at 13: 13..20
    EXPECT_EQ(word(R, 16), 0x77665544u) << Cpu;
    EXPECT_EQ(word(R, 20), 0x17161588u) << Cpu;
    EXPECT_EQ(word(R, 40), 0x99887766u) << Cpu; // b96 at 35: 35..46
    EXPECT_EQ(word(R, 44), 0x2fccbbaau) << Cpu;
    EXPECT_EQ(word(R, 76), 0xccccbbaau) << Cpu; // b128 at 67: 67..82
    EXPECT_EQ(word(R, 80), 0x53f0eeddu) << Cpu;
    EXPECT_EQ(R.State.V[6][0], 0x2211u) << Cpu;
    EXPECT_EQ(R.State.V[7][0], 0x44332211u) << Cpu;
    EXPECT_EQ(R.State.V[8][0], 0x44332211u) << Cpu;
    EXPECT_EQ(R.State.V[9][0], 0x88776655u) << Cpu;
    EXPECT_EQ(R.State.V[12][0], 0x44332211u) << Cpu;
    EXPECT_EQ(R.State.V[14][0], 0xccbbaa99u) << Cpu;
    EXPECT_EQ(R.State.V[16][0], 0x44332211u) << Cpu;
    EXPECT_EQ(R.State.V[19][0], 0xf0eeddccu) << Cpu;
    EXPECT_EQ(R.State.V[10][0], 0x11050403u) << Cpu; // bytes 3..6
  }
}

// The rule lib/Emu applied before, kept behind StrictLdsAlignment: b16
// halfword, b32 and wider dword alignment.
TEST(EmuLdsAlign, StrictModeFaults) {
  for (const char *Cpu : Cpus) {
    for (const char *Op :
         {"ds_write_b16 v0, v1 offset:1", "ds_write_b32 v0, v1 offset:2",
          "ds_read_b64 v[2:3], v0 offset:1", "ds_read_b128 v[4:7], v0 offset:6",
          "ds_write2_b32 v0, v1, v2 offset1:1"}) {
      LdsSnip T(Cpu, /*Strict=*/true);
      if (std::strstr(Op, "write2"))
        T.S.V[0][0] = 2;
      auto R = T.run({Op, "s_waitcnt lgkmcnt(0)"});
      EXPECT_EQ(R.Run.Kind, ErrorKind::Fault) << Cpu << " " << Op;
      EXPECT_NE(R.Run.Message.find("misaligned LDS access"), std::string::npos)
          << R.Run.Message;
    }
    LdsSnip T(Cpu, /*Strict=*/true);
    auto R = T.run({"ds_write_b64 v0, v[2:3] offset:4",
                    "ds_read_u16 v3, v0 offset:2", "s_waitcnt lgkmcnt(0)"});
    EXPECT_TRUE(R.Run.ok()) << Cpu << ": " << R.Run.Message;
  }
}

// ds_read2/ds_write2 with a dword-aligned base run in both modes; with a
// misaligned base they are refused under the unaligned mode.
TEST(EmuLdsAlign, Read2Write2) {
  for (const char *Cpu : Cpus) {
    LdsSnip T(Cpu);
    T.S.V[0][0] = 4;
    T.S.V[1][0] = 0x11111111u;
    T.S.V[2][0] = 0x22222222u;
    auto R =
        T.run({"ds_write2_b32 v0, v1, v2 offset1:3",
               "ds_read2_b64 v[4:7], v0 offset1:1", "s_waitcnt lgkmcnt(0)"});
    ASSERT_TRUE(R.Run.ok()) << Cpu << ": " << R.Run.Message;
    EXPECT_EQ(word(R, 4), 0x11111111u);
    EXPECT_EQ(word(R, 16), 0x22222222u);
    EXPECT_EQ(R.State.V[4][0], 0x11111111u);
    EXPECT_EQ(R.State.V[7][0], 0x22222222u);
    for (const char *Op : {"ds_write2_b32 v0, v1, v2 offset1:3",
                           "ds_read2_b32 v[4:5], v0 offset1:1",
                           "ds_read2st64_b64 v[4:7], v0 offset1:1"}) {
      LdsSnip U(Cpu);
      U.S.V[0][0] = 2;
      R = U.run({Op, "s_waitcnt lgkmcnt(0)"});
      EXPECT_EQ(R.Run.Kind, ErrorKind::Unsupported) << Cpu << " " << Op;
      EXPECT_NE(R.Run.Message.find("misaligned LDS ds_read2/ds_write2 access"),
                std::string::npos)
          << R.Run.Message;
    }
  }
}

// Atomics need natural alignment in both modes: refused under the
// unaligned mode (LLVM will not emit a misaligned one; no source says what
// hardware does), a fault under the strict one.
TEST(EmuLdsAlign, AtomicsStayAligned) {
  for (const char *Cpu : Cpus) {
    for (bool Strict : {false, true}) {
      for (const char *Op :
           {"ds_add_u32 v0, v1 offset:2", "ds_add_rtn_u64 v[2:3], v0, v[4:5] "
                                          "offset:4"}) {
        LdsSnip T(Cpu, Strict);
        auto R = T.run({Op, "s_waitcnt lgkmcnt(0)"});
        EXPECT_EQ(R.Run.Kind,
                  Strict ? ErrorKind::Fault : ErrorKind::Unsupported)
            << Cpu << " " << Op << ": " << R.Run.Message;
        if (!Strict) {
          EXPECT_NE(R.Run.Message.find("misaligned LDS atomic"),
                    std::string::npos)
              << R.Run.Message;
        }
      }
      LdsSnip T(Cpu, Strict);
      T.S.V[1][0] = 5;
      auto R = T.run({"ds_add_u32 v0, v1 offset:8", "s_waitcnt lgkmcnt(0)"});
      ASSERT_TRUE(R.Run.ok()) << Cpu << ": " << R.Run.Message;
      EXPECT_EQ(word(R, 8), 0x0b0a090du);
    }
  }
}

// An access past the allocation is still a fault, misaligned or not.
TEST(EmuLdsAlign, OutOfRangeStillFaults) {
  for (const char *Cpu : Cpus) {
    LdsSnip T(Cpu);
    T.S.V[0][0] = 4096 - 3;
    auto R = T.run({"ds_write_b32 v0, v1", "s_waitcnt lgkmcnt(0)"});
    EXPECT_EQ(R.Run.Kind, ErrorKind::Fault) << Cpu;
    EXPECT_NE(R.Run.Message.find("outside the workgroup's 4096 bytes"),
              std::string::npos)
        << R.Run.Message;
    R = T.run({"ds_read_b64 v[2:3], v0 offset:65535", "s_waitcnt lgkmcnt(0)"});
    EXPECT_EQ(R.Run.Kind, ErrorKind::Fault) << Cpu;
  }
}

// Lanes of one store whose misaligned dwords overlap: the same bytes agree,
// different bytes race (per byte, not per dword).
TEST(EmuLdsAlign, LanesOfOneStoreComparedPerByte) {
  for (const char *Cpu : Cpus) {
    LdsSnip T(Cpu);
    T.S.Exec = 3;
    T.S.V[0][0] = 1; // bytes 1..4
    T.S.V[0][1] = 3; // bytes 3..6
    T.S.V[1][0] = 0x44332211u;
    T.S.V[1][1] = 0x66554433u; // bytes 3, 4 = 0x33, 0x44 as lane 0's
    auto R = T.run({"ds_write_b32 v0, v1", "s_waitcnt lgkmcnt(0)"});
    ASSERT_TRUE(R.Run.ok()) << Cpu << ": " << R.Run.Message;
    EXPECT_EQ(word(R, 0), 0x33221100u);
    EXPECT_EQ(word(R, 4), 0x07665544u);
    T.S.V[1][1] = 0x66554432u; // byte 3 differs
    R = T.run({"ds_write_b32 v0, v1", "s_waitcnt lgkmcnt(0)"});
    EXPECT_EQ(R.Run.Kind, ErrorKind::Race) << Cpu;
    EXPECT_NE(R.Run.Message.find("lanes 0 and 1 of one store write different "
                                 "bytes to LDS offset 0x3"),
              std::string::npos)
        << R.Run.Message;
  }
}

// FLAT accesses to the LDS aperture keep the aligned rule.
TEST(EmuLdsAlign, FlatToLdsRefused) {
  LdsSnip T("gfx942");
  auto R = T.run({"s_mov_b64 s[4:5], src_shared_base", "s_mov_b32 s4, 1",
                  "v_mov_b64 v[2:3], s[4:5]", "flat_load_dword v4, v[2:3]",
                  "s_waitcnt vmcnt(0) lgkmcnt(0)"});
  EXPECT_EQ(R.Run.Kind, ErrorKind::Unsupported) << R.Run.Message;
  EXPECT_NE(R.Run.Message.find("misaligned LDS FLAT access"), std::string::npos)
      << R.Run.Message;
  R = T.run({"s_mov_b64 s[4:5], src_shared_base", "s_mov_b32 s4, 4",
             "v_mov_b64 v[2:3], s[4:5]", "flat_load_dword v4, v[2:3]",
             "s_waitcnt vmcnt(0) lgkmcnt(0)"});
  ASSERT_TRUE(R.Run.ok()) << R.Run.Message;
  EXPECT_EQ(R.State.V[4][0], 0x07060504u);
}

} // namespace
