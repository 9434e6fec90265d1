//===- CandidateCheck.cpp - Is an LLM's MLIR safe to take? ----------------===//

#include "QiMeng/MicroCoder/CandidateCheck.h"
#include "QiMeng/Support/ErrorCollector.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ScopedPrinter.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::qimeng;

namespace {
/// The dialects a candidate may use: registered in its parsing context, and
/// named in the prompt, from this one list.
template <typename... Dialects> struct DialectList {
  static void insert(DialectRegistry &registry) {
    registry.insert<Dialects...>();
  }
  static std::string names() {
    return llvm::join(
        llvm::ArrayRef<llvm::StringRef>{Dialects::getDialectNamespace()...},
        ", ");
  }
};
using AllowedDialects =
    DialectList<func::FuncDialect, arith::ArithDialect, math::MathDialect,
                memref::MemRefDialect, scf::SCFDialect, vector::VectorDialect,
                gpu::GPUDialect, nvgpu::NVGPUDialect, affine::AffineDialect,
                index::IndexDialect>;
} // namespace

llvm::StringRef mlir::qimeng::getAllowedDialectsText() {
  static const std::string names = AllowedDialects::names();
  return names;
}

static bool isWorkgroup(MemRefType type) {
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
  return space && space.getValue() == gpu::AddressSpace::Workgroup;
}

/// Where the memory behind `value` comes from, or "" when it is allowed.
static std::string checkMemoryRoot(Value value, func::FuncOp func) {
  while (true) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      Operation *owner = arg.getOwner()->getParentOp();
      if (owner == func.getOperation())
        return "";
      // Workgroup and private attributions of a launch.
      if (auto launch = dyn_cast<gpu::LaunchOp>(owner))
        if (llvm::is_contained(launch.getWorkgroupAttributions(), arg) ||
            llvm::is_contained(launch.getPrivateAttributions(), arg))
          return "";
      return "a memref that flows through a block argument of '" +
             owner->getName().getStringRef().str() + "'";
    }
    Operation *def = value.getDefiningOp();
    if (isa<memref::AllocOp, memref::AllocaOp>(def))
      return "";
    if (auto get = dyn_cast<memref::GetGlobalOp>(def)) {
      if (isWorkgroup(get.getType()))
        return "";
      return "the global '" + get.getName().str() +
             "', which is not workgroup memory";
    }
    if (auto view = dyn_cast<ViewLikeOpInterface>(def)) {
      value = view.getViewSource();
      continue;
    }
    if (auto cast = dyn_cast<memref::CastOp>(def)) {
      value = cast.getSource();
      continue;
    }
    return "a memref made by '" + def->getName().getStringRef().str() + "'";
  }
}

OwningOpRef<ModuleOp> mlir::qimeng::checkCandidate(llvm::StringRef text,
                                                   llvm::StringRef kernelName,
                                                   llvm::StringRef functionType,
                                                   MLIRContext *context,
                                                   std::string &reason) {
  DialectRegistry registry;
  AllowedDialects::insert(registry);
  MLIRContext restricted(registry);
  restricted.disableMultithreading();
  std::string diagnostics;
  OwningOpRef<ModuleOp> parsed;
  {
    ErrorCollector errors(&restricted);
    parsed = parseSourceString<ModuleOp>(text, &restricted);
    diagnostics = errors.join();
  }
  if (!parsed) {
    reason = "it does not parse as MLIR of the allowed dialects (" +
             getAllowedDialectsText().str() + "): " + diagnostics;
    return nullptr;
  }

  func::FuncOp func;
  for (Operation &op : parsed->getBody()->getOperations()) {
    if (auto f = dyn_cast<func::FuncOp>(op)) {
      if (func || f.getSymName() != kernelName) {
        reason = "the module must hold one function, @" + kernelName.str() +
                 "; it holds @" + f.getSymName().str();
        return nullptr;
      }
      func = f;
      continue;
    }
    if (auto global = dyn_cast<memref::GlobalOp>(op);
        global && isWorkgroup(global.getType()))
      continue;
    reason = "the module may hold only @" + kernelName.str() +
             " and workgroup memref.global ops, not '" +
             op.getName().getStringRef().str() + "'";
    return nullptr;
  }
  if (!func || func.isExternal()) {
    reason = "the module has no body for @" + kernelName.str();
    return nullptr;
  }
  if (llvm::to_string(func.getFunctionType()) != functionType) {
    reason = "the signature changed: @" + kernelName.str() + " must stay " +
             functionType.str() + ", got " +
             llvm::to_string(func.getFunctionType());
    return nullptr;
  }
  WalkResult walk = func.walk([&](Operation *op) {
    if (isa<func::CallOp, func::CallIndirectOp, gpu::LaunchFuncOp,
            gpu::PrintfOp, memref::ReinterpretCastOp,
            memref::ExtractAlignedPointerAsIndexOp,
            memref::ExtractStridedMetadataOp, memref::DeallocOp>(op)) {
      reason = "'" + op->getName().getStringRef().str() +
               "' is not allowed in micro-code";
      return WalkResult::interrupt();
    }
    // Every memory access must stay within the function's own memory.
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return WalkResult::advance();
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (MemoryEffects::EffectInstance &effect : instances) {
      Value value = effect.getValue();
      if (!value || !isa<MemRefType>(value.getType()))
        continue;
      std::string root = checkMemoryRoot(value, func);
      if (!root.empty()) {
        reason = "'" + op->getName().getStringRef().str() + "' accesses " +
                 root +
                 "; only the function's arguments and memory it "
                 "allocates itself may be used";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return nullptr;

  // Taken over into the compiler's context through its text.
  std::string canonical;
  llvm::raw_string_ostream os(canonical);
  parsed->print(os);
  OwningOpRef<ModuleOp> result =
      parseSourceString<ModuleOp>(canonical, context);
  if (!result)
    reason = "internal error: the checked module does not parse again";
  return result;
}
