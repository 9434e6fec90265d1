//===- QiMengTransformOps.td - QiMeng transform ops --------*- tablegen -*-===//
//
// Transform-dialect operations for the steps of QiMeng's micro-coder that
// have no upstream transform op. They extend the transform dialect
// (`transform.qimeng.*`), so a plan's realization stays a transform script.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_DIALECT_QIMENG_TRANSFORMOPS_QIMENGTRANSFORMOPS_TD
#define QIMENG_DIALECT_QIMENG_TRANSFORMOPS_QIMENGTRANSFORMOPS_TD

include "mlir/Dialect/Transform/IR/TransformDialect.td"
include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

def QiMeng_MapForallToGridOp
    : Op<Transform_Dialect, "qimeng.map_forall_to_grid",
         [FunctionalStyleTransformOpTrait, MemoryEffectsOpInterface,
          TransformOpInterface, TransformEachOpTrait]> {
  let summary = "Map a block-level scf.forall of any size onto a gpu.launch grid";
  let description = [{
    Turns a normalized `scf.forall` on buffers whose loops are mapped to
    `#gpu.block<x>`, `#gpu.block<y>` and `#gpu.block<z>` into a `gpu.launch`
    whose grid is the loop's trip counts, computed at run time: unlike
    upstream's `transform.gpu.map_forall_to_blocks`, the trip counts may be
    dynamic (a batch dimension whose size only the caller knows).

    When every trip count is static and fits the grid's limits (y and z at
    most 65535), the grid has the loop's shape. Otherwise the blocks are
    numbered along x alone (up to 2^31 - 1 blocks) and each block recovers
    its loop indices from its number (`affine.delinearize_index`), so any
    size runs. The launch has one thread per block;
    `transform.gpu.map_nested_forall_to_threads` sets the threads after.

    Returns the new `gpu.launch`. Fails (silenceably) on a forall that is not
    normalized, has results, or whose mapping is not made of block ids.

    ```mlir
    scf.forall (%i, %j) in (%n, 4) {
      ...
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    // with
    %launch = transform.qimeng.map_forall_to_grid %forall
        : (!transform.any_op) -> !transform.any_op
    // becomes
    %blocks = arith.muli %n, %c4 : index
    gpu.launch blocks(%b, %_, %_) in (%gx = %blocks, %gy = %c1, %gz = %c1)
               threads(%t, %_, %_) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %ij:2 = affine.delinearize_index %b into (%n, 4) : index, index
      ...
    }
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = "$target attr-dict `:` functional-type($target, $result)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter,
        ::mlir::scf::ForallOp target,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
}

#endif // QIMENG_DIALECT_QIMENG_TRANSFORMOPS_QIMENGTRANSFORMOPS_TD
