//===- Blocks.h - Large buffers processed in parallel blocks ----*- C++ -*-===//
//
// The verifier fills, compares and scans buffers of up to a GiB for every
// candidate of a search. These split [0, count) into blocks of a fixed size
// (the same on every machine, so partial sums combine to the same value
// anywhere) and run them on all cores through llvm::parallelFor.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_SUPPORT_BLOCKS_H
#define QIMENG_SUPPORT_BLOCKS_H

#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Parallel.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace mlir::qimeng {

/// Elements per block.
inline constexpr int64_t kBlockElements = int64_t(1) << 20;

/// Runs `body(begin, end)` on each block of [0, count) and returns what
/// each gives, in block order (at least one block, empty when count is 0).
template <typename Result, typename Body>
std::vector<Result> mapBlocks(int64_t count, Body body) {
  size_t blocks = std::max<int64_t>(1, llvm::divideCeil(count, kBlockElements));
  std::vector<Result> results(blocks);
  llvm::parallelFor(0, blocks, [&](size_t b) {
    int64_t begin = int64_t(b) * kBlockElements;
    results[b] = body(begin, std::min(count, begin + kBlockElements));
  });
  return results;
}

/// Runs `body(begin, end)` on each block of [0, count).
template <typename Body> void forEachBlock(int64_t count, Body body) {
  mapBlocks<char>(count, [&](int64_t begin, int64_t end) {
    body(begin, end);
    return char(0);
  });
}

} // namespace mlir::qimeng

#endif // QIMENG_SUPPORT_BLOCKS_H
