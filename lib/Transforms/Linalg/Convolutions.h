//===- Convolutions.h - The convolution forms QiMeng rewrites --*- C++ -*-===//
//
// Shared by the passes of lib/Transforms/Linalg; not installed.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_LIB_TRANSFORMS_LINALG_CONVOLUTIONS_H
#define QIMENG_LIB_TRANSFORMS_LINALG_CONVOLUTIONS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/TypeSwitch.h"

#include <optional>

namespace mlir::qimeng {

/// Where a convolution keeps its dimensions.
struct ConvForm {
  /// Input (n, s..., c) and output (n, o..., f); else (n, c, s...) and
  /// (n, f, o...).
  bool channelsLast;
  /// The filter's order: (f, c, w...), (w..., c, f) or (f, w..., c).
  enum FilterOrder { FCW, WCF, FWC } filter;
  SmallVector<int64_t> strides, dilations;

  /// The first spatial dimension of the input and the output.
  unsigned firstSpatial() const { return channelsLast ? 1 : 2; }
  /// The first window dimension of the filter.
  unsigned firstWindow() const {
    return filter == FCW ? 2 : filter == WCF ? 0 : 1;
  }
};

/// The form of a convolution QiMeng rewrites (im2col, transposed
/// convolutions); none for other ops.
inline std::optional<ConvForm> getConvForm(Operation *op) {
  auto form = [](auto conv, bool channelsLast, ConvForm::FilterOrder filter) {
    return ConvForm{
        channelsLast, filter,
        llvm::to_vector(conv.getStrides().template getValues<int64_t>()),
        llvm::to_vector(conv.getDilations().template getValues<int64_t>())};
  };
  return llvm::TypeSwitch<Operation *, std::optional<ConvForm>>(op)
      .Case<linalg::Conv1DNcwFcwOp, linalg::Conv2DNchwFchwOp,
            linalg::Conv3DNcdhwFcdhwOp>(
          [&](auto conv) { return form(conv, false, ConvForm::FCW); })
      .Case<linalg::Conv1DNwcWcfOp, linalg::Conv2DNhwcHwcfOp,
            linalg::Conv3DNdhwcDhwcfOp>(
          [&](auto conv) { return form(conv, true, ConvForm::WCF); })
      .Case<linalg::Conv2DNhwcFhwcOp>(
          [&](auto conv) { return form(conv, true, ConvForm::FWC); })
      .Default([](Operation *) { return std::nullopt; });
}

/// The form of `op` when it is such a convolution on tensors with one
/// result; else a match failure saying why.
inline FailureOr<ConvForm> matchConvOnTensors(Operation *op,
                                              PatternRewriter &rewriter) {
  std::optional<ConvForm> form = getConvForm(op);
  if (!form)
    return rewriter.notifyMatchFailure(op, "not a convolution QiMeng takes");
  auto linalgOp = cast<linalg::LinalgOp>(op);
  if (!linalgOp.hasPureTensorSemantics() || op->getNumResults() != 1)
    return rewriter.notifyMatchFailure(op, "not on tensors");
  return *form;
}

} // namespace mlir::qimeng

#endif // QIMENG_LIB_TRANSFORMS_LINALG_CONVOLUTIONS_H
