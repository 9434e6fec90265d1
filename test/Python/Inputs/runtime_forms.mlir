// Functions of every form the runtime's C API returns, run on the CPU by
// runtime_forms.py.

// A fresh result with dynamic sizes.
func.func @scale(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %two = arith.constant 2.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %two : f32
    linalg.yield %m : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// Destination passing: writes its second argument and returns it.
func.func @add_into(%x: tensor<5x3xf32>, %out: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<5x3xf32>) outs(%out : tensor<5x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// The same fresh result twice, and an i64 and an i1 result.
func.func @twice(%x: tensor<6xi64>) -> (tensor<6xi64>, tensor<6xi64>, tensor<6xi1>) {
  %e = tensor.empty() : tensor<6xi64>
  %b = tensor.empty() : tensor<6xi1>
  %c3 = arith.constant 3 : i64
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<6xi64>) outs(%e, %b : tensor<6xi64>, tensor<6xi1>) {
  ^bb0(%a: i64, %o: i64, %p: i1):
    %m = arith.muli %a, %c3 : i64
    %g = arith.cmpi sgt, %a, %c3 : i64
    linalg.yield %m, %g : i64, i1
  } -> (tensor<6xi64>, tensor<6xi1>)
  return %r#0, %r#0, %r#1 : tensor<6xi64>, tensor<6xi64>, tensor<6xi1>
}

// A reshape of an input returned as it is, and a 0-d sum in bf16.
func.func @view_and_sum(%x: tensor<4x6xbf16>) -> (tensor<24xbf16>, tensor<bf16>) {
  %flat = tensor.collapse_shape %x [[0, 1]] : tensor<4x6xbf16> into tensor<24xbf16>
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<bf16>
  %f = linalg.fill ins(%zero : bf16) outs(%e : tensor<bf16>) -> tensor<bf16>
  %s = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"]} ins(%flat : tensor<24xbf16>) outs(%f : tensor<bf16>) {
  ^bb0(%a: bf16, %o: bf16):
    %t = arith.addf %a, %o : bf16
    linalg.yield %t : bf16
  } -> tensor<bf16>
  return %flat, %s : tensor<24xbf16>, tensor<bf16>
}
