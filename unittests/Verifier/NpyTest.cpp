//===- NpyTest.cpp - .npy encoding and input generation -------------------===//

#include "QiMeng/Verifier/Npy.h"
#include "QiMeng/Verifier/Runner.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/APFloat.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <cstring>

using namespace mlir;
using namespace mlir::qimeng;

namespace {

/// The header dictionary of an encoded .npy file (after magic, version and
/// length), trailing spaces and newline included.
std::string headerOf(const std::string &file) {
  size_t length = static_cast<unsigned char>(file[8]) |
                  (static_cast<unsigned char>(file[9]) << 8);
  return file.substr(10, length);
}

TEST(NpyTest, HeaderIsNumpyVersion1AlignedTo64) {
  MLIRContext ctx;
  Builder b(&ctx);
  float data[6] = {1, 2, 3, 4, 5, 6};
  llvm::Expected<std::string> file = encodeNpy(b.getF32Type(), {2, 3}, data);
  ASSERT_TRUE(static_cast<bool>(file));
  EXPECT_EQ(file->substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  std::string header = headerOf(*file);
  EXPECT_EQ(header.rfind("{'descr': '<f4', 'fortran_order': False, "
                         "'shape': (2, 3), }",
                         0),
            0u);
  EXPECT_EQ(header.back(), '\n');
  EXPECT_EQ((10 + header.size()) % 64, 0u);
  ASSERT_EQ(file->size(), 10 + header.size() + sizeof(data));
  EXPECT_EQ(std::memcmp(file->data() + 10 + header.size(), data, sizeof(data)),
            0);
}

TEST(NpyTest, TupleSyntaxAndDescrs) {
  MLIRContext ctx;
  Builder b(&ctx);
  int64_t values[5] = {};
  auto header = [&](Type type, llvm::ArrayRef<int64_t> shape) {
    llvm::Expected<std::string> file = encodeNpy(type, shape, values);
    EXPECT_TRUE(static_cast<bool>(file));
    return headerOf(*file);
  };
  EXPECT_NE(header(b.getI64Type(), {5}).find("'descr': '<i8'"),
            std::string::npos);
  EXPECT_NE(header(b.getI64Type(), {5}).find("'shape': (5,)"),
            std::string::npos);
  EXPECT_NE(header(b.getI32Type(), {}).find("'shape': ()"), std::string::npos);
  EXPECT_NE(header(b.getF16Type(), {2}).find("'<f2'"), std::string::npos);
  EXPECT_NE(header(b.getI1Type(), {2}).find("'|b1'"), std::string::npos);
  llvm::Expected<std::string> complex =
      encodeNpy(ComplexType::get(b.getF32Type()), {1}, values);
  ASSERT_FALSE(static_cast<bool>(complex));
  EXPECT_NE(llvm::toString(complex.takeError()).find("no .npy representation"),
            std::string::npos);
}

TEST(NpyTest, Bf16IsWrittenAsFloat32) {
  MLIRContext ctx;
  Builder b(&ctx);
  uint16_t bits[2] = {0x3f80, 0xc040}; // 1.0, -3.0
  llvm::Expected<std::string> file = encodeNpy(b.getBF16Type(), {2}, bits);
  ASSERT_TRUE(static_cast<bool>(file));
  std::string header = headerOf(*file);
  EXPECT_NE(header.find("'<f4'"), std::string::npos);
  float values[2];
  std::memcpy(values, file->data() + 10 + header.size(), sizeof(values));
  EXPECT_EQ(values[0], 1.0f);
  EXPECT_EQ(values[1], -3.0f);
}

TEST(RunnerInputsTest, SeededUniformInMinusOneOne) {
  MLIRContext ctx;
  Builder b(&ctx);
  std::vector<float> first(1000), again(1000), other(1000);
  fillRandom(b.getF32Type(), 1000, 7, first.data());
  fillRandom(b.getF32Type(), 1000, 7, again.data());
  fillRandom(b.getF32Type(), 1000, 8, other.data());
  EXPECT_EQ(first, again);
  EXPECT_NE(first, other);
  float lo = 1, hi = -1;
  for (float v : first) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  EXPECT_GE(lo, -1.0f);
  EXPECT_LT(hi, 1.0f);
  EXPECT_LT(lo, -0.9f); // spread over the whole range
  EXPECT_GT(hi, 0.9f);
}

TEST(RunnerInputsTest, HalfPrecisionIsRoundedAndIntegersAreSmall) {
  MLIRContext ctx;
  Builder b(&ctx);
  std::vector<uint16_t> half(64);
  std::vector<float> wide(64);
  fillRandom(b.getF16Type(), 64, 3, half.data());
  fillRandom(b.getF32Type(), 64, 3, wide.data());
  for (size_t i = 0; i < half.size(); ++i) {
    llvm::APFloat value(llvm::APFloat::IEEEhalf(), llvm::APInt(16, half[i]));
    EXPECT_NEAR(value.convertToFloat(), wide[i], 1e-3) << i;
  }
  std::vector<int64_t> ints(64, -1);
  fillRandom(b.getI64Type(), 64, 3, ints.data());
  EXPECT_EQ(*std::min_element(ints.begin(), ints.end()), 0);
  EXPECT_EQ(*std::max_element(ints.begin(), ints.end()), 15);
  std::vector<uint8_t> bits(64, 7);
  fillRandom(b.getI1Type(), 64, 3, bits.data());
  EXPECT_EQ(*std::max_element(bits.begin(), bits.end()), 1);
  EXPECT_EQ(*std::min_element(bits.begin(), bits.end()), 0);
  EXPECT_EQ(getElementBytes(b.getBF16Type()), 2);
  EXPECT_EQ(getElementBytes(b.getI1Type()), 1);
  EXPECT_EQ(getElementBytes(b.getIndexType()), 8);
}

} // namespace

TEST(NpyTest, DecodeReadsBackWhatEncodeWrites) {
  MLIRContext ctx;
  Builder b(&ctx);
  float f32[6] = {1, -2, 3.5f, 4, 5, 6};
  uint16_t f16[3] = {0x3c00, 0xc000, 0x3800}; // 1, -2, 0.5
  int64_t i64[2] = {-7, 1LL << 40};
  bool i1[3] = {true, false, true};
  auto roundTrip = [&](Type type, llvm::ArrayRef<int64_t> shape,
                       const void *data, size_t bytes) {
    llvm::Expected<std::string> file = encodeNpy(type, shape, data);
    ASSERT_TRUE(static_cast<bool>(file));
    llvm::Expected<HostBuffer> back = decodeNpy(*file, type);
    ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
    EXPECT_EQ(back->element, type);
    EXPECT_EQ(llvm::ArrayRef<int64_t>(back->shape), shape);
    ASSERT_EQ(back->bytes.size(), bytes);
    EXPECT_EQ(std::memcmp(back->bytes.data(), data, bytes), 0);
  };
  roundTrip(b.getF32Type(), {2, 3}, f32, sizeof(f32));
  roundTrip(b.getF16Type(), {3}, f16, sizeof(f16));
  roundTrip(b.getI64Type(), {2, 1}, i64, sizeof(i64));
  roundTrip(b.getI1Type(), {3}, i1, sizeof(i1));
  roundTrip(b.getF32Type(), {}, f32, 4);
  // bf16 goes through float32 and comes back exactly.
  uint16_t bf16[2] = {0x3f80, 0xc040};
  roundTrip(b.getBF16Type(), {2}, bf16, sizeof(bf16));
}

TEST(NpyTest, DecodeRejectsWhatItCannotUse) {
  MLIRContext ctx;
  Builder b(&ctx);
  float data[4] = {1, 2, 3, 4};
  std::string good = *encodeNpy(b.getF32Type(), {2, 2}, data);
  auto reason = [&](llvm::StringRef file, Type type) {
    llvm::Expected<HostBuffer> buffer = decodeNpy(file, type);
    EXPECT_FALSE(static_cast<bool>(buffer));
    return buffer ? std::string() : llvm::toString(buffer.takeError());
  };
  EXPECT_NE(reason("PK\x03\x04 not numpy", b.getF32Type()).find("magic"),
            std::string::npos);
  // A float32 file for an f16 argument.
  EXPECT_NE(reason(good, b.getF16Type()).find("element type '<f4'"),
            std::string::npos);
  // Data cut short.
  EXPECT_NE(reason(llvm::StringRef(good).drop_back(4), b.getF32Type())
                .find("bytes of data"),
            std::string::npos);
  std::string fortran = good;
  size_t at = fortran.find("False");
  fortran.replace(at, 5, "True ");
  EXPECT_NE(reason(fortran, b.getF32Type()).find("Fortran"), std::string::npos);
}
