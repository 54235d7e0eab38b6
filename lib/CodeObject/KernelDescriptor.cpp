//===- KernelDescriptor.cpp - The 64-byte AMDHSA kernel descriptor --------===//

#include "asmevo/CodeObject/KernelDescriptor.h"

#include "llvm/Support/Endian.h"

using namespace llvm;
using namespace asmevo;

namespace {
template <typename T> T read(ArrayRef<uint8_t> B, unsigned Off) {
  return support::endian::read<T, llvm::endianness::little>(B.data() + Off);
}
template <typename T> void write(uint8_t *B, unsigned Off, T V) {
  support::endian::write<T, llvm::endianness::little>(B + Off, V);
}

/// Bit fields of the descriptor words: (name, word, low bit, width).
struct FieldDesc {
  const char *Name;
  enum Word { Rsrc1, Rsrc2, Rsrc3, Props, Preload } Where;
  unsigned Lo, Width;
};
const FieldDesc BitFields[] = {
    {"granulated_workitem_vgpr_count", FieldDesc::Rsrc1, 0, 6},
    {"granulated_wavefront_sgpr_count", FieldDesc::Rsrc1, 6, 4},
    {"priority", FieldDesc::Rsrc1, 10, 2},
    {"float_round_mode_32", FieldDesc::Rsrc1, 12, 2},
    {"float_round_mode_16_64", FieldDesc::Rsrc1, 14, 2},
    {"float_denorm_mode_32", FieldDesc::Rsrc1, 16, 2},
    {"float_denorm_mode_16_64", FieldDesc::Rsrc1, 18, 2},
    {"priv", FieldDesc::Rsrc1, 20, 1},
    {"enable_dx10_clamp", FieldDesc::Rsrc1, 21, 1},
    {"debug_mode", FieldDesc::Rsrc1, 22, 1},
    {"enable_ieee_mode", FieldDesc::Rsrc1, 23, 1},
    {"bulky", FieldDesc::Rsrc1, 24, 1},
    {"cdbg_user", FieldDesc::Rsrc1, 25, 1},
    {"fp16_overflow", FieldDesc::Rsrc1, 26, 1},
    {"rsrc1_reserved", FieldDesc::Rsrc1, 27, 5},
    {"enable_private_segment", FieldDesc::Rsrc2, 0, 1},
    {"user_sgpr_count", FieldDesc::Rsrc2, 1, 5},
    {"enable_trap_handler", FieldDesc::Rsrc2, 6, 1},
    {"enable_sgpr_workgroup_id_x", FieldDesc::Rsrc2, 7, 1},
    {"enable_sgpr_workgroup_id_y", FieldDesc::Rsrc2, 8, 1},
    {"enable_sgpr_workgroup_id_z", FieldDesc::Rsrc2, 9, 1},
    {"enable_sgpr_workgroup_info", FieldDesc::Rsrc2, 10, 1},
    {"enable_vgpr_workitem_id", FieldDesc::Rsrc2, 11, 2},
    {"enable_exception_address_watch", FieldDesc::Rsrc2, 13, 1},
    {"enable_exception_memory", FieldDesc::Rsrc2, 14, 1},
    {"granulated_lds_size", FieldDesc::Rsrc2, 15, 9},
    {"enable_exception_ieee_754_fp_invalid_operation", FieldDesc::Rsrc2, 24, 1},
    {"enable_exception_fp_denormal_source", FieldDesc::Rsrc2, 25, 1},
    {"enable_exception_ieee_754_fp_division_by_zero", FieldDesc::Rsrc2, 26, 1},
    {"enable_exception_ieee_754_fp_overflow", FieldDesc::Rsrc2, 27, 1},
    {"enable_exception_ieee_754_fp_underflow", FieldDesc::Rsrc2, 28, 1},
    {"enable_exception_ieee_754_fp_inexact", FieldDesc::Rsrc2, 29, 1},
    {"enable_exception_int_divide_by_zero", FieldDesc::Rsrc2, 30, 1},
    {"rsrc2_reserved", FieldDesc::Rsrc2, 31, 1},
    {"accum_offset", FieldDesc::Rsrc3, 0, 6},
    {"rsrc3_reserved_6", FieldDesc::Rsrc3, 6, 10},
    {"tg_split", FieldDesc::Rsrc3, 16, 1},
    {"rsrc3_reserved_17", FieldDesc::Rsrc3, 17, 15},
    {"enable_sgpr_private_segment_buffer", FieldDesc::Props, 0, 1},
    {"enable_sgpr_dispatch_ptr", FieldDesc::Props, 1, 1},
    {"enable_sgpr_queue_ptr", FieldDesc::Props, 2, 1},
    {"enable_sgpr_kernarg_segment_ptr", FieldDesc::Props, 3, 1},
    {"enable_sgpr_dispatch_id", FieldDesc::Props, 4, 1},
    {"enable_sgpr_flat_scratch_init", FieldDesc::Props, 5, 1},
    {"enable_sgpr_private_segment_size", FieldDesc::Props, 6, 1},
    {"props_reserved_7", FieldDesc::Props, 7, 3},
    {"enable_wavefront_size32", FieldDesc::Props, 10, 1},
    {"uses_dynamic_stack", FieldDesc::Props, 11, 1},
    {"props_reserved_12", FieldDesc::Props, 12, 4},
    {"kernarg_preload_spec_length", FieldDesc::Preload, 0, 7},
    {"kernarg_preload_spec_offset", FieldDesc::Preload, 7, 9},
};
} // namespace

KernelDescriptor KernelDescriptor::decode(ArrayRef<uint8_t> B) {
  KernelDescriptor KD;
  std::copy_n(B.begin(), Size, KD.Raw.begin());
  KD.GroupSegmentFixedSize = read<uint32_t>(B, 0);
  KD.PrivateSegmentFixedSize = read<uint32_t>(B, 4);
  KD.KernargSize = read<uint32_t>(B, 8);
  KD.KernelCodeEntryByteOffset = read<int64_t>(B, 16);
  KD.ComputePgmRsrc3 = read<uint32_t>(B, 44);
  KD.ComputePgmRsrc1 = read<uint32_t>(B, 48);
  KD.ComputePgmRsrc2 = read<uint32_t>(B, 52);
  KD.KernelCodeProperties = read<uint16_t>(B, 56);
  KD.KernargPreload = read<uint16_t>(B, 58);
  return KD;
}

std::array<uint8_t, KernelDescriptor::Size> KernelDescriptor::encode() const {
  std::array<uint8_t, Size> B = Raw;
  write<uint32_t>(B.data(), 0, GroupSegmentFixedSize);
  write<uint32_t>(B.data(), 4, PrivateSegmentFixedSize);
  write<uint32_t>(B.data(), 8, KernargSize);
  write<int64_t>(B.data(), 16, KernelCodeEntryByteOffset);
  write<uint32_t>(B.data(), 44, ComputePgmRsrc3);
  write<uint32_t>(B.data(), 48, ComputePgmRsrc1);
  write<uint32_t>(B.data(), 52, ComputePgmRsrc2);
  write<uint16_t>(B.data(), 56, KernelCodeProperties);
  write<uint16_t>(B.data(), 58, KernargPreload);
  return B;
}

static uint32_t wordOf(const KernelDescriptor &KD, FieldDesc::Word W) {
  switch (W) {
  case FieldDesc::Rsrc1:
    return KD.ComputePgmRsrc1;
  case FieldDesc::Rsrc2:
    return KD.ComputePgmRsrc2;
  case FieldDesc::Rsrc3:
    return KD.ComputePgmRsrc3;
  case FieldDesc::Props:
    return KD.KernelCodeProperties;
  case FieldDesc::Preload:
    return KD.KernargPreload;
  }
  return 0;
}

std::vector<std::pair<std::string, uint64_t>>
KernelDescriptor::fields() const {
  std::vector<std::pair<std::string, uint64_t>> F;
  F.emplace_back("group_segment_fixed_size", GroupSegmentFixedSize);
  F.emplace_back("private_segment_fixed_size", PrivateSegmentFixedSize);
  F.emplace_back("kernarg_size", KernargSize);
  for (const FieldDesc &D : BitFields)
    F.emplace_back(D.Name, (wordOf(*this, D.Where) >> D.Lo) &
                               ((1ull << D.Width) - 1));
  return F;
}

bool KernelDescriptor::setField(StringRef Name, uint64_t Value) {
  if (Name == "group_segment_fixed_size" || Name == "private_segment_fixed_size" ||
      Name == "kernarg_size") {
    if (Value > UINT32_MAX)
      return false;
    (Name == "kernarg_size" ? KernargSize
     : Name == "group_segment_fixed_size" ? GroupSegmentFixedSize
                                          : PrivateSegmentFixedSize) =
        uint32_t(Value);
    return true;
  }
  for (const FieldDesc &D : BitFields) {
    if (Name != D.Name)
      continue;
    if (Value >> D.Width)
      return false;
    uint32_t Mask = uint32_t(((1ull << D.Width) - 1) << D.Lo);
    auto apply = [&](auto &W) {
      using T = std::remove_reference_t<decltype(W)>;
      W = T((W & ~Mask) | (uint32_t(Value) << D.Lo));
    };
    switch (D.Where) {
    case FieldDesc::Rsrc1:
      apply(ComputePgmRsrc1);
      break;
    case FieldDesc::Rsrc2:
      apply(ComputePgmRsrc2);
      break;
    case FieldDesc::Rsrc3:
      apply(ComputePgmRsrc3);
      break;
    case FieldDesc::Props:
      apply(KernelCodeProperties);
      break;
    case FieldDesc::Preload:
      apply(KernargPreload);
      break;
    }
    return true;
  }
  return false;
}
