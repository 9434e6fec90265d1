#map = affine_map<()[s0, s1] -> (s0 * 64 + (s1 floordiv 4) * 2)>
#map1 = affine_map<()[s0] -> ((s0 floordiv 4) * 2)>
#map2 = affine_map<()[s0, s1] -> (s0 * 64 + s1 * 8 - (s1 floordiv 8) * 64)>
#map3 = affine_map<()[s0] -> ((s0 floordiv 8) * 2)>
#map4 = affine_map<()[s0] -> (s0 * 8 - (s0 floordiv 4) * 32)>
#map5 = affine_map<()[s0] -> (s0 * 8 - (s0 floordiv 8) * 64)>
#map6 = affine_map<()[s0, s1] -> (s1 mod 16 + ((s0 floordiv 32) floordiv 2) * 32)>
#map7 = affine_map<()[s0] -> ((s0 floordiv 16) * 8)>
#map8 = affine_map<()[s0] -> ((s0 floordiv 16) * 8 + 16)>
#map9 = affine_map<()[s0, s1] -> (s1 mod 16 + ((s0 floordiv 32) floordiv 2) * 32 + 16)>
#map10 = affine_map<()[s0] -> (s0 mod 16)>
#map11 = affine_map<()[s0, s1] -> ((s1 floordiv 16) * 8 + (s0 floordiv 32) * 32 - ((s0 floordiv 32) floordiv 2) * 64)>
#map12 = affine_map<()[s0, s1] -> ((s1 floordiv 16) * 8 + (s0 floordiv 32) * 32 - ((s0 floordiv 32) floordiv 2) * 64 + 8)>
#map13 = affine_map<()[s0, s1] -> ((s1 floordiv 16) * 8 + (s0 floordiv 32) * 32 - ((s0 floordiv 32) floordiv 2) * 64 + 16)>
#map14 = affine_map<()[s0, s1] -> ((s1 floordiv 16) * 8 + (s0 floordiv 32) * 32 - ((s0 floordiv 32) floordiv 2) * 64 + 24)>
#map15 = affine_map<()[s0] -> (s0 mod 16 + 16)>
#map16 = affine_map<()[s0] -> (s0 * 8 - (s0 floordiv 4) * 32 + 32)>
#map17 = affine_map<()[s0] -> ((s0 floordiv 8) * 2 + 32)>
#map18 = affine_map<(d0) -> ((d0 floordiv 32) mod 2)>
#map19 = affine_map<()[s0, s1] -> (s0 + s1 * 8 - (s1 floordiv 4) * 32)>
#map20 = affine_map<()[s0, s1] -> (s0 + (s1 floordiv 8) * 2)>
#map21 = affine_map<()[s0, s1, s2] -> (s0 * 64 + s2 floordiv 4 + ((s1 floordiv 32) floordiv 2) * 32 + 16)>
#map22 = affine_map<()[s0, s1, s2] -> (s0 * 64 + s2 * 2 - (s2 floordiv 4) * 8 + (s1 floordiv 32) * 32 - ((s1 floordiv 32) floordiv 2) * 64 + 24)>
#map23 = affine_map<()[s0, s1, s2] -> (s0 * 64 + s2 floordiv 4 + ((s1 floordiv 32) floordiv 2) * 32 + 24)>
#map24 = affine_map<()[s0, s1, s2] -> (s0 * 64 + s2 * 2 - (s2 floordiv 4) * 8 + (s1 floordiv 32) * 32 - ((s1 floordiv 32) floordiv 2) * 64 + 16)>
#map25 = affine_map<()[s0, s1, s2] -> (s0 * 64 + s2 * 2 - (s2 floordiv 4) * 8 + (s1 floordiv 32) * 32 - ((s1 floordiv 32) floordiv 2) * 64 + 8)>
#map26 = affine_map<()[s0, s1, s2] -> (s0 * 64 + s2 * 2 - (s2 floordiv 4) * 8 + (s1 floordiv 32) * 32 - ((s1 floordiv 32) floordiv 2) * 64)>
#map27 = affine_map<()[s0, s1, s2] -> (s0 * 64 + s2 floordiv 4 + ((s1 floordiv 32) floordiv 2) * 32)>
#map28 = affine_map<()[s0, s1, s2] -> (s0 * 64 + s2 floordiv 4 + ((s1 floordiv 32) floordiv 2) * 32 + 8)>
module {
  func.func @linear_f16_bias_relu(%arg0: memref<512x256xf16>, %arg1: memref<256x768xf16>, %arg2: memref<768xf16>) -> memref<512x768xf16> {
    %c64 = arith.constant 64 : index
    %c192 = arith.constant 192 : index
    %cst = arith.constant dense<0.000000e+00> : vector<2xf16>
    %c0 = arith.constant 0 : index
    %cst_0 = arith.constant dense<0.000000e+00> : vector<2x2xf32>
    %c32 = arith.constant 32 : index
    %c8 = arith.constant 8 : index
    %c12 = arith.constant 12 : index
    %c128 = arith.constant 128 : index
    %c1 = arith.constant 1 : index
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<512x768xf16>
    gpu.launch blocks(%arg3, %arg4, %arg5) in (%arg9 = %c12, %arg10 = %c8, %arg11 = %c1) threads(%arg6, %arg7, %arg8) in (%arg12 = %c128, %arg13 = %c1, %arg14 = %c1) {
      %0 = memref.get_global @alloca : memref<2x32x72xf16, #gpu.address_space<workgroup>>
      %1 = memref.get_global @alloca_0 : memref<2x64x40xf16, #gpu.address_space<workgroup>>
      %block_id_x = gpu.block_id  x
      %block_id_y = gpu.block_id  y
      %thread_id_x = gpu.thread_id  x
      %2 = affine.apply #map()[%block_id_y, %thread_id_x]
      %3 = affine.apply #map1()[%thread_id_x]
      %4 = affine.apply #map2()[%block_id_x, %thread_id_x]
      %5 = affine.apply #map3()[%thread_id_x]
      %6 = affine.apply #map4()[%thread_id_x]
      %7 = arith.addi %2, %c1 : index
      %8 = arith.addi %3, %c1 : index
      %9 = affine.apply #map5()[%thread_id_x]
      %10 = arith.addi %5, %c1 : index
      %11 = gpu.lane_id
      %12 = affine.apply #map6()[%thread_id_x, %11]
      %13 = affine.apply #map7()[%11]
      %14 = affine.apply #map8()[%11]
      %15 = affine.apply #map9()[%thread_id_x, %11]
      %16 = affine.apply #map10()[%11]
      %17 = affine.apply #map11()[%thread_id_x, %11]
      %18 = affine.apply #map12()[%thread_id_x, %11]
      %19 = affine.apply #map13()[%thread_id_x, %11]
      %20 = affine.apply #map14()[%thread_id_x, %11]
      %21 = affine.apply #map15()[%11]
      %22 = nvgpu.device_async_copy %arg0[%2, %6], %1[%c0, %3, %6], 8 {bypassL1} : memref<512x256xf16> to memref<2x64x40xf16, #gpu.address_space<workgroup>>
      %23 = nvgpu.device_async_copy %arg0[%7, %6], %1[%c0, %8, %6], 8 {bypassL1} : memref<512x256xf16> to memref<2x64x40xf16, #gpu.address_space<workgroup>>
      %24 = nvgpu.device_async_copy %arg1[%5, %4], %0[%c0, %5, %9], 8 {bypassL1} : memref<256x768xf16> to memref<2x32x72xf16, #gpu.address_space<workgroup>>
      %25 = nvgpu.device_async_copy %arg1[%10, %4], %0[%c0, %10, %9], 8 {bypassL1} : memref<256x768xf16> to memref<2x32x72xf16, #gpu.address_space<workgroup>>
      %26 = nvgpu.device_async_create_group %22, %23, %24, %25
      %27 = affine.apply #map16()[%thread_id_x]
      %28 = nvgpu.device_async_copy %arg0[%2, %27], %1[%c1, %3, %6], 8 {bypassL1} : memref<512x256xf16> to memref<2x64x40xf16, #gpu.address_space<workgroup>>
      %29 = nvgpu.device_async_copy %arg0[%7, %27], %1[%c1, %8, %6], 8 {bypassL1} : memref<512x256xf16> to memref<2x64x40xf16, #gpu.address_space<workgroup>>
      %30 = affine.apply #map17()[%thread_id_x]
      %31 = nvgpu.device_async_copy %arg1[%30, %4], %0[%c1, %5, %9], 8 {bypassL1} : memref<256x768xf16> to memref<2x32x72xf16, #gpu.address_space<workgroup>>
      %32 = arith.addi %30, %c1 : index
      %33 = nvgpu.device_async_copy %arg1[%32, %4], %0[%c1, %10, %9], 8 {bypassL1} : memref<256x768xf16> to memref<2x32x72xf16, #gpu.address_space<workgroup>>
      %34 = nvgpu.device_async_create_group %28, %29, %31, %33
      %35:10 = scf.for %arg15 = %c0 to %c192 step %c32 iter_args(%arg16 = %cst_0, %arg17 = %cst_0, %arg18 = %cst_0, %arg19 = %cst_0, %arg20 = %cst_0, %arg21 = %cst_0, %arg22 = %cst_0, %arg23 = %cst_0, %arg24 = %26, %arg25 = %34) -> (vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, !nvgpu.device.async.token, !nvgpu.device.async.token) {
        nvgpu.device_async_wait %arg24 {numGroups = 1 : i32}
        gpu.barrier
        %180 = affine.apply #map18(%arg15)
        %181 = nvgpu.ldmatrix %1[%180, %12, %13] {numTiles = 4 : i32, transpose = false} : memref<2x64x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
        %182 = nvgpu.ldmatrix %1[%180, %12, %14] {numTiles = 4 : i32, transpose = false} : memref<2x64x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
        %183 = nvgpu.ldmatrix %1[%180, %15, %13] {numTiles = 4 : i32, transpose = false} : memref<2x64x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
        %184 = nvgpu.ldmatrix %1[%180, %15, %14] {numTiles = 4 : i32, transpose = false} : memref<2x64x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
        %185 = nvgpu.ldmatrix %0[%180, %16, %17] {numTiles = 2 : i32, transpose = true} : memref<2x32x72xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
        %186 = nvgpu.mma.sync(%181, %185, %arg16) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        %187 = nvgpu.ldmatrix %0[%180, %16, %18] {numTiles = 2 : i32, transpose = true} : memref<2x32x72xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
        %188 = nvgpu.mma.sync(%181, %187, %arg17) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        %189 = nvgpu.ldmatrix %0[%180, %16, %19] {numTiles = 2 : i32, transpose = true} : memref<2x32x72xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
        %190 = nvgpu.mma.sync(%181, %189, %arg18) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        %191 = nvgpu.ldmatrix %0[%180, %16, %20] {numTiles = 2 : i32, transpose = true} : memref<2x32x72xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
        %192 = nvgpu.mma.sync(%181, %191, %arg19) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        %193 = nvgpu.mma.sync(%183, %185, %arg20) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        %194 = nvgpu.mma.sync(%183, %187, %arg21) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        %195 = nvgpu.mma.sync(%183, %189, %arg22) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        %196 = nvgpu.mma.sync(%183, %191, %arg23) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        %197 = nvgpu.ldmatrix %0[%180, %21, %17] {numTiles = 2 : i32, transpose = true} : memref<2x32x72xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
        %198 = nvgpu.mma.sync(%182, %197, %186) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        %199 = nvgpu.ldmatrix %0[%180, %21, %18] {numTiles = 2 : i32, transpose = true} : memref<2x32x72xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
        %200 = nvgpu.mma.sync(%182, %199, %188) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        %201 = nvgpu.ldmatrix %0[%180, %21, %19] {numTiles = 2 : i32, transpose = true} : memref<2x32x72xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
        %202 = nvgpu.mma.sync(%182, %201, %190) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        %203 = nvgpu.ldmatrix %0[%180, %21, %20] {numTiles = 2 : i32, transpose = true} : memref<2x32x72xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
        %204 = nvgpu.mma.sync(%182, %203, %192) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        %205 = nvgpu.mma.sync(%184, %197, %193) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        %206 = nvgpu.mma.sync(%184, %199, %194) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        %207 = nvgpu.mma.sync(%184, %201, %195) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        %208 = nvgpu.mma.sync(%184, %203, %196) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        gpu.barrier
        %209 = arith.addi %arg15, %c64 : index
        %210 = affine.apply #map19()[%209, %thread_id_x]
        %211 = affine.apply #map18(%209)
        %212 = nvgpu.device_async_copy %arg0[%2, %210], %1[%211, %3, %6], 8 {bypassL1} : memref<512x256xf16> to memref<2x64x40xf16, #gpu.address_space<workgroup>>
        %213 = nvgpu.device_async_copy %arg0[%7, %210], %1[%211, %8, %6], 8 {bypassL1} : memref<512x256xf16> to memref<2x64x40xf16, #gpu.address_space<workgroup>>
        %214 = affine.apply #map20()[%209, %thread_id_x]
        %215 = nvgpu.device_async_copy %arg1[%214, %4], %0[%211, %5, %9], 8 {bypassL1} : memref<256x768xf16> to memref<2x32x72xf16, #gpu.address_space<workgroup>>
        %216 = arith.addi %214, %c1 : index
        %217 = nvgpu.device_async_copy %arg1[%216, %4], %0[%211, %10, %9], 8 {bypassL1} : memref<256x768xf16> to memref<2x32x72xf16, #gpu.address_space<workgroup>>
        %218 = nvgpu.device_async_create_group %212, %213, %215, %217
        scf.yield %198, %200, %202, %204, %205, %206, %207, %208, %arg25, %218 : vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, !nvgpu.device.async.token, !nvgpu.device.async.token
      }
      nvgpu.device_async_wait %35#8 {numGroups = 1 : i32}
      gpu.barrier
      %36 = nvgpu.ldmatrix %1[%c0, %12, %13] {numTiles = 4 : i32, transpose = false} : memref<2x64x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %37 = nvgpu.ldmatrix %1[%c0, %12, %14] {numTiles = 4 : i32, transpose = false} : memref<2x64x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %38 = nvgpu.ldmatrix %1[%c0, %15, %13] {numTiles = 4 : i32, transpose = false} : memref<2x64x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %39 = nvgpu.ldmatrix %1[%c0, %15, %14] {numTiles = 4 : i32, transpose = false} : memref<2x64x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %40 = nvgpu.ldmatrix %0[%c0, %16, %17] {numTiles = 2 : i32, transpose = true} : memref<2x32x72xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %41 = nvgpu.mma.sync(%36, %40, %35#0) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %42 = nvgpu.ldmatrix %0[%c0, %16, %18] {numTiles = 2 : i32, transpose = true} : memref<2x32x72xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %43 = nvgpu.mma.sync(%36, %42, %35#1) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %44 = nvgpu.ldmatrix %0[%c0, %16, %19] {numTiles = 2 : i32, transpose = true} : memref<2x32x72xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %45 = nvgpu.mma.sync(%36, %44, %35#2) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %46 = nvgpu.ldmatrix %0[%c0, %16, %20] {numTiles = 2 : i32, transpose = true} : memref<2x32x72xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %47 = nvgpu.mma.sync(%36, %46, %35#3) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %48 = nvgpu.mma.sync(%38, %40, %35#4) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %49 = nvgpu.mma.sync(%38, %42, %35#5) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %50 = nvgpu.mma.sync(%38, %44, %35#6) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %51 = nvgpu.mma.sync(%38, %46, %35#7) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %52 = nvgpu.ldmatrix %0[%c0, %21, %17] {numTiles = 2 : i32, transpose = true} : memref<2x32x72xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %53 = nvgpu.mma.sync(%37, %52, %41) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %54 = nvgpu.ldmatrix %0[%c0, %21, %18] {numTiles = 2 : i32, transpose = true} : memref<2x32x72xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %55 = nvgpu.mma.sync(%37, %54, %43) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %56 = nvgpu.ldmatrix %0[%c0, %21, %19] {numTiles = 2 : i32, transpose = true} : memref<2x32x72xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %57 = nvgpu.mma.sync(%37, %56, %45) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %58 = nvgpu.ldmatrix %0[%c0, %21, %20] {numTiles = 2 : i32, transpose = true} : memref<2x32x72xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %59 = nvgpu.mma.sync(%37, %58, %47) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %60 = nvgpu.mma.sync(%39, %52, %48) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %61 = nvgpu.mma.sync(%39, %54, %49) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %62 = nvgpu.mma.sync(%39, %56, %50) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %63 = nvgpu.mma.sync(%39, %58, %51) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      gpu.barrier
      nvgpu.device_async_wait %35#9 {numGroups = 0 : i32}
      gpu.barrier
      %64 = nvgpu.ldmatrix %1[%c1, %12, %13] {numTiles = 4 : i32, transpose = false} : memref<2x64x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %65 = nvgpu.ldmatrix %1[%c1, %12, %14] {numTiles = 4 : i32, transpose = false} : memref<2x64x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %66 = nvgpu.ldmatrix %1[%c1, %15, %13] {numTiles = 4 : i32, transpose = false} : memref<2x64x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %67 = nvgpu.ldmatrix %1[%c1, %15, %14] {numTiles = 4 : i32, transpose = false} : memref<2x64x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %68 = nvgpu.ldmatrix %0[%c1, %16, %17] {numTiles = 2 : i32, transpose = true} : memref<2x32x72xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %69 = nvgpu.mma.sync(%64, %68, %53) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %70 = nvgpu.ldmatrix %0[%c1, %16, %18] {numTiles = 2 : i32, transpose = true} : memref<2x32x72xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %71 = nvgpu.mma.sync(%64, %70, %55) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %72 = nvgpu.ldmatrix %0[%c1, %16, %19] {numTiles = 2 : i32, transpose = true} : memref<2x32x72xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %73 = nvgpu.mma.sync(%64, %72, %57) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %74 = nvgpu.ldmatrix %0[%c1, %16, %20] {numTiles = 2 : i32, transpose = true} : memref<2x32x72xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %75 = nvgpu.mma.sync(%64, %74, %59) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %76 = nvgpu.mma.sync(%66, %68, %60) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %77 = nvgpu.mma.sync(%66, %70, %61) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %78 = nvgpu.mma.sync(%66, %72, %62) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %79 = nvgpu.mma.sync(%66, %74, %63) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %80 = nvgpu.ldmatrix %0[%c1, %21, %17] {numTiles = 2 : i32, transpose = true} : memref<2x32x72xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %81 = nvgpu.mma.sync(%65, %80, %69) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %82 = nvgpu.ldmatrix %0[%c1, %21, %18] {numTiles = 2 : i32, transpose = true} : memref<2x32x72xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %83 = nvgpu.mma.sync(%65, %82, %71) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %84 = nvgpu.ldmatrix %0[%c1, %21, %19] {numTiles = 2 : i32, transpose = true} : memref<2x32x72xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %85 = nvgpu.mma.sync(%65, %84, %73) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %86 = nvgpu.ldmatrix %0[%c1, %21, %20] {numTiles = 2 : i32, transpose = true} : memref<2x32x72xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %87 = nvgpu.mma.sync(%65, %86, %75) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %88 = nvgpu.mma.sync(%67, %80, %76) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %89 = nvgpu.mma.sync(%67, %82, %77) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %90 = nvgpu.mma.sync(%67, %84, %78) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %91 = nvgpu.mma.sync(%67, %86, %79) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      gpu.barrier
      %92 = vector.extract %91[0] : vector<2xf32> from vector<2x2xf32>
      %93 = affine.apply #map21()[%block_id_y, %thread_id_x, %11]
      %94 = affine.apply #map22()[%block_id_x, %thread_id_x, %11]
      %95 = vector.load %arg2[%94] : memref<768xf16>, vector<2xf16>
      %96 = arith.truncf %92 : vector<2xf32> to vector<2xf16>
      %97 = arith.addf %96, %95 : vector<2xf16>
      %98 = arith.maximumf %97, %cst : vector<2xf16>
      vector.store %98, %alloc[%93, %94] : memref<512x768xf16>, vector<2xf16>
      %99 = vector.extract %91[1] : vector<2xf32> from vector<2x2xf32>
      %100 = affine.apply #map23()[%block_id_y, %thread_id_x, %11]
      %101 = vector.load %arg2[%94] : memref<768xf16>, vector<2xf16>
      %102 = arith.truncf %99 : vector<2xf32> to vector<2xf16>
      %103 = arith.addf %102, %101 : vector<2xf16>
      %104 = arith.maximumf %103, %cst : vector<2xf16>
      vector.store %104, %alloc[%100, %94] : memref<512x768xf16>, vector<2xf16>
      %105 = vector.extract %90[0] : vector<2xf32> from vector<2x2xf32>
      %106 = affine.apply #map24()[%block_id_x, %thread_id_x, %11]
      %107 = vector.load %arg2[%106] : memref<768xf16>, vector<2xf16>
      %108 = arith.truncf %105 : vector<2xf32> to vector<2xf16>
      %109 = arith.addf %108, %107 : vector<2xf16>
      %110 = arith.maximumf %109, %cst : vector<2xf16>
      vector.store %110, %alloc[%93, %106] : memref<512x768xf16>, vector<2xf16>
      %111 = vector.extract %90[1] : vector<2xf32> from vector<2x2xf32>
      %112 = vector.load %arg2[%106] : memref<768xf16>, vector<2xf16>
      %113 = arith.truncf %111 : vector<2xf32> to vector<2xf16>
      %114 = arith.addf %113, %112 : vector<2xf16>
      %115 = arith.maximumf %114, %cst : vector<2xf16>
      vector.store %115, %alloc[%100, %106] : memref<512x768xf16>, vector<2xf16>
      %116 = vector.extract %89[0] : vector<2xf32> from vector<2x2xf32>
      %117 = affine.apply #map25()[%block_id_x, %thread_id_x, %11]
      %118 = vector.load %arg2[%117] : memref<768xf16>, vector<2xf16>
      %119 = arith.truncf %116 : vector<2xf32> to vector<2xf16>
      %120 = arith.addf %119, %118 : vector<2xf16>
      %121 = arith.maximumf %120, %cst : vector<2xf16>
      vector.store %121, %alloc[%93, %117] : memref<512x768xf16>, vector<2xf16>
      %122 = vector.extract %89[1] : vector<2xf32> from vector<2x2xf32>
      %123 = vector.load %arg2[%117] : memref<768xf16>, vector<2xf16>
      %124 = arith.truncf %122 : vector<2xf32> to vector<2xf16>
      %125 = arith.addf %124, %123 : vector<2xf16>
      %126 = arith.maximumf %125, %cst : vector<2xf16>
      vector.store %126, %alloc[%100, %117] : memref<512x768xf16>, vector<2xf16>
      %127 = vector.extract %88[0] : vector<2xf32> from vector<2x2xf32>
      %128 = affine.apply #map26()[%block_id_x, %thread_id_x, %11]
      %129 = vector.load %arg2[%128] : memref<768xf16>, vector<2xf16>
      %130 = arith.truncf %127 : vector<2xf32> to vector<2xf16>
      %131 = arith.addf %130, %129 : vector<2xf16>
      %132 = arith.maximumf %131, %cst : vector<2xf16>
      vector.store %132, %alloc[%93, %128] : memref<512x768xf16>, vector<2xf16>
      %133 = vector.extract %88[1] : vector<2xf32> from vector<2x2xf32>
      %134 = vector.load %arg2[%128] : memref<768xf16>, vector<2xf16>
      %135 = arith.truncf %133 : vector<2xf32> to vector<2xf16>
      %136 = arith.addf %135, %134 : vector<2xf16>
      %137 = arith.maximumf %136, %cst : vector<2xf16>
      vector.store %137, %alloc[%100, %128] : memref<512x768xf16>, vector<2xf16>
      %138 = vector.extract %87[0] : vector<2xf32> from vector<2x2xf32>
      %139 = affine.apply #map27()[%block_id_y, %thread_id_x, %11]
      %140 = vector.load %arg2[%94] : memref<768xf16>, vector<2xf16>
      %141 = arith.truncf %138 : vector<2xf32> to vector<2xf16>
      %142 = arith.addf %141, %140 : vector<2xf16>
      %143 = arith.maximumf %142, %cst : vector<2xf16>
      vector.store %143, %alloc[%139, %94] : memref<512x768xf16>, vector<2xf16>
      %144 = vector.extract %87[1] : vector<2xf32> from vector<2x2xf32>
      %145 = affine.apply #map28()[%block_id_y, %thread_id_x, %11]
      %146 = vector.load %arg2[%94] : memref<768xf16>, vector<2xf16>
      %147 = arith.truncf %144 : vector<2xf32> to vector<2xf16>
      %148 = arith.addf %147, %146 : vector<2xf16>
      %149 = arith.maximumf %148, %cst : vector<2xf16>
      vector.store %149, %alloc[%145, %94] : memref<512x768xf16>, vector<2xf16>
      %150 = vector.extract %85[0] : vector<2xf32> from vector<2x2xf32>
      %151 = vector.load %arg2[%106] : memref<768xf16>, vector<2xf16>
      %152 = arith.truncf %150 : vector<2xf32> to vector<2xf16>
      %153 = arith.addf %152, %151 : vector<2xf16>
      %154 = arith.maximumf %153, %cst : vector<2xf16>
      vector.store %154, %alloc[%139, %106] : memref<512x768xf16>, vector<2xf16>
      %155 = vector.extract %85[1] : vector<2xf32> from vector<2x2xf32>
      %156 = vector.load %arg2[%106] : memref<768xf16>, vector<2xf16>
      %157 = arith.truncf %155 : vector<2xf32> to vector<2xf16>
      %158 = arith.addf %157, %156 : vector<2xf16>
      %159 = arith.maximumf %158, %cst : vector<2xf16>
      vector.store %159, %alloc[%145, %106] : memref<512x768xf16>, vector<2xf16>
      %160 = vector.extract %83[0] : vector<2xf32> from vector<2x2xf32>
      %161 = vector.load %arg2[%117] : memref<768xf16>, vector<2xf16>
      %162 = arith.truncf %160 : vector<2xf32> to vector<2xf16>
      %163 = arith.addf %162, %161 : vector<2xf16>
      %164 = arith.maximumf %163, %cst : vector<2xf16>
      vector.store %164, %alloc[%139, %117] : memref<512x768xf16>, vector<2xf16>
      %165 = vector.extract %83[1] : vector<2xf32> from vector<2x2xf32>
      %166 = vector.load %arg2[%117] : memref<768xf16>, vector<2xf16>
      %167 = arith.truncf %165 : vector<2xf32> to vector<2xf16>
      %168 = arith.addf %167, %166 : vector<2xf16>
      %169 = arith.maximumf %168, %cst : vector<2xf16>
      vector.store %169, %alloc[%145, %117] : memref<512x768xf16>, vector<2xf16>
      %170 = vector.extract %81[0] : vector<2xf32> from vector<2x2xf32>
      %171 = vector.load %arg2[%128] : memref<768xf16>, vector<2xf16>
      %172 = arith.truncf %170 : vector<2xf32> to vector<2xf16>
      %173 = arith.addf %172, %171 : vector<2xf16>
      %174 = arith.maximumf %173, %cst : vector<2xf16>
      vector.store %174, %alloc[%139, %128] : memref<512x768xf16>, vector<2xf16>
      %175 = vector.extract %81[1] : vector<2xf32> from vector<2x2xf32>
      %176 = vector.load %arg2[%128] : memref<768xf16>, vector<2xf16>
      %177 = arith.truncf %175 : vector<2xf32> to vector<2xf16>
      %178 = arith.addf %177, %176 : vector<2xf16>
      %179 = arith.maximumf %178, %cst : vector<2xf16>
      vector.store %179, %alloc[%145, %128] : memref<512x768xf16>, vector<2xf16>
      gpu.terminator
    }
    return %alloc : memref<512x768xf16>
  }
  memref.global "private" @alloca : memref<2x32x72xf16, #gpu.address_space<workgroup>> {alignment = 16 : i64}
  memref.global "private" @alloca_0 : memref<2x64x40xf16, #gpu.address_space<workgroup>> {alignment = 16 : i64}
}

