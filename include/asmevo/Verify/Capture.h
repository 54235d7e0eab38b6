//===- Capture.h - Captured dispatches (tier 2) ------------------*- C++ -*-===//
//
// A capture records one real dispatch: target, kernel, the code object's
// SHA-256 (and optionally its bytes), the launch, the kernarg bytes, and
// every memory region the dispatch can touch with its virtual address, its
// contents before and (optionally) after the dispatch. The file format is
// versioned and documented in docs/capture-format.md; CaptureWriter.h writes
// it without LLVM (the LD_PRELOAD interposer uses that), this header reads
// and writes it with error reporting.
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_VERIFY_CAPTURE_H
#define ASMEVO_VERIFY_CAPTURE_H

#include "asmevo/Verify/CaptureWriter.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace asmevo {
namespace verify {

/// Reads and validates a capture file: magic, version, checksum, header
/// fields, blob bounds, region overlaps. Errors name the file and the field.
llvm::Expected<CaptureData> readCapture(llvm::StringRef Path);
llvm::Expected<CaptureData> parseCapture(llvm::ArrayRef<uint8_t> Bytes,
                                         llvm::StringRef Name);
llvm::Error writeCaptureFile(const CaptureData &C, llvm::StringRef Path);

/// SHA-256 of Bytes as 64 lowercase hex digits.
std::string sha256Hex(llvm::ArrayRef<uint8_t> Bytes);

} // namespace verify
} // namespace asmevo

#endif
