//===- TargetProfile.cpp - GPU target profiles ----------------------------===//

#include "QiMeng/Target/TargetProfile.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"

using namespace mlir::qimeng;

std::optional<TargetProfile>
mlir::qimeng::lookupTargetProfile(llvm::StringRef chip) {
  // H100/H200 (SXM): 132 SMs, 228 KB shared memory per SM, 50 MB L2.
  // Static shared memory per block is limited to 48 KB.
  if (chip == "sm_90" || chip == "sm_90a")
    return TargetProfile{"sm_90", 132,   228 * 1024,       48 * 1024,
                         1024,    65536, 50 * 1024 * 1024, 32};
  // A100: 108 SMs, 164 KB shared memory per SM, 40 MB L2.
  if (chip == "sm_80")
    return TargetProfile{"sm_80", 108,   164 * 1024,       48 * 1024,
                         1024,    65536, 40 * 1024 * 1024, 32};
  return std::nullopt;
}

std::optional<mlir::qimeng::TargetProfile>
mlir::qimeng::lookupTargetProfile(llvm::StringRef chip,
                                  mlir::Operation *diagnosed) {
  std::optional<TargetProfile> profile = lookupTargetProfile(chip);
  if (!profile)
    diagnosed->emitError() << "unknown target '" << chip
                           << "'; expected sm_80 or sm_90";
  return profile;
}
