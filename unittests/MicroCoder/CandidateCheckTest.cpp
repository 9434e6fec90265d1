//===- CandidateCheckTest.cpp - The micro-code allow-list -----------------===//
//
// LLM-written kernels are data: only ops on the allow-list, no attributes
// of their own, memory only from the arguments and the kernel's own
// allocations.
//
//===----------------------------------------------------------------------===//

#include "QiMeng/InitAll.h"
#include "QiMeng/MicroCoder/CandidateCheck.h"
#include "QiMeng/MicroCoder/LLMMicroCoder.h"

#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

#include <string>

using namespace mlir;
using namespace mlir::qimeng;

namespace {

constexpr const char *kType = "(memref<64xf32>, memref<64xf32>) -> ()";

/// A kernel @k whose launch body is `body` (%x input, %y output, %i the
/// thread index), with `before` at the start of the function.
std::string kernel(const std::string &body, const std::string &before = "",
                   const std::string &moduleHead = "module") {
  return moduleHead + " {\n"
         "func.func @k(%x: memref<64xf32>, %y: memref<64xf32>) {\n"
         "  %c1 = arith.constant 1 : index\n"
         "  %c64 = arith.constant 64 : index\n" +
         before +
         "  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = "
         "%c1) threads(%i, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {\n"
         "    %v = memref.load %x[%i] : memref<64xf32>\n" +
         body +
         "    gpu.terminator\n"
         "  }\n"
         "  return\n"
         "}\n}\n";
}

class CandidateCheckTest : public ::testing::Test {
protected:
  CandidateCheckTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
  }
  std::string check(const std::string &text) {
    std::string reason;
    OwningOpRef<ModuleOp> module =
        checkCandidate(text, "k", kType, &context, reason);
    EXPECT_EQ(bool(module), reason.empty()) << reason;
    return reason;
  }
  MLIRContext context;
};

TEST_F(CandidateCheckTest, APlainKernelIsTaken) {
  EXPECT_EQ(check(kernel("    %e = math.exp %v : f32\n"
                         "    memref.store %e, %y[%i] : memref<64xf32>\n")),
            "");
}

TEST_F(CandidateCheckTest, OpsOffTheListAreRejectedWhateverTheirDialect) {
  EXPECT_NE(check(kernel("    gpu.printf \"%f\", %v : f32\n"))
                .find("'gpu.printf' is not allowed"),
            std::string::npos);
  EXPECT_NE(check(kernel("", "  memref.dealloc %y : memref<64xf32>\n"))
                .find("'memref.dealloc' is not allowed"),
            std::string::npos);
  EXPECT_NE(check(kernel("", "  %p = memref.extract_aligned_pointer_as_index "
                             "%x : memref<64xf32> -> index\n"))
                .find("is not allowed"),
            std::string::npos);
  // Not on any list of known-dangerous ops: rejected all the same.
  EXPECT_NE(check(kernel("", "  %m = memref.reinterpret_cast %x to offset: "
                             "[0], sizes: [64], strides: [1] : memref<64xf32> "
                             "to memref<64xf32>\n"))
                .find("'memref.reinterpret_cast' is not allowed"),
            std::string::npos);
  EXPECT_NE(check(kernel("    %w = vector.broadcast %v : f32 to vector<4xf32>\n"
                         "    vector.print %w : vector<4xf32>\n"))
                .find("'vector.print' is not allowed"),
            std::string::npos);
}

TEST_F(CandidateCheckTest, AttributesOfTheirOwnAreRejected) {
  EXPECT_NE(check(kernel("    memref.store %v, %y[%i] {nontemporal_hint} : "
                         "memref<64xf32>\n"))
                .find("carries the attribute 'nontemporal_hint'"),
            std::string::npos);
  EXPECT_NE(check(kernel("    memref.store %v, %y[%i] : memref<64xf32>\n", "",
                         "module attributes {gpu.container_module}"))
                .find("no attributes"),
            std::string::npos);
}

TEST_F(CandidateCheckTest, MemoryFromElsewhereIsRejected) {
  std::string text =
      "module {\n"
      "memref.global \"private\" @g : memref<64xf32> = uninitialized\n" +
      kernel("    %g = memref.get_global @g : memref<64xf32>\n"
             "    memref.store %v, %g[%i] : memref<64xf32>\n")
          .substr(std::string("module {\n").size());
  EXPECT_NE(check(text).find("workgroup memref.global"), std::string::npos);
}

TEST_F(CandidateCheckTest, RepliesAreCheckedWhateverTheSchemaLetThrough) {
  auto reply = [&](const nlohmann::json &json) {
    std::string reason;
    OwningOpRef<ModuleOp> module =
        checkMicroCodeReply(json, "k", kType, &context, reason);
    EXPECT_EQ(bool(module), reason.empty()) << reason;
    return reason;
  };
  EXPECT_EQ(reply({{"mlir", kernel("    memref.store %v, %y[%i] : "
                                   "memref<64xf32>\n")}}),
            "");
  for (const nlohmann::json &json :
       {nlohmann::json{{"mlir", 5}}, nlohmann::json::array({"module {}"}),
        nlohmann::json{{"code", "module {}"}}, nlohmann::json()})
    EXPECT_EQ(reply(json),
              "the reply is not a JSON object with a string \"mlir\"");
  EXPECT_NE(reply({{"mlir", "module {}"}}).find("no body for @k"),
            std::string::npos);
}

} // namespace
