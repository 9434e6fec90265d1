//===- GuardedParse.cpp - Parse untrusted MLIR text in a child first ------===//

#include "QiMeng/Support/GuardedParse.h"
#include "QiMeng/Support/ErrorCollector.h"
#include "QiMeng/Support/WaitChild.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/ToolUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstring>
#include <optional>

#include <csignal>
#include <fcntl.h>
#include <unistd.h>

using namespace mlir;
using namespace mlir::qimeng;

/// The most error text a child sends back: it must fit in the pipe's buffer,
/// which the parent reads only after the child ended.
static constexpr size_t kMaxErrorText = 8192;

/// Parses one buffer; returns whether it parsed. Nothing parsed is freed:
/// the child exits right after.
static bool parseInChild(std::unique_ptr<llvm::MemoryBuffer> buffer,
                         MLIRContext &context, bool printDiagnostics,
                         std::string &errors) {
  auto *sourceMgr = new llvm::SourceMgr();
  sourceMgr->AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  std::optional<SourceMgrDiagnosticHandler> printer;
  std::optional<ErrorCollector> collector;
  if (printDiagnostics)
    printer.emplace(*sourceMgr, &context);
  else
    collector.emplace(&context);
  ParserConfig config(&context, /*verifyAfterParse=*/false);
  bool parsed = succeeded(parseSourceFile(*sourceMgr, new Block(), config));
  if (collector && !collector->empty()) {
    if (!errors.empty())
      errors += "; ";
    errors += collector->join();
  }
  return parsed;
}

/// The child's side: parse, send the errors, exit without cleaning up.
[[noreturn]] static void runChild(const llvm::SourceMgr &sourceMgr,
                                  const DialectRegistry &registry,
                                  const TrialParseOptions &options,
                                  int errorPipe) {
  // A crash here is the parent's to report: no stack dump of the child.
  for (int signal : {SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP})
    std::signal(signal, SIG_DFL);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects(options.allowUnregisteredDialects);
  const llvm::MemoryBuffer *main =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  auto copy = llvm::MemoryBuffer::getMemBufferCopy(main->getBuffer(),
                                                   main->getBufferIdentifier());
  std::string errors;
  bool parsed = true;
  if (options.splitMarker.empty()) {
    parsed = parseInChild(std::move(copy), context, options.printDiagnostics,
                          errors);
  } else {
    std::string ignored;
    llvm::raw_string_ostream os(ignored);
    (void)splitAndProcessBuffer(
        std::move(copy),
        [&](std::unique_ptr<llvm::MemoryBuffer> chunk, llvm::raw_ostream &) {
          parsed &= parseInChild(std::move(chunk), context,
                                 options.printDiagnostics, errors);
          return success();
        },
        os, options.splitMarker);
  }
  if (errors.size() > kMaxErrorText)
    errors.resize(kMaxErrorText);
  size_t written = 0;
  while (written < errors.size()) {
    ssize_t n =
        ::write(errorPipe, errors.data() + written, errors.size() - written);
    if (n <= 0)
      break;
    written += n;
  }
  ::_exit(parsed ? 0 : 1);
}

TrialParseResult mlir::qimeng::trialParse(const llvm::SourceMgr &sourceMgr,
                                          const DialectRegistry &registry,
                                          const TrialParseOptions &options,
                                          std::string *errors) {
  TrialParseResult result;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    result.outcome = TrialParse::Crashed;
    result.why =
        std::string("no pipe for the trial parse: ") + std::strerror(errno);
    return result;
  }
  // What the parent's streams hold must not be written twice.
  llvm::outs().flush();
  llvm::errs().flush();
  pid_t child = ::fork();
  if (child < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    result.outcome = TrialParse::Crashed;
    result.why =
        std::string("cannot start the trial parse: ") + std::strerror(errno);
    return result;
  }
  if (child == 0) {
    ::close(fds[0]);
    runChild(sourceMgr, registry, options, fds[1]);
  }
  ::close(fds[1]);
  int status = 0;
  ChildEnd end = waitForChild(child, options.timeoutSeconds, status);
  std::string text;
  char chunk[1024];
  ssize_t n;
  while ((n = ::read(fds[0], chunk, sizeof(chunk))) > 0)
    text.append(chunk, n);
  ::close(fds[0]);
  if (errors)
    *errors = text;
  if (end == ChildEnd::TimedOut) {
    result.outcome = TrialParse::Crashed;
    result.why = "it ran past " + std::to_string(options.timeoutSeconds) +
                 " s and was stopped";
  } else if (end == ChildEnd::Lost) {
    result.outcome = TrialParse::Crashed;
    result.why = std::string("it was lost: ") + std::strerror(errno);
  } else if (WIFSIGNALED(status)) {
    result.outcome = TrialParse::Crashed;
    int signal = WTERMSIG(status);
    result.why = "it was killed by signal " + std::to_string(signal) + " (" +
                 strsignal(signal) + ")";
  } else {
    result.outcome = WIFEXITED(status) && WEXITSTATUS(status) == 0
                         ? TrialParse::Parsed
                         : TrialParse::Failed;
  }
  return result;
}

OwningOpRef<ModuleOp>
mlir::qimeng::parseModuleGuarded(llvm::StringRef text, MLIRContext *context,
                                 std::string &error,
                                 llvm::StringRef bufferName) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, bufferName), llvm::SMLoc());
  TrialParseOptions options;
  options.allowUnregisteredDialects = context->allowsUnregisteredDialects();
  std::string errors;
  TrialParseResult trial =
      trialParse(sourceMgr, context->getDialectRegistry(), options, &errors);
  if (trial.outcome == TrialParse::Crashed) {
    error = "MLIR's parser crashed on it (" + trial.why + ")" +
            (errors.empty() ? "" : " after: " + errors);
    return nullptr;
  }
  if (trial.outcome == TrialParse::Failed) {
    error = errors.empty() ? "it does not parse" : errors;
    return nullptr;
  }
  ErrorCollector collector(context);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, context);
  if (!module)
    error = collector.join("; ", "it does not parse");
  return module;
}
