// Plan variant linear_bias_relu@fused: fill and bias + ReLU fused into the matmul's blocks, one kernel (measured in docs/status.md).
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @k(%x: memref<1024x1024xf32>, %w: memref<1024x2048xf32>, %b: memref<2048xf32>, %y: memref<1024x2048xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill {qimeng.tag = "fill"} ins(%zero : f32) outs(%y : memref<1024x2048xf32>)
  linalg.matmul {qimeng.tag = "mm"} ins(%x, %w : memref<1024x1024xf32>, memref<1024x2048xf32>) outs(%y : memref<1024x2048xf32>)
  linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : memref<2048xf32>) outs(%y : memref<1024x2048xf32>) attrs = {qimeng.tag = "ew"} {
  ^bb0(%bias: f32, %v: f32):
    %s = arith.addf %v, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return
}
qimeng.plan @k provenance "tuned" {
  qimeng.tile "fill" [64, 64] to block
  qimeng.tile "fill" [4, 4] to thread
  qimeng.vectorize "fill" width 4
  qimeng.tile "mm" [64, 64, 0] to block
  qimeng.tile "mm" [0, 0, 16] to reduction
  qimeng.promote "mm" operands [0, 1]
  qimeng.tile "mm" [4, 4, 0] to thread
  qimeng.vectorize "mm" width 4
  qimeng.pipeline "mm" stages 2
  qimeng.tile "ew" [64, 64] to block
  qimeng.tile "ew" [4, 4] to thread
  qimeng.vectorize "ew" width 4
  qimeng.fuse "mm" producer "fill"
  qimeng.fuse "mm" consumer "ew"
}
