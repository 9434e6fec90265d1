//===- QiMengAttrs.td - QiMeng enums and attributes --------*- tablegen -*-===//

#ifndef QIMENG_DIALECT_QIMENG_IR_QIMENGATTRS_TD
#define QIMENG_DIALECT_QIMENG_IR_QIMENGATTRS_TD

include "mlir/IR/EnumAttr.td"

def QiMeng_TileLevel : I32EnumAttr<"TileLevel",
    "the hardware level a tiled loop is mapped to", [
      I32EnumAttrCase<"block", 0>,
      I32EnumAttrCase<"warp", 1>,
      I32EnumAttrCase<"thread", 2>,
      I32EnumAttrCase<"reduction", 3>
    ]> {
  let cppNamespace = "::mlir::qimeng";
}

def QiMeng_FuseKind : I32EnumAttr<"FuseKind",
    "whether the fused op produces an operand of, or consumes, the target", [
      I32EnumAttrCase<"producer", 0>,
      I32EnumAttrCase<"consumer", 1>
    ]> {
  let cppNamespace = "::mlir::qimeng";
}

def QiMeng_MmaKind : I32EnumAttr<"MmaKind",
    "the tensor-core instruction family", [
      I32EnumAttrCase<"mma_sync", 0>,
      I32EnumAttrCase<"wmma", 1>,
      I32EnumAttrCase<"wgmma", 2>
    ]> {
  let cppNamespace = "::mlir::qimeng";
}

def QiMeng_MmaType : I32EnumAttr<"MmaType",
    "an element type of a tensor-core instruction", [
      I32EnumAttrCase<"f16", 0>,
      I32EnumAttrCase<"bf16", 1>,
      I32EnumAttrCase<"tf32", 2>,
      I32EnumAttrCase<"f32", 3>,
      I32EnumAttrCase<"f64", 4>
    ]> {
  let cppNamespace = "::mlir::qimeng";
}

#endif // QIMENG_DIALECT_QIMENG_IR_QIMENGATTRS_TD
