//===- Npy.h - NumPy .npy files for kernel inputs and outputs ---*- C++ -*-===//
//
// Version 1.0 .npy files, little-endian, C order: what numpy.save writes and
// numpy.load / torch reads. bf16 has no NumPy type: it is written as float32.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_VERIFIER_NPY_H
#define QIMENG_VERIFIER_NPY_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/Error.h"

namespace mlir::qimeng {

/// The NumPy descr ('<f4', '<i8', '|b1', ...) of an element type, or an error
/// naming the unsupported type. bf16 maps to '<f4' (converted on write).
llvm::Expected<std::string> getNpyDescr(Type element);

/// Writes `data` (a dense buffer of `shape` elements of `element` type) to
/// `path` as .npy, atomically (temporary file + rename).
llvm::Error writeNpy(llvm::StringRef path, Type element,
                     llvm::ArrayRef<int64_t> shape, const void *data);

/// The encoded .npy file (header and data), for tests.
llvm::Expected<std::string>
encodeNpy(Type element, llvm::ArrayRef<int64_t> shape, const void *data);

struct HostBuffer;

/// Reads a .npy file (the descrs getNpyDescr gives, C order) into a buffer of
/// `element` type: the file's type must be that type's descr ('<f4' is
/// converted for bf16). Errors name the file and what is wrong.
llvm::Expected<HostBuffer> readNpy(llvm::StringRef path, Type element);

/// Decodes the contents of a .npy file (see readNpy), for tests.
llvm::Expected<HostBuffer> decodeNpy(llvm::StringRef contents, Type element);

} // namespace mlir::qimeng

#endif // QIMENG_VERIFIER_NPY_H
