// RUN: dlc-opt --split-input-file --dlc-to-affine-pipeline --dlc-tile-for-local-memory %s | FileCheck %s
// RUN: dlc-opt --split-input-file --dlc-to-affine-pipeline --dlc-tile-for-local-memory=loop-order=mloop %s | FileCheck %s --check-prefix=MLOOP
// RUN: dlc-opt --split-input-file --dlc-to-affine-pipeline --dlc-tile-for-local-memory=loop-order=kloop %s | FileCheck %s --check-prefix=KLOOP

// A 64x64x64 matmul for 4 KiB: output-stationary 16x32 tiles of C with the
// reduction streamed 4 at a time (A and B double-buffered): 3.5 KiB, and
// 128 KiB moved, twice the Hong-Kung bound 2 * 64^3 / sqrt(1024) * 4 bytes,
// in 2816 contiguous blocks (rows of the boxes).
// The fill of C (write-only) is tiled too. Each nest's description
// (dlc.nest) moves to its outermost tile loop.
// CHECK-LABEL: func.func @matmul
// CHECK: affine.for %[[FI:.*]] = 0 to 64 step 16 {
// CHECK: } {dlc.nest = {class = "fill", {{.*}}}, dlc.parallel, dlc.tile_loop, dlc.tiling = {dma_blocks = 256 : i64, footprint_bytes = 4096 : i64, {{.*}}traffic_bytes = 16384 : i64}}
// CHECK: affine.for %[[I:.*]] = 0 to 64 step 16 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 64 step 32 {
// CHECK-NEXT: affine.for %[[K:.*]] = 0 to 64 step 4 {
// CHECK-NEXT: affine.for %{{.*}} = #{{.*}}(%[[I]]) to #{{.*}}(%[[I]]) {
// CHECK: } {dlc.tile_loop}
// CHECK-NEXT: } {dlc.tile_loop}
// CHECK-NEXT: } {dlc.nest = {class = "contraction", loops = array<i64: 64, 64, 64>, {{.*}}op = "matmul", reductions = array<i64: 2>}, dlc.parallel, dlc.tile_loop, dlc.tiling = {dma_blocks = 2816 : i64, footprint_bytes = 3584 : i64, loop_order = "kloop", order = array<i64: 0, 1, 2>, tile_sizes = array<i64: 16, 32, 4>, traffic_bytes = 131072 : i64}}
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @matmul(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = dlc.matmul %a, %b : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    return %0 : tensor<64x64xf32>
  }
}

// -----

// A conv reading maps (the padded input) and kernels: with the reduction
// over input channels innermost, Mloop puts the output-channel tiles
// outermost (kernel tiles stay, maps are reloaded), Kloop the spatial ones.
// CHECK-LABEL: func.func @conv
// MLOOP-LABEL: func.func @conv
// MLOOP: dlc.tiling = {{{.*}}loop_order = "mloop"
// KLOOP-LABEL: func.func @conv
// KLOOP: dlc.tiling = {{{.*}}loop_order = "kloop"
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 16384>} {
  func.func @conv(%x: tensor<1x16x32x32xf32>, %w: tensor<32x16x3x3xf32>) -> tensor<1x32x32x32xf32> {
    %0 = dlc.conv %x, %w {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x16x32x32xf32>, tensor<32x16x3x3xf32>) -> tensor<1x32x32x32xf32>
    return %0 : tensor<1x32x32x32xf32>
  }
}

// -----

// A nest that fits whole is not tiled; its choice is still recorded.
// CHECK-LABEL: func.func @fits
// CHECK-NOT: dlc.tile_loop
// CHECK: dlc.tiling = {dma_blocks = 2 : i64, footprint_bytes = 128 : i64, loop_order = "none", order = array<i64>, tile_sizes = array<i64: 16>, traffic_bytes = 128 : i64}
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 1024>} {
  func.func @fits(%a: tensor<16xf32>) -> tensor<16xf32> {
    %0 = dlc.relu %a : tensor<16xf32>
    return %0 : tensor<16xf32>
  }
}

// -----

// Without a local memory the pass leaves the nests alone.
// CHECK-LABEL: func.func @no_local_memory
// CHECK-NOT: dlc.tiling
module attributes {dlc.hardware = #dlc.hardware<>} {
  func.func @no_local_memory(%a: tensor<16xf32>) -> tensor<16xf32> {
    %0 = dlc.relu %a : tensor<16xf32>
    return %0 : tensor<16xf32>
  }
}

// -----

// A 1x1 stride-2 convolution counting bytes alone: the input box keeps
// every other row and column (16x16x1 of the 16x32x32 input per tile),
// whatever the block sizes.
// CHECK-LABEL: func.func @downsample
// CHECK: dlc.tiling = {dma_blocks = 20481 : i64, footprint_bytes = 6144 : i64, loop_order = "none", order = array<i64: 3>, tile_sizes = array<i64: 1, 32, 16, 1, 16, 1, 1>, traffic_bytes = 83968 : i64}
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 8192>} {
  func.func @downsample(%x: tensor<1x16x32x32xf32>, %w: tensor<32x16x1x1xf32>) -> tensor<1x32x16x16xf32> {
    %0 = dlc.conv %x, %w {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x16x32x32xf32>, tensor<32x16x1x1xf32>) -> tensor<1x32x16x16xf32>
    return %0 : tensor<1x32x16x16xf32>
  }
}

// -----

// The same convolution on a machine whose DMA blocks cost 512 bytes each
// (about the SW26010's): 35% more bytes in 20 times fewer blocks; whole
// output rows, and input rows moved densely (the skipped columns too).
// CHECK-LABEL: func.func @downsample_block_overhead
// CHECK: dlc.tiling = {dma_blocks = 1024 : i64, footprint_bytes = 8192 : i64, loop_order = "kloop", order = array<i64: 2, 1>, tile_sizes = array<i64: 1, 1, 2, 16, 16, 1, 1>, traffic_bytes = 113664 : i64}
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 8192, dma_block_overhead_bytes = 512>} {
  func.func @downsample_block_overhead(%x: tensor<1x16x32x32xf32>, %w: tensor<32x16x1x1xf32>) -> tensor<1x32x16x16xf32> {
    %0 = dlc.conv %x, %w {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x16x32x32xf32>, tensor<32x16x1x1xf32>) -> tensor<1x32x16x16xf32>
    return %0 : tensor<1x32x16x16xf32>
  }
}

// -----

// Four units whose reads can be broadcast: with the columns of C spread
// over the units (8 tiles of 8), every unit needs the same 64x2 slab of A
// in the same step, counted once for all: 80 KiB moved instead of the
// 128 KiB of the best tiling where each unit reads its own copy.
// CHECK-LABEL: func.func @matmul_broadcast_reads
// CHECK: affine.for %{{.*}} = 0 to 64 step 8 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 64 step 2 {
// CHECK: dlc.tiling = {dma_blocks = 5632 : i64, footprint_bytes = 3200 : i64, loop_order = "none", order = array<i64: 1, 2>, tile_sizes = array<i64: 64, 8, 2>, traffic_bytes = 81920 : i64}
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096, processing_units = 4, broadcast_reads = true>} {
  func.func @matmul_broadcast_reads(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = dlc.matmul %a, %b : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    return %0 : tensor<64x64xf32>
  }
}

// -----

// The same units without broadcast reads: the tiling of @matmul.
// CHECK-LABEL: func.func @matmul_private_reads
// CHECK: dlc.tiling = {dma_blocks = 2816 : i64, footprint_bytes = 3584 : i64, loop_order = "kloop", order = array<i64: 0, 1, 2>, tile_sizes = array<i64: 16, 32, 4>, traffic_bytes = 131072 : i64}
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096, processing_units = 4, broadcast_reads = false>} {
  func.func @matmul_private_reads(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = dlc.matmul %a, %b : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    return %0 : tensor<64x64xf32>
  }
}

// -----

// A stride-2 convolution on a machine that copies strided reads into phase
// planes before computing (`strided_read_copies`): the output's innermost
// loop moves the input's innermost index by 2, so the input's 15x15 box
// (900 bytes) is reserved twice: 2032 bytes, where @strided_conv_no_copies
// needs 1132.
// CHECK-LABEL: func.func @strided_conv_copies
// CHECK: dlc.tiling = {dma_blocks = 18 : i64, footprint_bytes = 2032 : i64, {{.*}}tile_sizes = array<i64: 1, 1, 7, 7, 1, 3, 3>, traffic_bytes = 1328 : i64}
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096, strided_read_copies = true>} {
  func.func @strided_conv_copies(%x: tensor<1x1x16x16xf32>, %w: tensor<1x1x3x3xf32>) -> tensor<1x1x7x7xf32> {
    %0 = dlc.conv %x, %w {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x1x16x16xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x7x7xf32>
    return %0 : tensor<1x1x7x7xf32>
  }
}

// -----

// CHECK-LABEL: func.func @strided_conv_no_copies
// CHECK: dlc.tiling = {dma_blocks = 18 : i64, footprint_bytes = 1132 : i64, {{.*}}tile_sizes = array<i64: 1, 1, 7, 7, 1, 3, 3>, traffic_bytes = 1328 : i64}
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @strided_conv_no_copies(%x: tensor<1x1x16x16xf32>, %w: tensor<1x1x3x3xf32>) -> tensor<1x1x7x7xf32> {
    %0 = dlc.conv %x, %w {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x1x16x16xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x7x7xf32>
    return %0 : tensor<1x1x7x7xf32>
  }
}
