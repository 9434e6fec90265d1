//===- JSONText.h - nlohmann::json to text, whatever it holds ---*- C++ -*-===//
//
// nlohmann::json keeps strings as bytes and checks them only when it writes
// them out: a string that is not valid UTF-8 makes dump() throw, and QiMeng
// is built without exceptions, so that is an abort. Such strings do reach
// QiMeng's JSON: kernel names in the compile report (MLIR symbols may hold
// any bytes), the bytes of a server's reply quoted in an error, text cut
// short in the middle of a character. Every JSON QiMeng writes goes through
// dumpJSON, which replaces each invalid byte by U+FFFD instead.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_SUPPORT_JSONTEXT_H
#define QIMENG_SUPPORT_JSONTEXT_H

#include <nlohmann/json.hpp>

#include <string>

namespace mlir::qimeng {

/// The text of `value`: on one line (`indent` -1) or indented by `indent`
/// spaces per level; bytes of its strings that are not valid UTF-8 are
/// written as U+FFFD.
inline std::string dumpJSON(const nlohmann::json &value, int indent = -1) {
  return value.dump(indent, ' ', /*ensure_ascii=*/false,
                    nlohmann::json::error_handler_t::replace);
}

} // namespace mlir::qimeng

#endif // QIMENG_SUPPORT_JSONTEXT_H
