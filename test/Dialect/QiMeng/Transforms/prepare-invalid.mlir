// What qimeng-prepare refuses before any rewrite gets a diagnostic naming the op.
// RUN: qimeng-opt %s --split-input-file --qimeng-prepare --verify-diagnostics

func.func @dim_out_of_range(%x: tensor<?x8xf32>) -> index {
  %c = arith.constant -1 : index
  // expected-error @+1 {{'tensor.dim' op reads dimension -1 of a value of type 'tensor<?x8xf32>', which has 2 dimension(s)}}
  %d = tensor.dim %x, %c : tensor<?x8xf32>
  return %d : index
}

// -----

func.func @memref_dim_out_of_range(%x: memref<?xf32>) -> index {
  %c = arith.constant 3 : index
  // expected-error @+1 {{'memref.dim' op reads dimension 3 of a value of type 'memref<?xf32>', which has 1 dimension(s)}}
  %d = memref.dim %x, %c : memref<?xf32>
  return %d : index
}
