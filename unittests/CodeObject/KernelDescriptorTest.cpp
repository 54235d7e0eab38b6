//===- KernelDescriptorTest.cpp - The 64-byte kernel descriptor -----------===//
//
// Bit positions from AMDGPUUsage, "Kernel Descriptor for GFX6-GFX12".
//
//===----------------------------------------------------------------------===//

#include "asmevo/CodeObject/KernelDescriptor.h"

#include "gtest/gtest.h"

using namespace asmevo;

namespace {

TEST(KernelDescriptor, DecodesDocumentedFields) {
  std::array<uint8_t, 64> B{};
  B[0] = 0x00; B[1] = 0x01;             // group_segment_fixed_size = 256
  B[8] = 0x18; B[9] = 0x01;             // kernarg_size = 280
  B[16] = 0xC0; B[17] = 0x10;           // entry offset 0x10c0
  B[44] = 0x02;                         // rsrc3: accum_offset field 2
  B[48] = 0x41; B[49] = 0x00; B[50] = 0xAF; B[51] = 0x00; // rsrc1
  B[52] = 0x84; B[53] = 0x00;           // rsrc2: user_sgpr_count 2, wg id x
  B[56] = 0x08;                         // kernarg segment ptr
  KernelDescriptor KD = KernelDescriptor::decode(B);
  EXPECT_EQ(KD.GroupSegmentFixedSize, 256u);
  EXPECT_EQ(KD.KernargSize, 280u);
  EXPECT_EQ(KD.KernelCodeEntryByteOffset, 0x10c0);
  EXPECT_EQ(KD.accumOffset(), 12u);
  EXPECT_EQ(KD.granulatedWorkitemVgprCount(), 1u);
  EXPECT_EQ(KD.granulatedWavefrontSgprCount(), 1u);
  EXPECT_EQ(KD.floatDenormMode32(), 3u);
  EXPECT_EQ(KD.floatDenormMode1664(), 3u);
  EXPECT_TRUE(KD.enableDx10Clamp());
  EXPECT_TRUE(KD.enableIeeeMode());
  EXPECT_EQ(KD.userSgprCount(), 2u);
  EXPECT_TRUE(KD.enableSgprWorkgroupId(0));
  EXPECT_FALSE(KD.enableSgprWorkgroupId(1));
  EXPECT_TRUE(KD.enableSgprKernargSegmentPtr());
  EXPECT_FALSE(KD.enableSgprDispatchPtr());
  EXPECT_EQ(KD.encode(), B);
}

TEST(KernelDescriptor, ReservedBytesSurvive) {
  std::array<uint8_t, 64> B{};
  B[30] = 0x5a; // reserved
  KernelDescriptor KD = KernelDescriptor::decode(B);
  EXPECT_EQ(KD.encode()[30], 0x5a);
}

TEST(KernelDescriptor, NamedFields) {
  KernelDescriptor KD;
  EXPECT_TRUE(KD.setField("user_sgpr_count", 6));
  EXPECT_TRUE(KD.setField("enable_vgpr_workitem_id", 2));
  EXPECT_TRUE(KD.setField("kernarg_preload_spec_length", 3));
  EXPECT_TRUE(KD.setField("kernarg_size", 100));
  EXPECT_EQ(KD.userSgprCount(), 6u);
  EXPECT_EQ(KD.enableVgprWorkitemId(), 2u);
  EXPECT_EQ(KD.kernargPreloadLength(), 3u);
  EXPECT_EQ(KD.KernargSize, 100u);
  EXPECT_FALSE(KD.setField("user_sgpr_count", 32)); // 5 bits
  EXPECT_FALSE(KD.setField("no_such_field", 1));
  bool Found = false;
  for (auto &[Name, Value] : KD.fields())
    if (Name == "enable_vgpr_workitem_id") {
      Found = true;
      EXPECT_EQ(Value, 2u);
    }
  EXPECT_TRUE(Found);
}

} // namespace
