//===- Bf16MmaSync.cpp - bf16 mma.sync as NVVM's instruction --------------===//

#include "QiMeng/Transforms/GPU/Passes.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGLOWERBF16MMASYNCPASS
#include "QiMeng/Transforms/GPU/Passes.h.inc"

namespace {

/// The rows of a bf16 fragment (`vector<R x 2 x bf16>`) as the 32-bit
/// registers mma.sync takes, one per row.
SmallVector<Value> packRows(OpBuilder &b, Location loc, Value fragment) {
  auto type = cast<VectorType>(fragment.getType());
  auto reg = VectorType::get({1}, b.getI32Type());
  SmallVector<Value> regs;
  for (int64_t row = 0; row < type.getDimSize(0); ++row) {
    Value pair = vector::ExtractOp::create(b, loc, fragment, row);
    Value cast = vector::BitCastOp::create(b, loc, reg, pair);
    regs.push_back(vector::ExtractOp::create(b, loc, cast, 0));
  }
  return regs;
}

/// The elements of a 2-D accumulator fragment in row order.
SmallVector<Value> flatten(OpBuilder &b, Location loc, Value fragment) {
  auto type = cast<VectorType>(fragment.getType());
  SmallVector<Value> elements;
  for (int64_t row = 0; row < type.getDimSize(0); ++row)
    for (int64_t col = 0; col < type.getDimSize(1); ++col)
      elements.push_back(vector::ExtractOp::create(
          b, loc, fragment, ArrayRef<int64_t>{row, col}));
  return elements;
}

/// The instruction shape (m, n, k) of `mma`.
SmallVector<int64_t> getShape(nvgpu::MmaSyncOp mma) {
  return llvm::to_vector(llvm::map_range(mma.getMmaShape(), [](Attribute a) {
    return cast<IntegerAttr>(a).getInt();
  }));
}

/// Whether mma.sync has a bf16 instruction for `mma` (a diagnostic if not).
LogicalResult checkBf16MmaSync(nvgpu::MmaSyncOp mma) {
  auto aType = cast<VectorType>(mma.getMatrixA().getType());
  auto bType = cast<VectorType>(mma.getMatrixB().getType());
  auto cType = cast<VectorType>(mma.getMatrixC().getType());
  SmallVector<int64_t> shape = getShape(mma);
  if (!bType.getElementType().isBF16() || !cType.getElementType().isF32() ||
      cType.getRank() != 2 || aType.getRank() != 2 || bType.getRank() != 2 ||
      aType.getDimSize(1) != 2 || bType.getDimSize(1) != 2)
    return mma.emitOpError()
           << "has bf16 operands; tensor cores take them as 2-element rows of "
              "bf16 and both operands bf16 with f32 accumulators, not "
           << aType << ", " << bType << " and " << cType;
  if (shape.size() != 3 || shape[0] != 16 || shape[1] != 8 ||
      (shape[2] != 16 && shape[2] != 8))
    return mma.emitOpError()
           << "has bf16 operands and shape " << mma.getMmaShape()
           << "; mma.sync takes bf16 as m16n8k16 or m16n8k8";
  return success();
}

/// `mma` (checked by checkBf16MmaSync) as NVVM's bf16 mma.sync.
void lowerBf16MmaSync(nvgpu::MmaSyncOp mma) {
  auto cType = cast<VectorType>(mma.getMatrixC().getType());
  SmallVector<int64_t> shape = getShape(mma);
  OpBuilder b(mma);
  Location loc = mma.getLoc();
  SmallVector<Value> a = packRows(b, loc, mma.getMatrixA());
  SmallVector<Value> bRegs = packRows(b, loc, mma.getMatrixB());
  SmallVector<Value> c = flatten(b, loc, mma.getMatrixC());
  Type f32 = b.getF32Type();
  auto resultType = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(c.size(), f32));
  auto result = NVVM::MmaOp::create(
      b, loc, resultType, a, bRegs, c, shape, /*b1Op=*/std::nullopt,
      /*intOverflow=*/std::nullopt,
      std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16, NVVM::MMATypes::bf16},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  SmallVector<Value> elements;
  for (int64_t i = 0, e = c.size(); i < e; ++i)
    elements.push_back(LLVM::ExtractValueOp::create(b, loc, result, i));
  mma.replaceAllUsesWith(
      vector::FromElementsOp::create(b, loc, cType, elements).getResult());
  mma.erase();
}

class QiMengLowerBf16MmaSyncPass
    : public impl::QiMengLowerBf16MmaSyncPassBase<QiMengLowerBf16MmaSyncPass> {
public:
  void runOnOperation() override {
    SmallVector<nvgpu::MmaSyncOp> mmas;
    getOperation()->walk([&](nvgpu::MmaSyncOp mma) {
      if (cast<VectorType>(mma.getMatrixA().getType())
              .getElementType()
              .isBF16())
        mmas.push_back(mma);
    });
    // All checked before any is rewritten: a failure leaves the module as
    // it was.
    for (nvgpu::MmaSyncOp mma : mmas)
      if (failed(checkBf16MmaSync(mma)))
        return signalPassFailure();
    for (nvgpu::MmaSyncOp mma : mmas)
      lowerBf16MmaSync(mma);
  }
};

} // namespace
} // namespace mlir::qimeng
