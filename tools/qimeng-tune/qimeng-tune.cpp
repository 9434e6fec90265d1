//===- qimeng-tune.cpp - The tuning database from the command line --------===//
//
//   qimeng-tune list                       [--tuning-db=PATH]
//   qimeng-tune export FILE.json           (every measured candidate)
//   qimeng-tune import FILE.json           (a team's tunings, merged)
//   qimeng-tune export-experience FILE.jsonl
//
// list prints, per kernel and GPU, the best stored plan's time and speedup
// and how many candidates were measured. export / import move the database
// to and from JSON ({"format": "qimeng-tuning", "records": [...]}); an import
// adds only records not stored yet. export-experience writes one line of RL
// training data per measured candidate (docs/tuning.md). FILE may be '-'.
// Errors are one line on stderr and exit 1.
//
//===----------------------------------------------------------------------===//

#include "QiMeng/Search/TuningDB.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace mlir::qimeng;

namespace {

llvm::cl::OptionCategory toolOptions("qimeng-tune options");

llvm::cl::opt<std::string> command(llvm::cl::Positional, llvm::cl::Required,
                                   llvm::cl::cat(toolOptions),
                                   llvm::cl::desc("<list | export | import | "
                                                  "export-experience>"));
llvm::cl::opt<std::string> file(llvm::cl::Positional, llvm::cl::desc("[FILE]"),
                                llvm::cl::cat(toolOptions));
llvm::cl::opt<std::string>
    dbPath("tuning-db", llvm::cl::cat(toolOptions), llvm::cl::desc("The tuning database (default "
                                       "$XDG_CACHE_HOME/qimeng/tuning.db)"));

int fail(const llvm::Twine &message) {
  llvm::errs() << "qimeng-tune: " << message << "\n";
  return 1;
}

int list(TuningDB &db) {
  llvm::Expected<std::vector<TuningRecord>> records = db.getAll();
  if (!records)
    return fail(llvm::toString(records.takeError()));
  struct Entry {
    const TuningRecord *best = nullptr;
    unsigned measured = 0;
  };
  std::map<std::string, Entry> kernels;
  for (const TuningRecord &r : *records) {
    Entry &entry = kernels[r.key.fingerprint + " " + r.key.gpu + " " +
                           r.key.chip + " " + r.key.version];
    ++entry.measured;
    if (r.correct && r.timeMs &&
        (!entry.best || *r.timeMs < *entry.best->timeMs))
      entry.best = &r;
  }
  for (auto &[key, entry] : kernels) {
    llvm::StringRef fingerprint = llvm::StringRef(key).take_front(12);
    if (!entry.best) {
      llvm::outs() << llvm::formatv("{0}  no correct plan ({1} measured)\n",
                                    fingerprint, entry.measured);
      continue;
    }
    const TuningRecord &best = *entry.best;
    llvm::outs() << llvm::formatv(
        "{0}  @{1} ({2}) on {3} {4}, QiMeng {5}: best {6:F4} ms, {7:F2}x over "
        "the default, {8} measured\n",
        fingerprint, best.kernel, best.family, best.key.gpu, best.key.chip,
        best.key.version, *best.timeMs, best.getSpeedup(), entry.measured);
  }
  return 0;
}

int exportExperience(TuningDB &db) {
  llvm::Expected<std::vector<TuningRecord>> records = db.getAll();
  if (!records)
    return fail(llvm::toString(records.takeError()));
  if (llvm::Error err = llvm::writeToOutput(file, [&](llvm::raw_ostream &os) {
        for (const TuningRecord &record : *records)
          os << llvm::formatv("{0}", toExperienceJSON(record)) << "\n";
        return llvm::Error::success();
      }))
    return fail(llvm::toString(std::move(err)));
  llvm::errs() << llvm::formatv("qimeng-tune: {0} records written to {1}\n",
                                records->size(), file);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::HideUnrelatedOptions(toolOptions);
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "QiMeng: the tuning database\n\n"
      "  qimeng-tune list\n"
      "  qimeng-tune export plans.json      (import plans.json to merge)\n"
      "  qimeng-tune export-experience rl.jsonl\n");
  bool needsFile = command != "list";
  if (command != "list" && command != "export" && command != "import" &&
      command != "export-experience")
    return fail("unknown command '" + command +
                "'; expected list, export, import or export-experience");
  if (needsFile && file.empty())
    return fail(command + " needs a FILE ('-' for the standard streams)");
  std::optional<std::string> path = TuningDB::getPath(dbPath);
  if (!path)
    return fail("--tuning-db=off names no database");
  // Only an import creates the database.
  llvm::Expected<std::unique_ptr<TuningDB>> db =
      TuningDB::open(*path, /*create=*/command == "import");
  if (!db)
    return fail(llvm::toString(db.takeError()));
  if (command == "list")
    return list(**db);
  if (command == "export") {
    if (llvm::Error err = (*db)->exportJSON(file))
      return fail(llvm::toString(std::move(err)));
    return 0;
  }
  if (command == "import") {
    llvm::Expected<unsigned> added = (*db)->importJSON(file);
    if (!added)
      return fail(llvm::toString(added.takeError()));
    llvm::errs() << llvm::formatv("qimeng-tune: {0} new records in {1}\n",
                                  *added, *path);
    return 0;
  }
  return exportExperience(**db);
}
