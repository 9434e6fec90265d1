//===- Wgmma.cpp - Matmuls on Hopper's warpgroup tensor cores -------------===//
//
// The kernel (docs/micro-coding.md, "wgmma"): one block per (tileM x tileN)
// output tile, numbered in groups of `groupRows` tile rows; the last
// warpgroup produces (one thread issues the TMA copies of each K step into
// the next free stage), the others consume (wgmma on the stage, then release
// it). The pitfalls this code owns are in ../shared/hopper-tensor-cores.md:
// one external 1024-aligned dynamic shared array, K tile 64, B read n-major
// with `transposeB`, release the stage of the step before (wait_group 1),
// and warpgroup.mma.store's row offset. A B stored (n, k) (a Linear weight)
// is read as it is, k-major like A: one wgmma op per 16-deep K slice, as
// nvgpu.warpgroup.mma steps only an n-major B through a K tile.
//
//===----------------------------------------------------------------------===//

#include "QiMeng/Dialect/QiMeng/TransformOps/Wgmma.h"
#include "QiMeng/Dialect/QiMeng/TransformOps/Epilogues.h"
#include "QiMeng/Dialect/QiMeng/TransformOps/TensorCores.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::qimeng;

namespace {

/// Shared memory of the kernels (the NVVM address space, which TMA and the
/// wgmma descriptors are written for).
constexpr unsigned kSharedSpace = 3;
/// Elements per vector of the epilogue (32 bytes of f32 from shared memory).
constexpr int64_t kEpilogueVector = 8;
/// The 128-byte swizzle row: the K tile of 16-bit operands, and the box of
/// each TMA copy of B (64 x 64).
constexpr int64_t kSwizzleElements = 64;
/// The most wgmma groups a wait may leave in flight without waiting at all
/// (wgmma.wait_group's immediate: any count below the groups committed).
constexpr int64_t kMaxWgmmaGroups = 7;
/// Spin budget of each mbarrier wait before it retries.
constexpr int64_t kWaitTicks = 10000000;

/// The operands of a matmul the kernel takes.
struct Matmul {
  Value a, b, c;
  MemRefType aType, bType, cType;
  /// B is stored (n, k), k-major, rather than (k, n).
  bool nkB = false;
  /// One batch loop leads all three operands ((b, m, k) x (b, k, n) or
  /// (b, n, k) -> (b, m, n)); the kernel reads A and B as (b x rows, cols)
  /// matrices and gives each block one batch.
  bool batched = false;
  /// The batch loop is a split K's parts (isSplitKMatmul): A (m, s, k) and a
  /// (n, s, k) B are read as their (rows, S x Kc) matrices, each part's
  /// columns in turn; a (s, k, n) B and C as batched.
  bool splitK = false;
};

/// Whether `type` is a buffer of matrices (rank 2, or 3 with a batch) with
/// contiguous rows (static unit inner stride), or with `oneMatrix` a rank-3
/// one in identity layout (its batches and rows one matrix of rows).
bool hasContiguousRows(MemRefType type, bool oneMatrix) {
  if (oneMatrix)
    return type.getRank() == 3 && type.getLayout().isIdentity();
  if (type.getRank() != 2 && type.getRank() != 3)
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  return strides.back() == 1;
}

/// Whether rows of `type` (static row stride) are 16-byte multiples apart;
/// true when the stride is only known at run time (the runtime checks it).
bool hasTmaRows(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  int64_t bytes = type.getElementTypeBitWidth() / 8;
  int64_t rows = strides[strides.size() - 2];
  return ShapedType::isDynamic(rows) || (rows * bytes) % 16 == 0;
}

/// Whether the epilogue may store `kEpilogueVector` output elements as one
/// aligned vector: a static row stride and offset that keep every vector of
/// the output on its own alignment, and a static N they divide.
bool hasVectorRows(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  int64_t n = type.getDimSize(type.getRank() - 1);
  auto keepsVectors = [](int64_t v) {
    return !ShapedType::isDynamic(v) && v % kEpilogueVector == 0;
  };
  // Every stride of an identity layout is a multiple of N.
  if (type.getLayout().isIdentity())
    return keepsVectors(n);
  return llvm::all_of(ArrayRef(strides).drop_back(), keepsVectors) &&
         keepsVectors(offset) && keepsVectors(n);
}

FailureOr<Matmul> matchMatmul(linalg::LinalgOp op, std::string &why) {
  auto fail = [&](const Twine &reason) {
    why = reason.str();
    return failure();
  };
  if (!op.hasPureBufferSemantics())
    return fail("it is not on buffers");
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      (op.getNumLoops() != 3 && op.getNumLoops() != 4) ||
      !linalg::isaContractionOpInterface(op))
    return fail("it is not a matmul (two inputs, one output, three loops "
                "or four with a batch loop, a multiply-add body)");
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1 || dims->batch.size() > 1)
    return fail("it is not an (m, n, k) matmul with at most one batch loop");
  unsigned m = dims->m[0], n = dims->n[0], k = dims->k[0];
  Matmul mm;
  mm.batched = !dims->batch.empty();
  // (outer, inner), after the batch loop when there is one (or, `split`,
  // between them: a split K's part).
  auto reads = [&](OpOperand *operand, unsigned outer, unsigned inner,
                   bool split = false) {
    AffineMap map = op.getMatchingIndexingMap(operand);
    SmallVector<unsigned> expected{outer, inner};
    if (mm.batched)
      expected.insert(expected.begin() + (split ? 1 : 0), dims->batch[0]);
    if (map.getNumResults() != expected.size() || !map.isProjectedPermutation())
      return false;
    for (auto [i, dim] : llvm::enumerate(expected))
      if (map.getDimPosition(i) != dim)
        return false;
    return true;
  };
  OpOperand *lhs = op.getDpsInputOperand(0), *rhs = op.getDpsInputOperand(1);
  mm.splitK = mm.batched && reads(lhs, m, k, /*split=*/true);
  mm.nkB = reads(rhs, n, k, mm.splitK);
  if (!(mm.splitK || reads(lhs, m, k)) || !(mm.nkB || reads(rhs, k, n)) ||
      !reads(op.getDpsInitOperand(0), m, n))
    return fail("its operands are not read as (m, k) x (k, n) -> (m, n) or "
                "(m, k) x (n, k) -> (m, n), after the batch index if any "
                "(or with a split K's part between A's and a (n, k) B's "
                "indices)");
  mm.a = op.getDpsInputOperand(0)->get();
  mm.b = op.getDpsInputOperand(1)->get();
  mm.c = op.getDpsInitOperand(0)->get();
  mm.aType = dyn_cast<MemRefType>(mm.a.getType());
  mm.bType = dyn_cast<MemRefType>(mm.b.getType());
  mm.cType = dyn_cast<MemRefType>(mm.c.getType());
  if (!mm.aType || !mm.bType || !mm.cType)
    return fail("an operand is not a ranked buffer");
  Type in = mm.aType.getElementType();
  Type out = mm.cType.getElementType();
  if (in != mm.bType.getElementType() || !(in.isBF16() || in.isF16()))
    return fail("its operands are not both bf16 or both f16");
  if (!(out.isF32() || out.isBF16() || out.isF16()))
    return fail("its result is not f32, bf16 or f16");
  // Global memory: no memory space, 0 or #gpu.address_space<global>.
  auto isGlobal = [](Attribute space) {
    if (!space)
      return true;
    if (auto number = dyn_cast<IntegerAttr>(space))
      return number.getInt() == 0;
    auto gpuSpace = dyn_cast<gpu::AddressSpaceAttr>(space);
    return gpuSpace && gpuSpace.getValue() == gpu::AddressSpace::Global;
  };
  // A and B (TMA) as one matrix of rows when batched; C is written by
  // plain stores.
  for (auto [type, tma] :
       {std::make_pair(mm.aType, true), std::make_pair(mm.bType, true),
        std::make_pair(mm.cType, false)})
    if (!hasContiguousRows(type, mm.batched && tma) ||
        !isGlobal(type.getMemorySpace()))
      return fail(mm.batched ? "a batched operand is not contiguous in "
                               "global memory (identity layout)"
                             : "an operand's rows are not contiguous in "
                               "global memory");
  if (!hasTmaRows(mm.aType) || !hasTmaRows(mm.bType))
    return fail("rows of A or B are not a multiple of 16 bytes apart (TMA "
                "needs K and N to be multiples of 8)");
  return mm;
}

/// Builds the kernel: the state of one rewrite.
class WgmmaBuilder {
public:
  WgmmaBuilder(ImplicitLocOpBuilder &b, const Matmul &mm,
               const WgmmaOptions &o, linalg::GenericOp consumer)
      : b(b), mm(mm), o(o), ctx(b.getContext()), consumer(consumer) {
    in = mm.aType.getElementType();
    out = mm.cType.getElementType();
    WgmmaResources resources = getWgmmaResources(o);
    consumers = resources.consumers;
    // The epilogue reuses the (then idle) stages for the f32 tile.
    sharedBytes = resources.sharedBytes;
    aStageBytes = o.tileM * o.tileK * 2;
    bStageBytes = o.tileK * o.tileN * 2;
    smemSpace = b.getI64IntegerAttr(kSharedSpace);
  }

  /// Emits the host side and the launch in place of the matmul for `rows`
  /// (M) rows; `init` is the accumulator's initial value (a fill's) or null
  /// (the output's).
  gpu::LaunchOp build(Value rows, Value init);

private:
  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, v); }
  Value i32(int64_t v) {
    return arith::ConstantIntOp::create(b, b.getI32Type(), v);
  }
  MemRefType shared(ArrayRef<int64_t> shape, Type element) {
    return MemRefType::get(shape, element, MemRefLayoutAttrInterface(),
                           smemSpace);
  }
  /// A tensor map of `box`. L2 promotion of 128 bytes, one box row: with
  /// 256, rows that start off 128 bytes (a (k, n) B of N = 5000) fetch
  /// twice what they read (bf16 3000x5000x4000 on an H100: 0.276 ms, 0.231
  /// with 128; aligned rows the same either way,
  /// bench/results/2026-12-07-h100-wgmma-split-k/l2-promotion/).
  nvgpu::TensorMapDescriptorType tensorMap(ArrayRef<int64_t> box) {
    return nvgpu::TensorMapDescriptorType::get(
        ctx, shared(box, in), nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
        nvgpu::TensorMapL2PromoKind::L2PROMO_128B,
        nvgpu::TensorMapOOBKind::OOB_ZERO,
        nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
  }
  /// A view of the dynamic shared memory at `offset` bytes.
  Value view(Value offset, MemRefType type) {
    return memref::ViewOp::create(b, type, smem, offset, ValueRange{});
  }
  /// The box of each TMA copy of B: (tileK, 64) of a (k, n) B, (tileN,
  /// tileK) of a (n, k) one.
  SmallVector<int64_t> getBBox() const {
    if (mm.nkB)
      return {o.tileN, o.tileK};
    return {o.tileK, kSwizzleElements};
  }
  /// The parity bit of round `k / stages` of the ring.
  Value roundParity(Value k) {
    Value round = arith::DivUIOp::create(b, k, idx(o.stages));
    Value wide = arith::IndexCastOp::create(b, b.getI64Type(), round);
    return arith::TruncIOp::create(b, b.getI1Type(), wide);
  }
  void buildProducer(Value tid, Value m0, Value n0);
  Value buildConsumerLoop(Value tid);
  /// One K step's wgmma on the stage's tiles at `aOffset` (this
  /// warpgroup's rows) and `bOffset`, accumulating into `acc`: a (k, n) B.
  Value buildStep(Value aOffset, Value bOffset, Type accType, Value acc);
  /// The same for a (n, k) B: one op per 16-deep K slice.
  Value buildNKSteps(Value aOffset, Value bOffset, Type accType, Value acc);
  void buildEpilogue(Value acc, Value tid, Value m0, Value n0, Value init);
  /// Stores `value` (f32, scalar or vector) plus the initial accumulator at
  /// (row, col) of C, converted to C's type; or, with a consumer, the
  /// consumer's value of it at (row, col) of its output.
  void storeOutput(Value value, Value init, Value row, Value col);
  /// The consumer's body at (row, col) with the matmul's f32 `value`.
  Value applyConsumer(Value value, Value row, Value col);
  /// Whether the epilogue works on vectors: the buffer it writes keeps them
  /// aligned and every operand the consumer reads is loaded contiguously
  /// along n or broadcast.
  bool usesVectors();

  ImplicitLocOpBuilder &b;
  const Matmul &mm;
  const WgmmaOptions &o;
  MLIRContext *ctx;
  linalg::GenericOp consumer;
  Type in, out;
  int64_t consumers, aStageBytes, bStageBytes, sharedBytes;
  Attribute smemSpace;
  // Kernel-side values (batch: the block's batch, null without one; the
  // row bases: where its rows of A and B start in their (b x rows, cols)
  // matrices; the column bases: where its part of a split K starts).
  Value smem, full, empty, descA, descB, m, n, kSteps, batch, aRowBase,
      bRowBase, aColBase, bColBase;
  /// C's (or the consumer's output's) indices of (row, col) in the block's
  /// batch.
  SmallVector<Value> outputIndices(Value row, Value col) {
    if (!batch)
      return {row, col};
    return {batch, row, col};
  }
  /// Whether `operand` holds a split K's parts as columns: A, and a (n, k)
  /// B, of a split K.
  bool hasPartColumns(Value operand) const {
    return mm.splitK && (operand == mm.a || (operand == mm.b && mm.nkB));
  }
  /// A batched operand as one matrix of its batches' rows (identity layout,
  /// checked by matchMatmul), or of a split K's columns; a plain one as it
  /// is.
  Value asMatrix(Value operand) {
    if (!mm.batched)
      return operand;
    return memref::CollapseShapeOp::create(
        b, operand,
        hasPartColumns(operand) ? ArrayRef<ReassociationIndices>{{0}, {1, 2}}
                                : ArrayRef<ReassociationIndices>{{0, 1}, {2}});
  }
};

gpu::LaunchOp WgmmaBuilder::build(Value rows, Value init) {
  // Host: the sizes, the tensor maps (box outermost first) and the grid.
  m = rows;
  unsigned lead = mm.batched;
  n = memref::DimOp::create(b, mm.c, lead + 1);
  Value k = memref::DimOp::create(b, mm.a, lead + 1);
  Value batches =
      mm.batched ? Value(memref::DimOp::create(b, mm.c, 0)) : idx(1);
  Value hostDescA = nvgpu::TmaCreateDescriptorOp::create(
      b, tensorMap({o.tileM, o.tileK}),
      memref::CastOp::create(
          b, UnrankedMemRefType::get(in, mm.aType.getMemorySpace()),
          asMatrix(mm.a)),
      ValueRange{idx(o.tileM), idx(o.tileK)});
  // B's box: a (k, n) B in boxes of 64 x 64, a (n, k) B whole, as A.
  SmallVector<int64_t> bBox = getBBox();
  Value hostDescB = nvgpu::TmaCreateDescriptorOp::create(
      b, tensorMap(bBox),
      memref::CastOp::create(
          b, UnrankedMemRefType::get(in, mm.bType.getMemorySpace()),
          asMatrix(mm.b)),
      ValueRange{idx(bBox[0]), idx(bBox[1])});
  Value tilesM = arith::CeilDivUIOp::create(b, m, idx(o.tileM));
  Value tilesN = arith::CeilDivUIOp::create(b, n, idx(o.tileN));
  Value grid = arith::MulIOp::create(b, tilesM, tilesN);
  Value one = idx(1);
  // Each batch's tiles in turn along x (y would cap the batches at 65535).
  auto launch = gpu::LaunchOp::create(
      b, arith::MulIOp::create(b, grid, batches), one, one,
      idx(128 * (consumers + 1)), one, one, i32(sharedBytes));
  Block &body = launch.getBody().front();
  b.setInsertionPointToEnd(&body);
  auto terminator = gpu::TerminatorOp::create(b);
  b.setInsertionPoint(terminator);
  descA = hostDescA;
  descB = hostDescB;
  kSteps = arith::CeilDivUIOp::create(b, k, idx(o.tileK));

  // The block's tile: groups of `groupRows` tile rows, walked down each
  // tile column in turn.
  Value bid = launch.getBlockIds().x;
  Value tid = launch.getThreadIds().x;
  if (mm.batched) {
    batch = arith::DivUIOp::create(b, bid, grid);
    bid = arith::RemUIOp::create(b, bid, grid);
  }
  Value groupRows = arith::MinUIOp::create(b, tilesM, idx(o.groupRows));
  Value perGroup = arith::MulIOp::create(b, groupRows, tilesN);
  Value group = arith::DivUIOp::create(b, bid, perGroup);
  Value firstRow = arith::MulIOp::create(b, group, groupRows);
  Value rowsLeft = arith::SubIOp::create(b, tilesM, firstRow);
  Value size = arith::MinUIOp::create(b, rowsLeft, groupRows);
  Value inGroup = arith::RemUIOp::create(b, bid, perGroup);
  Value tileRow = arith::AddIOp::create(
      b, firstRow, arith::RemUIOp::create(b, inGroup, size));
  Value tileCol = arith::DivUIOp::create(b, inGroup, size);
  Value m0 = arith::MulIOp::create(b, tileRow, idx(o.tileM));
  Value n0 = arith::MulIOp::create(b, tileCol, idx(o.tileN));
  aRowBase = bRowBase = aColBase = bColBase = idx(0);
  if (mm.splitK) {
    // Part `batch` of K: columns of A (and of a (n, k) B), rows of a (k, n)
    // one; K parts are multiples of the K step (rewriteMatmulAsWgmma).
    Value first = arith::MulIOp::create(b, batch, k);
    aColBase = first;
    (mm.nkB ? bColBase : bRowBase) = first;
  } else if (mm.batched) {
    // Rows past a batch's edge read the next batch's: A's land in output
    // rows past M, a (b, n, k) B's in columns past N, both masked; a
    // (b, k, n) B's K is a multiple of the K step (rewriteMatmulAsWgmma).
    aRowBase = arith::MulIOp::create(b, batch, m);
    bRowBase = arith::MulIOp::create(b, batch, mm.nkB ? n : k);
  }

  // One byte array in dynamic shared memory holds every view.
  auto raw = MemRefType::get({0}, b.getI8Type(), MemRefLayoutAttrInterface(),
                             smemSpace);
  Value global = memref::GetGlobalOp::create(b, raw, kDynamicSharedGlobal);
  auto bytes = shared({sharedBytes}, b.getI8Type());
  smem = memref::ReinterpretCastOp::create(b, bytes, global, 0,
                                           ArrayRef<int64_t>{sharedBytes},
                                           ArrayRef<int64_t>{1});

  // full[s]: the stage's bytes landed; empty[s]: every consumer released it.
  auto barriers = nvgpu::MBarrierGroupType::get(
      ctx, gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup),
      o.stages);
  full = nvgpu::MBarrierCreateOp::create(b, barriers);
  empty = nvgpu::MBarrierCreateOp::create(b, barriers);
  Value first = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, tid, idx(0));
  scf::IfOp::create(b, first, [&](OpBuilder &, Location) {
    scf::ForOp::create(b, idx(0), idx(o.stages), idx(1), ValueRange{},
                       [&](OpBuilder &, Location, Value s, ValueRange) {
                         nvgpu::MBarrierInitOp::create(b, full, idx(1), s,
                                                       Value());
                         nvgpu::MBarrierInitOp::create(b, empty, idx(consumers),
                                                       s, Value());
                         scf::YieldOp::create(b);
                       });
    scf::YieldOp::create(b);
  });
  gpu::BarrierOp::create(b);

  Value warpgroup = arith::DivUIOp::create(b, tid, idx(128));
  Value isProducer = arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                                           warpgroup, idx(consumers));
  scf::IfOp::create(b, isProducer, [&](OpBuilder &, Location) {
    buildProducer(tid, m0, n0);
    scf::YieldOp::create(b);
  });
  Value isConsumer = arith::CmpIOp::create(b, arith::CmpIPredicate::ult,
                                           warpgroup, idx(consumers));
  scf::IfOp::create(b, isConsumer, [&](OpBuilder &, Location) {
    Value acc = buildConsumerLoop(tid);
    buildEpilogue(acc, tid, m0, n0, init);
    scf::YieldOp::create(b);
  });
  return launch;
}

void WgmmaBuilder::buildProducer(Value tid, Value m0, Value n0) {
  if (consumers == 2)
    NVVM::SetMaxRegisterOp::create(b, kWgmmaProducerRegisters,
                                   NVVM::SetMaxRegisterAction::decrease);
  Value leader = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, tid,
                                       idx(128 * consumers));
  scf::IfOp::create(b, leader, [&](OpBuilder &, Location) {
    nvgpu::TmaPrefetchOp::create(b, descA, Value());
    nvgpu::TmaPrefetchOp::create(b, descB, Value());
    Value bBase = idx(o.stages * aStageBytes);
    scf::ForOp::create(
        b, idx(0), kSteps, idx(1), ValueRange{},
        [&](OpBuilder &, Location, Value k, ValueRange) {
          Value s = arith::RemUIOp::create(b, k, idx(o.stages));
          // Wait for the consumers to free stage s (a fresh barrier passes
          // parity 1 at once).
          Value parity = arith::XOrIOp::create(
              b, roundParity(k),
              arith::ConstantIntOp::create(b, b.getI1Type(), 1));
          nvgpu::MBarrierTryWaitParityOp::create(b, empty, parity,
                                                 idx(kWaitTicks), s);
          nvgpu::MBarrierArriveExpectTxOp::create(
              b, full, idx(aStageBytes + bStageBytes), s, Value());
          Value k0 = arith::MulIOp::create(b, k, idx(o.tileK));
          // TMA coordinates run innermost first: (column, row).
          Value aOffset = arith::MulIOp::create(b, s, idx(aStageBytes));
          nvgpu::TmaAsyncLoadOp::create(
              b, view(aOffset, shared({o.tileM, o.tileK}, in)), full, descA,
              ValueRange{arith::AddIOp::create(b, aColBase, k0),
                         arith::AddIOp::create(b, aRowBase, m0)},
              s, Value(), Value());
          Value bOffset = arith::AddIOp::create(
              b, bBase, arith::MulIOp::create(b, s, idx(bStageBytes)));
          if (mm.nkB) {
            nvgpu::TmaAsyncLoadOp::create(
                b, view(bOffset, shared(getBBox(), in)), full, descB,
                ValueRange{arith::AddIOp::create(b, bColBase, k0),
                           arith::AddIOp::create(b, bRowBase, n0)},
                s, Value(), Value());
            scf::YieldOp::create(b);
            return;
          }
          int64_t boxBytes = o.tileK * kSwizzleElements * 2;
          for (int64_t j = 0; j < o.tileN / kSwizzleElements; ++j) {
            Value at = arith::AddIOp::create(b, bOffset, idx(j * boxBytes));
            Value col = arith::AddIOp::create(b, n0, idx(j * kSwizzleElements));
            nvgpu::TmaAsyncLoadOp::create(
                b, view(at, shared({o.tileK, kSwizzleElements}, in)), full,
                descB, ValueRange{col, arith::AddIOp::create(b, bRowBase, k0)},
                s, Value(), Value());
          }
          scf::YieldOp::create(b);
        });
    scf::YieldOp::create(b);
  });
}

Value WgmmaBuilder::buildConsumerLoop(Value tid) {
  if (consumers == 2)
    NVVM::SetMaxRegisterOp::create(b, kWgmmaConsumerRegisters,
                                   NVVM::SetMaxRegisterAction::increase);
  Value lane = arith::RemUIOp::create(b, tid, idx(128));
  Value signals = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, lane,
                                        idx(0));
  Value warpgroup = arith::DivUIOp::create(b, tid, idx(128));
  // This warpgroup's rows of the A stage (128 bytes per row).
  Value rowBytes = arith::MulIOp::create(b, warpgroup,
                                         idx(o.warpgroupRows * o.tileK * 2));
  auto accType = nvgpu::WarpgroupAccumulatorType::get(
      ctx, VectorType::get({o.warpgroupRows, o.tileN}, b.getF32Type()));
  Value acc0 = nvgpu::WarpgroupMmaInitAccumulatorOp::create(b, accType);
  Value bBase = idx(o.stages * aStageBytes);
  auto loop = scf::ForOp::create(
      b, idx(0), kSteps, idx(1), ValueRange{acc0},
      [&](OpBuilder &, Location, Value k, ValueRange args) {
        Value s = arith::RemUIOp::create(b, k, idx(o.stages));
        nvgpu::MBarrierTryWaitParityOp::create(b, full, roundParity(k),
                                               idx(kWaitTicks), s);
        Value aOffset = arith::AddIOp::create(
            b, arith::MulIOp::create(b, s, idx(aStageBytes)), rowBytes);
        Value bOffset = arith::AddIOp::create(
            b, bBase, arith::MulIOp::create(b, s, idx(bStageBytes)));
        Value next = mm.nkB ? buildNKSteps(aOffset, bOffset, accType, args[0])
                            : buildStep(aOffset, bOffset, accType, args[0]);
        // The group of step k - 1 is complete: release its stage.
        Value notFirst =
            arith::CmpIOp::create(b, arith::CmpIPredicate::ugt, k, idx(0));
        Value release = arith::AndIOp::create(b, notFirst, signals);
        scf::IfOp::create(b, release, [&](OpBuilder &, Location) {
          Value previous = arith::RemUIOp::create(
              b, arith::SubIOp::create(b, k, idx(1)), idx(o.stages));
          nvgpu::MBarrierArriveOp::create(b, empty, previous);
          scf::YieldOp::create(b);
        });
        scf::YieldOp::create(b, next);
      });
  NVVM::WgmmaWaitGroupSyncOp::create(b, 0);
  return loop.getResult(0);
}

Value WgmmaBuilder::buildStep(Value aOffset, Value bOffset, Type accType,
                              Value acc) {
  auto aTile = shared({o.warpgroupRows, o.tileK}, in);
  auto bTile = shared({o.tileK, o.tileN}, in);
  Value dA = nvgpu::WarpgroupGenerateDescriptorOp::create(
      b, nvgpu::WarpgroupMatrixDescriptorType::get(ctx, aTile),
      view(aOffset, aTile), descA);
  Value dB = nvgpu::WarpgroupGenerateDescriptorOp::create(
      b, nvgpu::WarpgroupMatrixDescriptorType::get(ctx, bTile),
      view(bOffset, bTile), descB);
  // fence; wgmmas; commit; wait until one group is in flight.
  return nvgpu::WarpgroupMmaOp::create(b, accType, dA, dB,
                                       /*waitGroup=*/nullptr,
                                       /*transposeA=*/nullptr,
                                       /*transposeB=*/b.getUnitAttr(), acc);
}

Value WgmmaBuilder::buildNKSteps(Value aOffset, Value bOffset, Type accType,
                                 Value acc) {
  // Both tiles are k-major rows of 128 swizzled bytes: slice s of 16 starts
  // s * 32 bytes into each (the swizzle follows the address bits). Each op
  // is one wgmma group; only the last waits, until the step's own groups
  // are all that may be in flight (the step before is then complete).
  constexpr int64_t kSlice = 16;
  int64_t slices = o.tileK / kSlice;
  auto aSlice = shared({o.warpgroupRows, kSlice}, in);
  auto bSlice = shared({kSlice, o.tileN}, in);
  for (int64_t i = 0; i < slices; ++i) {
    Value at = idx(i * kSlice * 2);
    Value dA = nvgpu::WarpgroupGenerateDescriptorOp::create(
        b, nvgpu::WarpgroupMatrixDescriptorType::get(ctx, aSlice),
        view(arith::AddIOp::create(b, aOffset, at), aSlice), descA);
    Value dB = nvgpu::WarpgroupGenerateDescriptorOp::create(
        b, nvgpu::WarpgroupMatrixDescriptorType::get(ctx, bSlice),
        view(arith::AddIOp::create(b, bOffset, at), bSlice), descB);
    int64_t inFlight = i + 1 < slices ? kMaxWgmmaGroups : slices;
    acc = nvgpu::WarpgroupMmaOp::create(
        b, accType, dA, dB, b.getI64IntegerAttr(inFlight),
        /*transposeA=*/nullptr, /*transposeB=*/nullptr, acc);
  }
  return acc;
}

void WgmmaBuilder::buildEpilogue(Value acc, Value tid, Value m0, Value n0,
                                 Value init) {
  // Every consumer is done reading the stages before they hold the tile.
  Value barrierId = i32(1);
  Value consumerThreads = i32(128 * consumers);
  NVVM::BarrierOp::create(b, TypeRange{}, barrierId, consumerThreads, nullptr,
                          Value());
  // MLIR 22's warpgroup.mma.store places warpgroup w's rows w * 64 rows down
  // by itself (it does not reduce the warp id modulo 4): every warpgroup
  // stores to the tile's origin. A GPU test checks this stays true.
  nvgpu::WarpgroupMmaStoreOp::create(
      b, acc, view(idx(0), shared({o.warpgroupRows, o.tileN}, b.getF32Type())));
  NVVM::BarrierOp::create(b, TypeRange{}, barrierId, consumerThreads, nullptr,
                          Value());
  auto flatType = shared({o.tileM * o.tileN}, b.getF32Type());
  Value flat = view(idx(0), flatType);
  int64_t threads = 128 * consumers;
  int64_t vectorsPerRow = o.tileN / kEpilogueVector;
  int64_t steps = o.tileM * vectorsPerRow / threads;
  bool vectors = usesVectors();
  auto f32Vector = VectorType::get({kEpilogueVector}, b.getF32Type());
  scf::ForOp::create(
      b, idx(0), idx(steps), idx(1), ValueRange{},
      [&](OpBuilder &, Location, Value i, ValueRange) {
        // Consecutive threads take consecutive vectors of a row.
        Value v = arith::AddIOp::create(
            b, arith::MulIOp::create(b, i, idx(threads)), tid);
        Value r = arith::DivUIOp::create(b, v, idx(vectorsPerRow));
        Value c = arith::MulIOp::create(
            b, arith::RemUIOp::create(b, v, idx(vectorsPerRow)),
            idx(kEpilogueVector));
        Value row = arith::AddIOp::create(b, m0, r);
        Value col = arith::AddIOp::create(b, n0, c);
        Value inside = arith::AndIOp::create(
            b, arith::CmpIOp::create(b, arith::CmpIPredicate::ult, row, m),
            arith::CmpIOp::create(b, arith::CmpIPredicate::ult, col, n));
        Value at = arith::AddIOp::create(
            b, arith::MulIOp::create(b, r, idx(o.tileN)), c);
        scf::IfOp::create(b, inside, [&](OpBuilder &, Location) {
          if (vectors) {
            // N is a multiple of the vector: a vector is whole or outside.
            auto load = vector::LoadOp::create(b, f32Vector, flat, at);
            load.setAlignment(32);
            storeOutput(load, init, row, col);
          } else {
            scf::ForOp::create(
                b, idx(0), idx(kEpilogueVector), idx(1), ValueRange{},
                [&](OpBuilder &, Location, Value j, ValueRange) {
                  Value cj = arith::AddIOp::create(b, col, j);
                  Value ok = arith::CmpIOp::create(
                      b, arith::CmpIPredicate::ult, cj, n);
                  scf::IfOp::create(b, ok, [&](OpBuilder &, Location) {
                    Value x = memref::LoadOp::create(
                        b, flat, ValueRange{arith::AddIOp::create(b, at, j)});
                    storeOutput(x, init, row, cj);
                    scf::YieldOp::create(b);
                  });
                  scf::YieldOp::create(b);
                });
          }
          scf::YieldOp::create(b);
        });
        scf::YieldOp::create(b);
      });
}

bool WgmmaBuilder::usesVectors() {
  if (!consumer)
    return hasVectorRows(mm.cType);
  auto output =
      dyn_cast<MemRefType>(consumer.getDpsInitOperand(0)->get().getType());
  if (!output || !hasVectorRows(output))
    return false;
  unsigned nDim = consumer.getNumLoops() - 1;
  for (OpOperand *input : consumer.getDpsInputOperands()) {
    if (input->get() == mm.c)
      continue;
    AffineMap map = consumer.getMatchingIndexingMap(input);
    // Contiguous along n (its last index) or not indexed by n.
    if (map.isFunctionOfDim(nDim) &&
        map.getResults().back() != getAffineDimExpr(nDim, ctx))
      return false;
    auto type = dyn_cast<MemRefType>(input->get().getType());
    SmallVector<int64_t> strides;
    int64_t offset;
    if (!type || (type.getRank() > 0 &&
                  (failed(type.getStridesAndOffset(strides, offset)) ||
                   strides.back() != 1)))
      return false;
  }
  return true;
}

Value WgmmaBuilder::applyConsumer(Value value, Value row, Value col) {
  return applyEpilogueConsumer(b, b.getLoc(), consumer, mm.c, value,
                               outputIndices(row, col));
}

void WgmmaBuilder::storeOutput(Value value, Value init, Value row, Value col) {
  auto vectorType = dyn_cast<VectorType>(value.getType());
  auto like = [&](Type element) -> Type {
    return vectorType ? Type(VectorType::get(vectorType.getShape(), element))
                      : element;
  };
  Type f32 = b.getF32Type();
  Value base;
  if (init) {
    // A fill's value: nothing to add when it is +0.
    if (!matchPattern(init, m_PosZeroFloat())) {
      Value wide = init.getType() == f32
                       ? init
                       : Value(arith::ExtFOp::create(b, f32, init));
      base = vectorType ? Value(vector::BroadcastOp::create(b, like(f32), wide))
                        : wide;
    }
  } else {
    SmallVector<Value> at = outputIndices(row, col);
    Value old = vectorType
                    ? Value(vector::LoadOp::create(b, like(out), mm.c, at))
                    : Value(memref::LoadOp::create(b, mm.c, at));
    base = out == f32 ? old : Value(arith::ExtFOp::create(b, like(f32), old));
  }
  if (base)
    value = arith::AddFOp::create(b, value, base);
  Value target = mm.c;
  if (consumer) {
    value = applyConsumer(value, row, col);
    target = consumer.getDpsInitOperand(0)->get();
  } else if (out != f32) {
    value = arith::TruncFOp::create(b, like(out), value);
  }
  if (vectorType) {
    auto store =
        vector::StoreOp::create(b, value, target, outputIndices(row, col));
    store.setAlignment(16);
  } else {
    memref::StoreOp::create(b, value, target, outputIndices(row, col));
  }
}

/// The module's dynamic shared array, created on first use: zero-sized,
/// 1024-aligned, private on the host (the kernel outliner copies it into
/// each kernel module, where `--lower-to-nvvm` makes it external).
void declareDynamicShared(OpBuilder &b, Operation *anchor) {
  auto module = anchor->getParentOfType<ModuleOp>();
  if (!module || module.lookupSymbol(kDynamicSharedGlobal))
    return;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto type = MemRefType::get({0}, b.getI8Type(), MemRefLayoutAttrInterface(),
                              b.getI64IntegerAttr(kSharedSpace));
  memref::GlobalOp::create(b, anchor->getLoc(), kDynamicSharedGlobal,
                           b.getStringAttr("private"), type, Attribute(),
                           /*constant=*/false, b.getI64IntegerAttr(1024));
}

} // namespace

std::string mlir::qimeng::whyNotWgmma(linalg::LinalgOp op) {
  std::string why;
  (void)matchMatmul(op, why);
  return why;
}

std::string mlir::qimeng::whyNotWgmmaOptions(const WgmmaOptions &o) {
  if (o.tileK != kSwizzleElements)
    return "the K tile must be 64 (one 128-byte swizzle row)";
  if (o.tileN % kSwizzleElements != 0 || o.tileN < 64 || o.tileN > 256)
    return "the N tile must be 64, 128, 192 or 256";
  if (o.warpgroupRows != 64 && o.warpgroupRows != 128)
    return "each consumer warpgroup computes 64 or 128 rows";
  if (o.tileM % o.warpgroupRows != 0 || o.tileM / o.warpgroupRows > 2)
    return "the M tile must be one or two warpgroups' rows (64 or 128)";
  if (o.stages < 2 || o.groupRows < 1)
    return "two stages or more, and a group of one tile row or more";
  if (getWgmmaResources(o).sharedBytes > kMaxWgmmaSharedBytes)
    return llvm::formatv("{0} stages of {1}x{2}x{3} tiles need more than the "
                         "{4} bytes of shared memory a block can take",
                         o.stages, o.tileM, o.tileN, o.tileK,
                         kMaxWgmmaSharedBytes)
        .str();
  // The epilogue's vectors must cover the tile evenly.
  if ((o.tileM * (o.tileN / kEpilogueVector)) % (o.tileM / o.warpgroupRows *
                                                 128) != 0)
    return "the tile does not split evenly among the consumer threads";
  return "";
}

FailureOr<gpu::LaunchOp> mlir::qimeng::rewriteMatmulAsWgmma(
    RewriterBase &rewriter, linalg::LinalgOp op, linalg::FillOp fill,
    linalg::GenericOp consumer, const WgmmaOptions &options, StringRef tag) {
  std::string why;
  FailureOr<Matmul> mm = matchMatmul(op, why);
  if (failed(mm))
    return op.emitOpError() << "cannot take the wgmma kernel: " << why;
  if (std::string bad = whyNotWgmmaOptions(options); !bad.empty())
    return op.emitOpError() << "wgmma kernel options are not valid: " << bad;
  // A descriptor of 16-deep slices steps only 64 rows of A (upstream's
  // iteration over A's rows takes the slice's width for the tile's).
  // A batched (b, k, n) B is read as one (b x K, N) matrix: a K tile past
  // a batch's K would read the next batch's rows. A split K's parts are
  // columns (or rows) of one matrix: a K tile past a part would read the
  // next part's.
  int64_t depth = mm->aType.getDimSize(mm->aType.getRank() - 1);
  if (((mm->batched && !mm->nkB) || mm->splitK) &&
      (ShapedType::isDynamic(depth) || depth % options.tileK != 0))
    return op.emitOpError()
           << "cannot take the wgmma kernel: "
           << (mm->splitK ? "the parts of a split K need"
                          : "a batched B stored (b, k, n) needs")
           << " a static K that is a multiple of the K tile (" << options.tileK
           << ")";
  if (mm->nkB && options.warpgroupRows != 64)
    return op.emitOpError()
           << "cannot take the wgmma kernel with " << options.warpgroupRows
           << " rows per consumer warpgroup: a B stored (n, k) needs 64";
  Value init;
  if (fill) {
    if (fill.getDpsInitOperand(0)->get() != mm->c)
      return op.emitOpError() << "the fill given to the wgmma rewrite does "
                                 "not write the matmul's output";
    init = fill.getDpsInputOperand(0)->get();
  }
  if (consumer) {
    if (!consumer.hasPureBufferSemantics())
      return op.emitOpError() << "the consumer given to the wgmma rewrite is "
                                 "not on buffers";
    if (std::string bad = whyNotEpilogueConsumer(consumer, mm->c); !bad.empty())
      return op.emitOpError()
             << "cannot run its consumer in the wgmma epilogue: " << bad;
    // The epilogue, at the matmul, uses the consumer's buffers.
    for (Value operand : consumer->getOperands())
      if (failed(hoistDefinitionBefore(operand, op)))
        return op.emitOpError()
               << "cannot run its consumer in the wgmma epilogue: an "
                  "operand of the consumer is computed after the matmul";
  }
  declareDynamicShared(rewriter, op);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  ImplicitLocOpBuilder b(op.getLoc(), rewriter);
  // Nothing to launch (nor a tensor map to make) for an empty M or batch.
  Value zero = arith::ConstantIndexOp::create(b, 0);
  Value m = memref::DimOp::create(b, mm->c, mm->batched ? 1 : 0);
  Value rows = arith::CmpIOp::create(b, arith::CmpIPredicate::ugt, m, zero);
  if (mm->batched)
    rows = arith::AndIOp::create(
        b, rows,
        arith::CmpIOp::create(b, arith::CmpIPredicate::ugt,
                              memref::DimOp::create(b, mm->c, 0), zero));
  auto guardIf = scf::IfOp::create(b, rows, /*withElseRegion=*/false);
  b.setInsertionPoint(guardIf.thenBlock()->getTerminator());
  WgmmaBuilder builder(b, *mm, options, consumer);
  gpu::LaunchOp launch = builder.build(m, init);
  launch->setAttr(kLaunchTargetAttr, rewriter.getStringAttr(tag));
  rewriter.eraseOp(op);
  if (fill)
    rewriter.eraseOp(fill);
  if (consumer)
    rewriter.eraseOp(consumer);
  return launch;
}
