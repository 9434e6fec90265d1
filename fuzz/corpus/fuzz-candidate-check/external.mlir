module {
  func.func private @k(memref<64xf32>, memref<64xf32>)
}
