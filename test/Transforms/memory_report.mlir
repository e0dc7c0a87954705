// RUN: dlc-opt --split-input-file --dlc-memory-report %s -o /dev/null | FileCheck %s
// RUN: dlc-opt --split-input-file --dlc-memory-report="output=%t" %s -o /dev/null
// RUN: FileCheck %s --input-file=%t --check-prefix=FILE

// A 64x64x64 matmul tiled by 32 with its transfers (as
// dlc-generate-transfers records them) and its tiling. The intra-tile loops
// start at the tile loops' indices, so isl counts the MACs: 64^3. The three
// 4 KiB tiles are live while the nest runs. In: C 4 x 32x32, A and B 8 x
// 32x32 each; out: C 4 x 32x32; every block is a 128-byte row. Without
// `dlc.transfers` on the nest, the report counts each transfer's
// executions (isl) itself.
// CHECK-LABEL: "hardware": {
// CHECK-NEXT:    "banks": 1,
// CHECK-NEXT:    "dma_block_overhead_bytes": 0,
// CHECK-NEXT:    "double_buffering": false,
// CHECK-NEXT:    "local_memory_bytes": 16384,
// CHECK-NEXT:    "local_memory_space": 1
// CHECK-NEXT:  },
// CHECK-NEXT:  "nodes": [
// CHECK-NEXT:    {
// CHECK-NEXT:      "bytes_in": 81920,
// CHECK-NEXT:      "bytes_out": 16384,
// CHECK-NEXT:      "copies_removed": 0,
// CHECK-NEXT:      "copy_bytes_removed": 0,
// CHECK-NEXT:      "footprint_bytes": 12288,
// CHECK-NEXT:      "macs": 262144,
// CHECK-NEXT:      "nests": 1,
// CHECK-NEXT:      "op": "mm",
// CHECK-NEXT:      "relayout_bytes": 0,
// CHECK-NEXT:      "relayout_copies": 0,
// CHECK-NEXT:      "tiling": [
// CHECK-NEXT:        {
// CHECK-NEXT:          "footprint_bytes": 12288,
// CHECK-NEXT:          "loop_order": "kloop",
// CHECK-NEXT:          "tile_sizes": [
// CHECK-NEXT:            32,
// CHECK-NEXT:            32,
// CHECK-NEXT:            32
// CHECK-NEXT:          ],
// CHECK-NEXT:          "traffic_bytes": 98304
// CHECK-NEXT:        }
// CHECK-NEXT:      ],
// CHECK-NEXT:      "transfer_sizes": {
// CHECK-NEXT:        "128": 24
// CHECK-NEXT:      },
// CHECK-NEXT:      "transfers": 24
// CHECK-NEXT:    }
// CHECK-NEXT:  ],
// CHECK-NEXT:  "total": {
// CHECK-NEXT:    "bytes_in": 81920,
// CHECK-NEXT:    "bytes_out": 16384,
// CHECK-NEXT:    "copies_removed": 0,
// CHECK-NEXT:    "copy_bytes_removed": 0,
// CHECK-NEXT:    "footprint_bytes": 12288,
// CHECK-NEXT:    "macs": 262144,
// CHECK-NEXT:    "nests": 1,
// CHECK-NEXT:    "nodes": 1,
// CHECK-NEXT:    "relayout_bytes": 0,
// CHECK-NEXT:    "relayout_copies": 0,
// CHECK-NEXT:    "transfer_sizes": {
// CHECK-NEXT:      "128": 24
// CHECK-NEXT:    },
// CHECK-NEXT:    "transfers": 24
// CHECK-NEXT:  }
// CHECK-NEXT: }
#id = affine_map<(d0) -> (d0)>
#plus32 = affine_map<(d0) -> (d0 + 32)>
#tile = affine_map<(d0, d1) -> (d0, d1)>
#origin2 = affine_map<() -> (0, 0)>
#origin1 = affine_map<() -> (0)>
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 16384, double_buffering = false>} {
  func.func @tiled_matmul(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c1024 = arith.constant 1024 : index
    %a = memref.alloc() : memref<32x32xf32, 1>
    %b = memref.alloc() : memref<32x32xf32, 1>
    %c = memref.alloc() : memref<32x32xf32, 1>
    %tag = memref.alloc() : memref<1xi32>
    affine.for %ii = 0 to 64 step 32 {
      affine.for %jj = 0 to 64 step 32 {
        "affine.dma_start"(%C, %ii, %jj, %c, %tag, %c1024, %c64, %c32) {src_map = #tile, dst_map = #origin2, tag_map = #origin1} : (memref<64x64xf32>, index, index, memref<32x32xf32, 1>, memref<1xi32>, index, index, index) -> ()
        affine.dma_wait %tag[0], %c1024 : memref<1xi32>
        affine.for %kk = 0 to 64 step 32 {
          "affine.dma_start"(%A, %ii, %kk, %a, %tag, %c1024, %c64, %c32) {src_map = #tile, dst_map = #origin2, tag_map = #origin1} : (memref<64x64xf32>, index, index, memref<32x32xf32, 1>, memref<1xi32>, index, index, index) -> ()
          affine.dma_wait %tag[0], %c1024 : memref<1xi32>
          "affine.dma_start"(%B, %kk, %jj, %b, %tag, %c1024, %c64, %c32) {src_map = #tile, dst_map = #origin2, tag_map = #origin1} : (memref<64x64xf32>, index, index, memref<32x32xf32, 1>, memref<1xi32>, index, index, index) -> ()
          affine.dma_wait %tag[0], %c1024 : memref<1xi32>
          affine.for %i = #id(%ii) to #plus32(%ii) {
            affine.for %j = #id(%jj) to #plus32(%jj) {
              affine.for %k = #id(%kk) to #plus32(%kk) {
                %x = affine.load %a[%i - %ii, %k - %kk] : memref<32x32xf32, 1>
                %y = affine.load %b[%k - %kk, %j - %jj] : memref<32x32xf32, 1>
                %z = affine.load %c[%i - %ii, %j - %jj] : memref<32x32xf32, 1>
                %p = arith.mulf %x, %y : f32
                %s = arith.addf %z, %p : f32
                affine.store %s, %c[%i - %ii, %j - %jj] : memref<32x32xf32, 1>
              }
            }
          } {dlc.tile_loop}
        } {dlc.tile_loop}
        "affine.dma_start"(%c, %C, %ii, %jj, %tag, %c1024, %c64, %c32) {src_map = #origin2, dst_map = #tile, tag_map = #origin1} : (memref<32x32xf32, 1>, memref<64x64xf32>, index, index, memref<1xi32>, index, index, index) -> ()
        affine.dma_wait %tag[0], %c1024 : memref<1xi32>
      } {dlc.tile_loop}
    } {dlc.tile_loop, dlc.tiling = {tile_sizes = [32, 32, 32], loop_order = "kloop", footprint_bytes = 12288, traffic_bytes = 98304}} loc("mm")
    memref.dealloc %a : memref<32x32xf32, 1>
    memref.dealloc %b : memref<32x32xf32, 1>
    memref.dealloc %c : memref<32x32xf32, 1>
    memref.dealloc %tag : memref<1xi32>
    return
  }
}

// -----

// A conv lowered to three nests of one node (pad fill, pad copy, conv),
// with hand-written transfers: without dlc.transfers, a transfer counts its
// executions, and one in the function body goes to the next nest (in) or
// the previous one (out). In: the weights (72 elements, strided in
// blocks of 18) and the 12 rows of the input (6 elements each); out: the
// result (144 elements). MACs: 4 x 6 x 6 outputs x 2 x 3 x 3 taps = 2592.
// CHECK-LABEL: "local_memory_bytes": 4096,
// CHECK:       "nodes": [
// CHECK-NEXT:    {
// CHECK-NEXT:      "bytes_in": 576,
// CHECK-NEXT:      "bytes_out": 576,
// CHECK-NEXT:      "copies_removed": 0,
// CHECK-NEXT:      "copy_bytes_removed": 0,
// CHECK-NEXT:      "footprint_bytes": 1376,
// CHECK-NEXT:      "macs": 2592,
// CHECK-NEXT:      "nests": 3,
// CHECK-NEXT:      "op": "conv1",
// CHECK-NEXT:      "relayout_bytes": 0,
// CHECK-NEXT:      "relayout_copies": 0,
// CHECK-NEXT:      "tiling": [],
// CHECK-NEXT:      "transfer_sizes": {
// CHECK-NEXT:        "24": 12,
// CHECK-NEXT:        "576": 1,
// CHECK-NEXT:        "72": 1
// CHECK-NEXT:      },
// CHECK-NEXT:      "transfers": 14
// CHECK-NEXT:    },
// A conv whose pad copy was eliminated: the taps in the padding are
// guarded out, so isl counts the MACs, 2 x 3 x (10 x 10 taps in bounds).
// Its copy removed is reported with it.
// CHECK-NEXT:    {
// CHECK-NEXT:      "bytes_in": 0,
// CHECK-NEXT:      "bytes_out": 0,
// CHECK-NEXT:      "copies_removed": 1,
// CHECK-NEXT:      "copy_bytes_removed": 384,
// CHECK-NEXT:      "footprint_bytes": 0,
// CHECK-NEXT:      "macs": 600,
// CHECK-NEXT:      "nests": 1,
// CHECK-NEXT:      "op": "conv2",
// A relayout nest copies 8 x 16 elements.
// CHECK:           "op": "transpose1",
// CHECK-NEXT:      "relayout_bytes": 512,
// CHECK-NEXT:      "relayout_copies": 1,
// A node whose only nest was eliminated comes last, without nests.
// CHECK:           "copies_removed": 1,
// CHECK-NEXT:      "copy_bytes_removed": 128,
// CHECK-NEXT:      "footprint_bytes": 0,
// CHECK-NEXT:      "macs": 0,
// CHECK-NEXT:      "nests": 0,
// CHECK-NEXT:      "op": "transpose0",
// CHECK:         "total": {
// CHECK-NEXT:      "bytes_in": 576,
// CHECK-NEXT:      "bytes_out": 576,
// CHECK-NEXT:      "copies_removed": 2,
// CHECK-NEXT:      "copy_bytes_removed": 512,
// CHECK-NEXT:      "footprint_bytes": 1376,
// CHECK-NEXT:      "macs": 3192,
// CHECK-NEXT:      "nests": 5,
// CHECK-NEXT:      "nodes": 4,
// CHECK-NEXT:      "relayout_bytes": 512,
// CHECK-NEXT:      "relayout_copies": 1,
// CHECK-NEXT:      "transfer_sizes": {
// CHECK-NEXT:        "24": 12,
// CHECK-NEXT:        "576": 1,
// CHECK-NEXT:        "72": 1
// CHECK-NEXT:      },
// CHECK-NEXT:      "transfers": 14
// CHECK-NEXT:    }
#in_bounds = affine_set<(oh, ow, kh, kw) : (oh + kh - 1 >= 0, 4 - oh - kh >= 0, ow + kw - 1 >= 0, 4 - ow - kw >= 0)>
#shifted = affine_map<(d0, d1) -> (d0 + d1 - 1)>
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @convs(%x: memref<2x6x6xf32>, %w: memref<4x2x3x3xf32>, %y: memref<4x6x6xf32>,
                   %x2: memref<3x4x4xf32>, %w2: memref<2x3x3x3xf32>, %y2: memref<2x4x4xf32>,
                   %t: memref<16x8xf32>, %t2: memref<8x16xf32>)
      attributes {dlc.eliminated_copies = [{op = "conv2", elements = 96, bytes = 384}, {op = "transpose0", elements = 32, bytes = 128}]} {
    %zero = arith.constant 0.0 : f32
    %c6 = arith.constant 6 : index
    %c18 = arith.constant 18 : index
    %c72 = arith.constant 72 : index
    %c144 = arith.constant 144 : index
    %padded = memref.alloc() : memref<2x8x8xf32, 1>
    %wl = memref.alloc() : memref<4x2x3x3xf32, 1>
    %out = memref.alloc() : memref<4x6x6xf32, 1>
    %tag = memref.alloc() : memref<1xi32>
    affine.dma_start %w[0, 0, 0, 0], %wl[0, 0, 0, 0], %tag[0], %c72, %c18, %c18 : memref<4x2x3x3xf32>, memref<4x2x3x3xf32, 1>, memref<1xi32>
    affine.dma_wait %tag[0], %c72 : memref<1xi32>
    affine.for %c = 0 to 2 {
      affine.for %h = 0 to 8 {
        affine.for %v = 0 to 8 {
          affine.store %zero, %padded[%c, %h, %v] : memref<2x8x8xf32, 1>
        }
      }
    } loc("conv1")
    affine.for %c = 0 to 2 {
      affine.for %h = 0 to 6 {
        affine.dma_start %x[%c, %h, 0], %padded[%c, %h + 1, 1], %tag[0], %c6 : memref<2x6x6xf32>, memref<2x8x8xf32, 1>, memref<1xi32>
        affine.dma_wait %tag[0], %c6 : memref<1xi32>
      }
    } loc("conv1")
    affine.for %co = 0 to 4 {
      affine.for %oh = 0 to 6 {
        affine.for %ow = 0 to 6 {
          affine.store %zero, %out[%co, %oh, %ow] : memref<4x6x6xf32, 1>
          affine.for %ci = 0 to 2 {
            affine.for %kh = 0 to 3 {
              affine.for %kw = 0 to 3 {
                %i = affine.load %padded[%ci, %oh + %kh, %ow + %kw] : memref<2x8x8xf32, 1>
                %f = affine.load %wl[%co, %ci, %kh, %kw] : memref<4x2x3x3xf32, 1>
                %acc = affine.load %out[%co, %oh, %ow] : memref<4x6x6xf32, 1>
                %p = arith.mulf %i, %f : f32
                %s = arith.addf %acc, %p : f32
                affine.store %s, %out[%co, %oh, %ow] : memref<4x6x6xf32, 1>
              }
            }
          }
        }
      }
    } loc("conv1")
    affine.dma_start %out[0, 0, 0], %y[0, 0, 0], %tag[0], %c144 : memref<4x6x6xf32, 1>, memref<4x6x6xf32>, memref<1xi32>
    affine.dma_wait %tag[0], %c144 : memref<1xi32>
    memref.dealloc %padded : memref<2x8x8xf32, 1>
    memref.dealloc %wl : memref<4x2x3x3xf32, 1>
    memref.dealloc %out : memref<4x6x6xf32, 1>
    affine.for %co = 0 to 2 {
      affine.for %oh = 0 to 4 {
        affine.for %ow = 0 to 4 {
          affine.for %ci = 0 to 3 {
            affine.for %kh = 0 to 3 {
              affine.for %kw = 0 to 3 {
                affine.if #in_bounds(%oh, %ow, %kh, %kw) {
                  %i = affine.load %x2[%ci, %oh + %kh - 1, %ow + %kw - 1] : memref<3x4x4xf32>
                  %f = affine.load %w2[%co, %ci, %kh, %kw] : memref<2x3x3x3xf32>
                  %acc = affine.load %y2[%co, %oh, %ow] : memref<2x4x4xf32>
                  %p = arith.mulf %i, %f : f32
                  %s = arith.addf %acc, %p : f32
                  affine.store %s, %y2[%co, %oh, %ow] : memref<2x4x4xf32>
                }
              }
            }
          }
        }
      }
    } loc("conv2")
    affine.for %i = 0 to 8 {
      affine.for %j = 0 to 16 {
        %v = affine.load %t[%j, %i] : memref<16x8xf32>
        affine.store %v, %t2[%i, %j] : memref<8x16xf32>
      }
    } {dlc.relayout} loc("transpose1")
    memref.dealloc %tag : memref<1xi32>
    return
  }
}

// -----

// Without a hardware description the report has "hardware": null (and
// local buffers are those of the default local space, 1). A transfer in the
// function body whose location names a node belongs to that node. A MAC on
// vectors counts its lanes, integer MACs count, index arithmetic does not;
// a product that feeds no addition is not a MAC. The triangular nest runs
// its body 1 + 2 + ... + 8 = 36 times. Also written to a file.
// CHECK-LABEL: "hardware": null,
// CHECK:         "bytes_in": 32,
// CHECK:         "op": "prefetch",
// CHECK:         "transfer_sizes": {
// CHECK-NEXT:      "32": 1
// CHECK-NEXT:    },
// CHECK-NEXT:    "transfers": 1
// CHECK:         "footprint_bytes": 32,
// CHECK-NEXT:    "macs": 36,
// CHECK-NEXT:    "nests": 1,
// CHECK-NEXT:    "op": "triangle",
// CHECK:         "macs": 32,
// CHECK-NEXT:    "nests": 1,
// CHECK-NEXT:    "op": "vector",
// FILE-LABEL: "hardware": null,
// FILE:         "op": "prefetch",
// FILE:         "op": "triangle",
// FILE:         "op": "vector",
// FILE:       "total": {
// FILE:         "bytes_in": 32,
// FILE:         "macs": 68,
#upper = affine_map<(d0) -> (d0 + 1)>
module {
  func.func @kinds(%a: memref<8x8xi32>, %v: memref<8xvector<4xf32>>) {
    %c8 = arith.constant 8 : index
    %row = memref.alloc() : memref<8xi32, 1>
    %tag = memref.alloc() : memref<1xi32>
    affine.dma_start %a[0, 0], %row[0], %tag[0], %c8 : memref<8x8xi32>, memref<8xi32, 1>, memref<1xi32> loc("prefetch")
    affine.dma_wait %tag[0], %c8 : memref<1xi32>
    affine.for %i = 0 to 8 {
      affine.for %j = 0 to #upper(%i) {
        %x = affine.load %a[%i, %j] : memref<8x8xi32>
        %p = arith.muli %x, %x : i32
        %s = arith.addi %p, %x : i32
        %square = arith.muli %s, %s : i32
        affine.store %square, %a[%i, %j] : memref<8x8xi32>
        %c4 = arith.constant 4 : index
        %scaled = arith.muli %i, %c4 : index
        %offset = arith.addi %scaled, %j : index
      }
    } loc("triangle")
    affine.for %i = 0 to 8 {
      %x = affine.load %v[%i] : memref<8xvector<4xf32>>
      %p = arith.mulf %x, %x : vector<4xf32>
      %s = arith.addf %p, %x : vector<4xf32>
      affine.store %s, %v[%i] : memref<8xvector<4xf32>>
    } loc("vector")
    memref.dealloc %row : memref<8xi32, 1>
    return
  }
}
