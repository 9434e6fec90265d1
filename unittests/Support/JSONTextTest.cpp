//===- JSONTextTest.cpp - nlohmann::json to text, whatever it holds -------===//

#include "QiMeng/Support/JSONText.h"

#include "gtest/gtest.h"

using namespace mlir::qimeng;

namespace {

TEST(JSONTextTest, ValidTextIsWhatDumpWrites) {
  nlohmann::json value = {
      {"kernel", "relu"}, {"text", "\xC3\xA9t\xC3\xA9"}, {"n", 3}};
  EXPECT_EQ(dumpJSON(value), value.dump());
  EXPECT_EQ(dumpJSON(value, 2), value.dump(2));
}

TEST(JSONTextTest, BytesThatAreNotUTF8BecomeReplacementCharacters) {
  // A kernel name with a 0xFF byte, and text cut inside a two-byte
  // character: dump() would throw (abort, without exceptions).
  nlohmann::json value = {{"r\xFFx", "cut \xC3"}};
  EXPECT_EQ(dumpJSON(value), "{\"r\xEF\xBF\xBDx\":\"cut \xEF\xBF\xBD\"}");
}

} // namespace
