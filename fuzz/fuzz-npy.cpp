//===- fuzz-npy.cpp - .npy files read back --------------------------------===//
//
// The bytes are a .npy file given to qimeng-run as a kernel input: decodeNpy
// reads it as each element type the verifier handles. A file that decodes
// must be consistent: as many bytes as its shape has elements.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "QiMeng/Verifier/Npy.h"
#include "QiMeng/Verifier/Runner.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"

using namespace mlir;
using namespace mlir::qimeng;

namespace {
struct State {
  State() {
    Builder b(&context);
    types = {b.getF32Type(), b.getF16Type(), b.getBF16Type(),
             b.getF64Type(), b.getI1Type(),  b.getI8Type(),
             b.getI32Type(), b.getI64Type(), b.getIntegerType(16)};
  }
  MLIRContext context;
  std::vector<Type> types;
};

State &getState() {
  static State state;
  return state;
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)getState();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > fuzz::kMaxInputBytes)
    return -1;
  for (Type type : getState().types) {
    llvm::Expected<HostBuffer> buffer =
        decodeNpy(fuzz::asText(data, size), type);
    if (!buffer) {
      llvm::consumeError(buffer.takeError());
      continue;
    }
    // The buffer holds exactly its shape's elements (bf16 as 2 bytes).
    unsigned bits = type.getIntOrFloatBitWidth();
    uint64_t bytes = bits == 1 ? 1 : bits / 8;
    uint64_t count = 1;
    for (int64_t dim : buffer->shape) {
      if (dim < 0)
        fuzz::reportBug("a decoded .npy shape has a negative size");
      if (dim != 0 && count > UINT64_MAX / uint64_t(dim))
        fuzz::reportBug("a decoded .npy shape overflows");
      count *= uint64_t(dim);
    }
    if (count > UINT64_MAX / bytes || buffer->bytes.size() != count * bytes)
      fuzz::reportBug("a decoded .npy buffer does not match its shape");
  }
  return 0;
}
