//===- QiMengDialect.td - QiMeng dialect definition --------*- tablegen -*-===//
//
// The qimeng dialect records a kernel's optimization plan: an ordered list of
// macro actions (tile, promote, vectorize, ...) that the micro-coders realize.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_DIALECT_QIMENG_IR_QIMENGDIALECT_TD
#define QIMENG_DIALECT_QIMENG_IR_QIMENGDIALECT_TD

include "mlir/IR/OpBase.td"

def QiMeng_Dialect : Dialect {
  let name = "qimeng";
  let cppNamespace = "::mlir::qimeng";
  let summary = "Macro actions of a GPU kernel optimization plan";
  let description = [{
    QiMeng splits code generation into *macro thinking* (deciding what to
    optimize) and *micro coding* (realizing each decision as a small, verified
    rewrite). The `qimeng` dialect is the record of the first half: a
    `qimeng.plan` names a kernel function and holds, in order, the macro
    actions to apply to it. Each action names the payload operation it applies
    to by the value of that operation's `qimeng.tag` string attribute.

    A plan is a readable, diffable and replayable artifact: it round-trips
    through text and through JSON (the form an LLM answers in), and every
    parameter is checked by an op verifier, both on its own (e.g. a vector width
    must be a power of two) and against the payload operation it names (e.g. a
    tile op must give one size per loop of its target).
  }];
  let extraClassDeclaration = [{
    /// Name of the discardable attribute that tags payload operations.
    static constexpr ::llvm::StringLiteral kTagAttrName = "qimeng.tag";
    /// Name of the unit attribute the built-in planner puts on the plans it
    /// makes: a tuned plan, a search or the LLM planner may replace such a
    /// plan; a plan given in the input (without it) is kept as it is.
    static constexpr ::llvm::StringLiteral kReplaceableAttrName =
        "qimeng.replaceable";
    /// Name of the unit attribute on the top-level module whose code
    /// computes f32 products as tf32 (on tensor cores): the verifier holds
    /// its f32 outputs to f16's tolerance, the inputs having 10 bits of
    /// mantissa.
    static constexpr ::llvm::StringLiteral kTf32AttrName = "qimeng.tf32";
  }];
}

#endif // QIMENG_DIALECT_QIMENG_IR_QIMENGDIALECT_TD
