//===- CaptureWriter.h - Capture data and a dependency-free writer -*- C++ -*-//
//
// The in-memory form of a capture (docs/capture-format.md) and its writer.
// This header and CaptureWriter.cpp use only the C++ standard library, so
// the LD_PRELOAD interposer (tools/capture) links them without LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_VERIFY_CAPTUREWRITER_H
#define ASMEVO_VERIFY_CAPTUREWRITER_H

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace asmevo {
namespace verify {

constexpr char CaptureMagic[8] = {'A', 'S', 'M', 'E', 'V', 'C', 'A', 'P'};
constexpr uint32_t CaptureVersion = 1;

struct CaptureRegion {
  uint64_t Address = 0;
  uint64_t Size = 0;
  bool Readable = true, Writable = true;
  std::string Name;
  std::vector<uint8_t> Before;
  bool HasAfter = false;
  std::vector<uint8_t> After;
};

struct CaptureData {
  uint32_t Version = CaptureVersion;
  std::string Producer;    // "libasmevo-capture 1", "asmevo-run", ...
  std::string Target;      // "amdgcn-amd-amdhsa--gfx942"
  std::string Kernel;      // "axpy_f32"
  std::string CodeObjectSha256;
  std::vector<uint8_t> CodeObject; // optional embedded bytes
  std::array<uint32_t, 3> Workgroups{1, 1, 1};
  std::array<uint32_t, 3> WorkgroupSize{1, 1, 1};
  uint32_t DynamicLds = 0;
  std::vector<uint8_t> Kernarg;
  /// Hidden arguments in Kernarg were written by the producer's runtime
  /// (true for real dispatches): replay keeps them except the ones the
  /// executor must own (see docs/capture-format.md).
  bool KernargHasHidden = true;
  std::vector<CaptureRegion> Regions;
  std::string Note; // free text from the producer
};

/// Serializes C (computing the checksum). Never fails.
std::vector<uint8_t> serializeCapture(const CaptureData &C);
/// Writes serializeCapture(C) to Path; false with errno set on failure.
bool writeCapture(const CaptureData &C, const std::string &Path);

/// SHA-256 (FIPS 180-4) without dependencies.
std::array<uint8_t, 32> sha256(const uint8_t *Data, size_t Size);
std::string sha256HexStd(const uint8_t *Data, size_t Size);

} // namespace verify
} // namespace asmevo

#endif
