//===- ConvolutionBox.h - Outputs per thread of a convolution ---*- C++ -*-===//
//
// A convolution's parallel plan gives each thread a box of outputs: several
// filters, so that each input element read feeds all of them, and several
// neighbouring pixels, so that each weight read does. The planner sizes the
// box; the split of a convolution's channels (qimeng-split-reductions) asks
// how large it can be to know how many threads are left.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_PLANNER_CONVOLUTIONBOX_H
#define QIMENG_PLANNER_CONVOLUTIONBOX_H

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

namespace mlir::qimeng {

/// A box's most filters and pixels, and the threads per SM a box must leave
/// (the largest box that leaves at least that many).
constexpr int64_t kMaxBoxFilters = 8, kMaxBoxPixels = 4;
constexpr int64_t kMinBoxThreadsPerSM = 1024;

/// The loops a parallel plan gives threads (x, y, z): the innermost three
/// parallel loops of `op`, innermost first.
SmallVector<unsigned> getThreadLoops(linalg::LinalgOp op);

/// Whether `op` reads its window through tensor.extract in its body (a
/// padded input read through its source, qimeng-prepare's FusePadding): two
/// reduction loops or more and an extract.
bool isGatheredWindow(linalg::LinalgOp op);

/// The loops `value` (computed in `op`'s body) depends on: through
/// linalg.index, and through the block arguments of inputs (their maps'
/// loops). Values from outside the body depend on none.
llvm::SmallBitVector getBodyLoops(linalg::LinalgOp op, Value value,
                                  DenseMap<Value, llvm::SmallBitVector> &memo);

/// The outputs a thread of a convolution's parallel plan computes along
/// each loop (1 on most): up to kMaxBoxFilters along its innermost mapped
/// filter loop (a parallel loop the window input does not read and another
/// input does: the filters of `conv_2d_nchw_fchw`), so that each input
/// element read feeds that many filters, and up to kMaxBoxPixels along its
/// innermost mapped window loop (one the window input reads shifted by a
/// reduction loop: `ow` of `ow + kw`), so that each weight read feeds that
/// many pixels and neighbouring windows share their reads. `mapped` are the
/// loops the plan gives threads, `bounds` the loop sizes. The window input
/// is one read through a strided map, or the source of the tensor.extract
/// ops of a padded convolution's generic (a reduction over two loops or
/// more, its indices followed through the body to the loops). The
/// micro-coder keeps such a box in registers (lowerRegisterBlocks). Each
/// count divides its loop (the boxes stay static); with `numSMs` > 0,
/// counts are halved while the threads left would not fill the GPU
/// (kMinBoxThreadsPerSM per SM). A depthwise convolution (no filter loop)
/// gets a box of pixels only. Empty for other ops (no window input, no
/// weights to share, neither loop, dynamic sizes).
SmallVector<int64_t> getConvolutionBox(linalg::LinalgOp op,
                                       ArrayRef<int64_t> bounds,
                                       ArrayRef<unsigned> mapped,
                                       int64_t numSMs);

} // namespace mlir::qimeng

#endif // QIMENG_PLANNER_CONVOLUTIONBOX_H
