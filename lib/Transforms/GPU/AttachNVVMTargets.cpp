//===- AttachNVVMTargets.cpp - NVVM targets, sm_90a where needed ----------===//

#include "QiMeng/Dialect/QiMeng/TransformOps/Wgmma.h"
#include "QiMeng/Target/TargetProfile.h"
#include "QiMeng/Transforms/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGATTACHNVVMTARGETSPASS
#include "QiMeng/Transforms/GPU/Passes.h.inc"

namespace {

/// Whether `op` only exists on the architecture-specific sm_90a.
bool needsSm90a(Operation *op) {
  if (isa<nvgpu::WarpgroupMmaOp, nvgpu::WarpgroupGenerateDescriptorOp,
          nvgpu::WarpgroupMmaStoreOp, NVVM::SetMaxRegisterOp>(op))
    return true;
  StringRef name = op->getName().getStringRef();
  return name.starts_with("nvvm.wgmma");
}

/// Whether `op` needs sm_80 or newer: Ampere's asynchronous copies and the
/// mma.sync shapes the tensor-core plans use (ldmatrix is sm_75's, but only
/// comes with them). Upstream marks neither with NVVMRequiresSM, so the
/// module verifier does not catch them.
bool needsSm80(Operation *op) {
  if (isa<nvgpu::DeviceAsyncCopyOp, nvgpu::DeviceAsyncCreateGroupOp,
          nvgpu::DeviceAsyncWaitOp, nvgpu::MmaSyncOp, nvgpu::LdMatrixOp>(op))
    return true;
  StringRef name = op->getName().getStringRef();
  return name.starts_with("nvvm.cp.async") || name.starts_with("nvvm.mma") ||
         name.starts_with("nvvm.ldmatrix");
}

/// The first op of `module` for which `needs` holds, or null.
Operation *findOp(gpu::GPUModuleOp module,
                  llvm::function_ref<bool(Operation *)> needs) {
  Operation *found = nullptr;
  module.walk([&](Operation *op) {
    if (!needs(op))
      return WalkResult::advance();
    found = op;
    return WalkResult::interrupt();
  });
  return found;
}

/// PTX features with the version raised to 8.0 (what sm_90a needs) when they
/// name an older one.
std::string withPTX80(StringRef features) {
  SmallVector<std::string> kept;
  bool hasVersion = false;
  for (StringRef feature : llvm::split(features, ',')) {
    StringRef trimmed = feature.trim();
    if (trimmed.empty())
      continue;
    unsigned version = 0;
    StringRef number = trimmed;
    if (number.consume_front("+ptx") && !number.getAsInteger(10, version)) {
      hasVersion = true;
      kept.push_back(version < 80 ? "+ptx80" : trimmed.str());
      continue;
    }
    kept.push_back(trimmed.str());
  }
  if (!hasVersion)
    kept.push_back("+ptx80");
  return llvm::join(kept, ",");
}

class QiMengAttachNVVMTargetsPass
    : public impl::QiMengAttachNVVMTargetsPassBase<
          QiMengAttachNVVMTargetsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    for (auto module : getOperation().getOps<gpu::GPUModuleOp>()) {
      if (auto shared =
              module.lookupSymbol<memref::GlobalOp>(kDynamicSharedGlobal))
        shared.setPublic();
      if (!NVVM::NVVMCheckSMVersion(/*archAccelerated=*/false, 80)
               .isCompatibleWith(
                   NVVM::NVVMCheckSMVersion::getTargetSMVersionFromStr(
                       chip))) {
        if (Operation *ampereOp = findOp(module, needsSm80)) {
          ampereOp->emitError()
              << "kernel module '" << module.getName() << "' uses '"
              << ampereOp->getName()
              << "' (asynchronous copies or tensor cores of sm_80), which "
              << chip
              << " lacks; QiMeng's plans are for sm_80 and newer (compile "
                 "with chip=sm_80 or newer)";
          return signalPassFailure();
        }
      }
      Operation *hopperOp = findOp(module, needsSm90a);
      std::string moduleChip = chip, moduleFeatures = features;
      if (hopperOp && chip != "sm_90a") {
        if (chip != "sm_90") {
          hopperOp->emitError()
              << "kernel module '" << module.getName()
              << "' uses Hopper warpgroup instructions, which only sm_90a "
                 "has, but is compiled for "
              << chip
              << " (compile with chip=sm_90, which takes sm_90a for such "
                 "kernels, or chip=sm_90a)";
          return signalPassFailure();
        }
        moduleChip = "sm_90a";
        moduleFeatures = withPTX80(features);
      }
      SmallVector<Attribute> targets;
      if (ArrayAttr existing = module.getTargetsAttr())
        llvm::append_range(targets, existing.getValue());
      Attribute target = NVVM::NVVMTargetAttr::get(
          &getContext(), optLevel, triple, moduleChip, moduleFeatures);
      if (!llvm::is_contained(targets, target))
        targets.push_back(target);
      module.setTargetsAttr(ArrayAttr::get(&getContext(), targets));
    }
  }
};

} // namespace
} // namespace mlir::qimeng
