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

// -----

func.func @negative_dilation(%x: tensor<1x4x16x16xf32>, %w: tensor<4x4x3x3xf32>, %y: tensor<1x4x14x14xf32>) -> tensor<1x4x14x14xf32> {
  // expected-error @+1 {{'linalg.conv_2d_nchw_fchw' op reads operand 0 along dimension 2 at indices -2 to 13, outside its size 16 (strides, dilations or shapes that do not fit)}}
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<-1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x4x16x16xf32>, tensor<4x4x3x3xf32>) outs(%y : tensor<1x4x14x14xf32>) -> tensor<1x4x14x14xf32>
  return %0 : tensor<1x4x14x14xf32>
}
