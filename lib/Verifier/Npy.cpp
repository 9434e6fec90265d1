//===- Npy.cpp - NumPy .npy files for kernel inputs and outputs -----------===//

#include "QiMeng/Verifier/Npy.h"
#include "QiMeng/Verifier/Runner.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

llvm::Expected<std::string> mlir::qimeng::getNpyDescr(Type element) {
  if (element.isF32() || element.isBF16())
    return std::string("<f4");
  if (element.isF16())
    return std::string("<f2");
  if (element.isF64())
    return std::string("<f8");
  if (element.isInteger(1))
    return std::string("|b1");
  if (element.isInteger(8))
    return std::string("|i1");
  for (unsigned width : {16u, 32u, 64u})
    if (element.isInteger(width))
      return llvm::formatv("<i{0}", width / 8).str();
  if (element.isIndex())
    return std::string("<i8");
  std::string name;
  llvm::raw_string_ostream os(name);
  element.print(os);
  return llvm::createStringError("element type " + name +
                                 " has no .npy representation");
}

llvm::Expected<std::string>
mlir::qimeng::encodeNpy(Type element, llvm::ArrayRef<int64_t> shape,
                        const void *data) {
  llvm::Expected<std::string> descr = getNpyDescr(element);
  if (!descr)
    return descr.takeError();
  // Python tuple syntax: (), (5,), (2, 3).
  std::string dims;
  llvm::raw_string_ostream dimsOs(dims);
  llvm::interleave(shape, dimsOs, ", ");
  if (shape.size() == 1)
    dims += ",";
  std::string header = llvm::formatv(
      "{{'descr': '{0}', 'fortran_order': False, 'shape': ({1}), }", *descr,
      dims);
  // Magic (6) + version (2) + length (2) + header + '\n', padded to 64.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');
  std::string out = "\x93NUMPY";
  out.push_back(1);
  out.push_back(0);
  out.push_back(static_cast<char>(header.size() & 0xff));
  out.push_back(static_cast<char>(header.size() >> 8));
  out += header;
  int64_t count = 1;
  for (int64_t d : shape)
    count *= d;
  if (element.isBF16()) {
    const uint16_t *bits = static_cast<const uint16_t *>(data);
    for (int64_t i = 0; i < count; ++i) {
      uint32_t wide = static_cast<uint32_t>(bits[i]) << 16;
      out.append(reinterpret_cast<const char *>(&wide), 4);
    }
    return out;
  }
  out.append(static_cast<const char *>(data), count * getElementBytes(element));
  return out;
}

llvm::Error mlir::qimeng::writeNpy(llvm::StringRef path, Type element,
                                   llvm::ArrayRef<int64_t> shape,
                                   const void *data) {
  llvm::Expected<std::string> encoded = encodeNpy(element, shape, data);
  if (!encoded)
    return encoded.takeError();
  return llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
    os << *encoded;
    return llvm::Error::success();
  });
}
