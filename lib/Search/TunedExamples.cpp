//===- TunedExamples.cpp - Stored plans shown to the LLM planner ----------===//

#include "QiMeng/Search/TunedExamples.h"

#include "QiMeng/Planner/Fingerprint.h"
#include "QiMeng/Search/Candidates.h"
#include "QiMeng/Search/Search.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::qimeng;

std::vector<TunedExample>
mlir::qimeng::findTunedExamples(TuningDB &db, func::FuncOp kernel,
                                llvm::StringRef gpu, llvm::StringRef chip) {
  auto [family, features] = describeKernel(kernel);
  TuningKey where{"", gpu.str(), chip.str(), getQiMengVersion().str()};
  llvm::Expected<std::vector<TuningRecord>> best =
      db.findBestOfFamily(family, where);
  if (!best) {
    llvm::consumeError(best.takeError());
    return {};
  }
  std::vector<TunedExample> examples;
  for (const TuningRecord &record :
       findNearestTunings(std::move(*best), getKernelFingerprint(kernel),
                          family, features, kMaxTunedExamples)) {
    std::string loops;
    if (const llvm::json::Object *f = record.features.getAsObject())
      if (const llvm::json::Array *ops = f->getArray("ops"))
        for (const llvm::json::Value &op : *ops)
          if (const llvm::json::Object *entry = op.getAsObject())
            loops += (loops.empty() ? "" : "; ") +
                     llvm::formatv("{0} loops {1} of {2}",
                                   entry->getString("op").value_or("?"),
                                   *entry->get("loops"),
                                   *entry->get("element_types"))
                         .str();
    examples.push_back(
        {llvm::formatv("- @{0} ({1}): {2}; {3:F4} ms, {4:F2}x over the "
                       "built-in plan",
                       record.kernel, record.family, loops, *record.timeMs,
                       record.getSpeedup())
             .str(),
         llvm::formatv("{0}", record.plan).str()});
  }
  return examples;
}
