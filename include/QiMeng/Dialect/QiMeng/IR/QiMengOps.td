//===- QiMengOps.td - QiMeng plan and macro action ops -----*- tablegen -*-===//

#ifndef QIMENG_DIALECT_QIMENG_IR_QIMENGOPS_TD
#define QIMENG_DIALECT_QIMENG_IR_QIMENGOPS_TD

include "QiMeng/Dialect/QiMeng/IR/QiMengDialect.td"
include "QiMeng/Dialect/QiMeng/IR/QiMengAttrs.td"
include "QiMeng/Dialect/QiMeng/IR/QiMengInterfaces.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/CommonAttrConstraints.td"

class QiMeng_Op<string mnemonic, list<Trait> traits = []>
    : Op<QiMeng_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// PlanOp
//===----------------------------------------------------------------------===//

def QiMeng_PlanOp : QiMeng_Op<"plan", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    NoTerminator, SingleBlock, IsolatedFromAbove]> {
  let summary = "The ordered macro actions of one kernel function";
  let description = [{
    Groups the macro actions that optimize one kernel function, in the order
    they are applied, and records where the plan came from: `builtin` (the
    built-in planner), `tuned` (the tuning database) or `llm:<model>`.

    Actions name their payload operation by its `qimeng.tag` attribute; tags
    must be unique within the kernel. The plan is checked against the kernel
    when the enclosing module is verified: every tag must resolve, and every
    action must make sense for the operation it names.

    Example:

    ```mlir
    func.func @matmul(%A: tensor<256x512xf32>, %B: tensor<512x128xf32>,
                      %C: tensor<256x128xf32>) -> tensor<256x128xf32> {
      %0 = linalg.matmul {qimeng.tag = "mm"}
             ins(%A, %B : tensor<256x512xf32>, tensor<512x128xf32>)
             outs(%C : tensor<256x128xf32>) -> tensor<256x128xf32>
      return %0 : tensor<256x128xf32>
    }
    qimeng.plan @matmul provenance "builtin" {
      qimeng.tile "mm" [64, 64, 0] to block
      qimeng.tile "mm" [0, 0, 16] to reduction
      qimeng.promote "mm" operands [0, 1] pad 4
      qimeng.tile "mm" [4, 4, 0] to thread
      qimeng.vectorize "mm" width 4
      qimeng.pipeline "mm" stages 2
    }
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$kernel, StrAttr:$provenance);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $kernel `provenance` $provenance attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$kernel, "::llvm::StringRef":$provenance)>
  ];
  let extraClassDeclaration = [{
    /// Returns the actions of the plan, in order.
    ::llvm::SmallVector<::mlir::qimeng::MacroActionOpInterface> getActions();
  }];
}

//===----------------------------------------------------------------------===//
// Macro actions
//===----------------------------------------------------------------------===//

class QiMeng_ActionOp<string mnemonic, list<Trait> traits = []>
    : QiMeng_Op<mnemonic, !listconcat(traits, [
        HasParent<"PlanOp">,
        DeclareOpInterfaceMethods<QiMeng_MacroActionOpInterface,
                                  ["getParamSpecs"]>])> {
  let hasVerifier = 1;
}

def QiMeng_TileOp : QiMeng_ActionOp<"tile"> {
  let summary = "Tile the loops of an operation and map the tiles to a level";
  let description = [{
    Tiles the iteration space of the target with one size per loop (0 leaves a
    loop untiled) and maps the tile loop to a level of the GPU hierarchy:
    `block` (the grid), `warp`, `thread`, or `reduction` (a serial loop over
    the reduction dimensions). The block, warp and thread levels tile parallel
    loops only; the reduction level tiles reduction
    loops only. `interchange` optionally permutes the tile loops.

    At the warp level, `lanes` is the number of threads that share each warp
    tile (default 32: the lanes of one warp). A row-wise tile (one output row
    of a reduction, one row of an elementwise op) shared by more threads —
    a multiple of 32, at most 1024, every warp of a block that holds one
    tile — has the block's threads stride over the row and combine their
    partial results through shared memory: a block per row, for few long
    rows.

    Example:

    ```mlir
    qimeng.tile "mm" [128, 128, 0] to block
    qimeng.tile "mm" [0, 0, 16] to reduction
    qimeng.tile "conv" [1, 4, 8, 32, 0, 0, 0] to thread interchange [0, 1, 3, 2, 4, 5, 6]
    qimeng.tile "rowsum" [1, 0] to warp lanes 512
    ```
  }];
  let arguments = (ins StrAttr:$target, DenseI64ArrayAttr:$sizes,
                       QiMeng_TileLevel:$level,
                       OptionalAttr<DenseI64ArrayAttr>:$interchange,
                       DefaultValuedAttr<I64Attr, "32">:$lanes);
  let assemblyFormat = [{
    $target $sizes `to` $level (`interchange` $interchange^)?
    (`lanes` $lanes^)? attr-dict
  }];
}

def QiMeng_PromoteOp : QiMeng_ActionOp<"promote"> {
  let summary = "Copy operands of the tiled operation into shared memory";
  let description = [{
    Copies the tiles of the chosen operands of the target (indices into its
    operand list: inputs first, then outputs, so the output index promotes the
    result) into GPU shared memory (workgroup address space) before they are
    used, with barriers around the copies. `pad` adds that many elements to the
    innermost dimension of each shared buffer against bank conflicts.

    Example:

    ```mlir
    qimeng.promote "mm" operands [0, 1] pad 4
    ```
  }];
  let arguments = (ins StrAttr:$target, DenseI64ArrayAttr:$operands,
                       DefaultValuedAttr<I64Attr, "0">:$pad);
  let assemblyFormat = "$target `operands` $operands (`pad` $pad^)? attr-dict";
}

def QiMeng_VectorizeOp : QiMeng_ActionOp<"vectorize"> {
  let summary = "Vectorize loads, stores and arithmetic of an operation";
  let description = [{
    Vectorizes the target's innermost computation with the given number of
    elements per vector. The width is a power of two, and a vector of the
    target's widest element type fits in one 128-bit memory access (4 x f32,
    8 x f16).

    Example:

    ```mlir
    qimeng.vectorize "add" width 4
    ```
  }];
  let arguments = (ins StrAttr:$target, I64Attr:$width);
  let assemblyFormat = "$target `width` $width attr-dict";
}

def QiMeng_UnrollOp : QiMeng_ActionOp<"unroll"> {
  let summary = "Unroll one loop of an operation";
  let description = [{
    Unrolls the loop of the target's iteration space numbered `dim` (usually
    the serial reduction loop left by a `reduction` tile) by `factor`
    (2 to 64).

    Example:

    ```mlir
    qimeng.unroll "mm" dim 2 factor 4
    ```
  }];
  let arguments = (ins StrAttr:$target, I64Attr:$dim, I64Attr:$factor);
  let assemblyFormat = "$target `dim` $dim `factor` $factor attr-dict";
}

def QiMeng_PipelineOp : QiMeng_ActionOp<"pipeline"> {
  let summary = "Software-pipeline the shared-memory copies of a reduction loop";
  let description = [{
    Multi-buffers the shared-memory tiles of the target and overlaps the
    asynchronous copies (`cp.async`) of the next `stages - 1` iterations of its
    serial reduction loop with the computation of the current one. One stage
    means no overlap; at most 8 stages.

    Example:

    ```mlir
    qimeng.pipeline "mm" stages 3
    ```
  }];
  let arguments = (ins StrAttr:$target, I64Attr:$stages);
  let assemblyFormat = "$target `stages` $stages attr-dict";
}

def QiMeng_MmaOp : QiMeng_ActionOp<"mma"> {
  let summary = "Compute a contraction with tensor-core instructions";
  let description = [{
    Lowers the target contraction to tensor-core instructions of the given
    family (`mma_sync`, `wmma`, or Hopper `wgmma`) and instruction shape
    `[m, n, k]`, with the given input and accumulator element types. The
    combination must exist on the hardware (e.g. `mma_sync [16, 8, 16]
    (f16, f16) -> f32`), and must match the element types of the target: f32
    inputs are only accepted as `tf32`, which must be asked for explicitly.

    Example:

    ```mlir
    qimeng.mma "mm" mma_sync [16, 8, 16] (f16, f16) -> f32
    ```
  }];
  let arguments = (ins StrAttr:$target, QiMeng_MmaKind:$kind,
                       DenseI64ArrayAttr:$shape, QiMeng_MmaType:$a_type,
                       QiMeng_MmaType:$b_type, QiMeng_MmaType:$acc_type);
  let assemblyFormat = [{
    $target $kind $shape ` ` `(` $a_type `,` $b_type `)` `->` $acc_type attr-dict
  }];
}

def QiMeng_FuseOp : QiMeng_ActionOp<"fuse"> {
  let summary = "Fuse a producer or consumer into the tiled loops of an operation";
  let description = [{
    Fuses the operation tagged `op` into the loop nest that tiling creates for
    the target: a `producer` computes an operand of the target (for example the
    `linalg.fill` of a matmul's accumulator, or an elementwise op on an input),
    a `consumer` uses the target's result (bias add, activation).

    Example:

    ```mlir
    qimeng.fuse "mm" producer "fill"
    qimeng.fuse "mm" consumer "relu"
    ```
  }];
  let arguments = (ins StrAttr:$target, QiMeng_FuseKind:$kind, StrAttr:$op);
  let assemblyFormat = "$target $kind $op attr-dict";
}

#endif // QIMENG_DIALECT_QIMENG_IR_QIMENGOPS_TD
