//===- TritonEmitter.cpp - Plans as @triton.jit kernels -------------------===//
//
// A kernel function on tensors becomes one @triton.jit kernel:
//
// - Rows form: the loops of its reductions split into rows (the parallel
//   loops, flattened) and columns (the reduction loops). A program owns R
//   rows; each reduction loops over the columns in blocks of BI and leaves
//   one value per row; values stored to results are computed in a last loop
//   over the columns (or, without reductions, in a 2-D grid of R x BI
//   tiles). Elementwise ops are not materialized: each is evaluated where it
//   is read, from its body, by the indices it is read at.
// - Matmul form: a contraction tiled BM x BN per program (a grid axis for a
//   batch loop), its K loop in BK steps on tl.dot; elementwise producers of
//   its operands are evaluated in the loads, elementwise consumers on the
//   accumulator before the store.
//
// Indices are Python expressions (strings): what a loop index is in the
// current context; values are Python variables of the kernel's body.
//
//===----------------------------------------------------------------------===//

#include "QiMeng/Triton/TritonEmitter.h"

#include "QiMeng/Dialect/QiMeng/IR/QiMengDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <map>

namespace mlir::qimeng::triton {
namespace {

/// Most elements one program holds in registers per value.
constexpr int64_t kMaxTileElements = 16384;

int64_t pow2(int64_t value) {
  return static_cast<int64_t>(llvm::PowerOf2Ceil(std::max<int64_t>(value, 1)));
}

/// Triton's pointer element name ("fp32") of a type; empty if none.
std::string pointerType(Type type) {
  if (type.isF32())
    return "fp32";
  if (type.isF16())
    return "fp16";
  if (type.isBF16())
    return "bf16";
  if (type.isF64())
    return "fp64";
  for (unsigned width : {1u, 8u, 16u, 32u, 64u})
    if (type.isSignlessInteger(width))
      return "i" + std::to_string(width);
  return "";
}

/// `tl.float32` and the like.
std::string tlType(Type type) {
  static const std::map<std::string, std::string> names = {
      {"fp32", "tl.float32"}, {"fp16", "tl.float16"}, {"bf16", "tl.bfloat16"},
      {"fp64", "tl.float64"}, {"i1", "tl.int1"},      {"i8", "tl.int8"},
      {"i16", "tl.int16"},    {"i32", "tl.int32"},    {"i64", "tl.int64"}};
  return names.at(pointerType(type));
}

std::string torchType(Type type) {
  static const std::map<std::string, std::string> names = {
      {"fp32", "torch.float32"},  {"fp16", "torch.float16"},
      {"bf16", "torch.bfloat16"}, {"fp64", "torch.float64"},
      {"i1", "torch.bool"},       {"i8", "torch.int8"},
      {"i16", "torch.int16"},     {"i32", "torch.int32"},
      {"i64", "torch.int64"}};
  return names.at(pointerType(type));
}

std::string shapeTuple(ArrayRef<int64_t> shape) {
  std::string s = "(";
  for (int64_t d : shape)
    s += std::to_string(d) + ", ";
  if (shape.size() > 1)
    s.erase(s.size() - 2);
  else if (shape.size() == 1)
    s.pop_back();
  return s + ")";
}

/// A Python literal for a scalar constant attribute; empty if not one.
std::string literal(Attribute attr) {
  if (auto f = dyn_cast<FloatAttr>(attr)) {
    double v = f.getValueAsDouble();
    if (std::isnan(v))
      return "float(\"nan\")";
    if (std::isinf(v))
      return v > 0 ? "float(\"inf\")" : "float(\"-inf\")";
    char buffer[64];
    std::snprintf(buffer, sizeof(buffer), "%.17g", v);
    std::string s = buffer;
    if (s.find_first_of(".eE") == std::string::npos)
      s += ".0";
    return s;
  }
  if (auto i = dyn_cast<IntegerAttr>(attr)) {
    if (i.getType().isInteger(1))
      return i.getValue().getBoolValue() ? "True" : "False";
    return std::to_string(i.getValue().getSExtValue());
  }
  return "";
}

/// NaN semantics of arith's max/min ops, which Triton's tl.maximum leaves
/// to the implementation; tanh from tl.exp (libdevice's needs a GPU, not
/// Triton's interpreter).
constexpr llvm::StringLiteral kHelpers = R"py(
@triton.jit
def _maximum(a, b):
    return tl.where((a != a) | (b != b), a + b, tl.maximum(a, b))


@triton.jit
def _minimum(a, b):
    return tl.where((a != a) | (b != b), a + b, tl.minimum(a, b))


@triton.jit
def _maxnum(a, b):
    return tl.where(a != a, b, tl.where(b != b, a, tl.maximum(a, b)))


@triton.jit
def _minnum(a, b):
    return tl.where(a != a, b, tl.where(b != b, a, tl.minimum(a, b)))


@triton.jit
def _tanh(x):
    t = tl.exp(-2.0 * tl.abs(x))
    return tl.where(x < 0, -1.0, 1.0) * (1.0 - t) / (1.0 + t)

)py";

/// Python source lines at an indentation.
struct Code {
  std::string text;
  int indent = 1;
  void line(const Twine &s) {
    text += std::string(indent * 4, ' ');
    text += s.str();
    text += "\n";
  }
};

/// Where loads happen and what a loop index is there.
struct Context {
  Code *code;
  /// The load/store mask (a Python expression).
  std::string mask;
  /// Variables already computed here: value + indices -> variable.
  llvm::StringMap<std::string> memo;
  /// Inside a rows-form program: its rows (`p3`), or its rows by a block
  /// of columns (`p3[:, None]`).
  bool inRows = false, full = false;

  /// The program's row index of program loop `d` here.
  std::string rowIndex(unsigned d) const {
    return "p" + std::to_string(d) + (full ? "[:, None]" : "");
  }
};

/// The reduction combiner of a reduction body.
struct Combiner {
  std::string identity, combine, reduce;
};

class Emitter {
public:
  Emitter(func::FuncOp func, PlanOp plan) : func(func), plan(plan) {}

  FailureOr<TritonModule> run(std::string &reason);

private:
  func::FuncOp func;
  PlanOp plan;
  bool failedFlag = false;
  std::string why;
  int counter = 0;

  /// Kernel parameters: pointers to function arguments and new results.
  struct Param {
    std::string name;
    RankedTensorType type;
  };
  SmallVector<Param> params;
  DenseMap<Value, std::string> paramOf;
  /// Results of the function: the pointer each is stored through.
  SmallVector<std::pair<Value, std::string>> results;
  /// Tensors the launcher allocates: new results (tensor.empty inits) and
  /// intermediates one kernel of the module writes and a later one reads.
  SmallVector<std::pair<std::string, RankedTensorType>> newResults, temporaries;

  /// One @triton.jit kernel of the module: reductions over the same loops
  /// (rows form; none for an elementwise kernel) or one contraction, and the
  /// values it stores.
  struct Group {
    KernelForm form;
    SmallVector<linalg::LinalgOp> anchors;
    SmallVector<std::pair<Value, std::string>> stores;
  };
  SmallVector<Group> groups;
  /// Values stored by one kernel, read by later ones: their pointers.
  DenseMap<Value, std::string> materialized;
  /// The anchors of the kernel being written.
  DenseSet<Operation *> currentAnchors;

  /// Reduction results computed per row: variable, and which program loop
  /// each dimension of the result tensor is (-1: a unit dimension).
  struct RowValue {
    std::string var;
    SmallVector<int64_t> dims;
  };
  DenseMap<Value, RowValue> rowValues;

  /// The contraction of a matmul-form kernel, and its accumulator.
  linalg::LinalgOp contraction;
  SmallVector<std::string> contractionOut;

  std::string fail(const Twine &message) {
    if (!failedFlag) {
      failedFlag = true;
      why = message.str();
    }
    return "0";
  }
  std::string fresh(StringRef prefix) {
    return (prefix + Twine(counter++)).str();
  }

  bool collectParams();
  std::string valueAt(Value value, ArrayRef<std::string> index, Context &ctx);
  std::string evalOp(linalg::LinalgOp op, unsigned result,
                     ArrayRef<std::string> loops, Context &ctx);
  std::string translate(Operation &op, ArrayRef<std::string> operands,
                        ArrayRef<std::string> loops);
  SmallVector<std::string> apply(AffineMap map, ArrayRef<std::string> loops);
  std::string offset(RankedTensorType type, ArrayRef<std::string> index);
  std::optional<Combiner> combinerOf(linalg::LinalgOp op, Operation *&combine);
  void store(Value value, StringRef pointer, ArrayRef<std::string> index,
             ArrayRef<std::string> shape, Context &ctx);

  /// The plan's tile of `op` at `level`, resized to its loops.
  SmallVector<int64_t> planTile(Operation *op, TileLevel level,
                                int64_t *lanes = nullptr);
  std::optional<MmaOp> planMma(Operation *op);
  int64_t planStages(Operation *op);
  int64_t numWarpsFor(Operation *op, ArrayRef<int64_t> blockExtent);

  /// What one kernel of the module needs besides its body.
  struct KernelText {
    std::string body, header, grid, constexprs, constNames;
    int64_t numWarps = 4, numStages = 1;
  };
  std::string evalValue(linalg::LinalgOp op, Value value,
                        ArrayRef<std::string> loops, Context &ctx,
                        DenseMap<Value, std::string> &vars);
  template <typename Indices, typename RowCtx, typename Open>
  void emitArgReduction(linalg::LinalgOp op, Code &code, Indices loopIndices,
                        RowCtx rowCtx, Open openColumns, int64_t numCols);
  bool isAnchor(linalg::LinalgOp op);
  void anchorsReached(Value value, SmallVectorImpl<Operation *> &anchors,
                      DenseSet<Value> &seen);
  bool partition();
  KernelText emitRows(const Group &group);
  KernelText emitMatmul(const Group &group);
};

bool Emitter::collectParams() {
  for (BlockArgument arg : func.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || !type.hasStaticShape() ||
        pointerType(type.getElementType()).empty()) {
      fail("argument #" + Twine(arg.getArgNumber()) +
           " is not a static tensor of a Triton element type");
      return false;
    }
    std::string name = "a" + std::to_string(arg.getArgNumber());
    params.push_back({name, type});
    paramOf[arg] = name;
  }
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  for (auto [i, value] : llvm::enumerate(ret.getOperands())) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || !type.hasStaticShape()) {
      fail("result #" + Twine(i) + " is not a static tensor");
      return false;
    }
    // A reshape of a contiguous tensor keeps its elements' order: store
    // what it reshapes.
    while (isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(
        value.getDefiningOp()))
      value = value.getDefiningOp()->getOperand(0);
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      // A view of an argument (`x.view(...)`): the launcher returns it.
      results.emplace_back(value, "v" + std::to_string(arg.getArgNumber()));
      continue;
    }
    auto producer = value.getDefiningOp<linalg::LinalgOp>();
    if (!producer || isa<linalg::FillOp>(producer.getOperation())) {
      fail("result #" + Twine(i) +
           " is not computed by a linalg op (an argument, a fill or "
           "another op)");
      return false;
    }
    // Destination passing: the init chain ends at an argument.
    Value init =
        producer.getDpsInits()[cast<OpResult>(value).getResultNumber()];
    while (init.getDefiningOp()) {
      if (auto op = init.getDefiningOp<linalg::LinalgOp>())
        init = op.getDpsInits()[cast<OpResult>(init).getResultNumber()];
      else if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(
                   init.getDefiningOp()))
        init = init.getDefiningOp()->getOperand(0);
      else
        break;
    }
    std::string pointer;
    if (auto arg = dyn_cast<BlockArgument>(init)) {
      pointer = paramOf[arg];
    } else if (init.getDefiningOp<tensor::EmptyOp>()) {
      pointer = "r" + std::to_string(newResults.size());
      newResults.emplace_back(pointer, type);
      params.push_back({pointer, type});
    } else {
      fail("result #" + Twine(i) +
           " is built in a tensor the emitter "
           "cannot allocate");
      return false;
    }
    results.emplace_back(value, pointer);
  }
  for (Operation &op : func.getBody().front().without_terminator()) {
    if (isa<linalg::LinalgOp, tensor::EmptyOp, arith::ConstantOp,
            tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op))
      continue;
    fail("'" + op.getName().getStringRef() + "' is not emitted to Triton");
    return false;
  }
  return true;
}

/// An affine expression over Python index expressions: windows
/// (`oh + kh`), strides (`2 * oh`), tiles (`i floordiv 4`).
static std::string affineString(AffineExpr expr, ArrayRef<std::string> dims,
                                ArrayRef<std::string> symbols) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return dims[dim.getPosition()];
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    return symbols[symbol.getPosition()];
  if (auto cst = dyn_cast<AffineConstantExpr>(expr))
    return std::to_string(cst.getValue());
  auto binary = cast<AffineBinaryOpExpr>(expr);
  std::string lhs = affineString(binary.getLHS(), dims, symbols);
  std::string rhs = affineString(binary.getRHS(), dims, symbols);
  switch (binary.getKind()) {
  case AffineExprKind::Add:
    return "(" + lhs + " + " + rhs + ")";
  case AffineExprKind::Mul:
    return "(" + lhs + " * " + rhs + ")";
  case AffineExprKind::FloorDiv:
    return "(" + lhs + " // " + rhs + ")";
  case AffineExprKind::Mod:
    return "(" + lhs + " % " + rhs + ")";
  default: // CeilDiv
    return "(-((-" + lhs + ") // " + rhs + "))";
  }
}

SmallVector<std::string> Emitter::apply(AffineMap map,
                                        ArrayRef<std::string> loops) {
  SmallVector<std::string> index;
  for (AffineExpr expr : map.getResults())
    index.push_back(affineString(expr, loops, {}));
  return index;
}

std::string Emitter::offset(RankedTensorType type,
                            ArrayRef<std::string> index) {
  SmallVector<std::string> terms;
  int64_t stride = 1;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    if (index[d] != "0" && type.getDimSize(d) != 1)
      terms.push_back(stride == 1
                          ? index[d]
                          : "(" + index[d] + ") * " + std::to_string(stride));
    stride *= type.getDimSize(d);
  }
  if (terms.empty())
    return "0";
  std::reverse(terms.begin(), terms.end());
  return llvm::join(terms, " + ");
}

std::string Emitter::valueAt(Value value, ArrayRef<std::string> index,
                             Context &ctx) {
  if (failedFlag)
    return "0";
  std::string key = llvm::formatv("{0}|{1}", value.getAsOpaquePointer(),
                                  llvm::join(index, ","));
  if (auto it = ctx.memo.find(key); it != ctx.memo.end())
    return it->second;
  std::string result;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto type = cast<RankedTensorType>(arg.getType());
    result = fresh("x");
    ctx.code->line(result + " = tl.load(" + paramOf[arg] + " + (" +
                   offset(type, index) + "), mask=" + ctx.mask + ", other=0)");
  } else if (auto cst = value.getDefiningOp<arith::ConstantOp>()) {
    result = literal(cst.getValue());
    if (result.empty())
      return fail("a constant that is not a scalar");
  } else if (auto fill = value.getDefiningOp<linalg::FillOp>()) {
    auto cst = fill.getInputs()[0].getDefiningOp<arith::ConstantOp>();
    if (!cst)
      return fail("a fill with a value that is not a constant");
    result = literal(cst.getValue());
  } else if (auto it = materialized.find(value);
             it != materialized.end() &&
             !currentAnchors.contains(value.getDefiningOp())) {
    auto type = cast<RankedTensorType>(value.getType());
    result = fresh("x");
    ctx.code->line(result + " = tl.load(" + it->second + " + (" +
                   offset(type, index) + "), mask=" + ctx.mask + ", other=0)");
  } else if (auto expand = value.getDefiningOp<tensor::ExpandShapeOp>()) {
    // Source index of a group of expanded dims: their row-major position.
    auto type = cast<RankedTensorType>(value.getType());
    SmallVector<std::string> source;
    for (const ReassociationIndices &group : expand.getReassociationIndices()) {
      std::string term;
      int64_t inner = 1;
      for (int64_t d : llvm::reverse(group)) {
        // A unit dimension's index is 0 wherever it is valid.
        if (index[d] != "0" && type.getDimSize(d) != 1) {
          std::string part =
              inner == 1 ? index[d]
                         : "(" + index[d] + ") * " + std::to_string(inner);
          term = term.empty() ? part : part + " + " + term;
        }
        inner *= type.getDimSize(d);
      }
      source.push_back(term.empty() ? "0" : term);
    }
    result = valueAt(expand.getSrc(), source, ctx);
  } else if (auto collapse = value.getDefiningOp<tensor::CollapseShapeOp>()) {
    // Source indices of a collapsed dim: its row-major decomposition.
    auto type = cast<RankedTensorType>(collapse.getSrc().getType());
    SmallVector<std::string> source(type.getRank(), "0");
    for (auto [g, group] :
         llvm::enumerate(collapse.getReassociationIndices())) {
      int64_t inner = 1;
      for (int64_t d : llvm::reverse(group)) {
        // Unit dimensions are 0; a group with one other dimension is it.
        int64_t wide = llvm::count_if(
            group, [&](int64_t e) { return type.getDimSize(e) != 1; });
        source[d] = type.getDimSize(d) == 1 ? std::string("0")
                    : wide == 1
                        ? index[g]
                        : llvm::formatv("(({0}) // {1}) % {2}", index[g], inner,
                                        type.getDimSize(d))
                              .str();
        inner *= type.getDimSize(d);
      }
    }
    result = valueAt(collapse.getSrc(), source, ctx);
  } else if (auto it = rowValues.find(value); it != rowValues.end()) {
    if (!ctx.inRows)
      return fail("a reduction's result read outside its rows");
    auto type = cast<RankedTensorType>(value.getType());
    for (auto [d, loop] : llvm::enumerate(it->second.dims))
      if (loop >= 0 && type.getDimSize(d) != 1 &&
          index[d] != ctx.rowIndex(loop))
        return fail("a reduction's result read at another row than its own");
    result = it->second.var + (ctx.full ? "[:, None]" : "");
  } else if (contraction && value.getDefiningOp() == contraction) {
    if (SmallVector<std::string>(index) != contractionOut)
      return fail("the contraction's result read at other indices than its "
                  "own tile");
    result = "acc";
  } else if (auto op = value.getDefiningOp<linalg::LinalgOp>()) {
    unsigned number = cast<OpResult>(value).getResultNumber();
    AffineMap map = op.getIndexingMapMatchingResult(cast<OpResult>(value));
    if (op.getNumReductionLoops() > 0 || !map.isPermutation())
      return fail("'" + op->getName().getStringRef() +
                  "' computes a value the emitter cannot evaluate where it "
                  "is read");
    SmallVector<std::string> loops(op.getNumLoops());
    for (auto [j, expr] : llvm::enumerate(map.getResults()))
      loops[cast<AffineDimExpr>(expr).getPosition()] = index[j];
    result = evalOp(op, number, loops, ctx);
  } else {
    return fail("a value defined by '" +
                value.getDefiningOp()->getName().getStringRef() + "'");
  }
  ctx.memo[key] = result;
  return result;
}

std::string Emitter::evalOp(linalg::LinalgOp op, unsigned result,
                            ArrayRef<std::string> loops, Context &ctx) {
  DenseMap<Value, std::string> vars;
  return evalValue(op, op.getBlock()->getTerminator()->getOperand(result),
                   loops, ctx, vars);
}

std::string Emitter::translate(Operation &op, ArrayRef<std::string> x,
                               ArrayRef<std::string> loops) {
  auto binary = [&](StringRef symbol) {
    return "(" + x[0] + " " + symbol.str() + " " + x[1] + ")";
  };
  auto call = [&](StringRef fn) {
    return fn.str() + "(" + llvm::join(x, ", ") + ")";
  };
  if (isa<arith::AddFOp, arith::AddIOp>(op))
    return binary("+");
  if (isa<arith::SubFOp, arith::SubIOp>(op))
    return binary("-");
  if (isa<arith::MulFOp, arith::MulIOp>(op))
    return binary("*");
  if (isa<arith::DivFOp>(op))
    return binary("/");
  if (isa<arith::AndIOp>(op))
    return binary("&");
  if (isa<arith::OrIOp>(op))
    return binary("|");
  if (isa<arith::XOrIOp>(op))
    return binary("^");
  if (isa<arith::NegFOp>(op))
    return "(-" + x[0] + ")";
  // maximumf/minimumf propagate NaN, maxnumf/minnumf return the other
  // operand: the module's helpers (kHelpers) say so exactly.
  if (isa<arith::MaximumFOp>(op))
    return call("_maximum");
  if (isa<arith::MinimumFOp>(op))
    return call("_minimum");
  if (isa<arith::MaxNumFOp>(op))
    return call("_maxnum");
  if (isa<arith::MinNumFOp>(op))
    return call("_minnum");
  if (isa<arith::MaxSIOp>(op))
    return call("tl.maximum");
  if (isa<arith::MinSIOp>(op))
    return call("tl.minimum");
  if (isa<arith::SelectOp>(op))
    return call("tl.where");
  if (auto cmp = dyn_cast<arith::CmpFOp>(op)) {
    using P = arith::CmpFPredicate;
    switch (cmp.getPredicate()) {
    case P::OEQ:
    case P::UEQ:
      return binary("==");
    case P::ONE:
    case P::UNE:
      return binary("!=");
    case P::OLT:
    case P::ULT:
      return binary("<");
    case P::OLE:
    case P::ULE:
      return binary("<=");
    case P::OGT:
    case P::UGT:
      return binary(">");
    case P::OGE:
    case P::UGE:
      return binary(">=");
    default:
      return fail("arith.cmpf " +
                  arith::stringifyCmpFPredicate(cmp.getPredicate()));
    }
  }
  if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    using P = arith::CmpIPredicate;
    switch (cmp.getPredicate()) {
    case P::eq:
      return binary("==");
    case P::ne:
      return binary("!=");
    case P::slt:
      return binary("<");
    case P::sle:
      return binary("<=");
    case P::sgt:
      return binary(">");
    case P::sge:
      return binary(">=");
    default:
      return fail("unsigned arith.cmpi");
    }
  }
  if (isa<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::FPToSIOp,
          arith::ExtSIOp, arith::TruncIOp, arith::IndexCastOp>(op)) {
    Type to = op.getResult(0).getType();
    if (to.isIndex())
      return x[0];
    if (pointerType(to).empty())
      return fail("a cast to " + Twine(llvm::formatv("{0}", to).str()));
    // A literal has no .to(): wrap it.
    return "tl.cast(" + x[0] + ", " + tlType(to) + ")";
  }
  if (auto index = dyn_cast<linalg::IndexOp>(op))
    return loops[index.getDim()];
  if (auto affine = dyn_cast<affine::AffineApplyOp>(op)) {
    AffineMap map = affine.getAffineMap();
    return affineString(map.getResult(0),
                        ArrayRef(x).take_front(map.getNumDims()),
                        ArrayRef(x).drop_front(map.getNumDims()));
  }
  if (isa<math::FPowIOp>(op)) {
    // x ** n: products for a small constant n (what `x ** 2` exports to).
    int64_t n = 0;
    if (llvm::to_integer(x[1], n) && n >= -8 && n <= 8 && n != 0) {
      SmallVector<std::string> factors(std::abs(n), x[0]);
      std::string product = "(" + llvm::join(factors, " * ") + ")";
      return n > 0 ? product : "(1.0 / " + product + ")";
    }
    return "libdevice.pow(" + x[0] + ", tl.cast(" + x[1] + ", tl.float32))";
  }
  static const std::map<std::string, std::string> math = {
      {"math.exp", "tl.exp"},
      {"math.exp2", "tl.exp2"},
      {"math.log", "tl.log"},
      {"math.log2", "tl.log2"},
      {"math.sqrt", "tl.sqrt"},
      {"math.rsqrt", "tl.rsqrt"},
      {"math.absf", "tl.abs"},
      {"math.sin", "tl.sin"},
      {"math.cos", "tl.cos"},
      {"math.floor", "tl.floor"},
      {"math.ceil", "tl.ceil"},
      {"math.erf", "tl.erf"},
      {"math.tanh", "_tanh"},
      {"math.powf", "libdevice.pow"},
      {"math.log1p", "libdevice.log1p"},
      {"math.expm1", "libdevice.expm1"},
      {"math.fma", "tl.fma"},
      {"math.absi", "tl.abs"}};
  if (auto it = math.find(op.getName().getStringRef().str());
      it != math.end()) {
    // Triton's math functions take f32 and f64: compute narrower floats
    // in f32.
    Type type = op.getResult(0).getType();
    if (!type.isF16() && !type.isBF16())
      return call(it->second);
    SmallVector<std::string> wide;
    for (const std::string &operand : x)
      wide.push_back("tl.cast(" + operand + ", tl.float32)");
    return "tl.cast(" + it->second + "(" + llvm::join(wide, ", ") + "), " +
           tlType(type) + ")";
  }
  return fail("'" + op.getName().getStringRef() +
              "' in a body is not emitted to Triton");
}

std::optional<Combiner> Emitter::combinerOf(linalg::LinalgOp op,
                                            Operation *&combine) {
  if (op.getNumDpsInits() != 1)
    return std::nullopt;
  BlockArgument acc = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  if (!acc.hasOneUse())
    return std::nullopt;
  combine = *acc.getUsers().begin();
  if (op.getBlock()->getTerminator()->getOperand(0) != combine->getResult(0))
    return std::nullopt;
  Type type = acc.getType();
  bool isFloat = isa<FloatType>(type);
  if (isa<arith::AddFOp, arith::AddIOp>(combine))
    return Combiner{isFloat ? "0.0" : "0", "+", "tl.sum"};
  if (isa<arith::MaximumFOp>(combine))
    return Combiner{"float(\"-inf\")", "_maximum", "tl.max"};
  if (isa<arith::MaxNumFOp>(combine))
    return Combiner{"float(\"-inf\")", "_maxnum", "tl.max"};
  if (isa<arith::MinimumFOp>(combine))
    return Combiner{"float(\"inf\")", "_minimum", "tl.min"};
  if (isa<arith::MinNumFOp>(combine))
    return Combiner{"float(\"inf\")", "_minnum", "tl.min"};
  return std::nullopt;
}

SmallVector<int64_t> Emitter::planTile(Operation *op, TileLevel level,
                                       int64_t *lanes) {
  auto tag = op->getAttrOfType<StringAttr>(QiMengDialect::kTagAttrName);
  SmallVector<int64_t> sizes;
  if (!plan || !tag)
    return sizes;
  for (MacroActionOpInterface action : plan.getActions())
    if (auto tile = dyn_cast<TileOp>(action.getOperation()))
      if (tile.getTarget() == tag.getValue() && tile.getLevel() == level) {
        sizes.assign(tile.getSizes().begin(), tile.getSizes().end());
        if (lanes)
          *lanes = tile.getLanes();
      }
  sizes.resize(cast<linalg::LinalgOp>(op).getNumLoops(), 0);
  return sizes;
}

std::optional<MmaOp> Emitter::planMma(Operation *op) {
  auto tag = op->getAttrOfType<StringAttr>(QiMengDialect::kTagAttrName);
  if (plan && tag)
    for (MacroActionOpInterface action : plan.getActions())
      if (auto mma = dyn_cast<MmaOp>(action.getOperation()))
        if (mma.getTarget() == tag.getValue())
          return mma;
  return std::nullopt;
}

int64_t Emitter::planStages(Operation *op) {
  auto tag = op->getAttrOfType<StringAttr>(QiMengDialect::kTagAttrName);
  if (plan && tag)
    for (MacroActionOpInterface action : plan.getActions())
      if (auto pipeline = dyn_cast<PipelineOp>(action.getOperation()))
        if (pipeline.getTarget() == tag.getValue())
          return pipeline.getStages();
  return 1;
}

/// Warps for the threads the plan gives a block of `op`: its thread tile
/// (SIMT), its warp tile (lanes per warp tile, or 32 per tensor-core warp;
/// four warps per wgmma warpgroup tile); four when the plan says nothing.
int64_t Emitter::numWarpsFor(Operation *op, ArrayRef<int64_t> blockExtent) {
  int64_t threads = 0;
  SmallVector<int64_t> thread = planTile(op, TileLevel::thread);
  int64_t lanes = 32;
  SmallVector<int64_t> warp = planTile(op, TileLevel::warp, &lanes);
  auto isSet = [](ArrayRef<int64_t> tile) {
    return llvm::any_of(tile, [](int64_t v) { return v != 0; });
  };
  if (isSet(thread)) {
    threads = 1;
    for (auto [extent, t] : llvm::zip(blockExtent, thread))
      if (t)
        threads *= llvm::divideCeil(extent, t);
  } else if (isSet(warp)) {
    threads = lanes;
    for (auto [extent, w] : llvm::zip(blockExtent, warp))
      if (w)
        threads *= llvm::divideCeil(extent, w);
    if (std::optional<MmaOp> mma = planMma(op);
        mma && mma->getKind() == MmaKind::wgmma)
      threads *= 4;
  }
  if (threads == 0)
    return 4;
  return std::clamp<int64_t>(pow2(threads / 32), 1, 16);
}

void Emitter::store(Value value, StringRef pointer, ArrayRef<std::string> index,
                    ArrayRef<std::string> shape, Context &ctx) {
  std::string v = valueAt(value, index, ctx);
  auto type = cast<RankedTensorType>(value.getType());
  std::string shapeList = "[" + llvm::join(shape, ", ") + "]";
  std::string var = fresh("s");
  ctx.code->line(var + " = tl.broadcast_to(tl.cast(" + v + " + tl.zeros(" +
                 shapeList + ", " + tlType(type.getElementType()) + "), " +
                 tlType(type.getElementType()) + "), " + shapeList + ")");
  ctx.code->line("tl.store(" + pointer.str() + " + (" + offset(type, index) +
                 ") + tl.zeros(" + shapeList + ", tl.int64), " + var +
                 ", mask=" + ctx.mask + ")");
}

/// The value of `value` in the body of `op` at `loops`: only what it
/// depends on is evaluated (memoized in `vars`).
std::string Emitter::evalValue(linalg::LinalgOp op, Value value,
                               ArrayRef<std::string> loops, Context &ctx,
                               DenseMap<Value, std::string> &vars) {
  if (auto it = vars.find(value); it != vars.end())
    return it->second;
  std::string result;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (arg.getOwner() != op.getBlock())
      return fail("a body argument of another op");
    OpOperand *operand = op.getMatchingOpOperand(arg);
    // An elementwise op may read its output; a reduction's combined value
    // may not read the accumulator.
    if (op.isDpsInit(operand) && op.getNumReductionLoops() > 0)
      return fail("a reduction whose combined value reads its accumulator");
    result = valueAt(operand->get(),
                     apply(op.getMatchingIndexingMap(operand), loops), ctx);
  } else if (value.getParentBlock() != op.getBlock()) {
    auto cst = value.getDefiningOp<arith::ConstantOp>();
    result = cst ? literal(cst.getValue()) : "";
    if (result.empty())
      return fail("a body reads a value from outside that is not a scalar "
                  "constant");
  } else {
    Operation *def = value.getDefiningOp();
    if (def->getNumResults() != 1)
      return fail("'" + def->getName().getStringRef() +
                  "' has several results");
    // A gather reads its tensor at the indices; other ops, their operands.
    auto extract = dyn_cast<tensor::ExtractOp>(def);
    SmallVector<std::string> operands;
    for (Value operand : extract ? ValueRange(extract.getIndices())
                                 : ValueRange(def->getOperands()))
      operands.push_back(evalValue(op, operand, loops, ctx, vars));
    if (failedFlag)
      return "0";
    if (extract) {
      result = valueAt(extract.getTensor(), operands, ctx);
    } else {
      result = fresh("t");
      ctx.code->line(result + " = " + translate(*def, operands, loops));
    }
  }
  vars[value] = result;
  return result;
}

/// A reduction to a value and the index where it is (argmax, argmin): two
/// accumulators, the body `c = cmp(v, acc0); yield select(c, v, acc0),
/// select(c, i, acc1)` with a strict comparison and `i` the reduction
/// loop's index. Each lane keeps its first extremum; across lanes, the
/// smallest index of the extremum: the first, as the sequential loop has it.
template <typename Indices, typename RowCtx, typename Open>
void Emitter::emitArgReduction(linalg::LinalgOp op, Code &code,
                               Indices loopIndices, RowCtx rowCtx,
                               Open openColumns, int64_t numCols) {
  Block *body = op.getBlock();
  auto yield = body->getTerminator();
  auto valueSelect = yield->getOperand(0).getDefiningOp<arith::SelectOp>();
  auto indexSelect = yield->getOperand(1).getDefiningOp<arith::SelectOp>();
  BlockArgument accValue = body->getArgument(op.getNumDpsInputs());
  BlockArgument accIndex = body->getArgument(op.getNumDpsInputs() + 1);
  if (!valueSelect || !indexSelect ||
      valueSelect.getCondition() != indexSelect.getCondition() ||
      valueSelect.getFalseValue() != accValue ||
      indexSelect.getFalseValue() != accIndex) {
    fail("a reduction with two results that is not an argmax or argmin");
    return;
  }
  Operation *cmp = valueSelect.getCondition().getDefiningOp();
  std::string relation;
  Value candidate = valueSelect.getTrueValue();
  auto strict = [&](bool greater) { relation = greater ? ">" : "<"; };
  if (auto f = dyn_cast_or_null<arith::CmpFOp>(cmp)) {
    using P = arith::CmpFPredicate;
    if (f.getPredicate() == P::OGT || f.getPredicate() == P::UGT)
      strict(true);
    else if (f.getPredicate() == P::OLT || f.getPredicate() == P::ULT)
      strict(false);
  } else if (auto i = dyn_cast_or_null<arith::CmpIOp>(cmp)) {
    if (i.getPredicate() == arith::CmpIPredicate::sgt)
      strict(true);
    else if (i.getPredicate() == arith::CmpIPredicate::slt)
      strict(false);
  }
  if (relation.empty() || cmp->getOperand(0) != candidate ||
      cmp->getOperand(1) != accValue) {
    fail("an argmax or argmin whose comparison is not strict `value > "
         "best` (or `<`)");
    return;
  }
  // The selected index must be a reduction loop's index (maybe cast).
  Value index = indexSelect.getTrueValue();
  while (isa_and_nonnull<arith::IndexCastOp, arith::ExtSIOp>(
      index.getDefiningOp()))
    index = index.getDefiningOp()->getOperand(0);
  auto loop = index.getDefiningOp<linalg::IndexOp>();
  if (!loop || op.getIteratorTypesArray()[loop.getDim()] !=
                   utils::IteratorType::reduction) {
    fail("an argmax or argmin that does not select a reduction loop's "
         "index");
    return;
  }
  Type valueType = accValue.getType(), indexType = accIndex.getType();
  std::string worst = relation == ">" ? "float(\"-inf\")" : "float(\"inf\")";
  if (!isa<FloatType>(valueType)) {
    fail("an argmax or argmin over integers");
    return;
  }
  std::string best = fresh("best"), where = fresh("at");
  code.line(best + " = tl.full([R, BI], " + worst + ", " + tlType(valueType) +
            ")");
  code.line(where + " = tl.zeros([R, BI], " + tlType(indexType) + ")");
  code.line(llvm::formatv("for start in range(0, {0}, BI):", numCols).str());
  ++code.indent;
  openColumns("start");
  Context ctx = rowCtx(true);
  DenseMap<Value, std::string> vars;
  std::string v = evalValue(op, candidate, loopIndices(true), ctx, vars);
  std::string i =
      evalValue(op, indexSelect.getTrueValue(), loopIndices(true), ctx, vars);
  std::string take = fresh("take");
  code.line(take + " = mask2 & (" + v + " " + relation + " " + best + ")");
  code.line(best + " = tl.where(" + take + ", " + v + ", " + best + ")");
  code.line(where + " = tl.where(" + take + ", tl.cast(" + i + ", " +
            tlType(indexType) + "), " + where + ")");
  --code.indent;
  std::string extremum = fresh("row"), position = fresh("row");
  code.line(extremum + " = " + (relation == ">" ? "tl.max" : "tl.min") + "(" +
            best + ", axis=1)");
  std::string none = indexType.isInteger(64) ? "2 ** 62" : "2 ** 30";
  code.line(position + " = tl.min(tl.where(" + best + " == " + extremum +
            "[:, None], " + where + ", " + none + "), axis=1)");
  Context rctx = rowCtx(false);
  SmallVector<std::string> rowLoops = loopIndices(false);
  AffineMap valueMap = op.getIndexingMapMatchingResult(op->getResult(0));
  AffineMap indexMap = op.getIndexingMapMatchingResult(op->getResult(1));
  std::string initValue =
      valueAt(op.getDpsInits()[0], apply(valueMap, rowLoops), rctx);
  std::string initIndex =
      valueAt(op.getDpsInits()[1], apply(indexMap, rowLoops), rctx);
  std::string better = fresh("better");
  code.line(better + " = " + extremum + " " + relation + " " + initValue);
  std::string rowValue = fresh("row"), rowIndex = fresh("row");
  code.line(rowValue + " = tl.where(" + better + ", " + extremum + ", " +
            initValue + ")");
  code.line(rowIndex + " = tl.where(" + better + ", " + position + ", " +
            initIndex + ")");
  for (auto [result, var, map] :
       {std::make_tuple(op->getResult(0), rowValue, valueMap),
        std::make_tuple(op->getResult(1), rowIndex, indexMap)}) {
    RowValue row{var, {}};
    for (AffineExpr expr : map.getResults()) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      row.dims.push_back(dim ? static_cast<int64_t>(dim.getPosition()) : -1);
    }
    rowValues[result] = row;
  }
}

Emitter::KernelText Emitter::emitRows(const Group &group) {
  KernelText out;
  // The program's loops: those of the reductions (all alike), or of the
  // first stored value's op.
  SmallVector<linalg::LinalgOp> reductions(group.anchors);
  linalg::LinalgOp root =
      reductions.empty()
          ? cast<linalg::LinalgOp>(group.stores.front().first.getDefiningOp())
          : reductions.front();
  SmallVector<int64_t> sizes = root.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = root.getIteratorTypesArray();
  SmallVector<unsigned> rowLoops, colLoops;
  for (auto [d, it] : llvm::enumerate(iterators)) {
    bool isCol = reductions.empty() ? d + 1 == sizes.size()
                                    : it == utils::IteratorType::reduction;
    (isCol ? colLoops : rowLoops).push_back(d);
  }
  int64_t numRows = 1, numCols = 1;
  for (unsigned d : rowLoops)
    numRows *= sizes[d];
  for (unsigned d : colLoops)
    numCols *= sizes[d];

  // Rows and columns per block from the plan's block tile.
  SmallVector<int64_t> block = planTile(root, TileLevel::block);
  SmallVector<int64_t> extent(sizes);
  int64_t rowsPerBlock = 1, colsPerBlock = 1;
  for (auto [d, size] : llvm::enumerate(sizes)) {
    if (d < block.size() && block[d] > 0)
      extent[d] = std::min(block[d], size);
    if (llvm::is_contained(rowLoops, d))
      rowsPerBlock *= extent[d];
    else
      colsPerBlock *= extent[d];
  }
  int64_t R = std::min(pow2(rowsPerBlock), pow2(numRows));
  int64_t BI = std::min(pow2(colsPerBlock), pow2(numCols));
  if (!reductions.empty())
    BI = std::min<int64_t>(BI, 4096);
  while (R * BI > kMaxTileElements)
    (BI > 1024 || R == 1) ? BI /= 2 : R /= 2;
  out.numWarps = numWarpsFor(root, extent);
  out.constexprs = llvm::formatv("{{\"R\": {0}, \"BI\": {1}}", R, BI);

  Code code;
  auto decompose = [&](StringRef flat, ArrayRef<unsigned> loops,
                       StringRef prefix) {
    int64_t inner = 1;
    for (unsigned d : llvm::reverse(loops)) {
      code.line(llvm::formatv("{0}{1} = ({2} // {3}) % {4}", prefix, d, flat,
                              inner, sizes[d])
                    .str());
      inner *= sizes[d];
    }
  };
  code.line("pid = tl.program_id(0).to(tl.int64)");
  code.line("rows = pid * R + tl.arange(0, R)");
  code.line(llvm::formatv("rmask = rows < {0}", numRows).str());
  decompose("rows", rowLoops, "p");
  auto loopIndices = [&](bool full) {
    SmallVector<std::string> loops(sizes.size());
    for (unsigned d : rowLoops)
      loops[d] = "p" + std::to_string(d) + (full ? "[:, None]" : "");
    for (unsigned d : colLoops)
      loops[d] = "c" + std::to_string(d) + "[None, :]";
    return loops;
  };
  auto rowCtx = [&](bool full) {
    return Context{&code, full ? "mask2" : "rmask", {}, true, full};
  };
  auto openColumns = [&](StringRef start) {
    code.line("cols = " + start.str() + " + tl.arange(0, BI)");
    code.line(
        llvm::formatv("mask2 = rmask[:, None] & (cols < {0})[None, :]", numCols)
            .str());
    decompose("cols", colLoops, "c");
  };

  // The reductions, in order: one value per row each.
  for (linalg::LinalgOp op : reductions) {
    if (op.getNumDpsInits() == 2) {
      emitArgReduction(op, code, loopIndices, rowCtx, openColumns, numCols);
      if (failedFlag)
        return out;
      continue;
    }
    Operation *combine = nullptr;
    std::optional<Combiner> combiner = combinerOf(op, combine);
    if (!combiner || op->getNumResults() != 1) {
      fail("a reduction that is not one sum, max or min (" +
           op->getName().getStringRef() + ")");
      return out;
    }
    auto accType = cast<RankedTensorType>(op->getResult(0).getType());
    std::string acc = fresh("acc");
    code.line(llvm::formatv("{0} = tl.full([R, BI], {1}, {2})", acc,
                            combiner->identity,
                            tlType(accType.getElementType()))
                  .str());
    code.line(llvm::formatv("for start in range(0, {0}, BI):", numCols).str());
    ++code.indent;
    openColumns("start");
    Context ctx = rowCtx(true);
    // The value combined into the accumulator.
    BlockArgument accArg = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
    DenseMap<Value, std::string> vars;
    std::string part =
        evalValue(op,
                  combine->getOperand(0) == accArg ? combine->getOperand(1)
                                                   : combine->getOperand(0),
                  loopIndices(true), ctx, vars);
    code.line(llvm::formatv("{0} = {1}", acc,
                            combiner->combine == "+"
                                ? acc + " + tl.where(mask2, " + part + ", " +
                                      combiner->identity + ")"
                                : combiner->combine + "(" + acc +
                                      ", tl.where(mask2, " + part + ", " +
                                      combiner->identity + "))")
                  .str());
    --code.indent;
    std::string row = fresh("row");
    Context rctx = rowCtx(false);
    AffineMap outMap = op.getIndexingMapMatchingResult(op->getResult(0));
    std::string init =
        valueAt(op.getDpsInits()[0], apply(outMap, loopIndices(false)), rctx);
    std::string reduced = combiner->reduce + "(" + acc + ", axis=1)";
    code.line(row + " = " +
              (combiner->combine == "+"
                   ? "(" + init + ") + " + reduced
                   : combiner->combine + "(" + init + ", " + reduced + ")"));
    RowValue value{row, {}};
    for (AffineExpr expr : outMap.getResults()) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      value.dims.push_back(dim ? static_cast<int64_t>(dim.getPosition()) : -1);
    }
    rowValues[op->getResult(0)] = value;
  }

  // The results: stored where they are computed.
  auto storeIndex = [&](Value value, bool full) {
    auto op = value.getDefiningOp<linalg::LinalgOp>();
    AffineMap map = op.getIndexingMapMatchingResult(cast<OpResult>(value));
    SmallVector<int64_t> opSizes = op.getStaticLoopRanges();
    SmallVector<std::string> loops = loopIndices(full);
    if (opSizes == sizes)
      return apply(map, loops);
    // An op over the rows only.
    SmallVector<std::string> rowOnly;
    for (unsigned d : rowLoops)
      rowOnly.push_back(loops[d]);
    SmallVector<int64_t> rowSizes;
    for (unsigned d : rowLoops)
      rowSizes.push_back(sizes[d]);
    if (opSizes != rowSizes || full) {
      fail("a result whose loops are not the program's rows or rows and "
           "columns");
      return SmallVector<std::string>(map.getNumResults(), "0");
    }
    return apply(map, rowOnly);
  };
  SmallVector<std::pair<Value, std::string>> fullResults, rowResults;
  for (auto &[value, pointer] : group.stores) {
    auto op = value.getDefiningOp<linalg::LinalgOp>();
    bool isRow = rowValues.count(value) || op.getStaticLoopRanges() != sizes;
    (isRow ? rowResults : fullResults).emplace_back(value, pointer);
  }
  for (auto &[value, pointer] : rowResults) {
    Context ctx = rowCtx(false);
    store(value, pointer, storeIndex(value, false), {"R"}, ctx);
  }
  if (!fullResults.empty()) {
    if (reductions.empty()) {
      openColumns("tl.program_id(1).to(tl.int64) * BI");
    } else {
      code.line(
          llvm::formatv("for start in range(0, {0}, BI):", numCols).str());
      ++code.indent;
      openColumns("start");
    }
    Context ctx = rowCtx(true);
    for (auto &[value, pointer] : fullResults)
      store(value, pointer, storeIndex(value, true), {"R", "BI"}, ctx);
  }
  out.header = "R: tl.constexpr, BI: tl.constexpr";
  out.constNames = "R BI";
  out.grid = llvm::formatv(
                 "(triton.cdiv({0}, {1}), {2})", numRows, R,
                 reductions.empty()
                     ? llvm::formatv("triton.cdiv({0}, {1})", numCols, BI).str()
                     : std::string("1"))
                 .str();
  out.body = code.text;
  return out;
}

Emitter::KernelText Emitter::emitMatmul(const Group &group) {
  KernelText out;
  linalg::LinalgOp op = group.anchors.front();
  contraction = op;
  linalg::ContractionDimensions dims = *linalg::inferContractionDims(op);
  if (dims.m.size() != 1 || dims.n.size() != 1 || dims.k.size() != 1 ||
      dims.batch.size() > 1) {
    fail("a contraction with several M, N, K or batch loops");
    return out;
  }
  SmallVector<int64_t> sizes = op.getStaticLoopRanges();
  unsigned m = dims.m[0], n = dims.n[0], k = dims.k[0];
  std::optional<unsigned> b;
  if (!dims.batch.empty())
    b = dims.batch[0];
  int64_t M = sizes[m], N = sizes[n], K = sizes[k], B = b ? sizes[*b] : 1;

  Type aType = getElementTypeOrSelf(op.getDpsInputs()[0].getType());
  Type bType = getElementTypeOrSelf(op.getDpsInputs()[1].getType());
  if (aType != bType || !(aType.isF32() || aType.isF16() || aType.isBF16())) {
    fail("a contraction whose operands are not both f32, f16 or bf16");
    return out;
  }
  std::optional<MmaOp> mma = planMma(op);
  std::string precision = !aType.isF32() ? ""
                          : (mma && mma->getAType() == MmaType::tf32)
                              ? ", input_precision=\"tf32\""
                              : ", input_precision=\"ieee\"";

  SmallVector<int64_t> block = planTile(op, TileLevel::block);
  SmallVector<int64_t> reduction = planTile(op, TileLevel::reduction);
  auto tileOf = [&](int64_t tile, int64_t size, int64_t fallback,
                    int64_t most) {
    int64_t t = tile > 0 ? tile : std::min(size, fallback);
    return std::clamp<int64_t>(std::min(pow2(t), pow2(size)), 16, most);
  };
  int64_t BM = tileOf(block[m], M, 128, 256),
          BN = tileOf(block[n], N, 128, 256);
  int64_t BK = tileOf(reduction[k], K, 32, 128);
  SmallVector<int64_t> extent(sizes.size(), 1);
  extent[m] = BM;
  extent[n] = BN;
  out.numWarps = numWarpsFor(op, extent);
  out.numStages = std::max<int64_t>(1, planStages(op));
  out.constexprs =
      llvm::formatv("{{\"BM\": {0}, \"BN\": {1}, \"BK\": {2}}", BM, BN, BK);
  out.header = "BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr";
  out.constNames = "BM BN BK";
  out.grid = llvm::formatv(
      "(triton.cdiv({0}, {1}), triton.cdiv({2}, {3}), {4})", M, BM, N, BN, B);

  Code code;
  code.line("pid_m = tl.program_id(0).to(tl.int64)");
  code.line("pid_n = tl.program_id(1).to(tl.int64)");
  code.line("pb = tl.program_id(2).to(tl.int64)");
  code.line("om = pid_m * BM + tl.arange(0, BM)");
  code.line("on = pid_n * BN + tl.arange(0, BN)");
  code.line(llvm::formatv("mM = om < {0}", M).str());
  code.line(llvm::formatv("mN = on < {0}", N).str());
  code.line("acc = tl.zeros([BM, BN], dtype=tl.float32)");
  code.line(llvm::formatv("for k0 in range(0, {0}, BK):", K).str());
  ++code.indent;
  code.line("ok = k0 + tl.arange(0, BK)");
  code.line(llvm::formatv("mK = ok < {0}", K).str());
  auto loopsFor = [&](StringRef mIndex, StringRef nIndex, StringRef kIndex) {
    SmallVector<std::string> loops(sizes.size(), "0");
    loops[m] = mIndex.str();
    loops[n] = nIndex.str();
    loops[k] = kIndex.str();
    if (b)
      loops[*b] = "pb";
    return loops;
  };
  auto operandTile = [&](unsigned i, SmallVector<std::string> loops,
                         StringRef mask, unsigned unused) {
    OpOperand *operand = op.getDpsInputOperand(i);
    AffineMap map = op.getMatchingIndexingMap(operand);
    if (map.isFunctionOfDim(unused))
      return fail("a contraction operand read along the other operand's loop");
    Context ctx{&code, mask.str(), {}};
    std::string tile = valueAt(operand->get(), apply(map, loops), ctx);
    std::string var = fresh("op");
    code.line(var + " = tl.broadcast_to(tl.cast(" + tile + ", " +
              tlType(aType) + "), " + (i == 0 ? "[BM, BK]" : "[BK, BN]") + ")");
    return var;
  };
  std::string lhs = operandTile(0, loopsFor("om[:, None]", "0", "ok[None, :]"),
                                "mM[:, None] & mK[None, :]", n);
  std::string rhs = operandTile(1, loopsFor("0", "on[None, :]", "ok[:, None]"),
                                "mK[:, None] & mN[None, :]", m);
  code.line("acc = tl.dot(" + lhs + ", " + rhs + ", acc" + precision + ")");
  --code.indent;

  // The epilogue: the accumulator plus its init, elementwise consumers.
  Context ctx{&code, "mM[:, None] & mN[None, :]", {}};
  AffineMap outMap = op.getIndexingMapMatchingResult(op->getResult(0));
  SmallVector<std::string> loops = loopsFor("om[:, None]", "on[None, :]", "0");
  contractionOut = apply(outMap, loops);
  std::string init = valueAt(op.getDpsInits()[0], contractionOut, ctx);
  if (init != "0.0" && init != "0")
    code.line("acc = acc + " + init);
  auto outType = cast<RankedTensorType>(op->getResult(0).getType());
  for (auto &[value, pointer] : group.stores) {
    if (cast<RankedTensorType>(value.getType()).getShape() !=
        outType.getShape()) {
      fail("a result of another shape than the contraction's");
      return out;
    }
    store(value, pointer, contractionOut, {"BM", "BN"}, ctx);
  }
  out.body = code.text;
  return out;
}

bool Emitter::isAnchor(linalg::LinalgOp op) {
  return op.getNumReductionLoops() > 0;
}

/// What `op` reads: its operands and the tensors its body reads by
/// tensor.extract.
static SmallVector<Value> readsOf(Operation *op) {
  SmallVector<Value> reads(op->getOperands());
  llvm::SetVector<Value> captured;
  for (Region &region : op->getRegions())
    getUsedValuesDefinedAbove(region, captured);
  reads.append(captured.begin(), captured.end());
  return reads;
}

/// The anchors (reductions, contractions) `value` is computed from through
/// values evaluated where they are read (elementwise ops, fills, reshapes).
void Emitter::anchorsReached(Value value, SmallVectorImpl<Operation *> &anchors,
                             DenseSet<Value> &seen) {
  if (!seen.insert(value).second)
    return;
  Operation *def = value.getDefiningOp();
  if (!def)
    return;
  if (auto op = dyn_cast<linalg::LinalgOp>(def); op && isAnchor(op)) {
    if (!llvm::is_contained(anchors, def))
      anchors.push_back(def);
    return;
  }
  for (Value operand : readsOf(def))
    anchorsReached(operand, anchors, seen);
}

/// Splits the function into kernels: a rows kernel per run of reductions
/// over the same loops, a matmul kernel per contraction, an elementwise
/// kernel for a result no such kernel can store; and decides which
/// intermediates are stored for later kernels.
bool Emitter::partition() {
  DenseMap<Operation *, unsigned> groupOf;
  for (auto op : func.getBody().front().getOps<linalg::LinalgOp>()) {
    if (!isAnchor(op))
      continue;
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(op);
    bool isContraction = linalg::isaContractionOpInterface(op) &&
                         succeeded(dims) && !dims->m.empty() &&
                         !dims->n.empty() && !dims->k.empty();
    if (isContraction) {
      groups.push_back({KernelForm::Matmul, {op}, {}});
    } else if (groups.empty() || groups.back().form != KernelForm::Rows ||
               groups.back().anchors.front().getStaticLoopRanges() !=
                   op.getStaticLoopRanges() ||
               groups.back().anchors.front().getIteratorTypesArray() !=
                   op.getIteratorTypesArray()) {
      groups.push_back({KernelForm::Rows, {op}, {}});
    } else {
      groups.back().anchors.push_back(op);
    }
    groupOf[op] = groups.size() - 1;
  }
  // Which kernel stores each result: its anchor's, the last kernel it
  // depends on if that one's loops fit it, else an elementwise one.
  auto fits = [&](const Group &group, Value value) {
    auto op = value.getDefiningOp<linalg::LinalgOp>();
    linalg::LinalgOp anchor = group.anchors.front();
    if (group.form == KernelForm::Matmul)
      return cast<ShapedType>(value.getType()).getShape() ==
             cast<ShapedType>(anchor->getResult(0).getType()).getShape();
    SmallVector<int64_t> sizes = anchor.getStaticLoopRanges();
    SmallVector<int64_t> rowSizes;
    for (auto [size, it] : llvm::zip(sizes, anchor.getIteratorTypesArray()))
      if (it == utils::IteratorType::parallel)
        rowSizes.push_back(size);
    SmallVector<int64_t> opSizes = op.getStaticLoopRanges();
    return opSizes == sizes || opSizes == rowSizes;
  };
  for (auto &[value, pointer] : results) {
    if (pointer[0] == 'v')
      continue;
    Operation *def = value.getDefiningOp();
    if (auto it = groupOf.find(def); it != groupOf.end()) {
      groups[it->second].stores.emplace_back(value, pointer);
      materialized[value] = pointer;
      continue;
    }
    SmallVector<Operation *> anchors;
    DenseSet<Value> seen;
    anchorsReached(value, anchors, seen);
    int last = -1;
    for (Operation *anchor : anchors)
      last = std::max<int>(last, groupOf[anchor]);
    if (last >= 0 && fits(groups[last], value))
      groups[last].stores.emplace_back(value, pointer);
    else
      groups.push_back({KernelForm::Rows, {}, {{value, pointer}}});
  }
  // Anchors read by another kernel than their own are stored for it.
  for (auto [g, group] : llvm::enumerate(groups)) {
    SmallVector<Operation *> anchors;
    DenseSet<Value> seen;
    for (linalg::LinalgOp anchor : group.anchors)
      for (Value operand : readsOf(anchor))
        anchorsReached(operand, anchors, seen);
    for (auto &[value, pointer] : group.stores)
      if (!llvm::is_contained(group.anchors,
                              cast<linalg::LinalgOp>(value.getDefiningOp())))
        anchorsReached(value, anchors, seen);
    for (Operation *anchor : anchors) {
      unsigned owner = groupOf[anchor];
      Value result = anchor->getResult(0);
      if (owner == g || materialized.count(result))
        continue;
      if (anchor->getNumResults() != 1) {
        fail("a reduction with several results read by another kernel");
        return false;
      }
      std::string pointer = "m" + std::to_string(temporaries.size());
      auto type = cast<RankedTensorType>(result.getType());
      temporaries.emplace_back(pointer, type);
      params.push_back({pointer, type});
      materialized[result] = pointer;
      groups[owner].stores.emplace_back(result, pointer);
    }
  }
  for (const Group &group : groups)
    if (group.stores.empty()) {
      fail("a reduction whose result nothing reads");
      return false;
    }
  return true;
}

FailureOr<TritonModule> Emitter::run(std::string &reason) {
  if (collectParams() && results.empty())
    fail("the function returns nothing");
  if (!failedFlag)
    partition();
  TritonModule module;
  module.form = KernelForm::Rows;
  SmallVector<KernelText> kernels;
  for (const Group &group : groups) {
    if (failedFlag)
      break;
    rowValues.clear();
    contraction = nullptr;
    currentAnchors.clear();
    for (linalg::LinalgOp anchor : group.anchors)
      currentAnchors.insert(anchor);
    if (group.form == KernelForm::Matmul)
      module.form = KernelForm::Matmul;
    kernels.push_back(group.form == KernelForm::Matmul ? emitMatmul(group)
                                                       : emitRows(group));
  }
  if (failedFlag) {
    reason = why;
    return failure();
  }

  std::string name = func.getSymName().str();
  std::string out;
  llvm::raw_string_ostream os(out);
  os << "# Generated by qimeng-opt --qimeng-emit-triton from @" << name
     << " (plan: " << (plan ? plan.getProvenance() : StringRef("none"))
     << ").\n"
        "# launch(*args) takes the MLIR function's arguments as torch tensors "
        "on a CUDA\n# device and returns its results (docs/triton.md).\n"
        "import torch\nimport triton\nimport triton.language as tl\n"
        "from triton.language.extra import libdevice\n\n"
     << kHelpers;
  os << "NAME = \"";
  llvm::printEscapedString(name, os);
  os << "\"\n";
  auto typeList = [&](auto range) {
    SmallVector<std::string> items;
    for (RankedTensorType type : range)
      items.push_back("(" + shapeTuple(type.getShape()) + ", " +
                      torchType(type.getElementType()) + ")");
    return "[" + llvm::join(items, ", ") + "]";
  };
  SmallVector<RankedTensorType> argTypes, resultTypes;
  for (Type t : func.getArgumentTypes())
    argTypes.push_back(cast<RankedTensorType>(t));
  for (Type t : func.getResultTypes())
    resultTypes.push_back(cast<RankedTensorType>(t));
  os << "ARGUMENTS = " << typeList(argTypes) << "\n";
  os << "RESULTS = " << typeList(resultTypes) << "\n";
  SmallVector<std::string> pointerSignature, names;
  for (const Param &param : params) {
    pointerSignature.push_back("\"" + param.name + "\": \"*" +
                               pointerType(param.type.getElementType()) + "\"");
    names.push_back(param.name);
  }
  // One entry per kernel, launched in order.
  SmallVector<std::string> forms, signatures, constexprs, warps, stages, grids;
  for (auto [group, kernel] : llvm::zip(groups, kernels)) {
    forms.push_back(group.form == KernelForm::Matmul ? "\"matmul\""
                                                     : "\"rows\"");
    SmallVector<std::string> signature(pointerSignature);
    SmallVector<StringRef> constNames;
    StringRef(kernel.constNames).split(constNames, ' ');
    for (StringRef c : constNames)
      signature.push_back("\"" + c.str() + "\": \"constexpr\"");
    signatures.push_back("{" + llvm::join(signature, ", ") + "}");
    constexprs.push_back(kernel.constexprs);
    warps.push_back(std::to_string(kernel.numWarps));
    stages.push_back(std::to_string(kernel.numStages));
    grids.push_back(kernel.grid);
  }
  SmallVector<std::string> kernelNames;
  for (size_t i = 0; i < kernels.size(); ++i)
    kernelNames.push_back("kernel" + std::to_string(i));
  os << "FORMS = [" << llvm::join(forms, ", ") << "]\n";
  os << "SIGNATURES = [" << llvm::join(signatures, ",\n              ")
     << "]\n";
  os << "CONSTEXPRS = [" << llvm::join(constexprs, ", ") << "]\n";
  os << "NUM_WARPS = [" << llvm::join(warps, ", ") << "]\n";
  os << "NUM_STAGES = [" << llvm::join(stages, ", ") << "]\n";
  os << "GRIDS = [" << llvm::join(grids, ", ") << "]\n\n";
  for (auto [i, kernel] : llvm::enumerate(kernels))
    os << "\n@triton.jit\ndef kernel" << i << "(" << llvm::join(names, ", ")
       << ", " << kernel.header << "):\n"
       << kernel.body << "\n";
  os << "\nKERNELS = [" << llvm::join(kernelNames, ", ") << "]\n\n\n";
  os << "def launch(*args):\n"
        "    if len(args) != len(ARGUMENTS):\n"
        "        raise TypeError(f\"{NAME} takes {len(ARGUMENTS)} tensors, "
        "got {len(args)}\")\n"
        "    for i, (t, (shape, dtype)) in enumerate(zip(args, ARGUMENTS)):\n"
        "        if tuple(t.shape) != shape or t.dtype != dtype:\n"
        "            raise ValueError(f\"{NAME}: argument {i} is "
        "{tuple(t.shape)} {t.dtype}, expected {shape} {dtype}\")\n"
        "    device = args[0].device if args else torch.device(\"cuda\")\n"
        "    a = [t.contiguous() for t in args]\n";
  for (auto &[pointer, type] :
       llvm::concat<std::pair<std::string, RankedTensorType>>(newResults,
                                                              temporaries))
    os << "    " << pointer << " = torch.empty(" << shapeTuple(type.getShape())
       << ", dtype=" << torchType(type.getElementType())
       << ", device=device)\n";
  SmallVector<std::string> callArgs;
  for (const Param &param : params)
    callArgs.push_back(param.name[0] == 'a' ? "a[" + param.name.substr(1) + "]"
                                            : param.name);
  os << "    for kernel, grid, constexprs, warps, stages in zip(\n"
        "            KERNELS, GRIDS, CONSTEXPRS, NUM_WARPS, NUM_STAGES):\n"
        "        kernel[grid]("
     << llvm::join(callArgs, ", ")
     << ", **constexprs, num_warps=warps, num_stages=stages)\n";
  SmallVector<std::string> returned;
  for (auto [k, result] : llvm::enumerate(results)) {
    const std::string &pointer = result.second;
    if (pointer[0] == 'v') {
      auto type = cast<RankedTensorType>(func.getResultTypes()[k]);
      returned.push_back("args[" + pointer.substr(1) + "].reshape(" +
                         shapeTuple(type.getShape()) + ")");
    } else if (pointer[0] == 'a') {
      std::string i = pointer.substr(1);
      os << "    if a[" << i << "] is not args[" << i << "]:\n        args["
         << i << "].copy_(a[" << i << "])\n";
      returned.push_back("args[" + i + "]");
    } else {
      returned.push_back(pointer);
    }
  }
  os << "    return "
     << (returned.size() == 1 ? returned.front()
                              : "(" + llvm::join(returned, ", ") + ",)")
     << "\n";
  module.source = std::move(out);
  return module;
}

} // namespace

FailureOr<TritonModule> emitTritonModule(func::FuncOp kernel, PlanOp plan,
                                         std::string &why) {
  return Emitter(kernel, plan).run(why);
}

} // namespace mlir::qimeng::triton
