//===- QiMengOps.cpp - QiMeng plan and macro action ops -------------------===//
//
// Verifiers come in two kinds: `verify()` checks an action on its own (a
// vector width must be a power of two), `verifyAgainstPayload()` checks it
// against the operation it names (one tile size per loop). The plan runs the
// second kind when the module's symbol uses are verified.
//
//===----------------------------------------------------------------------===//

#include "QiMeng/Dialect/QiMeng/IR/QiMengOps.h"
#include "QiMeng/Dialect/QiMeng/IR/Buffers.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::qimeng;

#include "QiMeng/Dialect/QiMeng/IR/QiMengEnums.cpp.inc"
#include "QiMeng/Dialect/QiMeng/IR/QiMengInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "QiMeng/Dialect/QiMeng/IR/QiMengOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Widest single GPU memory access, in bits.
static constexpr int64_t kMaxAccessBits = 128;
static constexpr int64_t kMaxVectorWidth = 16;
static constexpr int64_t kMaxUnrollFactor = 64;
static constexpr int64_t kMaxPipelineStages = 8;

static std::string formatList(ArrayRef<int64_t> values) {
  std::string s = "[";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(values, os);
  os << "]";
  return s;
}

/// Returns the signed value of an integer attribute; a null attribute (an
/// absent default-valued parameter) reads as 0. ODS getters of I64Attr return
/// uint64_t, which would hide negative values.
static int64_t getSigned(IntegerAttr attr) { return attr ? attr.getInt() : 0; }

/// Returns the payload as a linalg op, or emits an error on `action`.
static FailureOr<linalg::LinalgOp> getLinalgPayload(Operation *action,
                                                    Operation *payload) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(payload);
  if (!linalgOp)
    return action->emitOpError()
           << "expects its target to be a linalg operation, but '"
           << payload->getName() << "' is not";
  return linalgOp;
}

static StringRef describeLevel(TileLevel level) {
  switch (level) {
  case TileLevel::block:
    return "GPU blocks";
  case TileLevel::warp:
    return "warps";
  case TileLevel::thread:
    return "GPU threads";
  case TileLevel::reduction:
    return "a serial reduction loop";
  }
  llvm_unreachable("unknown tile level");
}

/// Widest element type, in bits, among the shaped operands of `op`.
static int64_t getWidestElementBits(linalg::LinalgOp op) {
  int64_t bits = 0;
  for (OpOperand &operand : op->getOpOperands()) {
    Type elementType = getElementTypeOrSelf(operand.get().getType());
    if (elementType.isIntOrFloat())
      bits = std::max<int64_t>(bits, elementType.getIntOrFloatBitWidth());
  }
  return bits;
}

Operation *mlir::qimeng::lookupTaggedOp(Operation *kernel, StringRef tag) {
  Operation *found = nullptr;
  kernel->walk([&](Operation *op) {
    auto attr = op->getAttrOfType<StringAttr>(QiMengDialect::kTagAttrName);
    if (!attr || attr.getValue() != tag)
      return WalkResult::advance();
    found = op;
    return WalkResult::interrupt();
  });
  return found;
}

//===----------------------------------------------------------------------===//
// PlanOp
//===----------------------------------------------------------------------===//

void PlanOp::build(OpBuilder &builder, OperationState &state, StringRef kernel,
                   StringRef provenance) {
  state.addAttribute(getKernelAttrName(state.name),
                     FlatSymbolRefAttr::get(builder.getContext(), kernel));
  state.addAttribute(getProvenanceAttrName(state.name),
                     builder.getStringAttr(provenance));
  Region *body = state.addRegion();
  body->push_back(new Block());
}

SmallVector<MacroActionOpInterface> PlanOp::getActions() {
  SmallVector<MacroActionOpInterface> actions;
  for (Operation &op : getBody().front())
    if (auto action = dyn_cast<MacroActionOpInterface>(op))
      actions.push_back(action);
  return actions;
}

LogicalResult PlanOp::verify() {
  StringRef provenance = getProvenance();
  if (provenance != "builtin" && provenance != "tuned" &&
      !(provenance.starts_with("llm:") && provenance.size() > 4))
    return emitOpError() << "provenance must be 'builtin', 'tuned' or "
                            "'llm:<model>', got '"
                         << provenance << "'";
  for (Operation &op : getBody().front())
    if (!isa<MacroActionOpInterface>(op))
      return op.emitOpError() << "is not a macro action; a plan may only "
                                 "hold macro actions";
  return success();
}

LogicalResult PlanOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto kernel = symbolTable.lookupNearestSymbolFrom<FunctionOpInterface>(
      *this, getKernelAttr());
  if (!kernel)
    return emitOpError() << "kernel @" << getKernel()
                         << " does not name a function";

  llvm::StringMap<Operation *> tagged;
  WalkResult walk = kernel->walk([&](Operation *op) -> WalkResult {
    Attribute tag = op->getAttr(QiMengDialect::kTagAttrName);
    if (!tag)
      return WalkResult::advance();
    auto tagString = dyn_cast<StringAttr>(tag);
    if (!tagString) {
      op->emitOpError() << "has a non-string '" << QiMengDialect::kTagAttrName
                        << "' attribute";
      return WalkResult::interrupt();
    }
    auto [it, inserted] = tagged.try_emplace(tagString.getValue(), op);
    if (!inserted) {
      emitOpError() << "kernel @" << getKernel() << " tags two operations '"
                    << tagString.getValue() << "'";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();

  auto lookup = [&](StringRef tag) -> Operation * {
    return tagged.lookup(tag);
  };
  for (MacroActionOpInterface action : getActions()) {
    Operation *payload = lookup(action.getTargetTag());
    if (!payload)
      return action->emitOpError()
             << "targets '" << action.getTargetTag()
             << "', but no operation of @" << getKernel() << " is tagged so";
    if (failed(action.verifyAgainstPayload(payload, lookup)))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// TileOp
//===----------------------------------------------------------------------===//

LogicalResult TileOp::verify() {
  ArrayRef<int64_t> sizes = getSizes();
  if (sizes.empty())
    return emitOpError() << "needs at least one tile size";
  if (llvm::any_of(sizes, [](int64_t s) { return s < 0; }))
    return emitOpError() << "tile sizes must be non-negative, got "
                         << formatList(sizes);
  if (llvm::all_of(sizes, [](int64_t s) { return s == 0; }))
    return emitOpError() << "tiles nothing: every tile size is 0";
  if (std::optional<ArrayRef<int64_t>> interchange = getInterchange()) {
    SmallVector<int64_t> sorted(interchange->begin(), interchange->end());
    llvm::sort(sorted);
    bool isPermutation = sorted.size() == sizes.size();
    for (auto [i, v] : llvm::enumerate(sorted))
      isPermutation &= v == static_cast<int64_t>(i);
    if (!isPermutation)
      return emitOpError() << "interchange " << formatList(*interchange)
                           << " is not a permutation of the "
                           << sizes.size() << " tiled loops";
  }
  int64_t lanes = getLanes();
  if (lanes != 32 && getLevel() != TileLevel::warp)
    return emitOpError() << "sets lanes " << lanes << " on a "
                         << stringifyTileLevel(getLevel())
                         << " tile; only warp tiles are shared by lanes";
  if (lanes < 32 || lanes > 1024 || lanes % 32 != 0)
    return emitOpError() << "lanes must be a multiple of 32 from 32 to 1024 "
                            "(the threads sharing each warp tile), got "
                         << lanes;
  return success();
}

LogicalResult TileOp::verifyAgainstPayload(Operation *payload, TagLookup) {
  FailureOr<linalg::LinalgOp> linalgOp = getLinalgPayload(*this, payload);
  if (failed(linalgOp))
    return failure();
  ArrayRef<int64_t> sizes = getSizes();
  unsigned numLoops = linalgOp->getNumLoops();
  if (sizes.size() != numLoops)
    return emitOpError() << "expects " << numLoops
                         << " tile sizes, one per loop of '"
                         << payload->getName() << "', got " << sizes.size();
  SmallVector<utils::IteratorType> iterators =
      linalgOp->getIteratorTypesArray();
  bool wantReduction = getLevel() == TileLevel::reduction;
  for (auto [i, size] : llvm::enumerate(sizes)) {
    if (size == 0)
      continue;
    bool isReduction = iterators[i] == utils::IteratorType::reduction;
    if (isReduction != wantReduction)
      return emitOpError() << "tiles loop " << i << " of '"
                           << payload->getName() << "', a "
                           << (isReduction ? "reduction" : "parallel")
                           << " loop, to " << describeLevel(getLevel())
                           << "; " << stringifyTileLevel(getLevel())
                           << " tiles take only "
                           << (wantReduction ? "reduction" : "parallel")
                           << " loops";
  }
  return success();
}

std::string TileOp::describe() {
  std::string s = llvm::formatv("tile '{0}' by {1} and map the tiles to {2}",
                                getTarget(), formatList(getSizes()),
                                describeLevel(getLevel()));
  if (std::optional<ArrayRef<int64_t>> interchange = getInterchange())
    s += " with loop order " + formatList(*interchange);
  if (getLanes() != 32)
    s += llvm::formatv(", each warp tile shared by {0} threads", getLanes());
  return s;
}

ArrayRef<ParamSpec> TileOp::getParamSpecs() {
  static const ParamSpec specs[] = {
      {"target", ParamKind::String, "tag of the operation to tile"},
      {"sizes", ParamKind::IntArray,
       "one tile size per loop of the target, 0 = not tiled"},
      {"level", ParamKind::Enum, "what the tile loop maps to", false, 0,
       [](uint32_t v) { return stringifyTileLevel(static_cast<TileLevel>(v)); },
       getMaxEnumValForTileLevel()},
      {"interchange", ParamKind::IntArray,
       "permutation of the tiled loops; [] keeps their order", true},
      {"lanes", ParamKind::Int,
       "warp level only: threads sharing each warp tile, a multiple of 32 up "
       "to 1024 (32 = one warp; more = a block per row of a row-wise op)",
       true, 32},
  };
  return specs;
}

//===----------------------------------------------------------------------===//
// PromoteOp
//===----------------------------------------------------------------------===//

LogicalResult PromoteOp::verify() {
  ArrayRef<int64_t> operands = getOperands();
  if (operands.empty())
    return emitOpError() << "needs at least one operand index to promote";
  llvm::SmallSet<int64_t, 4> seen;
  for (int64_t index : operands) {
    if (index < 0)
      return emitOpError() << "operand indices must be non-negative, got "
                           << index;
    if (!seen.insert(index).second)
      return emitOpError() << "promotes operand " << index << " twice";
  }
  if (getSigned(getPadAttr()) < 0)
    return emitOpError() << "padding must be non-negative, got "
                         << getSigned(getPadAttr());
  return success();
}

LogicalResult PromoteOp::verifyAgainstPayload(Operation *payload, TagLookup) {
  FailureOr<linalg::LinalgOp> linalgOp = getLinalgPayload(*this, payload);
  if (failed(linalgOp))
    return failure();
  int64_t numOperands = payload->getNumOperands();
  for (int64_t index : getOperands()) {
    if (index >= numOperands)
      return emitOpError() << "operand index " << index
                           << " is out of range: '" << payload->getName()
                           << "' has " << numOperands << " operands";
    if (!isa<ShapedType>(payload->getOperand(index).getType()))
      return emitOpError() << "operand " << index << " of '"
                           << payload->getName()
                           << "' is a scalar and cannot be promoted";
    // Padded rows stay 16-byte aligned (for the 128-bit copies into them).
    Type element = getElementTypeOrSelf(payload->getOperand(index).getType());
    int64_t bits = element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 0;
    if (getPad() != 0 &&
        (bits == 0 || bits % 8 != 0 || (getPad() * bits / 8) % 16 != 0))
      return emitOpError()
             << "pads the rows of operand " << index << " (" << element
             << ") by " << getPad()
             << " elements, which is not a multiple of 16 bytes: padded rows "
                "must stay aligned for 128-bit copies";
  }
  return success();
}

std::string PromoteOp::describe() {
  std::string s =
      llvm::formatv("copy operands {0} of '{1}' into shared memory",
                    formatList(getOperands()), getTarget());
  if (getPad() > 0)
    s += llvm::formatv(", padding rows by {0} elements", getPad());
  return s;
}

ArrayRef<ParamSpec> PromoteOp::getParamSpecs() {
  static const ParamSpec specs[] = {
      {"target", ParamKind::String, "tag of the operation"},
      {"operands", ParamKind::IntArray,
       "indices into the target's operands (inputs, then outputs)"},
      {"pad", ParamKind::Int,
       "elements of padding per shared-memory row; 0 = none", true, 0},
  };
  return specs;
}

//===----------------------------------------------------------------------===//
// VectorizeOp
//===----------------------------------------------------------------------===//

LogicalResult VectorizeOp::verify() {
  int64_t width = getSigned(getWidthAttr());
  if (width < 1 || !llvm::isPowerOf2_64(width))
    return emitOpError() << "vector width must be a power of two, got "
                         << width;
  if (width > kMaxVectorWidth)
    return emitOpError() << "vector width " << width << " is too wide, at most "
                         << kMaxVectorWidth;
  return success();
}

LogicalResult VectorizeOp::verifyAgainstPayload(Operation *payload,
                                                TagLookup) {
  FailureOr<linalg::LinalgOp> linalgOp = getLinalgPayload(*this, payload);
  if (failed(linalgOp))
    return failure();
  int64_t bits = getWidestElementBits(*linalgOp);
  if (bits > 0 && getWidth() * bits > kMaxAccessBits)
    return emitOpError() << "vector width " << getWidth() << " of "
                         << bits << "-bit elements is " << getWidth() * bits
                         << " bits; a GPU memory access is at most "
                         << kMaxAccessBits << " bits";
  return success();
}

std::string VectorizeOp::describe() {
  return llvm::formatv("vectorize '{0}' with {1} elements per vector",
                       getTarget(), getWidth());
}

ArrayRef<ParamSpec> VectorizeOp::getParamSpecs() {
  static const ParamSpec specs[] = {
      {"target", ParamKind::String, "tag of the operation"},
      {"width", ParamKind::Int,
       "elements per vector: a power of two, at most 128 bits of the widest "
       "element type"},
  };
  return specs;
}

//===----------------------------------------------------------------------===//
// UnrollOp
//===----------------------------------------------------------------------===//

LogicalResult UnrollOp::verify() {
  int64_t dim = getSigned(getDimAttr());
  int64_t factor = getSigned(getFactorAttr());
  if (dim < 0)
    return emitOpError() << "loop number must be non-negative, got " << dim;
  if (factor < 2 || factor > kMaxUnrollFactor)
    return emitOpError() << "unroll factor must be in [2, "
                         << kMaxUnrollFactor << "], got " << factor;
  return success();
}

LogicalResult UnrollOp::verifyAgainstPayload(Operation *payload, TagLookup) {
  FailureOr<linalg::LinalgOp> linalgOp = getLinalgPayload(*this, payload);
  if (failed(linalgOp))
    return failure();
  if (static_cast<int64_t>(getDim()) >=
      static_cast<int64_t>(linalgOp->getNumLoops()))
    return emitOpError() << "unrolls loop " << getDim() << ", but '"
                         << payload->getName() << "' has "
                         << linalgOp->getNumLoops() << " loops";
  return success();
}

std::string UnrollOp::describe() {
  return llvm::formatv("unroll loop {0} of '{1}' by {2}", getDim(),
                       getTarget(), getFactor());
}

ArrayRef<ParamSpec> UnrollOp::getParamSpecs() {
  static const ParamSpec specs[] = {
      {"target", ParamKind::String, "tag of the operation"},
      {"dim", ParamKind::Int, "number of the loop to unroll"},
      {"factor", ParamKind::Int, "unroll factor, 2 to 64"},
  };
  return specs;
}

//===----------------------------------------------------------------------===//
// PipelineOp
//===----------------------------------------------------------------------===//

LogicalResult PipelineOp::verify() {
  int64_t stages = getSigned(getStagesAttr());
  if (stages < 1)
    return emitOpError() << "needs at least 1 pipeline stage, got " << stages;
  if (stages > kMaxPipelineStages)
    return emitOpError() << stages << " pipeline stages is too many, at most "
                         << kMaxPipelineStages;
  return success();
}

LogicalResult PipelineOp::verifyAgainstPayload(Operation *payload, TagLookup) {
  FailureOr<linalg::LinalgOp> linalgOp = getLinalgPayload(*this, payload);
  if (failed(linalgOp))
    return failure();
  if (linalgOp->getNumReductionLoops() == 0)
    return emitOpError() << "pipelines a reduction loop, but '"
                         << payload->getName() << "' has none";
  return success();
}

std::string PipelineOp::describe() {
  return llvm::formatv("software-pipeline the shared-memory copies of '{0}' "
                       "with {1} stages",
                       getTarget(), getStages());
}

ArrayRef<ParamSpec> PipelineOp::getParamSpecs() {
  static const ParamSpec specs[] = {
      {"target", ParamKind::String, "tag of the operation"},
      {"stages", ParamKind::Int, "pipeline stages, 1 to 8"},
  };
  return specs;
}

//===----------------------------------------------------------------------===//
// MmaOp
//===----------------------------------------------------------------------===//

/// Returns true if `kind` has an instruction of shape m x n x k for inputs of
/// type `in` and accumulators of type `acc` on sm_80/sm_90.
static bool isSupportedMma(MmaKind kind, MmaType in, MmaType acc, int64_t m,
                           int64_t n, int64_t k) {
  // Double precision: mma.sync m8n8k4 (sm_80's DMMA), f64 throughout.
  if (in == MmaType::f64 || acc == MmaType::f64)
    return kind == MmaKind::mma_sync && in == acc && m == 8 && n == 8 && k == 4;
  bool half = in == MmaType::f16 || in == MmaType::bf16;
  bool accOk = acc == MmaType::f32 || (in == MmaType::f16 && acc == MmaType::f16);
  if (in == MmaType::f32 || !accOk)
    return false;
  switch (kind) {
  case MmaKind::mma_sync:
    if (half)
      return m == 16 && n == 8 && (k == 16 || k == 8);
    return m == 16 && n == 8 && (k == 8 || k == 4);
  case MmaKind::wmma:
    if (half)
      return k == 16 && ((m == 16 && n == 16) || (m == 32 && n == 8) ||
                         (m == 8 && n == 32));
    return m == 16 && n == 16 && k == 8;
  case MmaKind::wgmma:
    return m == 64 && n >= 8 && n <= 256 && n % 8 == 0 && k == (half ? 16 : 8);
  }
  llvm_unreachable("unknown mma kind");
}

LogicalResult MmaOp::verify() {
  ArrayRef<int64_t> shape = getShape();
  if (shape.size() != 3 || llvm::any_of(shape, [](int64_t s) { return s <= 0; }))
    return emitOpError() << "instruction shape must be three positive sizes "
                            "[m, n, k], got "
                         << formatList(shape);
  if (getAType() != getBType())
    return emitOpError() << "A and B element types must match, got "
                         << stringifyMmaType(getAType()) << " and "
                         << stringifyMmaType(getBType());
  if (!isSupportedMma(getKind(), getAType(), getAccType(), shape[0], shape[1],
                      shape[2]))
    return emitOpError() << "no " << stringifyMmaKind(getKind())
                         << " instruction has shape " << formatList(shape)
                         << " with " << stringifyMmaType(getAType())
                         << " inputs and " << stringifyMmaType(getAccType())
                         << " accumulators";
  return success();
}

/// Returns the tensor-core type that element type `t` is computed as, or
/// nullopt. f32 maps to tf32: asking for tf32 on f32 data is explicit.
static std::optional<MmaType> getMmaTypeOf(Type t) {
  if (t.isF16())
    return MmaType::f16;
  if (t.isBF16())
    return MmaType::bf16;
  if (t.isF32())
    return MmaType::f32;
  if (t.isF64())
    return MmaType::f64;
  return std::nullopt;
}

LogicalResult MmaOp::verifyAgainstPayload(Operation *payload, TagLookup) {
  FailureOr<linalg::LinalgOp> linalgOp = getLinalgPayload(*this, payload);
  if (failed(linalgOp))
    return failure();
  if (!linalg::isaContractionOpInterface(*linalgOp))
    return emitOpError() << "needs a contraction, but '" << payload->getName()
                         << "' is not one";
  auto typeOf = [](Value v) { return getElementTypeOrSelf(v.getType()); };
  Type lhs = typeOf(linalgOp->getDpsInputOperand(0)->get());
  Type rhs = typeOf(linalgOp->getDpsInputOperand(1)->get());
  Type out = typeOf(linalgOp->getDpsInitOperand(0)->get());
  auto matches = [](MmaType declared, Type actual, bool isInput) {
    std::optional<MmaType> t = getMmaTypeOf(actual);
    if (!t)
      return false;
    if (isInput && declared == MmaType::tf32)
      return *t == MmaType::f32;
    return *t == declared;
  };
  if (!matches(getAType(), lhs, true) || !matches(getBType(), rhs, true))
    return emitOpError() << "declares " << stringifyMmaType(getAType())
                         << " inputs, but '" << payload->getName()
                         << "' reads " << lhs << " and " << rhs;
  // wgmma kernels accumulate in f32 and convert to a 16-bit result in their
  // epilogue.
  bool converted = getKind() == MmaKind::wgmma &&
                   getAccType() == MmaType::f32 &&
                   (out.isBF16() || out.isF16());
  if (!converted && !matches(getAccType(), out, false))
    return emitOpError() << "declares " << stringifyMmaType(getAccType())
                         << " accumulators, but '" << payload->getName()
                         << "' accumulates in " << out;
  return success();
}

std::string MmaOp::describe() {
  return llvm::formatv("compute '{0}' on tensor cores with {1} {2} "
                       "({3} inputs, {4} accumulators)",
                       getTarget(), stringifyMmaKind(getKind()),
                       formatList(getShape()), stringifyMmaType(getAType()),
                       stringifyMmaType(getAccType()));
}

ArrayRef<ParamSpec> MmaOp::getParamSpecs() {
  static const ParamSpec specs[] = {
      {"target", ParamKind::String, "tag of the contraction"},
      {"kind", ParamKind::Enum, "tensor-core instruction family", false, 0,
       [](uint32_t v) { return stringifyMmaKind(static_cast<MmaKind>(v)); },
       getMaxEnumValForMmaKind()},
      {"shape", ParamKind::IntArray, "instruction shape [m, n, k]"},
      {"a_type", ParamKind::Enum, "element type of A", false, 0,
       [](uint32_t v) { return stringifyMmaType(static_cast<MmaType>(v)); },
       getMaxEnumValForMmaType()},
      {"b_type", ParamKind::Enum, "element type of B", false, 0,
       [](uint32_t v) { return stringifyMmaType(static_cast<MmaType>(v)); },
       getMaxEnumValForMmaType()},
      {"acc_type", ParamKind::Enum, "accumulator element type", false, 0,
       [](uint32_t v) { return stringifyMmaType(static_cast<MmaType>(v)); },
       getMaxEnumValForMmaType()},
  };
  return specs;
}

//===----------------------------------------------------------------------===//
// FuseOp
//===----------------------------------------------------------------------===//

LogicalResult FuseOp::verify() {
  if (getOp() == getTarget())
    return emitOpError() << "cannot fuse '" << getTarget() << "' into itself";
  return success();
}

LogicalResult FuseOp::verifyAgainstPayload(Operation *payload,
                                           TagLookup lookup) {
  Operation *other = lookup(getOp());
  if (!other)
    return emitOpError() << "fuses '" << getOp()
                         << "', but no operation of the kernel is tagged so";
  if (!isa<TilingInterface>(other))
    return emitOpError() << "cannot fuse '" << other->getName()
                         << "': it does not implement the tiling interface";
  bool isProducer = getKind() == FuseKind::producer;
  Operation *producer = isProducer ? other : payload;
  Operation *consumer = isProducer ? payload : other;
  if (!feedsTransitively(producer, consumer))
    return emitOpError() << "fuses '" << getOp() << "' as a "
                         << stringifyFuseKind(getKind()) << " of '"
                         << getTarget() << "', but '"
                         << (isProducer ? getOp() : getTarget())
                         << "' computes no operand of '"
                         << (isProducer ? getTarget() : getOp()) << "'";
  return success();
}

std::string FuseOp::describe() {
  return llvm::formatv("fuse {0} '{1}' into the loops of '{2}'",
                       stringifyFuseKind(getKind()), getOp(), getTarget());
}

ArrayRef<ParamSpec> FuseOp::getParamSpecs() {
  static const ParamSpec specs[] = {
      {"target", ParamKind::String, "tag of the operation whose loops receive "
                                    "the fused operation"},
      {"kind", ParamKind::Enum, "producer or consumer of the target", false, 0,
       [](uint32_t v) { return stringifyFuseKind(static_cast<FuseKind>(v)); },
       getMaxEnumValForFuseKind()},
      {"op", ParamKind::String, "tag of the operation to fuse"},
  };
  return specs;
}
