//===- WgmmaSplitK.h - Few output tiles on wgmma: K in parts ----*- C++ -*-===//
//
// Shared by the passes of lib/Transforms/Linalg; not installed.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_LIB_TRANSFORMS_LINALG_WGMMASPLITK_H
#define QIMENG_LIB_TRANSFORMS_LINALG_WGMMASPLITK_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::qimeng {

/// Adds qimeng-prepare's split-K for matmuls the wgmma plan takes whose
/// output tiles leave most of the `numSMs` SMs idle (getWgmmaKSplits says
/// how many parts): the matmul becomes a product of its K's S parts, each
/// into a batch of a fresh f32 (S, M, N) tensor (isSplitKMatmul: A and B
/// reshaped in place, no copy; the wgmma kernel gives each part blocks of
/// its own), and an elementwise sum of the S partial products into the
/// original output (added to it unless it was a zero fill), converted to
/// its element type. The sum fuses with the matmul's elementwise consumers.
/// A matmul with a dynamic M is versioned on M instead (getWgmmaRowVersions):
/// an scf.if nest of its versions for few rows (split, or on 128-wide
/// tiles; each matmul marked with its bound, kMaxRowsAttrName), a dynamic
/// M's plan in the last else, its zero fill and elementwise consumer copied
/// into every branch.
void populateWgmmaSplitKPatterns(RewritePatternSet &patterns, int64_t numSMs);

} // namespace mlir::qimeng

#endif // QIMENG_LIB_TRANSFORMS_LINALG_WGMMASPLITK_H
