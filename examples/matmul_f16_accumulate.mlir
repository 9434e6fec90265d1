// C += A * B with f16 operands into an f16 C that is passed in and holds
// values (no fill): 300x264 by 264x200, every size off the tiles. On sm_90:
// the wgmma kernel adds C's old values in its epilogue; N = 200 is not a
// multiple of the epilogue's 8-wide vectors only where the tile ends.
func.func @matmul_f16_acc(%A: tensor<300x264xf16>, %B: tensor<264x200xf16>,
                          %C: tensor<300x200xf16>) -> tensor<300x200xf16> {
  %0 = linalg.matmul ins(%A, %B : tensor<300x264xf16>, tensor<264x200xf16>)
                     outs(%C : tensor<300x200xf16>) -> tensor<300x200xf16>
  return %0 : tensor<300x200xf16>
}
