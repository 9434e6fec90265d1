// RUN: qimeng-opt %s --split-input-file --transform-interpreter --verify-diagnostics | FileCheck %s

// The lanes of a warp share a row sum: lane l reads vectors of 4 elements l,
// l + 32, ... (a row of 256: 2 vectors per lane, in one trip, none masked),
// then butterfly shuffles; lane 0 stores.
// CHECK-LABEL: func.func @row_sums
// CHECK:       gpu.launch
// CHECK:         %[[LANE:.+]] = gpu.lane_id
// CHECK-NOT:     scf.for
// CHECK-NOT:     arith.select
// CHECK-COUNT-2: vector.load %{{.+}} {alignment = 16 : i64} : memref<1x256xf32, {{.*}}>, vector<4xf32>
// CHECK-NOT:     scf.for
// CHECK:         gpu.shuffle xor
// CHECK:         arith.cmpi eq, %[[LANE]], %c0
// CHECK-NEXT:    scf.if
func.func @row_sums(%x: memref<64x256xf32>, %y: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%b, %bb, %bc) in (%gx = %c64, %gy = %c1, %gz = %c1)
             threads(%t, %tt, %tc) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %row = memref.subview %x[%b, 0] [1, 256] [1, 1] : memref<64x256xf32> to memref<1x256xf32, strided<[256, 1], offset: ?>>
    %out = memref.subview %y[%b] [1] [1] : memref<64xf32> to memref<1xf32, strided<[1], offset: ?>>
    linalg.reduce ins(%row : memref<1x256xf32, strided<[256, 1], offset: ?>>)
                  outs(%out : memref<1xf32, strided<[1], offset: ?>>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }
    gpu.terminator
  } {qimeng.target = "sum"}
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %reduce = transform.structured.match ops{["linalg.reduce"]} in %root : (!transform.any_op) -> !transform.any_op
    %tag = transform.param.constant "sum" -> !transform.any_param
    transform.annotate %reduce "qimeng.tag" = %tag : !transform.any_op, !transform.any_param
    %launch = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qimeng.distribute_over_lanes %launch {op_tag = "sum"} : !transform.any_op
    transform.yield
  }
}

// -----

// A linalg op the lanes cannot share: the payload op says why, the step
// fails.
func.func @not_shared(%x: memref<64x256xf32>, %y: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%b, %bb, %bc) in (%gx = %c64, %gy = %c1, %gz = %c1)
             threads(%t, %tt, %tc) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %row = memref.subview %x[%b, 0] [1, 256] [1, 1] : memref<64x256xf32> to memref<1x256xf32, strided<[256, 1], offset: ?>>
    %out = memref.subview %y[%b] [1] [1] : memref<64xf32> to memref<1xf32, strided<[1], offset: ?>>
    // expected-error @below {{cannot be reduced by the lanes of a warp}}
    linalg.reduce ins(%row : memref<1x256xf32, strided<[256, 1], offset: ?>>)
                  outs(%out : memref<1xf32, strided<[1], offset: ?>>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %s = arith.subf %acc, %in : f32
        linalg.yield %s : f32
      }
    gpu.terminator
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %reduce = transform.structured.match ops{["linalg.reduce"]} in %root : (!transform.any_op) -> !transform.any_op
    %tag = transform.param.constant "sub" -> !transform.any_param
    transform.annotate %reduce "qimeng.tag" = %tag : !transform.any_op, !transform.any_param
    %launch = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{could not share the work of 'sub' among the lanes of a warp}}
    transform.qimeng.distribute_over_lanes %launch {op_tag = "sub"} : !transform.any_op
    transform.yield
  }
}

// -----

// A loop whose reads stay transfers on workgroup memory: the pipeliner would
// crash on it, the check refuses it.
func.func @not_pipelinable(%s: memref<64xf32, #gpu.address_space<workgroup>>, %n: index) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> vector<4xf32> {
    // expected-note @below {{this read}}
    %v = vector.transfer_read %s[%i], %pad : memref<64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    %a = arith.addf %acc, %v : vector<4xf32>
    scf.yield %a : vector<4xf32>
  }
  return %r : vector<4xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot pipeline the loop: a read of its body stays a masked vector transfer}}
    transform.qimeng.check_pipelinable %loop : !transform.any_op
    transform.yield
  }
}

// -----

// Every thread of a 256-thread block shares one row (1000 elements, not a
// multiple of the threads): thread t reads vector t of 4 elements (250
// vectors: the last 6 threads' load is masked; past the row's end it reads
// the row's last vector, and its value is dropped); each warp's total goes to shared memory (a workgroup
// attribution of the launch), every thread combines the 8 in warp order,
// thread 0 stores, a barrier follows.
// CHECK-LABEL: func.func @block_row_max
// CHECK:       gpu.launch
// CHECK-SAME:    workgroup(%[[SCRATCH:.+]] : memref<8xf32, #gpu.address_space<workgroup>>)
// CHECK:         %[[TID:.+]] = gpu.thread_id x upper_bound 256
// CHECK:         %[[VALID:.+]] = arith.cmpi ult, %[[TID]], %c250
// CHECK:         %[[AT:.+]] = arith.select %[[VALID]], %[[TID]], %c249
// CHECK:         %[[FIRST:.+]] = arith.muli %[[AT]], %c4
// CHECK:         vector.load %{{.+}}[%c0, %[[FIRST]]]
// CHECK:         arith.select %[[VALID]]
// CHECK-NOT:     scf.for
// CHECK:         gpu.shuffle xor
// CHECK:         memref.store %{{.+}}, %[[SCRATCH]]
// CHECK:         gpu.barrier
// CHECK-COUNT-8: memref.load %[[SCRATCH]]
// CHECK:         arith.cmpi eq, %[[TID]], %c0
// CHECK-NEXT:    scf.if
// CHECK:         gpu.barrier
// CHECK-NEXT:    gpu.terminator
func.func @block_row_max(%x: memref<4x1000xf32>, %y: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%b, %bb, %bc) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%t, %tt, %tc) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %row = memref.subview %x[%b, 0] [1, 1000] [1, 1] : memref<4x1000xf32> to memref<1x1000xf32, strided<[1000, 1], offset: ?>>
    %out = memref.subview %y[%b] [1] [1] : memref<4xf32> to memref<1xf32, strided<[1], offset: ?>>
    linalg.reduce ins(%row : memref<1x1000xf32, strided<[1000, 1], offset: ?>>)
                  outs(%out : memref<1xf32, strided<[1], offset: ?>>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %m = arith.maximumf %in, %acc : f32
        linalg.yield %m : f32
      }
    gpu.terminator
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %reduce = transform.structured.match ops{["linalg.reduce"]} in %root : (!transform.any_op) -> !transform.any_op
    %tag = transform.param.constant "max" -> !transform.any_param
    transform.annotate %reduce "qimeng.tag" = %tag : !transform.any_op, !transform.any_param
    %launch = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qimeng.distribute_over_lanes %launch {op_tag = "max", lanes = 256 : i64} : !transform.any_op
    transform.yield
  }
}

// -----

// Block-wide lanes must be the launch's threads.
func.func @lanes_not_threads(%x: memref<4x1000xf32>, %y: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%b, %bb, %bc) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%t, %tt, %tc) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %row = memref.subview %x[%b, 0] [1, 1000] [1, 1] : memref<4x1000xf32> to memref<1x1000xf32, strided<[1000, 1], offset: ?>>
    %out = memref.subview %y[%b] [1] [1] : memref<4xf32> to memref<1xf32, strided<[1], offset: ?>>
    // expected-error @below {{cannot be shared by 256 lanes: its launch does not have 256 threads along x}}
    linalg.reduce ins(%row : memref<1x1000xf32, strided<[1000, 1], offset: ?>>)
                  outs(%out : memref<1xf32, strided<[1], offset: ?>>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %m = arith.maximumf %in, %acc : f32
        linalg.yield %m : f32
      }
    gpu.terminator
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %reduce = transform.structured.match ops{["linalg.reduce"]} in %root : (!transform.any_op) -> !transform.any_op
    %tag = transform.param.constant "max" -> !transform.any_param
    transform.annotate %reduce "qimeng.tag" = %tag : !transform.any_op, !transform.any_param
    %launch = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{could not share the work of 'max' among the lanes of a warp}}
    transform.qimeng.distribute_over_lanes %launch {op_tag = "max", lanes = 256 : i64} : !transform.any_op
    transform.yield
  }
}
