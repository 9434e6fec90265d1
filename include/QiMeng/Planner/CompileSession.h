//===- CompileSession.h - One compile's LLM client and report ---*- C++ -*-===//
//
// What the planning and micro-coding passes of one compile share: the
// command-line choices (micro-coder, repair rounds, report file), the LLM
// client when an endpoint is configured, and the JSON report that records
// every plan, micro-coding attempt, rollback and verification. The tool
// calls finishCompileSession() at exit to write the report (and the LLM
// session file of --llm-record).
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_PLANNER_COMPILESESSION_H
#define QIMENG_PLANNER_COMPILESESSION_H

#include "QiMeng/LLM/Client.h"

#include "llvm/ADT/Twine.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <mutex>
#include <string>

namespace mlir::qimeng {

enum class MicroCoderKind {
  Builtin,
  LLM,
  Auto,
  /// The LLM writes the Triton modules of --qimeng-emit-triton; the MLIR
  /// kernels are the built-in micro-coder's.
  LLMTriton
};

struct CompileOptions {
  MicroCoderKind microCoder = MicroCoderKind::Auto;
  /// LLM rounds per plan and per micro-coding step (the first try included).
  unsigned planRounds = 3, codeRounds = 3;
  /// Fail when a step cannot be run on a GPU (instead of marking it
  /// unverified).
  bool requireGpuVerification = false;
  /// Keep LLM-written steps that could not run for want of a GPU (marked
  /// unverified) instead of rolling them back.
  bool allowUnverified = false;
  /// Where to write the JSON report ("" = nowhere).
  std::string reportPath;
  /// Verification trials per step.
  unsigned trials = 3;
  /// Plan search (docs/tuning.md): candidates per kernel (0: no search),
  /// seconds per kernel (0: no limit) and the seed of the candidates' order.
  unsigned searchCandidates = 0;
  double searchBudgetSeconds = 0;
  uint64_t searchSeed = 0;
  /// Plans sampled from the LLM planner (when one is configured) as extra
  /// search candidates.
  unsigned searchLLMSamples = 4;
  /// The tuning database: "" for the default path, "off" for none.
  std::string tuningDB;
  /// --allow-tf32: f32 matmuls may run on tensor cores as tf32 (10 bits of
  /// mantissa in the products), which the user must ask for.
  bool allowTf32 = false;
  /// Where --llm-plan writes the plans as transform scripts (docs/tuning.md):
  /// for mlir-opt --transform-interpreter, and in IREE's tuning-spec form.
  std::string exportTransform, exportIREESpec;
  /// --qimeng-emit-triton: the directory for Triton modules.
  std::string emitTriton;
  /// The Python that verifies LLM-written Triton modules (torch, triton and
  /// the qimeng package): --triton-python, else $QIMENG_PYTHON, else python3.
  std::string tritonPython = "python3";
};

/// Registers --micro-coder, --qimeng-report, --require-gpu-verification,
/// --llm-plan-rounds, --llm-code-rounds, --verify-trials, the search and
/// tuning-database options (and the --llm-* options).
void registerCompileOptions();

class CompileSession {
public:
  /// The compile's session, made on first use from the command line and the
  /// environment.
  static CompileSession &get();

  /// Makes the session (if made after this) use no LLM whatever is
  /// configured, and no tuned plans: qimeng-run compiles with the built-in
  /// paths only.
  static void disableLLM();

  /// Makes the session (if made after this) plan f32 matmuls as tf32, as
  /// --allow-tf32 does: qimeng-run's --allow-tf32.
  static void allowTf32();

  /// The LLM client, or null when no endpoint is configured (or the
  /// configuration is broken: see getLLMError).
  llm::Client *getClient() { return client.get(); }
  /// Why the configuration could not be used ("" when it could).
  const std::string &getLLMError() const { return llmError; }
  const CompileOptions &getOptions() const { return options; }
  /// Whether micro-coding (of the MLIR kernels) asks the LLM.
  bool useLLMMicroCoder() const;
  /// Whether the LLM writes the Triton modules (--micro-coder=llm-triton).
  bool useLLMTritonCoder() const;

  /// The report object of `kernel` (created empty); lock getMutex() while
  /// using it from several threads.
  nlohmann::json &kernelReport(llvm::StringRef kernel);
  std::mutex &getMutex() { return mutex; }

  /// One line of progress on stderr ("qimeng: ...").
  void progress(const llvm::Twine &line);

  /// Writes the report and the --llm-record session; errors on stderr.
  /// Returns false when a file could not be written.
  bool finish(int exitCode);

private:
  CompileSession();
  CompileOptions options;
  std::unique_ptr<llm::Client> client;
  std::string llmError;
  nlohmann::json report;
  std::mutex mutex;
  bool finished = false;
};

/// CompileSession::get().finish(exitCode) if a session was made; returns
/// the exit code to use.
int finishCompileSession(int exitCode);

} // namespace mlir::qimeng

#endif // QIMENG_PLANNER_COMPILESESSION_H
