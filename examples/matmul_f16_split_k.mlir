// C += A · B in f16 with a long K (8192) and a small output (256 x 384: six
// tiles of 128 x 128): on sm_90 qimeng-prepare splits K into 16 parts, the
// wgmma kernel computes each part's product on blocks of its own (B stored
// (k, n), its parts rows of one matrix), and a second kernel adds the parts
// to the values C held.
func.func @matmul_f16_split_k(%a: tensor<256x8192xf16>, %b: tensor<8192x384xf16>,
                              %c: tensor<256x384xf16>) -> tensor<256x384xf16> {
  %0 = linalg.matmul ins(%a, %b : tensor<256x8192xf16>, tensor<8192x384xf16>)
                     outs(%c : tensor<256x384xf16>) -> tensor<256x384xf16>
  return %0 : tensor<256x384xf16>
}
