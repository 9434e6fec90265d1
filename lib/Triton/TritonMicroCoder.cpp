//===- TritonMicroCoder.cpp - Verified Triton micro-coding by an LLM ------===//

#include "QiMeng/Triton/TritonMicroCoder.h"

#include "QiMeng/LLM/Attempt.h"
#include "QiMeng/LLM/Prompts.h"
#include "QiMeng/Planner/KernelSummary.h"
#include "QiMeng/Support/RunProcess.h"
#include "QiMeng/Support/TempDirectory.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ScopedPrinter.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::qimeng;
using namespace mlir::qimeng::triton;

namespace {

/// Writes `text` to `path`; false when it cannot.
bool writeFile(const std::string &path, StringRef text) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return false;
  os << text;
  return !os.has_error();
}

/// The Python to run: `python` itself when it is a path, else found on
/// PATH; "" when there is none.
std::string findPython(StringRef python) {
  if (python.contains('/'))
    return python.str();
  llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName(python);
  return found ? *found : std::string();
}

/// The verdict of `verify`'s JSON line (the last line of `log` that is a
/// JSON object); null when there is none.
std::optional<TritonVerdict> readVerdict(StringRef log) {
  SmallVector<StringRef> lines;
  log.split(lines, '\n');
  for (StringRef line : llvm::reverse(lines)) {
    line = line.trim();
    if (!line.starts_with("{"))
      continue;
    nlohmann::json value = nlohmann::json::parse(line.str(), nullptr, false);
    auto statusField = value.is_object() ? value.find("status") : value.end();
    if (statusField == value.end() || !statusField->is_string())
      continue;
    std::string status = statusField->get<std::string>();
    TritonVerdict verdict{TritonVerdict::Failed, "", "", false};
    if (status == "verified")
      verdict.kind = TritonVerdict::Verified;
    else if (status == "unverified")
      verdict.kind = TritonVerdict::Unverified;
    else if (status == "rejected")
      verdict.kind = TritonVerdict::Rejected;
    else if (status != "failed")
      continue;
    // The child's line is data: a field of another type is ignored, never
    // converted (nlohmann would throw).
    auto text = [&](const char *key) {
      auto it = value.find(key);
      return it != value.end() && it->is_string() ? it->get<std::string>()
                                                  : std::string();
    };
    verdict.reason = text("reason");
    verdict.device = text("device");
    auto noGpu = value.find("no_gpu");
    verdict.noGpu =
        noGpu != value.end() && noGpu->is_boolean() && noGpu->get<bool>();
    return verdict;
  }
  return std::nullopt;
}

/// The last non-empty line of `log`.
StringRef lastLine(StringRef log) {
  StringRef trimmed = log.trim();
  return trimmed.contains('\n') ? trimmed.rsplit('\n').second : trimmed;
}

std::string stringifyKind(TritonVerdict::Kind kind) {
  switch (kind) {
  case TritonVerdict::Verified:
    return "verified";
  case TritonVerdict::Unverified:
    return "unverified";
  case TritonVerdict::Failed:
    return "failed";
  case TritonVerdict::Rejected:
    return "rejected";
  }
  llvm_unreachable("unknown verdict");
}

/// The feedback for an answer that failed with `why`.
std::string repairMessage(StringRef why) {
  return llm::repairMessage("module", why, "python");
}

} // namespace

TritonVerdict triton::verifyTritonModule(StringRef candidate, StringRef emitted,
                                         func::FuncOp kernel,
                                         const TritonCoderOptions &options) {
  auto cannot = [](const Twine &why) {
    return TritonVerdict{TritonVerdict::Unverified, why.str(), "", false};
  };
  std::string python = findPython(options.python);
  if (python.empty())
    return cannot("no Python '" + options.python +
                  "' to verify Triton modules with (--triton-python)");
  TempDirectory dir;
  if (std::error_code ec = dir.create("qimeng-triton-coder"))
    return cannot("cannot make a temporary directory: " + ec.message());
  // The reference: the kernel's function alone, on tensors, compiled for
  // the CPU by the qimeng package.
  OpBuilder builder(kernel.getContext());
  OwningOpRef<ModuleOp> spec = ModuleOp::create(kernel.getLoc());
  builder.setInsertionPointToEnd(spec->getBody());
  builder.clone(*kernel);
  std::string specText;
  llvm::raw_string_ostream specOS(specText);
  spec->print(specOS);
  std::string candidatePath = dir.in("candidate.py"),
              emittedPath = dir.in("emitted.py"),
              specPath = dir.in("kernel.mlir"), logPath = dir.in("verify.log");
  if (!writeFile(candidatePath, candidate) ||
      !writeFile(emittedPath, emitted) || !writeFile(specPath, specText))
    return cannot("cannot write the module to verify");
  std::vector<std::string> args = {python,
                                   "-m",
                                   "qimeng.triton",
                                   "verify",
                                   candidatePath,
                                   "--like",
                                   emittedPath,
                                   "--mlir",
                                   specPath,
                                   "--kernel",
                                   kernel.getSymName().str(),
                                   "--arch",
                                   std::to_string(options.arch),
                                   "--timeout",
                                   std::to_string(options.timeoutSeconds)};
  std::string execError;
  // Two steps of up to timeoutSeconds each, and the start of Python.
  int code = runProcess(python, args, logPath, std::nullopt,
                        2 * options.timeoutSeconds + 60, &execError);
  if (code == kProcessNotStarted)
    return cannot("cannot run " + python + ": " + execError);
  auto log = llvm::MemoryBuffer::getFile(logPath);
  StringRef text = log ? (*log)->getBuffer() : StringRef();
  if (std::optional<TritonVerdict> verdict = readVerdict(text))
    return *verdict;
  if (code == kProcessKilled)
    return cannot("the check ran past its time limit");
  return cannot(llvm::formatv("`{0} -m qimeng.triton verify` gave no verdict "
                              "(exit status {1}): {2}",
                              options.python, code, lastLine(text))
                    .str());
}

nlohmann::json triton::getTritonReplySchema() {
  return {{"type", "object"},
          {"required", {"python"}},
          {"additionalProperties", false},
          {"properties", {{"python", {{"type", "string"}}}}}};
}

FailureOr<std::string>
triton::microCodeTriton(func::FuncOp kernel, PlanOp plan, StringRef emitted,
                        const TritonCoderOptions &options,
                        nlohmann::json &report) {
  StringRef name = kernel.getSymName();
  auto progress = [&](const Twine &line) {
    if (options.progress)
      options.progress("@" + name + ": " + line);
  };
  report = {{"micro_coder", "llm-triton"},
            {"attempts", nlohmann::json::array()}};
  if (!options.client) {
    report["result"] = "builtin";
    return emitted.str();
  }
  llvm::Expected<llm::PromptTemplate> prompt =
      llm::getPromptTemplate("microcode-triton.v1");
  if (!prompt)
    return plan.emitOpError() << llvm::toString(prompt.takeError());
  std::string actions;
  for (MacroActionOpInterface action : plan.getActions())
    actions += "- " + llvm::to_string(*action.getOperation()) + "\n";
  // The interface lines the answer must keep, from the emitted module.
  SmallVector<StringRef> interface;
  SmallVector<StringRef> lines;
  emitted.split(lines, '\n');
  for (StringRef line : lines)
    if (line.starts_with("ARGUMENTS = ") || line.starts_with("RESULTS = "))
      interface.push_back(line);
  llvm::Expected<std::string> text = llm::renderPrompt(
      prompt->text, {{"spec_ir", printSanitizedKernel(kernel)},
                     {"actions", actions},
                     {"builtin_module", emitted.str()},
                     {"interface", llvm::join(interface, "; ")},
                     {"kernel", name.str()}});
  if (!text)
    return plan.emitOpError() << llvm::toString(text.takeError());
  llm::Request request;
  request.role = llm::Role::Coder;
  request.promptVersion = prompt->version;
  request.schemaName = "qimeng_triton_module";
  request.schema = getTritonReplySchema();
  request.messages = {{"system", "You are QiMeng's Triton micro-coder. Reply "
                                 "with {\"python\": \"...\"} only."},
                      {"user", *text}};

  for (unsigned round = 1; round <= options.rounds; ++round) {
    llm::Attempt attempt(round);
    auto finish = [&](StringRef outcome, StringRef detail) {
      attempt.finish(report["attempts"], outcome, detail);
      progress("triton round " + Twine(round) + ": " + outcome +
               (detail.empty() ? "" : ": " + detail.take_front(200)));
    };
    llvm::Expected<llm::Reply> reply = options.client->complete(request);
    if (!reply) {
      llm::ReplyFailure failure =
          llm::takeReplyFailure(reply.takeError(), request);
      finish(failure.repairable ? "invalid-reply" : "error", failure.message);
      if (!failure.repairable)
        break;
      continue;
    }
    request.messages.push_back({"assistant", reply->text});
    // The schema makes it an object with a string "python"; checked again
    // here, so a reply is never trusted to have followed it.
    const nlohmann::json &json = *reply->json;
    auto source = json.is_object() ? json.find("python") : json.end();
    if (source == json.end() || !source->is_string()) {
      std::string why = "the reply is not a JSON object with a string "
                        "\"python\"";
      finish("rejected", why);
      request.messages.push_back({"user", repairMessage(why)});
      continue;
    }
    const std::string &candidate = source->get_ref<const std::string &>();
    TritonVerdict verdict =
        verifyTritonModule(candidate, emitted, kernel, options);
    if (verdict.kind == TritonVerdict::Rejected ||
        verdict.kind == TritonVerdict::Failed) {
      finish(stringifyKind(verdict.kind), verdict.reason);
      request.messages.push_back({"user", repairMessage(verdict.reason)});
      continue;
    }
    bool onGpu =
        verdict.kind == TritonVerdict::Verified && verdict.device == "cuda";
    if (options.requireGpuVerification && !onGpu)
      return plan.emitOpError()
             << "@" << name << ": the LLM's Triton module was not verified on "
             << "a GPU (" << stringifyKind(verdict.kind)
             << (verdict.device.empty() ? "" : " on " + verdict.device)
             << (verdict.reason.empty() ? "" : ": " + verdict.reason)
             << ") and --require-gpu-verification is set";
    if (verdict.kind == TritonVerdict::Unverified &&
        !(verdict.noGpu && options.allowUnverified)) {
      finish("not kept", verdict.reason);
      break;
    }
    std::string where = verdict.kind == TritonVerdict::Unverified
                            ? "unverified: " + verdict.reason
                        : onGpu ? "on the GPU"
                                : "in Triton's interpreter";
    finish(stringifyKind(verdict.kind), verdict.kind == TritonVerdict::Verified
                                            ? "checked " + where
                                            : verdict.reason);
    report["result"] = "llm";
    report["verification"] = where;
    return candidate;
  }
  progress("triton: the emitted module stands (no verified LLM module)");
  report["result"] = "builtin";
  return emitted.str();
}
