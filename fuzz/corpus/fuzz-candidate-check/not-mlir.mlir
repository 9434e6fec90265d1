this is not MLIR {
