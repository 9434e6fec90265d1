//===- DeviceAllocs.cpp - Temporaries in GPU-accessible memory ------------===//

#include "QiMeng/Transforms/GPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGDEVICEALLOCSPASS
#include "QiMeng/Transforms/GPU/Passes.h.inc"

namespace {

/// Where the kernels' temporaries can live.
enum class Placement {
  /// No kernel uses it: it stays a host allocation.
  Host,
  /// Only kernels use it (directly or through views) and it is freed or
  /// dies in its block: device memory, freed at the end of its block.
  Device,
  /// Kernels use it and the function returns it (or a view of it): device
  /// memory the caller owns and frees (mgpuMemFree, or cuMemFree after the
  /// stream is done).
  Returned,
  /// Kernels and the host code use it: managed memory.
  Managed,
};

/// Follows `value` (a memref) through view-like ops and casts to decide
/// where it lives. A TMA descriptor built on the host from it counts as a
/// kernel's use: the host only takes the buffer's device address (managed
/// memory there cost the wgmma plan's padded operand a page fault per page,
/// 292 us instead of 5 on the H200).
static Placement getPlacement(Value value) {
  bool onDevice = false, returned = false, elsewhere = false;
  SmallVector<Value> worklist = {value};
  while (!worklist.empty()) {
    Value current = worklist.pop_back_val();
    for (Operation *user : current.getUsers()) {
      if (user->getParentOfType<gpu::LaunchOp>() ||
          isa<nvgpu::TmaCreateDescriptorOp>(user))
        onDevice = true;
      else if (isa<ViewLikeOpInterface, memref::CastOp>(user))
        llvm::append_range(worklist, user->getResults());
      else if (isa<func::ReturnOp>(user))
        returned = true;
      else if (!isa<memref::DeallocOp>(user))
        elsewhere = true;
    }
  }
  if (!onDevice)
    return Placement::Host;
  if (elsewhere)
    return Placement::Managed;
  return returned ? Placement::Returned : Placement::Device;
}

/// A device buffer of `type` (managed memory for Placement::Managed) at
/// the rewriter's insertion point.
static Value createDeviceBuffer(RewriterBase &rewriter, Location loc,
                                MemRefType type, ValueRange dynamicSizes,
                                Placement placement) {
  return gpu::AllocOp::create(rewriter, loc, type, /*asyncToken=*/Type(),
                              /*asyncDependencies=*/ValueRange(), dynamicSizes,
                              /*symbolOperands=*/ValueRange(),
                              /*hostShared=*/placement == Placement::Managed)
      .getMemref();
}

/// Frees `buffer` when `block` ends: every use of a device temporary nothing
/// else frees is a kernel or a view inside that block.
static void freeAtEnd(RewriterBase &rewriter, Location loc, Block *block,
                      Value buffer) {
  if (!block->mightHaveTerminator())
    return;
  rewriter.setInsertionPoint(block->getTerminator());
  gpu::DeallocOp::create(rewriter, loc, Type(), ValueRange(), buffer);
}

class QiMengDeviceAllocsPass
    : public impl::QiMengDeviceAllocsPassBase<QiMengDeviceAllocsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    WalkResult result = getOperation().walk([&](memref::AllocOp alloc) {
      if (alloc->getParentOfType<gpu::LaunchOp>())
        return WalkResult::advance();
      Placement placement = getPlacement(alloc.getResult());
      if (placement == Placement::Host)
        return WalkResult::advance();
      MemRefType type = alloc.getType();
      if (!type.getLayout().isIdentity() || type.getMemorySpace() ||
          !alloc.getSymbolOperands().empty()) {
        alloc.emitOpError()
            << "is used by a GPU kernel but has a layout, memory space or "
               "symbols that device allocation does not support";
        return WalkResult::interrupt();
      }
      rewriter.setInsertionPoint(alloc);
      Value device = createDeviceBuffer(rewriter, alloc.getLoc(), type,
                                        alloc.getDynamicSizes(), placement);
      bool freed = false;
      for (Operation *user : llvm::to_vector(alloc->getUsers()))
        if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
          rewriter.setInsertionPoint(dealloc);
          gpu::DeallocOp::create(rewriter, dealloc.getLoc(), Type(),
                                 ValueRange(), device);
          rewriter.eraseOp(dealloc);
          freed = true;
        }
      // Bufferization inserts no deallocations: a device temporary nothing
      // frees is freed when its block ends.
      if (placement == Placement::Device && !freed)
        freeAtEnd(rewriter, alloc.getLoc(), alloc->getBlock(), device);
      rewriter.replaceOp(alloc, device);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    // Constant globals (memref.get_global) live in host memory: a kernel
    // that reads one gets a device copy, made where the global is taken.
    result = getOperation().walk([&](memref::GetGlobalOp global) {
      if (global->getParentOfType<gpu::LaunchOp>())
        return WalkResult::advance();
      Placement placement = getPlacement(global.getResult());
      if (placement == Placement::Host)
        return WalkResult::advance();
      MemRefType type = global.getType();
      if (!type.getLayout().isIdentity() || type.getMemorySpace() ||
          !type.hasStaticShape()) {
        global.emitOpError()
            << "is read by a GPU kernel but has a layout, memory space or "
               "dynamic shape that a device copy does not support";
        return WalkResult::interrupt();
      }
      rewriter.setInsertionPointAfter(global);
      Value device = createDeviceBuffer(rewriter, global.getLoc(), type,
                                        ValueRange(), placement);
      auto copy = gpu::MemcpyOp::create(
          rewriter, global.getLoc(), /*asyncToken=*/Type(),
          /*asyncDependencies=*/ValueRange(), device, global.getResult());
      rewriter.replaceAllUsesExcept(global.getResult(), device, copy);
      if (placement == Placement::Device)
        freeAtEnd(rewriter, global.getLoc(), global->getBlock(), device);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::qimeng
