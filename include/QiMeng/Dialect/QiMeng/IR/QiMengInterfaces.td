//===- QiMengInterfaces.td - Macro action interface --------*- tablegen -*-===//

#ifndef QIMENG_DIALECT_QIMENG_IR_QIMENGINTERFACES_TD
#define QIMENG_DIALECT_QIMENG_IR_QIMENGINTERFACES_TD

include "mlir/IR/OpBase.td"

def QiMeng_MacroActionOpInterface : OpInterface<"MacroActionOpInterface"> {
  let cppNamespace = "::mlir::qimeng";
  let description = [{
    A macro action of a `qimeng.plan`: one optimization decision about one
    payload operation (named by its `qimeng.tag`). The interface gives every
    action a one-line natural-language description (for prompts and reports),
    the table of its parameters (from which the JSON form and the JSON Schema
    are derived), and the checks that need the payload operation.
  }];

  let methods = [
    InterfaceMethod<
      /*desc=*/"Returns the tag of the payload operation this action applies to.",
      /*retTy=*/"::llvm::StringRef", /*methodName=*/"getTargetTag",
      /*args=*/(ins), /*methodBody=*/"",
      /*defaultImplementation=*/"return $_op.getTarget();">,
    InterfaceMethod<
      "Returns a one-line natural-language description of the action.",
      "std::string", "describe">,
    InterfaceMethod<
      [{Checks the action against the payload operation it names, inside the
        plan's kernel function; emits an error on the action on failure.}],
      "::mlir::LogicalResult", "verifyAgainstPayload",
      (ins "::mlir::Operation *":$payload,
           "::mlir::qimeng::TagLookup":$lookup)>,
    StaticInterfaceMethod<
      "Returns the JSON name of the action (its mnemonic).",
      "::llvm::StringRef", "getActionName", (ins), "",
      "return ConcreteOp::getOperationName().drop_front(sizeof(\"qimeng.\") - 1);">,
    StaticInterfaceMethod<
      [{Returns the action's parameters; the JSON form and its schema are
        generated from this table.}],
      "::llvm::ArrayRef<::mlir::qimeng::ParamSpec>", "getParamSpecs">
  ];
}

#endif // QIMENG_DIALECT_QIMENG_IR_QIMENGINTERFACES_TD
