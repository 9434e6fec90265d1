//===- CompileSession.cpp - One compile's LLM client and report -----------===//

#include "QiMeng/Planner/CompileSession.h"

#include "QiMeng/LLM/Options.h"
#include "QiMeng/Support/JSONText.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ManagedStatic.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::qimeng;

namespace {

struct CompileCLOptions {
  llvm::cl::OptionCategory category{"QiMeng compile options"};
  llvm::cl::opt<std::string> microCoder{
      "micro-coder",
      llvm::cl::desc("Who writes each step: builtin (MLIR's transformations), "
                     "llm, auto (llm when an endpoint is configured), or "
                     "llm-triton (the LLM writes the Triton modules of "
                     "--qimeng-emit-triton)"),
      llvm::cl::init("auto"), llvm::cl::cat(category)};
  llvm::cl::opt<std::string> report{
      "qimeng-report",
      llvm::cl::desc("Write a JSON report of planning and micro-coding"),
      llvm::cl::cat(category)};
  llvm::cl::opt<bool> requireGpu{
      "require-gpu-verification",
      llvm::cl::desc("Fail when an LLM-written step cannot be run on a GPU"),
      llvm::cl::cat(category)};
  llvm::cl::opt<bool> allowUnverified{
      "allow-unverified-llm-code",
      llvm::cl::desc("On a machine without a GPU, keep LLM-written steps "
                     "that compile to PTX, marked unverified (by default "
                     "they are rolled back: LLM code is taken only when it "
                     "passed on a GPU)"),
      llvm::cl::cat(category)};
  llvm::cl::opt<unsigned> planRounds{
      "llm-plan-rounds",
      llvm::cl::desc("LLM rounds per plan, repairs included (default 3)"),
      llvm::cl::init(3), llvm::cl::cat(category)};
  llvm::cl::opt<unsigned> codeRounds{
      "llm-code-rounds",
      llvm::cl::desc("LLM rounds per micro-coding step, repairs included "
                     "(default 3)"),
      llvm::cl::init(3), llvm::cl::cat(category)};
  llvm::cl::opt<unsigned> trials{
      "verify-trials",
      llvm::cl::desc("Random inputs per verified step (default 3)"),
      llvm::cl::init(3), llvm::cl::cat(category)};
  llvm::cl::opt<unsigned> search{
      "qimeng-search",
      llvm::cl::desc("Search up to N candidate plans per kernel, measured on "
                     "the GPU, and keep the fastest correct one (needs a GPU; "
                     "results go to the tuning database)"),
      llvm::cl::init(0), llvm::cl::cat(category)};
  llvm::cl::opt<double> searchBudget{
      "qimeng-search-budget",
      llvm::cl::desc("Seconds the search of one kernel may take (0: no "
                     "limit; the default plan is always measured)"),
      llvm::cl::init(0), llvm::cl::cat(category)};
  llvm::cl::opt<uint64_t> searchSeed{
      "qimeng-search-seed",
      llvm::cl::desc("Seed of the order candidate plans are tried in"),
      llvm::cl::init(0), llvm::cl::cat(category)};
  llvm::cl::opt<unsigned> searchLLMSamples{
      "qimeng-search-llm-samples",
      llvm::cl::desc("With an LLM configured: plans sampled from the LLM "
                     "planner as extra search candidates (default 4)"),
      llvm::cl::init(4), llvm::cl::cat(category)};
  llvm::cl::opt<std::string> tuningDB{
      "tuning-db",
      llvm::cl::desc("Tuning database (SQLite) to take tuned plans from and "
                     "store measured ones in; 'off' for none (default "
                     "$XDG_CACHE_HOME/qimeng/tuning.db)"),
      llvm::cl::cat(category)};
  llvm::cl::opt<bool> allowTf32{
      "allow-tf32",
      llvm::cl::desc("Let the planner compute f32 matmuls on tensor cores as "
                     "tf32 (10-bit mantissas in the products; results are "
                     "verified with f16's tolerance)"),
      llvm::cl::cat(category)};
  llvm::cl::opt<std::string> exportTransform{
      "qimeng-export-transform",
      llvm::cl::desc("Write every kernel's plan as a transform script that "
                     "mlir-opt --transform-interpreter applies to the input"),
      llvm::cl::value_desc("file"), llvm::cl::cat(category)};
  llvm::cl::opt<std::string> emitTriton{
      "qimeng-emit-triton",
      llvm::cl::desc("Write every planned kernel as a @triton.jit kernel "
                     "and launcher (a Python module) into this directory"),
      llvm::cl::value_desc("dir"), llvm::cl::cat(category)};
  llvm::cl::opt<std::string> tritonPython{
      "triton-python",
      llvm::cl::desc("The Python (with torch, triton and the qimeng package) "
                     "that verifies LLM-written Triton modules (default "
                     "$QIMENG_PYTHON, else python3)"),
      llvm::cl::value_desc("python"), llvm::cl::cat(category)};
  llvm::cl::opt<std::string> exportIREESpec{
      "qimeng-export-iree-spec",
      llvm::cl::desc("Write the plans of contraction kernels as a tuning "
                     "spec for IREE's CUDA backend (TileAndFuse "
                     "configurations)"),
      llvm::cl::value_desc("file"), llvm::cl::cat(category)};
};

llvm::ManagedStatic<CompileCLOptions> clOptions;
std::unique_ptr<CompileSession> session;
std::once_flag sessionOnce;
bool llmDisabled = false;
bool tf32Allowed = false;

} // namespace

void mlir::qimeng::registerCompileOptions() {
  *clOptions;
  llm::registerLLMOptions();
}

CompileSession::CompileSession() {
  if (clOptions.isConstructed()) {
    llvm::StringRef kind = clOptions->microCoder;
    options.microCoder = kind == "builtin"      ? MicroCoderKind::Builtin
                         : kind == "llm"        ? MicroCoderKind::LLM
                         : kind == "llm-triton" ? MicroCoderKind::LLMTriton
                                                : MicroCoderKind::Auto;
    if (kind != "builtin" && kind != "llm" && kind != "auto" &&
        kind != "llm-triton")
      llmError = "--micro-coder must be builtin, llm, auto or llm-triton, "
                 "got '" +
                 kind.str() + "'";
    options.reportPath = clOptions->report;
    options.requireGpuVerification = clOptions->requireGpu;
    options.allowUnverified = clOptions->allowUnverified;
    options.planRounds = std::max(1u, unsigned(clOptions->planRounds));
    options.codeRounds = std::max(1u, unsigned(clOptions->codeRounds));
    options.trials = std::max(1u, unsigned(clOptions->trials));
    options.searchCandidates = clOptions->search;
    options.searchBudgetSeconds = clOptions->searchBudget;
    options.searchSeed = clOptions->searchSeed;
    options.searchLLMSamples = clOptions->searchLLMSamples;
    options.tuningDB = clOptions->tuningDB;
    options.allowTf32 = clOptions->allowTf32;
    options.exportTransform = clOptions->exportTransform;
    options.exportIREESpec = clOptions->exportIREESpec;
    options.emitTriton = clOptions->emitTriton;
    if (!clOptions->tritonPython.empty())
      options.tritonPython = clOptions->tritonPython;
    else if (const char *python = std::getenv("QIMENG_PYTHON");
             python && *python)
      options.tritonPython = python;
  }
  // The built-in paths only: no tuned plans either.
  if (llmDisabled)
    options.tuningDB = "off";
  if (tf32Allowed)
    options.allowTf32 = true;
  report = {{"format", "qimeng-compile-report"},
            {"version", 1},
            {"kernels", nlohmann::json::object()}};
  if (!llmDisabled) {
    llvm::Expected<llm::Config> config =
        llm::loadConfig(llm::getLLMConfigFlags());
    if (!config) {
      llmError = llvm::toString(config.takeError());
    } else if (config->configured) {
      llvm::Expected<std::unique_ptr<llm::Client>> made =
          llm::Client::create(*config);
      if (made)
        client = std::move(*made);
      else
        llmError = llvm::toString(made.takeError());
    }
  }
  nlohmann::json llmInfo = {{"configured", client != nullptr}};
  if (client) {
    const llm::Config &c = client->getConfig();
    llmInfo["provider"] = llm::stringifyProvider(c.provider).str();
    llmInfo["planner_model"] = c.plannerModel;
    llmInfo["coder_model"] = c.coderModel;
    llmInfo["cache"] = llm::stringifyCacheMode(c.cacheMode).str();
  }
  if (llmError.empty() && options.microCoder == MicroCoderKind::LLM && !client)
    llmError = "--micro-coder=llm needs an LLM endpoint (docs/llm.md)";
  if (llmError.empty() && options.microCoder == MicroCoderKind::LLMTriton) {
    if (options.emitTriton.empty())
      llmError = "--micro-coder=llm-triton writes the modules of "
                 "--qimeng-emit-triton=DIR: give that option too";
    else if (!client)
      llmError = "--micro-coder=llm-triton needs an LLM endpoint (docs/llm.md)";
  }
  if (!llmError.empty())
    llmInfo["error"] = llmError;
  report["llm"] = llmInfo;
}

void CompileSession::disableLLM() { llmDisabled = true; }

void CompileSession::allowTf32() { tf32Allowed = true; }

CompileSession &CompileSession::get() {
  std::call_once(sessionOnce, [] { session.reset(new CompileSession()); });
  return *session;
}

bool CompileSession::useLLMMicroCoder() const {
  // --micro-coder=llm without a client is a configuration error (llmError).
  return client && (options.microCoder == MicroCoderKind::LLM ||
                    options.microCoder == MicroCoderKind::Auto);
}

bool CompileSession::useLLMTritonCoder() const {
  return client && options.microCoder == MicroCoderKind::LLMTriton;
}

nlohmann::json &CompileSession::kernelReport(llvm::StringRef kernel) {
  nlohmann::json &kernels = report["kernels"];
  if (!kernels.contains(kernel.str()))
    kernels[kernel.str()] = nlohmann::json::object();
  return kernels[kernel.str()];
}

void CompileSession::progress(const llvm::Twine &line) {
  llvm::errs() << "qimeng: " << line << "\n";
}

bool CompileSession::finish(int exitCode) {
  if (finished)
    return true;
  finished = true;
  bool ok = true;
  if (client) {
    report["accounting"] = client->statsJSON();
    if (!client->getConfig().recordFile.empty())
      if (llvm::Error error =
              client->writeSessionFile(client->getConfig().recordFile)) {
        llvm::errs() << "error: " << llvm::toString(std::move(error)) << "\n";
        ok = false;
      }
  }
  report["exit_code"] = exitCode;
  if (!options.reportPath.empty()) {
    std::string text = dumpJSON(report, 2) + "\n";
    if (llvm::Error error =
            llvm::writeToOutput(options.reportPath, [&](llvm::raw_ostream &os) {
              os << text;
              return llvm::Error::success();
            })) {
      llvm::errs() << "error: cannot write the report " << options.reportPath
                   << ": " << llvm::toString(std::move(error)) << "\n";
      ok = false;
    }
  }
  return ok;
}

int mlir::qimeng::finishCompileSession(int exitCode) {
  if (!session)
    return exitCode;
  return session->finish(exitCode) ? exitCode : (exitCode ? exitCode : 1);
}
