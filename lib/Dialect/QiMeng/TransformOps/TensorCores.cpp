//===- TensorCores.cpp - Contractions to tensor-core instructions ---------===//

#include "QiMeng/Dialect/QiMeng/TransformOps/TensorCores.h"

#include "QiMeng/Dialect/QiMeng/IR/Buffers.h"
#include "QiMeng/Dialect/QiMeng/TransformOps/Epilogues.h"
#include "mlir/Conversion/VectorToGPU/VectorToGPU.h"
#include "mlir/Dialect/Affine/ViewLikeInterfaceUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

/// Whether `op` itself takes a view of `root` as an operand (view ops, which
/// only make another alias, do not count).
static bool usesBuffer(Operation *op, Value root) {
  if (isa<ViewLikeOpInterface>(op) && isMemoryEffectFree(op))
    return false;
  return llvm::any_of(op->getOperands(), [&](Value operand) {
    return isa<MemRefType>(operand.getType()) &&
           qimeng::getViewRoot(operand) == root;
  });
}

/// Whether `op` or an op nested in it uses a view of `root` (usesBuffer).
static bool touchesBuffer(Operation *op, Value root) {
  return op
      ->walk([&](Operation *nested) {
        return usesBuffer(nested, root) ? WalkResult::interrupt()
                                        : WalkResult::advance();
      })
      .wasInterrupted();
}

LogicalResult mlir::qimeng::startAccumulatorsFromFill(gpu::LaunchOp launch,
                                                      linalg::FillOp fill) {
  if (!fill.hasPureBufferSemantics())
    return fill.emitOpError()
           << "cannot start the accumulators of a tensor-core kernel: it is "
              "not on buffers";
  auto value =
      fill.getDpsInputOperand(0)->get().getDefiningOp<arith::ConstantOp>();
  if (!value)
    return fill.emitOpError()
           << "cannot start the accumulators of a tensor-core kernel: its "
              "value is not a constant (mma.sync fragments start from "
              "constants only)";
  if (fill->getBlock() != launch->getBlock() || !fill->isBeforeInBlock(launch))
    return fill.emitOpError()
           << "cannot start the accumulators of a tensor-core kernel: it "
              "does not come before the kernel's launch in the same block";
  Value root = qimeng::getViewRoot(fill.getDpsInitOperand(0)->get());
  // Nothing between the fill and the launch may read or write its buffer.
  for (Operation *op = fill->getNextNode(); op != launch.getOperation();
       op = op->getNextNode())
    if (touchesBuffer(op, root))
      return fill.emitOpError()
             << "cannot start the accumulators of a tensor-core kernel: "
                "its buffer is used before the kernel's launch";
  // The accumulators' reads, hoisted before the reduction loop: the only
  // reads of the buffer in the kernel, none in a loop, none after a write.
  SmallVector<vector::TransferReadOp> reads;
  bool written = false;
  Operation *offending = nullptr;
  WalkResult walked = launch.getBody().walk([&](Operation *op) {
    if (!usesBuffer(op, root))
      return WalkResult::advance();
    if (auto read = dyn_cast<vector::TransferReadOp>(op)) {
      if (written || read->getParentOfType<scf::ForOp>() ||
          read->getParentOfType<scf::WhileOp>()) {
        offending = read;
        return WalkResult::interrupt();
      }
      reads.push_back(read);
      return WalkResult::advance();
    }
    written = true;
    return WalkResult::advance();
  });
  if (walked.wasInterrupted() || reads.empty()) {
    InFlightDiagnostic diag =
        fill.emitOpError()
        << "cannot start the accumulators of a tensor-core kernel: the "
           "kernel does not read its output once, before the reduction "
           "loop, into registers";
    if (offending)
      diag.attachNote(offending->getLoc())
          << "the kernel reads the output here: " << *offending;
    return diag;
  }
  IRRewriter rewriter(launch.getContext());
  for (vector::TransferReadOp read : reads) {
    rewriter.setInsertionPoint(read);
    auto type = cast<VectorType>(read.getType());
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        read, type,
        SplatElementsAttr::get(type, cast<TypedAttr>(value.getValue())));
  }
  rewriter.eraseOp(fill);
  return success();
}

/// Retypes every value defined in `launch` (results, block arguments,
/// attributes) from the 16-bit float type `from` to `to`, constants by their
/// bits. Values the launch captures from outside keep their types, so the
/// ops that use them are inconsistent until the reverse retype: only for the
/// span of a conversion that does not look at them.
static void punHalfType(gpu::LaunchOp launch, FloatType from, FloatType to) {
  using AttrResult = std::optional<std::pair<Attribute, WalkResult>>;
  AttrTypeReplacer replacer;
  replacer.addReplacement([&](FloatType type) -> std::optional<Type> {
    if (type != from)
      return std::nullopt;
    return to;
  });
  replacer.addReplacement([&](FloatAttr attr) -> AttrResult {
    if (attr.getType() != from)
      return std::nullopt;
    APFloat bits(to.getFloatSemantics(), attr.getValue().bitcastToAPInt());
    return std::make_pair(FloatAttr::get(to, bits), WalkResult::skip());
  });
  replacer.addReplacement([&](DenseElementsAttr attr) -> AttrResult {
    if (attr.getElementType() != from)
      return std::nullopt;
    return std::make_pair(Attribute(attr.bitcast(to)), WalkResult::skip());
  });
  replacer.recursivelyReplaceElementsIn(launch, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);
}

/// Whether a value defined in `launch` (its own block arguments included)
/// has a type that is or contains `type`.
static bool definesValuesOf(gpu::LaunchOp launch, Type type) {
  auto has = [&](Value value) {
    return value.getType()
        .walk([&](Type nested) {
          return nested == type ? WalkResult::interrupt()
                                : WalkResult::advance();
        })
        .wasInterrupted();
  };
  return launch
      ->walk([&](Operation *op) {
        bool found = llvm::any_of(op->getResults(), has);
        for (Region &region : op->getRegions())
          for (Block &block : region)
            found |= llvm::any_of(block.getArguments(), has);
        return found ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

LogicalResult mlir::qimeng::convertToMmaSync(gpu::LaunchOp launch, bool tf32) {
  MLIRContext *ctx = launch.getContext();
  RewritePatternSet patterns(ctx);
  populatePrepareVectorToMMAPatterns(patterns, /*useNvGpu=*/true);
  GreedyRewriteConfig config;
  config.setMaxNumRewrites(100000);
  if (failed(applyPatternsGreedily(launch, std::move(patterns), config)))
    return launch.emitOpError()
           << "did not converge while preparing contractions for mma.sync";
  // Upstream's conversion knows the fragments of f16, not of bf16, although
  // the two share their fragment layouts, ldmatrix loads and instruction
  // shapes. A bf16 kernel (none of its values f16) is converted as if it
  // were f16 and retyped back right after; qimeng-lower-bf16-mma-sync then
  // emits the bf16 instruction. Nothing folds in between (the conversion
  // builds ops, it does not fold them): a fold would compute on bf16 bits
  // as f16 values, and the greedy driver would move constants out of the
  // launch, beyond the retype.
  FloatType bf16 = BFloat16Type::get(ctx), f16 = Float16Type::get(ctx);
  bool bf16Operands = false;
  launch.walk([&](vector::ContractionOp contract) {
    bf16Operands |= getElementTypeOrSelf(contract.getLhsType()) == bf16;
  });
  if (bf16Operands && definesValuesOf(launch, f16))
    return launch.emitOpError()
           << "has bf16 contractions and f16 values; mma.sync takes the "
              "bf16 ones only in kernels without f16";
  // The conversion rebuilds the loops that carry accumulators and drops
  // their attributes (the loop names later steps look for): keep them by
  // position, loops being rebuilt in place.
  auto loopAttrs = [&] {
    SmallVector<std::pair<scf::ForOp, DictionaryAttr>> loops;
    launch.walk([&](scf::ForOp loop) {
      loops.emplace_back(loop, loop->getDiscardableAttrDictionary());
    });
    return loops;
  };
  auto before = loopAttrs();
  IRRewriter rewriter(ctx);
  if (bf16Operands)
    punHalfType(launch, bf16, f16);
  LogicalResult converted =
      convertVectorToNVVMCompatibleMMASync(rewriter, launch);
  if (bf16Operands)
    punHalfType(launch, f16, bf16);
  if (failed(converted))
    return launch.emitOpError() << "could not be rewritten to mma.sync";
  // The conversion leaves the ops it replaced behind, dead: drop them. The
  // conversion takes whole slices or nothing: a contraction left over means
  // its operands or accumulator did not fit the instruction.
  if (failed(applyPatternsGreedily(launch, RewritePatternSet(ctx), config)))
    return launch.emitOpError() << "did not converge while cleaning up";
  auto after = loopAttrs();
  if (after.size() == before.size())
    for (auto [old, rebuilt] : llvm::zip(before, after))
      if (rebuilt.first != old.first)
        rebuilt.first->setDiscardableAttrs(old.second);
  vector::ContractionOp left;
  launch.walk([&](vector::ContractionOp contract) {
    left = contract;
    return WalkResult::interrupt();
  });
  if (left)
    return left.emitOpError()
           << "could not be mapped to mma.sync (operand reads, accumulator "
              "or shape not supported)";
  SmallVector<nvgpu::MmaSyncOp> mmas;
  launch.walk([&](nvgpu::MmaSyncOp mma) { mmas.push_back(mma); });
  if (mmas.empty())
    return launch.emitOpError()
           << "has no contraction of the target's shape to map to mma.sync";
  // f32 operands run as tf32 (their low 13 mantissa bits ignored): only on
  // request.
  for (nvgpu::MmaSyncOp mma : mmas) {
    if (!mma.getMatrixA().getType().getElementType().isF32())
      continue;
    if (!tf32)
      return mma.emitOpError()
             << "has f32 operands, which tensor cores compute as tf32; "
                "that precision was not asked for";
    mma.setTf32EnabledAttr(UnitAttr::get(ctx));
  }
  return success();
}

/// The indices into `buffer` of `indices` into `view`, a chain of subviews
/// (not rank-reducing) of it (checked by the caller), as fold_memref_alias_ops
/// resolves them.
static SmallVector<Value> getIndicesInto(RewriterBase &rewriter, Location loc,
                                         Value view, ValueRange indices,
                                         Value buffer) {
  SmallVector<Value> at(indices.begin(), indices.end());
  while (view != buffer) {
    auto subview = view.getDefiningOp<memref::SubViewOp>();
    SmallVector<Value> resolved;
    affine::resolveIndicesIntoOpWithOffsetsAndStrides(
        rewriter, loc, subview.getMixedOffsets(), subview.getMixedStrides(),
        subview.getDroppedDims(), ValueRange(at), resolved);
    at = std::move(resolved);
    view = subview.getSource();
  }
  return at;
}

/// Whether the buffer `root` is a temporary of the function: an allocation
/// that nothing but `users` (and its views and deallocation) touches.
static bool isTemporaryOf(Value root, ArrayRef<Operation *> users) {
  if (!root.getDefiningOp<memref::AllocOp>())
    return false;
  SmallVector<Value> views = {root};
  while (!views.empty()) {
    Value view = views.pop_back_val();
    for (OpOperand &use : view.getUses()) {
      Operation *user = use.getOwner();
      if (auto like = dyn_cast<ViewLikeOpInterface>(user);
          like && isMemoryEffectFree(user)) {
        views.push_back(like->getResult(0));
        continue;
      }
      if (isa<memref::DeallocOp>(user) ||
          llvm::any_of(users, [&](Operation *op) {
            return op == user || op->isProperAncestor(user);
          }))
        continue;
      return false;
    }
  }
  return true;
}

LogicalResult mlir::qimeng::runConsumerInEpilogue(gpu::LaunchOp launch,
                                                  linalg::GenericOp consumer) {
  auto fail = [&](const Twine &why) {
    return consumer.emitOpError()
           << "cannot run in the epilogue of a tensor-core kernel: " << why;
  };
  if (!consumer.hasPureBufferSemantics())
    return fail("it is not on buffers");
  if (consumer->getBlock() != launch->getBlock() ||
      !launch->isBeforeInBlock(consumer))
    return fail("it does not come after the kernel's launch in the same "
                "block");
  // The matmul's output: the consumer's operand (an input, or its output
  // updated in place) whose buffer the kernel writes.
  SmallVector<Operation *> stores;
  Value result;
  for (OpOperand &operand : consumer->getOpOperands()) {
    OpOperand *input = &operand;
    Value root = qimeng::getViewRoot(input->get());
    SmallVector<Operation *> found;
    launch.getBody().walk([&](Operation *op) {
      if (auto store = dyn_cast<vector::StoreOp>(op);
          store && qimeng::getViewRoot(store.getBase()) == root)
        found.push_back(op);
      if (auto store = dyn_cast<memref::StoreOp>(op);
          store && qimeng::getViewRoot(store.getMemRef()) == root)
        found.push_back(op);
    });
    if (found.empty())
      continue;
    if (result && result != input->get())
      return fail("the kernel writes more than one of its operands");
    result = input->get();
    stores = std::move(found);
  }
  if (!result)
    return fail("the kernel does not store any of its operands");
  if (std::string why =
          whyNotEpilogueConsumer(consumer, result, /*inPlace=*/true);
      !why.empty())
    return fail(why);
  // Written in place (the consumer's output is the result's buffer), the
  // other operands must not be views of it read elsewhere than where they
  // are written.
  Value output = consumer.getDpsInitOperand(0)->get();
  Value outputRoot = qimeng::getViewRoot(output);
  for (OpOperand *input : consumer.getDpsInputOperands())
    if (input->get() != result &&
        qimeng::getViewRoot(input->get()) == outputRoot &&
        !consumer.getMatchingIndexingMap(input).isIdentity())
      return fail("it reads its own output's buffer through another map than "
                  "the identity");
  // The consumer's buffers are taken in the kernel: nothing between the two
  // may use them.
  for (Operation *op = launch->getNextNode(); op != consumer.getOperation();
       op = op->getNextNode())
    for (Value operand : consumer->getOperands())
      if (isa<MemRefType>(operand.getType()) &&
          touchesBuffer(op, qimeng::getViewRoot(operand)))
        return fail("its buffers are used between the kernel and it");
  // Every store is rewritten, or none.
  for (Operation *store : stores) {
    Value base = isa<vector::StoreOp>(store)
                     ? cast<vector::StoreOp>(store).getBase()
                     : cast<memref::StoreOp>(store).getMemRef();
    while (base != result) {
      auto subview = base.getDefiningOp<memref::SubViewOp>();
      if (!subview ||
          subview.getSourceType().getRank() != subview.getType().getRank())
        return fail("the kernel stores its result through a view other than "
                    "subviews");
      base = subview.getSource();
    }
    auto vectorType = dyn_cast<VectorType>(store->getOperand(0).getType());
    if (vectorType && vectorType.getRank() != 1)
      return fail("the kernel stores vectors of more than one dimension");
  }
  for (Value operand : consumer->getOperands())
    if (failed(hoistDefinitionBefore(operand, launch)))
      return fail("an operand of it is computed after the kernel");
  // The matmul's result still goes out when anything else sees it (unless
  // the consumer writes over it).
  Value resultRoot = qimeng::getViewRoot(result);
  bool keepResult =
      resultRoot != outputRoot &&
      !isTemporaryOf(resultRoot, {launch.getOperation(), consumer});
  IRRewriter b(launch.getContext());
  for (Operation *store : stores) {
    b.setInsertionPoint(store);
    Location loc = store->getLoc();
    auto vectorStore = dyn_cast<vector::StoreOp>(store);
    Value value = vectorStore ? vectorStore.getValueToStore()
                              : cast<memref::StoreOp>(store).getValueToStore();
    Value base = vectorStore ? vectorStore.getBase()
                             : cast<memref::StoreOp>(store).getMemRef();
    ValueRange indices = vectorStore
                             ? vectorStore.getIndices()
                             : cast<memref::StoreOp>(store).getIndices();
    SmallVector<Value> at = getIndicesInto(b, loc, base, indices, result);
    Value computed = applyEpilogueConsumer(b, loc, consumer, result, value, at);
    if (isa<VectorType>(value.getType()))
      vector::StoreOp::create(b, loc, computed, output, at);
    else
      memref::StoreOp::create(b, loc, computed, output, at);
    if (!keepResult)
      store->erase();
  }
  consumer.erase();
  return success();
}
