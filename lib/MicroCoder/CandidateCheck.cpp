//===- CandidateCheck.cpp - Is an LLM's MLIR safe to take? ----------------===//

#include "QiMeng/MicroCoder/CandidateCheck.h"
#include "QiMeng/Support/GuardedParse.h"

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
#include "llvm/ADT/StringSet.h"
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

/// Ops a candidate may use, by name: what GPU kernels are written with.
/// Anything else (calls, printing, host-side GPU ops, pointer extraction,
/// raw reinterpretation, deallocation, ...) is rejected, whatever dialect
/// it comes from: safety does not depend on the list of what is known to be
/// dangerous being complete.
static const llvm::StringSet<> &getAllowedOps() {
  static const llvm::StringSet<> ops = {
      // func
      "func.func",
      "func.return",
      // scf
      "scf.for",
      "scf.if",
      "scf.yield",
      "scf.while",
      "scf.condition",
      // affine
      "affine.apply",
      "affine.min",
      "affine.max",
      "affine.for",
      "affine.if",
      "affine.yield",
      "affine.load",
      "affine.store",
      "affine.delinearize_index",
      "affine.linearize_index",
      // memref
      "memref.load",
      "memref.store",
      "memref.alloc",
      "memref.alloca",
      "memref.subview",
      "memref.cast",
      "memref.collapse_shape",
      "memref.expand_shape",
      "memref.dim",
      "memref.rank",
      "memref.get_global",
      "memref.global",
      "memref.copy",
      "memref.atomic_rmw",
      "memref.generic_atomic_rmw",
      "memref.atomic_yield",
      "memref.assume_alignment",
      // vector
      "vector.load",
      "vector.store",
      "vector.transfer_read",
      "vector.transfer_write",
      "vector.maskedload",
      "vector.maskedstore",
      "vector.broadcast",
      "vector.splat",
      "vector.extract",
      "vector.insert",
      "vector.extract_strided_slice",
      "vector.insert_strided_slice",
      "vector.from_elements",
      "vector.shape_cast",
      "vector.bitcast",
      "vector.transpose",
      "vector.shuffle",
      "vector.fma",
      "vector.reduction",
      "vector.multi_reduction",
      "vector.contract",
      "vector.outerproduct",
      "vector.create_mask",
      "vector.constant_mask",
      "vector.step",
      "vector.yield",
      // gpu (device side)
      "gpu.launch",
      "gpu.terminator",
      "gpu.barrier",
      "gpu.thread_id",
      "gpu.block_id",
      "gpu.block_dim",
      "gpu.grid_dim",
      "gpu.lane_id",
      "gpu.subgroup_reduce",
      "gpu.shuffle",
      "gpu.all_reduce",
      "gpu.yield",
      // nvgpu
      "nvgpu.ldmatrix",
      "nvgpu.mma.sync",
      "nvgpu.device_async_copy",
      "nvgpu.device_async_create_group",
      "nvgpu.device_async_wait",
  };
  return ops;
}

/// Dialects whose every op is pure computation on values.
static bool isAllowedDialectWide(StringRef dialect) {
  return dialect == "arith" || dialect == "math" || dialect == "index";
}

/// The first attribute of `op` that is not one of its op's own (a
/// discardable one: lowering hints, foreign dialects' annotations).
/// gpu.launch keeps the count of its workgroup attributions in an attribute
/// its parser adds: its own, though not declared.
static std::optional<StringAttr> getForeignAttribute(Operation *op) {
  std::optional<RegisteredOperationName> info = op->getRegisteredInfo();
  for (NamedAttribute attr : op->getDiscardableAttrs()) {
    if (info && llvm::is_contained(info->getAttributeNames(), attr.getName()))
      continue;
    if (isa<gpu::LaunchOp>(op) &&
        attr.getName() == gpu::LaunchOp::getNumWorkgroupAttributionsAttrName())
      continue;
    return attr.getName();
  }
  return std::nullopt;
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
  // An LLM's text meets the parser in a child first (GuardedParse.h).
  std::string diagnostics;
  OwningOpRef<ModuleOp> parsed =
      parseModuleGuarded(text, &restricted, diagnostics, "candidate");
  if (!parsed) {
    reason = "it does not parse as MLIR of the allowed dialects (" +
             getAllowedDialectsText().str() + "): " + diagnostics;
    return nullptr;
  }

  if (!parsed->getOperation()->getDiscardableAttrDictionary().empty() ||
      parsed->getSymName()) {
    reason = "the module may carry no attributes or name of its own";
    return nullptr;
  }
  func::FuncOp func;
  for (Operation &op : parsed->getBody()->getOperations()) {
    if (std::optional<StringAttr> attr = getForeignAttribute(&op)) {
      reason = "'" + op.getName().getStringRef().str() +
               "' carries the attribute '" + attr->str() +
               "', which micro-code may not set";
      return nullptr;
    }
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
    StringRef name = op->getName().getStringRef();
    if (!getAllowedOps().contains(name) &&
        !isAllowedDialectWide(op->getName().getDialectNamespace())) {
      reason = "'" + name.str() + "' is not allowed in micro-code";
      return WalkResult::interrupt();
    }
    // Only the ops' own attributes: no discardable ones (lowering hints,
    // foreign dialects' annotations) that could change what compiles.
    if (std::optional<StringAttr> attr = getForeignAttribute(op)) {
      reason = "'" + name.str() + "' carries the attribute '" + attr->str() +
               "', which micro-code may not set";
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
