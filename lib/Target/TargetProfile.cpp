//===- TargetProfile.cpp - GPU target profiles ----------------------------===//

#include "QiMeng/Target/TargetProfile.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir::qimeng;

std::optional<TargetProfile>
mlir::qimeng::lookupTargetProfile(llvm::StringRef chip) {
  // H100/H200 (SXM): 132 SMs, 228 KB shared memory per SM, 50 MB L2.
  // Static shared memory per block is limited to 48 KB.
  if (chip == "sm_90" || chip == "sm_90a")
    return TargetProfile{"sm_90", 132,   228 * 1024,       48 * 1024,
                         1024,    65536, 50 * 1024 * 1024, 32,
                         /*wgmma=*/true};
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

std::optional<unsigned> mlir::qimeng::getMinimumPTXVersion(llvm::StringRef chip) {
  // What LLVM 22's NVPTX backend picks for each processor it knows (read off
  // `llc -mcpu=...`'s .version line).
  unsigned version = llvm::StringSwitch<unsigned>(chip)
                         .Cases({"sm_20", "sm_21", "sm_30", "sm_32"}, 32)
                         .Cases({"sm_35", "sm_37"}, 41)
                         .Cases({"sm_50", "sm_52", "sm_53"}, 40)
                         .Cases({"sm_60", "sm_61", "sm_62"}, 50)
                         .Cases({"sm_70", "sm_72"}, 60)
                         .Case("sm_75", 63)
                         .Case("sm_80", 70)
                         .Case("sm_86", 71)
                         .Case("sm_87", 74)
                         .Cases({"sm_89", "sm_90"}, 78)
                         .Case("sm_90a", 80)
                         .Cases({"sm_100", "sm_100a", "sm_101", "sm_101a"}, 86)
                         .Cases({"sm_120", "sm_120a"}, 87)
                         .Cases({"sm_100f", "sm_101f", "sm_103", "sm_103a",
                                 "sm_103f", "sm_120f", "sm_121", "sm_121a",
                                 "sm_121f"},
                                88)
                         .Cases({"sm_88", "sm_110", "sm_110a", "sm_110f"}, 90)
                         .Default(0);
  if (version == 0)
    return std::nullopt;
  return version;
}
