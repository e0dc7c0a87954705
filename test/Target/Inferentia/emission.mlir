// RUN: dlc-translate --inferentia-to-trace %s | FileCheck %s
// RUN: dlc-translate --inferentia-to-listing %s | FileCheck %s --check-prefix=LISTING
// RUN: dlc-translate --inferentia-to-weights %s -o %t.bin
// RUN: od -A d -t x1 -v %t.bin | FileCheck %s --check-prefix=WEIGHTS

// A bias and a ReLU, hand-written: three loads on three queues, the scalar
// engine waiting for the two it reads, the vector engine scaling by a bf16
// per-partition factor, and the store waiting for it. The module's
// hardware description makes a machine of 4 DMA queues.

// The header: the machine in force, DRAM up to the end of the output, the
// interface tensors with their shapes, the weights (two tensors with a gap
// between them), the layers and the compiler's counts.
// CHECK: {"format":"dlc-inferentia-trace","version":1,"machine":{"partitions":128,{{.*}}"dma_queues":4,{{.*}}},"dram_bytes":768,"inputs":[{"name":"x","address":0,"shape":[1,4,4,4],"type":"f32"}],"outputs":[{"name":"y","address":512,"shape":[1,4,4,4],"type":"f32"}],"weights_file":"weights.bin","weights_address":256,"weights_bytes":40,"layers":[{"name":"relu1","op":"Relu","fused":["add1"],"macs":0}],"load_store_pairs_removed":2,"load_store_pairs_total":3,"intermediate_bytes_removed":512,"intermediate_bytes_total":768,"layout_mode":"global"}
// One instruction per line, deps as indices, addresses absolute (the
// buffer's place plus the pattern's offset, in bytes).
// CHECK-NEXT: {"op":"dma_copy","engine":"dma","queue":0,"layer":0,"cause":"load","dst":{"mem":"sbuf","start":0,"partitions":4,"addr":0,"dims":{{\[\[}}1,16]]},"srcs":[{"mem":"dram","partitions":4,"partition_stride":16,"addr":0,"dims":{{\[\[}}1,16]]}]}
// CHECK-NEXT: {"op":"dma_copy","engine":"dma","queue":1,"layer":0,"cause":"load","dst":{"mem":"sbuf","start":0,"partitions":4,"addr":128,"dims":{{\[\[}}1,1]]},"srcs":[{"mem":"dram","partitions":4,"partition_stride":1,"addr":256,"dims":{{\[\[}}1,1]]}]}
// CHECK-NEXT: {"op":"dma_copy","engine":"dma","queue":2,"cause":"load","dst":{"mem":"sbuf","type":"bf16","start":0,"partitions":4,"addr":132,"dims":{{\[\[}}1,1]]},"srcs":[{"mem":"dram","type":"bf16","partitions":4,"partition_stride":1,"addr":288,"dims":{{\[\[}}1,1]]}]}
// CHECK-NEXT: {"op":"activation","engine":"scalar","deps":[0,1],"layer":0,"function":"relu","scale":2,"imm0":0,"dst":{"mem":"sbuf","start":0,"partitions":4,"addr":64,"dims":{{\[\[}}1,16]]},"srcs":[{"mem":"sbuf","start":0,"partitions":4,"addr":0,"dims":{{\[\[}}1,16]]},{"mem":"sbuf","start":0,"partitions":4,"addr":128,"dims":{{\[\[}}1,1]]}]}
// CHECK-NEXT: {"op":"tensor_scalar","engine":"vector","deps":[2,3],"layer":0,"alu0":"multiply","alu1":"bypass","imm0":0,"imm1":0,"dst":{"mem":"sbuf","start":0,"partitions":4,"addr":64,"dims":{{\[\[}}1,16]]},"srcs":[{"mem":"sbuf","start":0,"partitions":4,"addr":64,"dims":{{\[\[}}1,16]]},{"mem":"sbuf","type":"bf16","start":0,"partitions":4,"addr":132,"dims":{{\[\[}}1,1]]}]}
// CHECK-NEXT: {"op":"dma_copy","engine":"dma","queue":3,"deps":[4],"layer":0,"cause":"store","dst":{"mem":"dram","partitions":4,"partition_stride":16,"addr":512,"dims":{{\[\[}}4,4],[1,4]]},"srcs":[{"mem":"sbuf","start":0,"partitions":4,"addr":64,"dims":{{\[\[}}4,4],[1,4]]}]}
// CHECK-NOT: {

// The listing: the header's figures, then per instruction its index,
// engine (and queue), opcode, operands as memory[partitions @address
// (sizes):(strides) type], the fields of its opcode, its deps and its ONNX
// node (from the op's location, else its layer's).
// LISTING:      # dlc inferentia trace: 6 instructions, 1 layers, layout global
// LISTING-NEXT: # inputs: x @0 f32[1x4x4x4]
// LISTING-NEXT: # outputs: y @512 f32[1x4x4x4]
// LISTING-NEXT: # weights: 40 bytes @256 (weights.bin); DRAM used: 768 bytes
// LISTING-NEXT: # data-movement elimination: 2 of 3 load-store pairs, 512 of 768 intermediate bytes removed
// LISTING-NEXT: # index engine opcode dst <- srcs fields deps # ONNX node
// LISTING-NEXT:      0  dma.q0    dma_copy       sbuf[p 0:4 @0 (16):(1) f32] <- dram[p 0:4 step 16 @0 (16):(1) f32] cause=load  # relu1 (Relu)
// LISTING-NEXT:      1  dma.q1    dma_copy       sbuf[p 0:4 @128 (1):(1) f32] <- dram[p 0:4 step 1 @256 (1):(1) f32] cause=load  # relu1 (Relu)
// LISTING-NEXT:      2  dma.q2    dma_copy       sbuf[p 0:4 @132 (1):(1) bf16] <- dram[p 0:4 step 1 @288 (1):(1) bf16] cause=load{{$}}
// LISTING-NEXT:      3  scalar    activation     sbuf[p 0:4 @64 (16):(1) f32] <- sbuf[p 0:4 @0 (16):(1) f32], sbuf[p 0:4 @128 (1):(1) f32] function=relu scale=2 deps=0,1  # relu1 (Relu)
// LISTING-NEXT:      4  vector    tensor_scalar  sbuf[p 0:4 @64 (16):(1) f32] <- sbuf[p 0:4 @64 (16):(1) f32], sbuf[p 0:4 @132 (1):(1) bf16] alu0=multiply alu1=bypass deps=2,3  # relu1 (Relu)
// LISTING-NEXT:      5  dma.q3    dma_copy       dram[p 0:4 step 16 @512 (4,4):(4,1) f32] <- sbuf[p 0:4 @64 (4,4):(4,1) f32] cause=store deps=4  # store_y (Relu)

// weights.bin: DRAM from 256 to 296. The bias in f32 (0.5, -1, 2, 0), 16
// zero bytes up to 288, then the factors rounded to bf16 to nearest even
// (1, 1.01171875 up to 1.015625, 1.00390625 down to 1, -2).
// WEIGHTS:      0000000 00 00 00 3f 00 00 80 bf 00 00 00 40 00 00 00 00
// WEIGHTS-NEXT: 0000016 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
// WEIGHTS-NEXT: 0000032 80 3f 82 3f 80 3f 00 c0
// WEIGHTS-NEXT: 0000040

!xd = !inferentia.buffer<dram, 1, 64, f32, #inferentia.mapping<shape = [1, 4, 4, 4], partition_dim = -1, partition_tile = 1>>
!bd = !inferentia.buffer<dram, 1, 4, f32, #inferentia.mapping<shape = [4], partition_dim = -1, partition_tile = 1>>
!hd = !inferentia.buffer<dram, 1, 4, bf16, #inferentia.mapping<shape = [4], partition_dim = -1, partition_tile = 1>>
!xs = !inferentia.buffer<sbuf, 4, 16, f32, #inferentia.mapping<shape = [1, 4, 4, 4], partition_dim = 1, partition_tile = 4>>
!bs = !inferentia.buffer<sbuf, 4, 1, f32, #inferentia.mapping<shape = [4, 1], partition_dim = 0, partition_tile = 4>>
!hs = !inferentia.buffer<sbuf, 4, 1, bf16, #inferentia.mapping<shape = [4, 1], partition_dim = 0, partition_tile = 4>>
module attributes {dlc.hardware = #dlc.hardware<target = {dma_queues = 4 : i64}>} {
  inferentia.program @main attributes {
      layers = [#inferentia.layer<name = "relu1", op = "Relu", fused = ["add1"], macs = 0, predicted_cycles = 100, dram_read_bytes = 280, dram_write_bytes = 256>],
      layout_mode = "global", load_store_pairs_removed = 2 : i64,
      load_store_pairs_total = 3 : i64, intermediate_bytes_removed = 512 : i64,
      intermediate_bytes_total = 768 : i64} {
    %x = inferentia.dram_tensor "x" "input" address(0) : !xd
    %b = inferentia.dram_tensor "bias" "weights" address(256) {value = dense<[0.5, -1.0, 2.0, 0.0]> : tensor<4xf32>} : !bd
    %h = inferentia.dram_tensor "factor" "weights" address(288) {value = dense<[1.0, 1.01171875, 1.00390625, -2.0]> : tensor<4xf32>} : !hd
    %y = inferentia.dram_tensor "y" "output" address(512) : !xd
    %xs = inferentia.alloc address(0) : !xs
    %ys = inferentia.alloc address(64) : !xs
    %bs = inferentia.alloc address(128) : !bs
    %hs = inferentia.alloc address(132) : !hs
    %t0 = inferentia.dma_copy %xs<p = 0 : 4, offset = 0, strides = [1], sizes = [16]>, %x<p = 0 : 4 step 16, offset = 0, strides = [1], sizes = [16]> queue(0) cause("load") {engine = "dma", layer = 0 : i64} : !xs, !xd
    %t1 = inferentia.dma_copy %bs<p = 0 : 4, offset = 0, strides = [1], sizes = [1]>, %b<p = 0 : 4 step 1, offset = 0, strides = [1], sizes = [1]> queue(1) cause("load") {engine = "dma", layer = 0 : i64} : !bs, !bd
    %t2 = inferentia.dma_copy %hs<p = 0 : 4, offset = 0, strides = [1], sizes = [1]>, %h<p = 0 : 4 step 1, offset = 0, strides = [1], sizes = [1]> queue(2) cause("load") {engine = "dma"} : !hs, !hd
    %t3 = inferentia.activation "relu" %ys<p = 0 : 4, offset = 0, strides = [1], sizes = [16]>, %xs<p = 0 : 4, offset = 0, strides = [1], sizes = [16]>, %bs<p = 0 : 4, offset = 0, strides = [1], sizes = [1]> deps(%t0, %t1) {engine = "scalar", layer = 0 : i64, scale = 2.0 : f32} : !xs, !xs, !bs
    %t4 = inferentia.tensor_scalar "multiply", "bypass" %ys<p = 0 : 4, offset = 0, strides = [1], sizes = [16]>, %ys<p = 0 : 4, offset = 0, strides = [1], sizes = [16]>, %hs<p = 0 : 4, offset = 0, strides = [1], sizes = [1]> deps(%t2, %t3) {engine = "vector", layer = 0 : i64} : !xs, !xs, !hs
    %t5 = inferentia.dma_copy %y<p = 0 : 4 step 16, offset = 0, strides = [4, 1], sizes = [4, 4]>, %ys<p = 0 : 4, offset = 0, strides = [4, 1], sizes = [4, 4]> queue(3) cause("store") deps(%t4) {engine = "dma", layer = 0 : i64} : !xd, !xs loc("store_y"("Relu"))
  }
}
