//===- SharedBuffers.h - Shared tiles for multi-buffering ------*- C++ -*-===//
//
// Promotion leaves each shared-memory tile as a byte buffer plus a view inside
// the serial loop that fills it. Multi-buffering (upstream
// memref::multiBuffer) takes only typed allocations that dominate the loop;
// this step moves the buffers there.
//
//===----------------------------------------------------------------------===//

#ifndef QIMENG_DIALECT_QIMENG_TRANSFORMOPS_SHAREDBUFFERS_H
#define QIMENG_DIALECT_QIMENG_TRANSFORMOPS_SHAREDBUFFERS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::qimeng {

/// Attribute set on the typed shared-memory allocations made for a
/// pipelined loop, naming the loop; the transform script multi-buffers
/// exactly these.
inline constexpr llvm::StringLiteral kStageBufferAttr = "qimeng.stage_buffer";

/// Replaces every workgroup-memory `memref.alloca` + `memref.view` directly in
/// the body of `loop` by a typed `memref.alloc` at the start of the enclosing
/// gpu.launch body (freed before its terminator), marked with
/// kStageBufferAttr = `name`, and drops the barriers between consecutive
/// copies into different tiles (they would split the cp.async groups). Fails,
/// with an error on `loop`, when the loop is not in a gpu.launch or holds no
/// such buffer.
LogicalResult hoistStageBuffers(scf::ForOp loop, StringRef name);

/// Pads the rows of the workgroup-memory tiles `op` reads or writes (each a
/// `memref.alloca` of bytes viewed as a static tile, maybe through subviews,
/// as promotion makes them) by `pad` elements: the byte buffer grows, the
/// view gets the padded shape and the tile becomes its subview, whose users
/// (subviews rebuilt with their new types) follow. Fails, with an error on
/// `op`, when it reads no such tile, a tile has another user, or `pad` does
/// not keep rows 16-byte aligned.
LogicalResult padSharedTiles(linalg::LinalgOp op, int64_t pad);

} // namespace mlir::qimeng

#endif // QIMENG_DIALECT_QIMENG_TRANSFORMOPS_SHAREDBUFFERS_H
