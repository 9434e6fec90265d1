// Results that are slices: a strided slice of a computed tensor and a slice
// of an input with a dynamic size, both returned. qimeng-prepare copies each
// into a fresh tensor (linalg.copy, a kernel): the host never copies device
// memory.
func.func @returned_slice(%a: tensor<?x96xf32>, %b: tensor<?x96xf32>) -> (tensor<?x45xf32>, tensor<?x16xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?x96xf32>
  %e = tensor.empty(%n) : tensor<?x96xf32>
  %s = linalg.add ins(%a, %b : tensor<?x96xf32>, tensor<?x96xf32>) outs(%e : tensor<?x96xf32>) -> tensor<?x96xf32>
  %r = tensor.extract_slice %s[0, 1] [%n, 45] [1, 2] : tensor<?x96xf32> to tensor<?x45xf32>
  %t = tensor.extract_slice %b[0, 80] [%n, 16] [1, 1] : tensor<?x96xf32> to tensor<?x16xf32>
  return %r, %t : tensor<?x45xf32>, tensor<?x16xf32>
}
