//===- Passes.td - QiMeng Linalg passes --------------------------------*- tablegen -*-===//
//
// Passes on linalg programs before planning: preparation (softmax decomposition, padding, elementwise fusion), the verifier reference's wide accumulators, equal-size records.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_TRANSFORMS_LINALG_PASSES_TD
#define QIMENG_TRANSFORMS_LINALG_PASSES_TD

include "mlir/Pass/PassBase.td"

def QiMengPreparePass : Pass<"qimeng-prepare", "ModuleOp"> {
  let summary = "Bring kernels into the form the planner expects";
  let description = [{
    Runs before planning, on tensors: decomposes aggregate operations
    (`linalg.softmax`) into linalg generics, rewrites constant `tensor.pad`
    into a linalg generic that reads the source with clamped indices, and fuses
    chains of elementwise producers into their consumers (one kernel instead of
    one per op). Convolutions and pooling run their loops in their output's
    order, and read a padded input where the window reads it (when each
    output reads at most 64 inputs) instead of a padded copy. Tensor arguments used as an op's output (`outs`) are marked
    `bufferization.writable = true` (results are written there in place),
    all other tensor arguments `false` (inputs are never overwritten).

    With `pad-matmuls` (the default), a matmul with f32 accumulation and a
    K of at least 32 whose sizes the matmul plans' tiles do not divide (777 x 555 x 1000, a dynamic
    number of rows) is computed on zero-padded operands and its corner
    copied into the output, so it keeps the fast plans; a dynamic M is split
    into 64-row tiles along a batch loop. With `num-sms`, a padded f32, bf16
    or f64 matmul whose blocks (static batches times output tiles, a dynamic
    M counting as one tile) would leave more than half of the SMs idle
    also splits its K into parts,
    each computed on blocks of its own, which the copy of the output sums
    (split-K). With `wgmma` and `num-sms`, a matmul the wgmma plan takes
    (no batch, K a multiple of 64) whose output tiles leave SMs
    idle, where a rough cost model says it pays, splits its K into parts
    too, without copies: A and B are reshaped in place (`tensor.expand_shape`),
    the parts' products go to an f32 (parts, M, N) tensor (the wgmma kernel
    runs each part on blocks of its own), and an elementwise op adds the
    parts into the output, fused with the matmul's elementwise consumers.
    With a dynamic M the matmul is versioned on M: an `scf.if` nest holds a
    version for each range of M that plans unlike a dynamic M (split where
    it pays, or 128-wide tiles; judged at the range's largest M, which the
    version's matmul carries as `qimeng.max_rows`) and a dynamic M's plan
    past them; the zero fill and the elementwise consumer are copied into
    every branch.
    The verifier's references leave both out (`pad-matmuls=false`).
  }];
  let options = [
    Option<"padMatmuls", "pad-matmuls", "bool", /*default=*/"true",
           "Pad matmuls whose sizes the tiles do not divide">,
    Option<"maxColumnBytes", "max-column-bytes", "int64_t",
           /*default=*/"int64_t(16) << 30",
           "The most bytes a convolution's im2col columns may take at once: "
           "past it, the columns are gathered for a group of images at a "
           "time into one buffer">,
    Option<"wgmma", "wgmma", "bool", /*default=*/"false",
           "The target has Hopper's wgmma: matmuls the wgmma plan takes "
           "(takesWgmma) are not padded (TMA reads past the edges as zeros) "
           "and keep a B stored (n, k) uncopied; those it takes once N and K "
           "are multiples of 8 get only that padding, M left as it is">,
    Option<"numSMs", "num-sms", "int64_t", /*default=*/"0",
           "The target's streaming multiprocessors: a padded f32, bf16 or "
           "f64 matmul whose product leaves more than half of them idle "
           "splits its K into parts on blocks of their own, summed by the "
           "copy of the output; with `wgmma`, so does a wgmma matmul with "
           "few output tiles where it pays (0: never split)">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::affine::AffineDialect"];
}

def QiMengWidenAccumulatorsPass
    : Pass<"qimeng-widen-accumulators", "ModuleOp"> {
  let summary = "Accumulate reductions in f64 (the verifier's references)";
  let description = [{
    Rewrites every linalg op on tensors that has reduction loops and f32
    results (and no f16 or bf16 ones: a program accumulating in those asks
    for their rounding) to compute in f64: its initial values are extended, its body computes in f64, and the
    result is truncated back to the original type. Only ops whose bodies hold
    arith and math ops (and `linalg.index`) are rewritten; others are left
    as they are.

    The verifier's references run reductions serially; in f32 a serial sum
    of millions of terms loses digits as the partial sum grows (the variance
    of 4M uniform values comes out 0.3% low), far more than a parallel
    reduction in the candidate does. Accumulating the reference in f64 makes
    it the accurate side, so a tolerance can be tight.

    ```mlir
    %s = linalg.generic {... ["parallel", "reduction"]}
        ins(%x : tensor<16x4194304xf32>) outs(%init : tensor<16xf32>) {...}
    // becomes: extf(%init) -> f64 generic (body in f64) -> truncf
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def QiMengRecordEqualDimsPass : Pass<"qimeng-record-equal-dims", "ModuleOp"> {
  let summary = "Record which argument sizes each public function ties together";
  let description = [{
    The first step of `--llm-plan`, while the kernels are still linalg ops:
    on every public function with dynamic argument sizes that its ops
    require to be equal (one linalg loop indexes both, a result is built
    with `tensor.empty` of an argument's size, ...), records the pairs as
    `qimeng.equal_dims` (four integers a pair: argument, dimension,
    argument, dimension). The attribute survives the lowering, so a runner
    given some arguments' shapes infers the others' (an output argument's
    batch from its input's).

    ```mlir
    func.func @add(%x: tensor<?x8xf32>, %y: tensor<?x8xf32>) -> tensor<?x8xf32>
    // gets
    attributes {qimeng.equal_dims = array<i64: 0, 0, 1, 0>}
    ```
  }];
}

#endif // QIMENG_TRANSFORMS_LINALG_PASSES_TD
