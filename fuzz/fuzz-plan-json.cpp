//===- fuzz-plan-json.cpp - Plan JSON into plans --------------------------===//
//
// The bytes are a plan in its JSON form, as an LLM answers one or
// --qimeng-import-plan-json reads one: built by planFromJSONText into a
// module holding prepared, planned kernels (FuzzKernels.h). Bad JSON must
// come back as a diagnostic with nothing left in the IR. A plan that builds
// must hold up: it verifies again, passes or fails the resource checks
// (checkPlanResources) without crashing, and its JSON form builds the same
// plan again. With QIMENG_FUZZ_APPLY=1 it is also realized on its kernel by
// the built-in micro-coder (qimeng-realize-plans).
//
//===----------------------------------------------------------------------===//

#include "FuzzKernels.h"
#include "FuzzSupport.h"

#include "QiMeng/Dialect/QiMeng/IR/PlanJSON.h"
#include "QiMeng/InitAll.h"
#include "QiMeng/Planner/PlanResources.h"
#include "QiMeng/Support/ErrorCollector.h"
#include "QiMeng/Target/TargetProfile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::qimeng;

namespace {
/// How many operations `module` holds at its top level.
size_t countOps(ModuleOp module) {
  return module.getBody()->getOperations().size();
}

struct State {
  State() : context(makeRegistry(), MLIRContext::Threading::DISABLED) {
    module = fuzz::parsePlannedKernels(&context);
    ops = countOps(*module);
    const char *apply = std::getenv("QIMENG_FUZZ_APPLY");
    realize = apply && llvm::StringRef(apply) == "1";
  }
  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    registerAllDialects(registry);
    return registry;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  /// Operations in the module before an input is built into it.
  size_t ops = 0;
  bool realize = false;
};

State &getState() {
  static State state;
  return state;
}

/// Realizes `plan` on a copy of its kernel alone, as a plan search compiles
/// a candidate; failing is fine, crashing is not.
void realizeOnCopy(PlanOp plan, func::FuncOp kernel) {
  MLIRContext *context = plan.getContext();
  OwningOpRef<ModuleOp> copy = ModuleOp::create(UnknownLoc::get(context));
  OpBuilder builder(context);
  builder.setInsertionPointToEnd(copy->getBody());
  builder.clone(*kernel);
  builder.clone(*plan);
  PassManager pm(context);
  std::string message;
  llvm::raw_string_ostream os(message);
  if (failed(parsePassPipeline("qimeng-realize-plans", pm, os)))
    fuzz::reportBug("qimeng-realize-plans does not parse: " + message);
  (void)pm.run(*copy);
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  fuzz::setUpCompiler();
  (void)getState();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > fuzz::kMaxInputBytes)
    return -1;
  State &state = getState();
  MLIRContext *context = &state.context;
  ModuleOp module = *state.module;
  Location loc = UnknownLoc::get(context);
  OpBuilder builder(context);
  builder.setInsertionPointToEnd(module.getBody());

  ErrorCollector errors(context);
  FailureOr<PlanOp> built =
      planFromJSONText(builder, loc, fuzz::asText(data, size));
  if (failed(built)) {
    if (errors.empty())
      fuzz::reportBug("planFromJSONText failed without an error");
    if (countOps(module) != state.ops)
      fuzz::reportBug("a plan that failed to build was left in the IR");
    return 0;
  }
  PlanOp plan = *built;
  if (failed(verify(plan)))
    fuzz::reportBug("a plan that built does not verify: " + errors.join());

  // The checks an LLM's plan gets before it is taken.
  auto kernel = module.lookupSymbol<func::FuncOp>(plan.getKernel());
  if (kernel)
    (void)checkPlanResources(plan, kernel, *lookupTargetProfile("sm_90"));

  // Its JSON form builds the same plan.
  llvm::json::Object json = planToJSON(plan);
  std::string identity = getPlanIdentity(json);
  FailureOr<PlanOp> again =
      planFromJSON(builder, loc, llvm::json::Value(std::move(json)));
  if (failed(again))
    fuzz::reportBug("the JSON form of a plan does not build: " + errors.join());
  if (getPlanIdentity(planToJSON(*again)) != identity)
    fuzz::reportBug("the JSON form of a plan builds another plan");
  (*again)->erase();

  if (state.realize && kernel)
    realizeOnCopy(plan, kernel);
  plan->erase();
  if (countOps(module) != state.ops)
    fuzz::reportBug("building a plan left other operations in the IR");
  return 0;
}
