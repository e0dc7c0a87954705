// RUN: dlc-opt %s --split-input-file | dlc-opt --split-input-file | FileCheck %s

// Every op printed and parsed back. Instructions take a destination and
// sources, each a buffer with an access pattern, and the tokens of the
// instructions they wait for; their other fields are attributes.

// The program's attributes (the trace's header) and a buffer of each kind:
// DRAM tensors of every role, SBUF with a tiled partition dimension, PSUM.
// CHECK-LABEL: inferentia.program @buffers
// CHECK-SAME: intermediate_bytes_removed = 512 : i64, intermediate_bytes_total = 1024 : i64
// CHECK-SAME: layers = [#inferentia.layer<name = "conv1", op = "Conv", fused = ["relu1"], macs = 4096, predicted_cycles = 300, dram_read_bytes = 2048, dram_write_bytes = 1024>]
// CHECK-SAME: layout_mode = "local", load_store_pairs_removed = 1 : i64, load_store_pairs_total = 2 : i64
// CHECK: inferentia.dram_tensor "x" "input" address(0) : !inferentia.buffer<dram, 1, 1024, f32, #inferentia.mapping<shape = [1, 4, 16, 16], partition_dim = -1, partition_tile = 1>>
// CHECK: inferentia.dram_tensor "w" "weights" address(4096) {value = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>} : !inferentia.buffer<dram, 1, 4, f32, #inferentia.mapping<shape = [4], partition_dim = -1, partition_tile = 1>>
// CHECK: inferentia.dram_tensor "y" "output" address(8192) : !inferentia.buffer<dram, 1, 1024, f32,
// CHECK: inferentia.dram_tensor "spill" "scratch" address(12288) : !inferentia.buffer<dram, 1, 1024, f32,
// CHECK: inferentia.alloc address(1024) : !inferentia.buffer<sbuf, 128, 8, f32, #inferentia.mapping<shape = [1, 256, 2, 2], partition_dim = 1, partition_tile = 128>>
// CHECK: inferentia.alloc address(2048) : !inferentia.buffer<psum, 128, 512, f32, #inferentia.mapping<shape = [128, 512], partition_dim = 0, partition_tile = 128>>
inferentia.program @buffers attributes {
    layers = [#inferentia.layer<name = "conv1", op = "Conv", fused = ["relu1"], macs = 4096, predicted_cycles = 300, dram_read_bytes = 2048, dram_write_bytes = 1024>],
    layout_mode = "local", load_store_pairs_removed = 1 : i64,
    load_store_pairs_total = 2 : i64, intermediate_bytes_removed = 512 : i64,
    intermediate_bytes_total = 1024 : i64} {
  %x = inferentia.dram_tensor "x" "input" address(0) : !inferentia.buffer<dram, 1, 1024, f32, #inferentia.mapping<shape = [1, 4, 16, 16], partition_dim = -1, partition_tile = 1>>
  %w = inferentia.dram_tensor "w" "weights" address(4096) {value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : !inferentia.buffer<dram, 1, 4, f32, #inferentia.mapping<shape = [4], partition_dim = -1, partition_tile = 1>>
  %y = inferentia.dram_tensor "y" "output" address(8192) : !inferentia.buffer<dram, 1, 1024, f32, #inferentia.mapping<shape = [1, 4, 16, 16], partition_dim = -1, partition_tile = 1>>
  %s = inferentia.dram_tensor "spill" "scratch" address(12288) : !inferentia.buffer<dram, 1, 1024, f32, #inferentia.mapping<shape = [1024], partition_dim = -1, partition_tile = 1>>
  %a = inferentia.alloc address(1024) : !inferentia.buffer<sbuf, 128, 8, f32, #inferentia.mapping<shape = [1, 256, 2, 2], partition_dim = 1, partition_tile = 128>>
  %p = inferentia.alloc address(2048) : !inferentia.buffer<psum, 128, 512, f32, #inferentia.mapping<shape = [128, 512], partition_dim = 0, partition_tile = 128>>
}

// -----

// DMA transfers: a load whose DRAM side lines up 4 runs of 256 elements
// with 4 partitions (`step`), and a store on another queue that waits for
// it.
// CHECK-LABEL: inferentia.program @dma
// CHECK: %[[X:[0-9]+]] = inferentia.dram_tensor "x" "input"
// CHECK: %[[Y:[0-9]+]] = inferentia.dram_tensor "y" "output"
// CHECK: %[[A:[0-9]+]] = inferentia.alloc address(0)
// CHECK: %[[T0:[0-9]+]] = inferentia.dma_copy %[[A]]<p = 0 : 4, offset = 0, strides = [1], sizes = [256]>, %[[X]]<p = 0 : 4 step 256, offset = 0, strides = [1], sizes = [256]> queue(0) cause("load") {engine = "dma", layer = 0 : i64} : !inferentia.buffer<sbuf, 4, 256, f32, {{.*}}>, !inferentia.buffer<dram, 1, 1024, f32, {{.*}}>
// CHECK: inferentia.dma_copy %[[Y]]<p = 0 : 4 step 256, offset = 0, strides = [16, 1], sizes = [16, 16]>, %[[A]]<p = 0 : 4, offset = 0, strides = [16, 1], sizes = [16, 16]> queue(3) cause("store") deps(%[[T0]]) {engine = "dma"} : !inferentia.buffer<dram, {{.*}}>, !inferentia.buffer<sbuf, {{.*}}>
!dram = !inferentia.buffer<dram, 1, 1024, f32, #inferentia.mapping<shape = [1, 4, 16, 16], partition_dim = -1, partition_tile = 1>>
!sbuf = !inferentia.buffer<sbuf, 4, 256, f32, #inferentia.mapping<shape = [1, 4, 16, 16], partition_dim = 1, partition_tile = 4>>
inferentia.program @dma attributes {
    layers = [#inferentia.layer<name = "copy", op = "Identity", fused = [], macs = 0, predicted_cycles = 10, dram_read_bytes = 4096, dram_write_bytes = 4096>],
    layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %x = inferentia.dram_tensor "x" "input" address(0) : !dram
  %y = inferentia.dram_tensor "y" "output" address(4096) : !dram
  %a = inferentia.alloc address(0) : !sbuf
  %t0 = inferentia.dma_copy %a<p = 0 : 4, offset = 0, strides = [1], sizes = [256]>, %x<p = 0 : 4 step 256, offset = 0, strides = [1], sizes = [256]> queue(0) cause("load") {engine = "dma", layer = 0 : i64} : !sbuf, !dram
  %t1 = inferentia.dma_copy %y<p = 0 : 4 step 256, offset = 0, strides = [16, 1], sizes = [16, 16]>, %a<p = 0 : 4, offset = 0, strides = [16, 1], sizes = [16, 16]> queue(3) cause("store") deps(%t0) {engine = "dma"} : !dram, !sbuf
}

// -----

// The tensor engine: a matmul into PSUM (K = 4 partitions, M = 8, N = 256),
// a second one accumulating, the result evacuated to SBUF by the vector
// engine, and a transpose (a relayout through PSUM).
// CHECK-LABEL: inferentia.program @tensor_engine
// CHECK: %[[W:[0-9]+]] = inferentia.alloc address(0) : !inferentia.buffer<sbuf, 4, 8, f32
// CHECK: %[[A:[0-9]+]] = inferentia.alloc address(32) : !inferentia.buffer<sbuf, 4, 256, f32
// CHECK: %[[O:[0-9]+]] = inferentia.alloc address(1056) : !inferentia.buffer<sbuf, 8, 256, f32
// CHECK: %[[P:[0-9]+]] = inferentia.alloc address(0) : !inferentia.buffer<psum, 8, 512, f32
// CHECK: %[[T0:[0-9]+]] = inferentia.matmul %[[P]]<p = 0 : 8, offset = 0, strides = [1], sizes = [256]>, %[[W]]<p = 0 : 4, offset = 0, strides = [1], sizes = [8]>, %[[A]]<p = 0 : 4, offset = 0, strides = [1], sizes = [256]> {engine = "tensor"}
// CHECK: %[[T1:[0-9]+]] = inferentia.matmul %[[P]]<{{.*}}>, %[[W]]<{{.*}}>, %[[A]]<{{.*}}> deps(%[[T0]]) {accumulate, engine = "tensor"}
// CHECK: %[[T2:[0-9]+]] = inferentia.tensor_copy %[[O]]<p = 0 : 8, offset = 0, strides = [1], sizes = [256]>, %[[P]]<p = 0 : 8, offset = 0, strides = [1], sizes = [256]> cause("none") deps(%[[T1]]) {engine = "vector"}
// CHECK: inferentia.transpose %[[P]]<p = 0 : 8, offset = 256, strides = [1], sizes = [4]>, %[[W]]<p = 0 : 4, offset = 0, strides = [1], sizes = [8]> cause("relayout") deps(%[[T2]]) {engine = "tensor"}
!w = !inferentia.buffer<sbuf, 4, 8, f32, #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 4>>
!a = !inferentia.buffer<sbuf, 4, 256, f32, #inferentia.mapping<shape = [4, 256], partition_dim = 0, partition_tile = 4>>
!o = !inferentia.buffer<sbuf, 8, 256, f32, #inferentia.mapping<shape = [8, 256], partition_dim = 0, partition_tile = 8>>
!p = !inferentia.buffer<psum, 8, 512, f32, #inferentia.mapping<shape = [8, 512], partition_dim = 0, partition_tile = 8>>
inferentia.program @tensor_engine attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %w = inferentia.alloc address(0) : !w
  %a = inferentia.alloc address(32) : !a
  %o = inferentia.alloc address(1056) : !o
  %p = inferentia.alloc address(0) : !p
  %t0 = inferentia.matmul %p<p = 0 : 8, offset = 0, strides = [1], sizes = [256]>, %w<p = 0 : 4, offset = 0, strides = [1], sizes = [8]>, %a<p = 0 : 4, offset = 0, strides = [1], sizes = [256]> {engine = "tensor"} : !p, !w, !a
  %t1 = inferentia.matmul %p<p = 0 : 8, offset = 0, strides = [1], sizes = [256]>, %w<p = 0 : 4, offset = 0, strides = [1], sizes = [8]>, %a<p = 0 : 4, offset = 0, strides = [1], sizes = [256]> deps(%t0) {accumulate, engine = "tensor"} : !p, !w, !a
  %t2 = inferentia.tensor_copy %o<p = 0 : 8, offset = 0, strides = [1], sizes = [256]>, %p<p = 0 : 8, offset = 0, strides = [1], sizes = [256]> cause("none") deps(%t1) {engine = "vector"} : !o, !p
  %t3 = inferentia.transpose %p<p = 0 : 8, offset = 256, strides = [1], sizes = [4]>, %w<p = 0 : 4, offset = 0, strides = [1], sizes = [8]> cause("relayout") deps(%t2) {engine = "tensor"} : !p, !w
}

// -----

// The vector, scalar and GpSimd engines' instructions: an activation with
// a per-partition bias operand and one with an immediate bias, elementwise
// and per-partition arithmetic, a reduction of the innermost free dimension
// a memset, a comparison and a select.
// CHECK-LABEL: inferentia.program @compute
// CHECK: %[[I:[0-9]+]] = inferentia.alloc address(0)
// CHECK: %[[O:[0-9]+]] = inferentia.alloc address(1024)
// CHECK: %[[B:[0-9]+]] = inferentia.alloc address(2048)
// CHECK: %[[R:[0-9]+]] = inferentia.alloc address(2052)
// CHECK: %[[T0:[0-9]+]] = inferentia.activation "relu" %[[O]]<p = 0 : 8, offset = 0, strides = [1], sizes = [256]>, %[[I]]<p = 0 : 8, offset = 0, strides = [1], sizes = [256]>, %[[B]]<p = 0 : 8, offset = 0, strides = [1], sizes = [1]> {engine = "scalar", layer = 0 : i64, scale = 5.000000e-01 : f32}
// CHECK: %[[T1:[0-9]+]] = inferentia.activation "exp" %[[O]]<{{.*}}>, %[[I]]<{{.*}}> deps(%[[T0]]) {engine = "scalar", imm0 = 1.000000e+00 : f32}
// CHECK: %[[T2:[0-9]+]] = inferentia.tensor_tensor "add" %[[O]]<{{.*}}>, %[[I]]<{{.*}}>, %[[O]]<{{.*}}> deps(%[[T1]]) {engine = "vector"}
// CHECK: %[[T3:[0-9]+]] = inferentia.tensor_scalar "multiply", "add" %[[O]]<{{.*}}>, %[[I]]<{{.*}}>, %[[B]]<p = 0 : 8, offset = 0, strides = [1], sizes = [1]> deps(%[[T2]]) {engine = "vector", imm1 = 2.000000e+00 : f32}
// CHECK: %[[T4:[0-9]+]] = inferentia.tensor_scalar "max", "bypass" %[[O]]<{{.*}}>, %[[O]]<{{.*}}> deps(%[[T3]]) {engine = "gpsimd"}
// CHECK: %[[T5:[0-9]+]] = inferentia.tensor_reduce "max" %[[R]]<p = 0 : 8, offset = 0, strides = [1], sizes = [16]>, %[[O]]<p = 0 : 8, offset = 0, strides = [16, 1], sizes = [16, 16]> dims(1) deps(%[[T4]]) {engine = "vector"}
// CHECK: inferentia.memset %[[O]]<p = 0 : 8, offset = 0, strides = [1], sizes = [256]> value(-1.000000e+00) deps(%[[T5]]) {engine = "gpsimd"} : !inferentia.buffer<sbuf, 8, 256, f32
// CHECK: %[[T7:[0-9]+]] = inferentia.tensor_scalar "is_lt", "bypass" %[[O]]<{{.*}}>, %[[I]]<{{.*}}> deps(%{{[0-9]+}}) {engine = "vector"}
// CHECK: inferentia.select %[[O]]<{{.*}}>, %[[O]]<{{.*}}>, %[[I]]<{{.*}}>, %[[O]]<{{.*}}> deps(%[[T7]]) {engine = "vector"}
!v = !inferentia.buffer<sbuf, 8, 256, f32, #inferentia.mapping<shape = [8, 256], partition_dim = 0, partition_tile = 8>>
!b = !inferentia.buffer<sbuf, 8, 1, f32, #inferentia.mapping<shape = [8, 1], partition_dim = 0, partition_tile = 8>>
!r = !inferentia.buffer<sbuf, 8, 16, f32, #inferentia.mapping<shape = [8, 16], partition_dim = 0, partition_tile = 8>>
inferentia.program @compute attributes {
    layers = [#inferentia.layer<name = "act", op = "Relu", fused = [], macs = 0, predicted_cycles = 64, dram_read_bytes = 0, dram_write_bytes = 0>],
    layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %i = inferentia.alloc address(0) : !v
  %o = inferentia.alloc address(1024) : !v
  %b = inferentia.alloc address(2048) : !b
  %r = inferentia.alloc address(2052) : !r
  %t0 = inferentia.activation "relu" %o<p = 0 : 8, offset = 0, strides = [1], sizes = [256]>, %i<p = 0 : 8, offset = 0, strides = [1], sizes = [256]>, %b<p = 0 : 8, offset = 0, strides = [1], sizes = [1]> {engine = "scalar", layer = 0 : i64, scale = 0.5 : f32} : !v, !v, !b
  %t1 = inferentia.activation "exp" %o<p = 0 : 8, offset = 0, strides = [1], sizes = [256]>, %i<p = 0 : 8, offset = 0, strides = [1], sizes = [256]> deps(%t0) {engine = "scalar", imm0 = 1.0 : f32} : !v, !v
  %t2 = inferentia.tensor_tensor "add" %o<p = 0 : 8, offset = 0, strides = [1], sizes = [256]>, %i<p = 0 : 8, offset = 0, strides = [1], sizes = [256]>, %o<p = 0 : 8, offset = 0, strides = [1], sizes = [256]> deps(%t1) {engine = "vector"} : !v, !v, !v
  %t3 = inferentia.tensor_scalar "multiply", "add" %o<p = 0 : 8, offset = 0, strides = [1], sizes = [256]>, %i<p = 0 : 8, offset = 0, strides = [1], sizes = [256]>, %b<p = 0 : 8, offset = 0, strides = [1], sizes = [1]> deps(%t2) {engine = "vector", imm1 = 2.0 : f32} : !v, !v, !b
  %t4 = inferentia.tensor_scalar "max", "bypass" %o<p = 0 : 8, offset = 0, strides = [1], sizes = [256]>, %o<p = 0 : 8, offset = 0, strides = [1], sizes = [256]> deps(%t3) {engine = "gpsimd"} : !v, !v
  %t5 = inferentia.tensor_reduce "max" %r<p = 0 : 8, offset = 0, strides = [1], sizes = [16]>, %o<p = 0 : 8, offset = 0, strides = [16, 1], sizes = [16, 16]> dims(1) deps(%t4) {engine = "vector"} : !r, !v
  %t6 = inferentia.memset %o<p = 0 : 8, offset = 0, strides = [1], sizes = [256]> value(-1.0) deps(%t5) {engine = "gpsimd"} : !v
  %t7 = inferentia.tensor_scalar "is_lt", "bypass" %o<p = 0 : 8, offset = 0, strides = [1], sizes = [256]>, %i<p = 0 : 8, offset = 0, strides = [1], sizes = [256]> deps(%t6) {engine = "vector"} : !v, !v
  %t8 = inferentia.select %o<p = 0 : 8, offset = 0, strides = [1], sizes = [256]>, %o<p = 0 : 8, offset = 0, strides = [1], sizes = [256]>, %i<p = 0 : 8, offset = 0, strides = [1], sizes = [256]>, %o<p = 0 : 8, offset = 0, strides = [1], sizes = [256]> deps(%t7) {engine = "vector"} : !v, !v, !v, !v
}

// -----

// bf16 storage: weights whose value is bf16, a bf16 SBUF buffer loaded by
// DMA, and a PSUM result (always fp32) rounded to bf16 as it is evacuated.
// The partitions start where the start-partition rule allows (32 for an
// access of 32 partitions).
// CHECK-LABEL: inferentia.program @bf16
// CHECK: %[[W:[0-9]+]] = inferentia.dram_tensor "w" "weights" address(0) {value = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xbf16>} : !inferentia.buffer<dram, 1, 4, bf16,
// CHECK: %[[S:[0-9]+]] = inferentia.alloc address(0) : !inferentia.buffer<sbuf, 64, 4, bf16,
// CHECK: %[[T0:[0-9]+]] = inferentia.dma_copy %[[S]]<p = 32 : 1, offset = 0, strides = [1], sizes = [4]>, %[[W]]<p = 0 : 1, offset = 0, strides = [1], sizes = [4]> queue(15) cause("load") {engine = "dma"} : !inferentia.buffer<sbuf, 64, 4, bf16, {{.*}}>, !inferentia.buffer<dram, 1, 4, bf16, {{.*}}>
// CHECK: inferentia.tensor_copy %[[S]]<p = 32 : 32, offset = 0, strides = [1], sizes = [4]>, %{{[0-9]+}}<p = 32 : 32, offset = 0, strides = [1], sizes = [4]> cause("none") deps(%[[T0]]) {engine = "scalar"}
!wd = !inferentia.buffer<dram, 1, 4, bf16, #inferentia.mapping<shape = [4], partition_dim = -1, partition_tile = 1>>
!ws = !inferentia.buffer<sbuf, 64, 4, bf16, #inferentia.mapping<shape = [64, 4], partition_dim = 0, partition_tile = 64>>
!pp = !inferentia.buffer<psum, 64, 4, f32, #inferentia.mapping<shape = [64, 4], partition_dim = 0, partition_tile = 64>>
inferentia.program @bf16 attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %w = inferentia.dram_tensor "w" "weights" address(0) {value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xbf16>} : !wd
  %s = inferentia.alloc address(0) : !ws
  %p = inferentia.alloc address(0) : !pp
  %t0 = inferentia.dma_copy %s<p = 32 : 1, offset = 0, strides = [1], sizes = [4]>, %w<p = 0 : 1, offset = 0, strides = [1], sizes = [4]> queue(15) cause("load") {engine = "dma"} : !ws, !wd
  %t1 = inferentia.tensor_copy %s<p = 32 : 32, offset = 0, strides = [1], sizes = [4]>, %p<p = 32 : 32, offset = 0, strides = [1], sizes = [4]> cause("none") deps(%t0) {engine = "scalar"} : !ws, !pp
}
