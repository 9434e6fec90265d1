//===- TargetProfile.h - GPU target profiles --------------------*- C++ -*-===//
//
// The hardware numbers the planners size tiles with.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_TARGET_TARGETPROFILE_H
#define QIMENG_TARGET_TARGETPROFILE_H

#include "llvm/ADT/StringRef.h"

namespace mlir {
class Operation;
} // namespace mlir

#include <cstdint>
#include <optional>

namespace mlir::qimeng {

/// What a planner needs to know about a GPU.
struct TargetProfile {
  llvm::StringRef chip;      ///< e.g. "sm_90"
  int64_t numSMs;            ///< streaming multiprocessors
  int64_t sharedMemPerSM;    ///< bytes
  int64_t sharedMemPerBlock; ///< bytes, static allocation limit
  int64_t maxThreadsPerBlock;
  int64_t registersPerSM;
  int64_t l2Bytes;
  int64_t warpSize;
  /// Hopper's warpgroup tensor cores and TMA (sm_90a, which --lower-to-nvvm
  /// picks for the kernels that use them).
  bool wgmma = false;
};

/// Returns the profile of a chip name ("sm_80", "sm_90", "sm_90a"), or
/// nullopt.
std::optional<TargetProfile> lookupTargetProfile(llvm::StringRef chip);

/// The profile of `chip`, or std::nullopt after an error on `diagnosed`
/// ("unknown target ...; expected sm_80 or sm_90").
std::optional<TargetProfile> lookupTargetProfile(llvm::StringRef chip,
                                                 mlir::Operation *diagnosed);

/// The oldest PTX ISA version LLVM 22 emits for `chip` (e.g. "sm_90" -> 78,
/// "sm_100" -> 86; "a" and "f" variants included), or std::nullopt for a
/// chip LLVM 22 does not emit for.
std::optional<unsigned> getMinimumPTXVersion(llvm::StringRef chip);

} // namespace mlir::qimeng

#endif // QIMENG_TARGET_TARGETPROFILE_H
