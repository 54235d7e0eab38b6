//===- KernelDescriptor.h - The 64-byte AMDHSA kernel descriptor -*- C++ -*-=//
//
// Layout and bit fields as documented in LLVM's AMDGPUUsage ("Kernel
// Descriptor" for code object v3 and later, gfx90a/gfx942 rows).
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_CODEOBJECT_KERNELDESCRIPTOR_H
#define ASMEVO_CODEOBJECT_KERNELDESCRIPTOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace asmevo {

struct KernelDescriptor {
  static constexpr unsigned Size = 64;

  uint32_t GroupSegmentFixedSize = 0;   // bytes 0-3
  uint32_t PrivateSegmentFixedSize = 0; // bytes 4-7
  uint32_t KernargSize = 0;             // bytes 8-11
  int64_t KernelCodeEntryByteOffset = 0; // bytes 16-23
  uint32_t ComputePgmRsrc3 = 0;         // bytes 44-47
  uint32_t ComputePgmRsrc1 = 0;         // bytes 48-51
  uint32_t ComputePgmRsrc2 = 0;         // bytes 52-55
  uint16_t KernelCodeProperties = 0;    // bytes 56-57
  uint16_t KernargPreload = 0;          // bytes 58-59
  /// All 64 bytes as read, so reserved bytes survive a round trip.
  std::array<uint8_t, Size> Raw{};

  static KernelDescriptor decode(llvm::ArrayRef<uint8_t> Bytes);
  /// Writes the fields over Raw's reserved bytes.
  std::array<uint8_t, Size> encode() const;

  // COMPUTE_PGM_RSRC1
  unsigned granulatedWorkitemVgprCount() const { return bits(ComputePgmRsrc1, 0, 6); }
  unsigned granulatedWavefrontSgprCount() const { return bits(ComputePgmRsrc1, 6, 4); }
  unsigned floatRoundMode32() const { return bits(ComputePgmRsrc1, 12, 2); }
  unsigned floatRoundMode1664() const { return bits(ComputePgmRsrc1, 14, 2); }
  unsigned floatDenormMode32() const { return bits(ComputePgmRsrc1, 16, 2); }
  unsigned floatDenormMode1664() const { return bits(ComputePgmRsrc1, 18, 2); }
  bool enableDx10Clamp() const { return bits(ComputePgmRsrc1, 21, 1); }
  bool enableIeeeMode() const { return bits(ComputePgmRsrc1, 23, 1); }
  // COMPUTE_PGM_RSRC2
  bool enablePrivateSegment() const { return bits(ComputePgmRsrc2, 0, 1); }
  unsigned userSgprCount() const { return bits(ComputePgmRsrc2, 1, 5); }
  bool enableTrapHandler() const { return bits(ComputePgmRsrc2, 6, 1); }
  bool enableSgprWorkgroupId(unsigned Dim) const {
    return bits(ComputePgmRsrc2, 7 + Dim, 1);
  }
  bool enableSgprWorkgroupInfo() const { return bits(ComputePgmRsrc2, 10, 1); }
  unsigned enableVgprWorkitemId() const { return bits(ComputePgmRsrc2, 11, 2); }
  unsigned granulatedLdsSize() const { return bits(ComputePgmRsrc2, 15, 9); }
  // COMPUTE_PGM_RSRC3 (gfx90a, gfx942)
  unsigned accumOffsetField() const { return bits(ComputePgmRsrc3, 0, 6); }
  /// First AGPR's index in the unified VGPR file: (field + 1) * 4.
  unsigned accumOffset() const { return (accumOffsetField() + 1) * 4; }
  bool tgSplit() const { return bits(ComputePgmRsrc3, 16, 1); }
  // KERNEL_CODE_PROPERTIES
  bool enableSgprPrivateSegmentBuffer() const { return KernelCodeProperties & 1; }
  bool enableSgprDispatchPtr() const { return KernelCodeProperties & 2; }
  bool enableSgprQueuePtr() const { return KernelCodeProperties & 4; }
  bool enableSgprKernargSegmentPtr() const { return KernelCodeProperties & 8; }
  bool enableSgprDispatchId() const { return KernelCodeProperties & 16; }
  bool enableSgprFlatScratchInit() const { return KernelCodeProperties & 32; }
  bool enableSgprPrivateSegmentSize() const { return KernelCodeProperties & 64; }
  bool enableWavefrontSize32() const { return KernelCodeProperties & 1024; }
  bool usesDynamicStack() const { return KernelCodeProperties & 2048; }
  // KERNARG_PRELOAD (gfx940+): count of SGPRs preloaded and their offset.
  unsigned kernargPreloadLength() const { return KernargPreload & 0x7f; }
  unsigned kernargPreloadOffset() const { return KernargPreload >> 7; }

  void setGranulatedWorkitemVgprCount(unsigned V) { setBits(ComputePgmRsrc1, 0, 6, V); }
  void setGranulatedWavefrontSgprCount(unsigned V) { setBits(ComputePgmRsrc1, 6, 4, V); }
  void setAccumOffsetField(unsigned V) { setBits(ComputePgmRsrc3, 0, 6, V); }

  /// Named fields as (name, value) pairs, in layout order, for printing.
  std::vector<std::pair<std::string, uint64_t>> fields() const;
  /// Sets a named field from fields(); false when the name is unknown or the
  /// value does not fit.
  bool setField(llvm::StringRef Name, uint64_t Value);

  bool operator==(const KernelDescriptor &O) const { return encode() == O.encode(); }

private:
  static unsigned bits(uint32_t W, unsigned Lo, unsigned N) {
    return (W >> Lo) & ((1u << N) - 1);
  }
  static void setBits(uint32_t &W, unsigned Lo, unsigned N, unsigned V) {
    uint32_t Mask = ((1u << N) - 1) << Lo;
    W = (W & ~Mask) | ((V << Lo) & Mask);
  }
};

} // namespace asmevo

#endif // ASMEVO_CODEOBJECT_KERNELDESCRIPTOR_H
