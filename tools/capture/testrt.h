//===- testrt.h - Internals shared by the test HIP runtime's files --------===//
//
// tools/capture/testrt.cpp owns device memory and runs launches on the
// emulator; testrt_fatbin.cpp adds the API that host libraries built with
// hipcc use (fat binaries, hipLaunchKernel, device properties). Not a
// public header.
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_TOOLS_CAPTURE_TESTRT_H
#define ASMEVO_TOOLS_CAPTURE_TESTRT_H

#include "hip_api.h"

#include <array>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace asmevo::testrt {

/// Guards device memory; held by launch() itself.
std::mutex &mutex();
/// Host bytes of device range [Addr, Addr + Len) in one allocation, or null.
/// Call with mutex() held.
uint8_t *deviceBytes(uint64_t Addr, size_t Len);
/// Whether P lies in the test runtime's device address range.
bool isDevice(const void *P);
/// Runs one dispatch of Kernel in code object Image on the emulator with all
/// live allocations as memory (writes them back afterwards) and, with
/// ASMEVO_TESTRT_CAPTURE_DIR, keeps it as a capture. Synchronous.
hipError_t launch(const std::vector<uint8_t> &Image, const std::string &Target,
                  const std::string &Kernel, std::array<uint32_t, 3> Grid,
                  std::array<uint32_t, 3> Block, uint32_t Shared,
                  std::vector<uint8_t> Kernarg);

} // namespace asmevo::testrt

#endif
