//===- Passes.td - QiMeng passes ---------------------------*- tablegen -*-===//

#ifndef QIMENG_DIALECT_QIMENG_TRANSFORMS_PASSES_TD
#define QIMENG_DIALECT_QIMENG_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def QiMengExportPlanJSONPass : Pass<"qimeng-export-plan-json", "ModuleOp"> {
  let summary = "Write every qimeng.plan of the module as JSON";
  let description = [{
    Writes a JSON array with the JSON form of each `qimeng.plan` in the module
    (the form an LLM planner answers in) to the file given by `output`
    (`-` is stdout). The module is left unchanged. The file is written
    atomically: on failure no partial file is left.
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "File to write the JSON to ('-' for stdout)">
  ];
}

def QiMengImportPlanJSONPass : Pass<"qimeng-import-plan-json", "ModuleOp"> {
  let summary = "Add a qimeng.plan read from JSON to the module";
  let description = [{
    Reads a plan (one JSON object) or a list of plans (a JSON array) from the
    file `input`, checks it exactly as the verifiers check textual IR, and adds
    it to the module, replacing any plan for the same kernel. Errors name the
    JSON path of the offending element.
  }];
  let options = [
    Option<"input", "input", "std::string", /*default=*/"",
           "JSON file holding the plan(s)">
  ];
}

def QiMengStripPlansPass : Pass<"qimeng-strip-plans", "ModuleOp"> {
  let summary = "Remove qimeng.plan ops and qimeng.tag attributes";
  let description = [{
    Removes every `qimeng.plan` and every `qimeng.tag` attribute, leaving the
    payload program as it was before planning.
  }];
}

#endif // QIMENG_DIALECT_QIMENG_TRANSFORMS_PASSES_TD
