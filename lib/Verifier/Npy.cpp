//===- Npy.cpp - NumPy .npy files for kernel inputs and outputs -----------===//

#include "QiMeng/Verifier/Npy.h"
#include "QiMeng/Verifier/Runner.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

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

/// The value of `key` in a .npy header dict ("'descr': '<f4', ..."): the
/// text after "'key':" up to the next top-level comma or brace.
static llvm::StringRef getHeaderField(llvm::StringRef header,
                                      llvm::StringRef key) {
  size_t at = header.find(("'" + key + "':").str());
  if (at == llvm::StringRef::npos)
    return {};
  llvm::StringRef rest = header.drop_front(at + key.size() + 3).ltrim();
  if (rest.starts_with("(")) // the shape tuple
    return rest.take_until([](char c) { return c == ')'; }).drop_front();
  return rest.take_until([](char c) { return c == ',' || c == '}'; })
      .trim()
      .trim('\'');
}

llvm::Expected<qimeng::HostBuffer>
mlir::qimeng::decodeNpy(llvm::StringRef contents, Type element) {
  auto bad = [](const llvm::Twine &why) {
    return llvm::createStringError("not a usable .npy file: " + why);
  };
  if (!contents.starts_with("\x93NUMPY") || contents.size() < 10)
    return bad("no .npy magic");
  unsigned major = static_cast<unsigned char>(contents[6]);
  size_t headerLength, headerStart;
  if (major == 1) {
    headerLength = static_cast<unsigned char>(contents[8]) |
                   static_cast<unsigned char>(contents[9]) << 8;
    headerStart = 10;
  } else if ((major == 2 || major == 3) && contents.size() >= 12) {
    headerLength = 0;
    for (int i = 3; i >= 0; --i)
      headerLength =
          headerLength << 8 | static_cast<unsigned char>(contents[8 + i]);
    headerStart = 12;
  } else {
    return bad("format version " + llvm::Twine(major));
  }
  if (contents.size() < headerStart + headerLength)
    return bad("truncated header");
  llvm::StringRef header = contents.substr(headerStart, headerLength);
  if (getHeaderField(header, "fortran_order") != "False")
    return bad("Fortran order (save a C-contiguous array)");
  llvm::StringRef descr = getHeaderField(header, "descr");
  llvm::Expected<std::string> want = getNpyDescr(element);
  if (!want)
    return want.takeError();
  // One-byte types may be written with '<', '|' or '='.
  auto normalize = [](llvm::StringRef d) {
    return d.size() == 3 && d.ends_with("1") ? ("|" + d.drop_front()).str()
                                             : d.str();
  };
  if (normalize(descr) != normalize(*want))
    return bad(
        llvm::formatv("element type '{0}', expected '{1}'", descr, *want));
  HostBuffer buffer;
  buffer.element = element;
  llvm::SmallVector<llvm::StringRef> dims;
  getHeaderField(header, "shape").split(dims, ',', -1, /*KeepEmpty=*/false);
  int64_t count = 1;
  for (llvm::StringRef dim : dims) {
    int64_t size = 0;
    if (dim.trim().getAsInteger(10, size) || size < 0)
      return bad("shape field '" + getHeaderField(header, "shape") + "'");
    buffer.shape.push_back(size);
    // A shape whose element count does not fit is no file's (a count that
    // wrapped around could match the data size).
    std::optional<int64_t> product = llvm::checkedMul(count, size);
    if (!product)
      return bad("shape field '" + getHeaderField(header, "shape") +
                 "' (too many elements)");
    count = *product;
  }
  llvm::StringRef data = contents.drop_front(headerStart + headerLength);
  int64_t fileBytes = element.isBF16() ? 4 : getElementBytes(element);
  std::optional<int64_t> dataBytes = llvm::checkedMul(count, fileBytes);
  if (!dataBytes || static_cast<int64_t>(data.size()) != *dataBytes)
    return bad(llvm::formatv("{0} bytes of data for {1} elements", data.size(),
                             count));
  if (!element.isBF16()) {
    buffer.bytes.assign(data.begin(), data.end());
    return buffer;
  }
  // float32 to bf16, rounding to nearest even as the IEEE conversion does.
  buffer.bytes.resize(count * 2);
  for (int64_t i = 0; i < count; ++i) {
    float value;
    std::memcpy(&value, data.data() + i * 4, 4);
    llvm::APFloat narrow(value);
    bool lossy = false;
    narrow.convert(llvm::APFloat::BFloat(), llvm::APFloat::rmNearestTiesToEven,
                   &lossy);
    uint16_t bits = narrow.bitcastToAPInt().getZExtValue();
    std::memcpy(buffer.bytes.data() + i * 2, &bits, 2);
  }
  return buffer;
}

llvm::Expected<qimeng::HostBuffer> mlir::qimeng::readNpy(llvm::StringRef path,
                                                         Type element) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!file)
    return llvm::createStringError("cannot read " + path + ": " +
                                   file.getError().message());
  llvm::Expected<HostBuffer> buffer = decodeNpy((*file)->getBuffer(), element);
  if (!buffer)
    return llvm::createStringError(path + ": " +
                                   llvm::toString(buffer.takeError()));
  return buffer;
}
