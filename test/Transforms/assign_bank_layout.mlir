// RUN: dlc-opt --split-input-file --dlc-to-affine-pipeline --mlir-print-debuginfo %s | dlc-opt --split-input-file --dlc-assign-bank-layout=mode=global --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s --check-prefix=GLOBAL
// RUN: dlc-opt --split-input-file --dlc-to-affine-pipeline --mlir-print-debuginfo %s | dlc-opt --split-input-file --dlc-assign-bank-layout=mode=local --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s --check-prefix=LOCAL

// conv -> relu -> conv on a batch of 4 with 4 banks. The convs contract
// over the input channels and write output channels across banks (dim 1);
// global mode carries that through the relu: no copy. Local mode gives the
// relu the default layout, the outermost dim of size >= 4 (the batch,
// dim 0), and copies at both of its boundaries.
// GLOBAL-LABEL: func.func @main
// GLOBAL-SAME: memref<4x8x6x6xf32> {dlc.bank_dim = 1 : i64}
// GLOBAL-SAME: memref<8x8x1x1xf32> {dlc.bank_dim = 1 : i64}
// GLOBAL-SAME: memref<8x8x1x1xf32> {dlc.bank_dim = 1 : i64}
// GLOBAL-SAME: memref<4x8x6x6xf32> {dlc.bank_dim = 1 : i64}
// GLOBAL-SAME: dlc.bank_layout = {mode = "global", relayout_bytes = 0 : i64, relayouts = 0 : i64}
// GLOBAL-COUNT-2: memref.alloc() {alignment = 64 : i64, dlc.bank_dim = 1 : i64} : memref<4x8x6x6xf32>
// GLOBAL-NOT: dlc.relayout
// LOCAL-LABEL: func.func @main
// LOCAL-SAME: dlc.bank_layout = {mode = "local", relayout_bytes = 9216 : i64, relayouts = 2 : i64}
// The first conv's output keeps the conv's layout; the relu reads a copy.
// LOCAL: %[[CONV1:.*]] = memref.alloc() {alignment = 64 : i64, dlc.bank_dim = 1 : i64} : memref<4x8x6x6xf32>
// LOCAL: %[[RELU:.*]] = memref.alloc() {alignment = 64 : i64, dlc.bank_dim = 0 : i64} : memref<4x8x6x6xf32>
// LOCAL: %[[COPY1:.*]] = memref.alloc() {dlc.bank_dim = 0 : i64} : memref<4x8x6x6xf32>
// LOCAL: affine.load %[[CONV1]][
// LOCAL: affine.store %{{.*}}, %[[COPY1]][
// LOCAL: } {dlc.relayout} loc("relu")
// LOCAL: affine.load %[[COPY1]][
// LOCAL: arith.maximumf
// LOCAL: affine.store %{{.*}}, %[[RELU]][
// LOCAL: memref.dealloc %[[COPY1]] :
// The second conv reads the relu's output through a copy in its layout.
// LOCAL: %[[COPY2:.*]] = memref.alloc() {dlc.bank_dim = 1 : i64} : memref<4x8x6x6xf32>
// LOCAL: affine.load %[[RELU]][
// LOCAL: affine.store %{{.*}}, %[[COPY2]][
// LOCAL: } {dlc.relayout} loc("conv2")
// LOCAL: affine.load %[[COPY2]][
// LOCAL: arith.mulf
// LOCAL: memref.dealloc %[[COPY2]] :
// LOCAL-NOT: dlc.relayout
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 65536, banks = 4>} {
  func.func @main(%x: tensor<4x8x6x6xf32>, %w1: tensor<8x8x1x1xf32>, %w2: tensor<8x8x1x1xf32>) -> tensor<4x8x6x6xf32> {
    %0 = dlc.conv %x, %w1 {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<4x8x6x6xf32>, tensor<8x8x1x1xf32>) -> tensor<4x8x6x6xf32> loc("conv1")
    %1 = dlc.relu %0 : tensor<4x8x6x6xf32> loc("relu")
    %2 = dlc.conv %1, %w2 {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<4x8x6x6xf32>, tensor<8x8x1x1xf32>) -> tensor<4x8x6x6xf32> loc("conv2")
    return %2 : tensor<4x8x6x6xf32>
  }
}

// -----

// A padded conv: the padding copy writes the interior of the padded buffer
// (a subview, resolved to the buffer), which the conv reads with its input
// channels across banks; global mode banks the input on its channels too.
// Local mode gives the padding nests the default (the height, 8 >= 4: the
// batch and the 2 channels are too small) and copies the padded buffer.
// GLOBAL-LABEL: func.func @main
// GLOBAL-SAME: memref<1x2x8x8xf32> {dlc.bank_dim = 1 : i64}
// GLOBAL-SAME: relayouts = 0
// GLOBAL: memref.alloc() {alignment = 64 : i64, dlc.bank_dim = 1 : i64} : memref<1x2x10x10xf32>
// GLOBAL-NOT: dlc.relayout
// LOCAL-LABEL: func.func @main
// LOCAL-SAME: memref<1x2x8x8xf32> {dlc.bank_dim = 2 : i64}
// LOCAL-SAME: relayout_bytes = 800 : i64, relayouts = 1 : i64
// LOCAL: %[[PADDED:.*]] = memref.alloc() {alignment = 64 : i64, dlc.bank_dim = 2 : i64} : memref<1x2x10x10xf32>
// LOCAL: memref.subview %[[PADDED]][
// LOCAL: %[[COPY:.*]] = memref.alloc() {dlc.bank_dim = 1 : i64} : memref<1x2x10x10xf32>
// LOCAL: } {dlc.relayout}
// LOCAL: affine.load %[[COPY]][
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 65536, banks = 4>} {
  func.func @main(%x: tensor<1x2x8x8xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x8x8xf32> {
    %0 = dlc.conv %x, %w {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x2x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x8x8xf32> loc("conv")
    return %0 : tensor<1x4x8x8xf32>
  }
}

// -----

// matmul -> relu -> matmul with constant weights: the first matmul reads A
// with k (dim 1) and B with k (dim 0) across banks and writes its columns
// (dim 1); the second reads that with k = dim 1 and its weights, a global,
// with k = dim 0. Global mode: no copy. Local mode: the relu reads and
// writes rows (dim 0), copies on both sides.
// GLOBAL-LABEL: func.func @main
// GLOBAL-SAME: memref<8x16xf32> {dlc.bank_dim = 1 : i64}
// GLOBAL-SAME: memref<16x8xf32> {dlc.bank_dim = 0 : i64}
// GLOBAL-SAME: memref<8x4xf32> {dlc.bank_dim = 1 : i64}
// GLOBAL-SAME: relayouts = 0
// GLOBAL: memref.get_global @{{.*}} : memref<8x4xf32> {dlc.bank_dim = 0 : i64}
// GLOBAL-COUNT-2: memref.alloc() {alignment = 64 : i64, dlc.bank_dim = 1 : i64} : memref<8x8xf32>
// GLOBAL-NOT: dlc.relayout
// LOCAL-LABEL: func.func @main
// LOCAL-SAME: relayout_bytes = 512 : i64, relayouts = 2 : i64
// LOCAL: memref.get_global @{{.*}} : memref<8x4xf32> {dlc.bank_dim = 0 : i64}
// LOCAL: memref.alloc() {alignment = 64 : i64, dlc.bank_dim = 1 : i64} : memref<8x8xf32>
// LOCAL: memref.alloc() {alignment = 64 : i64, dlc.bank_dim = 0 : i64} : memref<8x8xf32>
// LOCAL: memref.alloc() {dlc.bank_dim = 0 : i64} : memref<8x8xf32>
// LOCAL: } {dlc.relayout} loc("relu")
// LOCAL: memref.alloc() {dlc.bank_dim = 1 : i64} : memref<8x8xf32>
// LOCAL: } {dlc.relayout} loc("mm2")
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 65536, banks = 4>} {
  func.func @main(%a: tensor<8x16xf32>, %b: tensor<16x8xf32>) -> tensor<8x4xf32> {
    %c = dlc.constant dense<[[-0.73, 0.69, 0.53, -0.49], [-0.01, -0.1, 0.3, 0.58], [-0.81, -0.94, 0.67, -0.13], [0.52, -1.0, -0.11, 0.44], [-0.54, 0.89, 0.8, -0.94], [-0.95, 0.08, 0.88, -0.24], [-0.57, -0.16, -0.94, -0.56], [-0.12, -0.01, -0.53, -0.54]]> : tensor<8x4xf32>
    %0 = dlc.matmul %a, %b : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32> loc("mm1")
    %1 = dlc.relu %0 : tensor<8x8xf32> loc("relu")
    %2 = dlc.matmul %1, %c : (tensor<8x8xf32>, tensor<8x4xf32>) -> tensor<8x4xf32> loc("mm2")
    return %2 : tensor<8x4xf32>
  }
}

// -----

// A genuine conflict: T = A * B is banked on its columns (dim 1); the
// transpose reads T[j, i] along its loop i, so T^T is banked on rows; the
// add needs T and T^T alike. Global mode copies T^T once, before the add.
// Local mode reads T in the default layout (rows) in the transpose and in
// the add: one copy each.
// GLOBAL-LABEL: func.func @main
// GLOBAL-SAME: relayout_bytes = 256 : i64, relayouts = 1 : i64
// GLOBAL: %[[T:.*]] = memref.alloc() {alignment = 64 : i64, dlc.bank_dim = 1 : i64} : memref<8x8xf32>
// GLOBAL: %[[TT:.*]] = memref.alloc() {alignment = 64 : i64, dlc.bank_dim = 0 : i64} : memref<8x8xf32>
// GLOBAL: %[[COPY:.*]] = memref.alloc() {dlc.bank_dim = 1 : i64} : memref<8x8xf32>
// GLOBAL: affine.load %[[TT]][
// GLOBAL: affine.store %{{.*}}, %[[COPY]][
// GLOBAL: } {dlc.relayout} loc("add")
// GLOBAL: affine.load %[[T]][
// GLOBAL: affine.load %[[COPY]][
// GLOBAL: arith.addf
// GLOBAL: memref.dealloc %[[COPY]] :
// LOCAL-LABEL: func.func @main
// LOCAL-SAME: relayout_bytes = 512 : i64, relayouts = 2 : i64
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 65536, banks = 4>} {
  func.func @main(%a: tensor<8x16xf32>, %b: tensor<16x8xf32>) -> tensor<8x8xf32> {
    %t = dlc.matmul %a, %b : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32> loc("mm")
    %tt = dlc.transpose %t {perm = array<i64: 1, 0>} : tensor<8x8xf32> -> tensor<8x8xf32> loc("transpose")
    %y = dlc.add %t, %tt : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32> loc("add")
    return %y : tensor<8x8xf32>
  }
}

// -----

// A product used as the weights of another: B * C is written with its
// columns across banks but read with k, its rows: both modes copy it once.
// GLOBAL-LABEL: func.func @main
// GLOBAL-SAME: relayout_bytes = 256 : i64, relayouts = 1 : i64
// GLOBAL: memref.alloc() {alignment = 64 : i64, dlc.bank_dim = 1 : i64} : memref<8x8xf32>
// GLOBAL: memref.alloc() {dlc.bank_dim = 0 : i64} : memref<8x8xf32>
// GLOBAL: } {dlc.relayout} loc("mm2")
// LOCAL-LABEL: func.func @main
// LOCAL-SAME: relayout_bytes = 256 : i64, relayouts = 1 : i64
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 65536, banks = 4>} {
  func.func @main(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<16x8xf32>) -> tensor<4x8xf32> {
    %bc = dlc.matmul %b, %c : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32> loc("mm1")
    %y = dlc.matmul %a, %bc : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32> loc("mm2")
    return %y : tensor<4x8xf32>
  }
}

// -----

// A sum over the last dimension: a flexible nest never puts across the
// banks a dimension it reduces over, so both modes give the input the rows
// (dim 0), and the 1-element-per-row result, which has fewer elements than
// banks, the rows too.
// GLOBAL-LABEL: func.func @main
// GLOBAL-SAME: memref<8x16xf32> {dlc.bank_dim = 0 : i64}
// GLOBAL-SAME: memref<8xf32> {dlc.bank_dim = 0 : i64}
// GLOBAL-SAME: relayouts = 0
// LOCAL-LABEL: func.func @main
// LOCAL-SAME: memref<8x16xf32> {dlc.bank_dim = 0 : i64}
// LOCAL-SAME: memref<8xf32> {dlc.bank_dim = 0 : i64}
// LOCAL-SAME: relayouts = 0
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 65536, banks = 16>} {
  func.func @main(%x: tensor<8x16xf32>) -> tensor<8xf32> {
    %0 = dlc.reduce_sum %x {axes = array<i64: 1>, keepdims = false} : tensor<8x16xf32> -> tensor<8xf32> loc("sum")
    return %0 : tensor<8xf32>
  }
}
