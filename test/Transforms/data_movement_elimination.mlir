// RUN: dlc-opt --split-input-file --verify-diagnostics --dlc-data-movement-elimination %s | FileCheck %s

// Transpose: the reader reads the source with the indices swapped; the copy
// nest, the buffer and its dealloc are gone.
// CHECK-LABEL: func.func @transpose
// CHECK-SAME: dlc.eliminated_copies = [{bytes = 128 : i64, elements = 32 : i64, op = "transpose"}]
// CHECK-NOT: memref.alloc
// CHECK: affine.for %[[I:.*]] = 0 to 8
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 4
// CHECK-NEXT: %[[V:.*]] = affine.load %[[A:.*]][%[[J]], %[[I]]] : memref<4x8xf32>
// CHECK-NEXT: arith.maximumf %[[V]]
// CHECK-NOT: memref.dealloc
func.func @transpose(%a: memref<4x8xf32>, %out: memref<8x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<8x4xf32>
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 4 {
      %v = affine.load %a[%j, %i] : memref<4x8xf32>
      affine.store %v, %t[%i, %j] : memref<8x4xf32>
    }
  } loc("transpose")
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 4 {
      %v = affine.load %t[%i, %j] : memref<8x4xf32>
      %r = arith.maximumf %v, %zero : f32
      affine.store %r, %out[%i, %j] : memref<8x4xf32>
    }
  }
  memref.dealloc %t : memref<8x4xf32>
  return
}

// -----

// Reshape 6x4 -> 4x6 through a flat buffer: the composed access needs
// floordiv and mod.
// CHECK-LABEL: func.func @reshape
// CHECK-NOT: memref.alloc
// CHECK: affine.for %[[I:.*]] = 0 to 4
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 6
// CHECK-NEXT: affine.load %{{.*}}[%[[I]] + (%[[I]] * 2 + %[[J]]) floordiv 4, (%[[I]] * 2 + %[[J]]) mod 4] : memref<6x4xf32>
func.func @reshape(%a: memref<6x4xf32>, %out: memref<4x6xf32>) {
  %r = memref.alloc() : memref<24xf32>
  affine.for %i = 0 to 24 {
    %v = affine.load %a[%i floordiv 4, %i mod 4] : memref<6x4xf32>
    affine.store %v, %r[%i] : memref<24xf32>
  } loc("reshape")
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 6 {
      %v = affine.load %r[%i * 6 + %j] : memref<24xf32>
      %w = arith.negf %v : f32
      affine.store %w, %out[%i, %j] : memref<4x6xf32>
    }
  }
  memref.dealloc %r : memref<24xf32>
  return
}

// -----

// Flatten of a non-contiguous slice: bufferization copies the slice into a
// buffer and reads it through collapse_shape; the reader reads the source
// through the strided view's offsets instead.
// CHECK-LABEL: func.func @flatten
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.subview
// CHECK: affine.for %[[I:.*]] = 0 to 2
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 12
// CHECK-NEXT: affine.load %{{.*}}[%[[I]], %[[J]] floordiv 2, %[[J]] mod 2 + 1] : memref<2x6x4xf32>
// CHECK-NOT: memref.dealloc
func.func @flatten(%a: memref<2x6x4xf32>, %out: memref<2x12xf32>) {
  %s = memref.subview %a[0, 0, 1] [2, 6, 2] [1, 1, 1] : memref<2x6x4xf32> to memref<2x6x2xf32, strided<[24, 4, 1], offset: 1>>
  %b = memref.alloc() : memref<2x6x2xf32>
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 6 {
      affine.for %k = 0 to 2 {
        %v = affine.load %s[%i, %j, %k] : memref<2x6x2xf32, strided<[24, 4, 1], offset: 1>>
        affine.store %v, %b[%i, %j, %k] : memref<2x6x2xf32>
      }
    }
  } loc("flatten")
  %f = memref.collapse_shape %b [[0], [1, 2]] : memref<2x6x2xf32> into memref<2x12xf32>
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 12 {
      %v = affine.load %f[%i, %j] : memref<2x12xf32>
      %w = arith.negf %v : f32
      affine.store %w, %out[%i, %j] : memref<2x12xf32>
    }
  }
  memref.dealloc %b : memref<2x6x2xf32>
  return
}

// -----

// Strided slice (every other column from column 1), and a split of the rows
// into two buffers: each reader reads its part of the source.
// CHECK-LABEL: func.func @slice_split
// CHECK-SAME: op = "slice"
// CHECK-SAME: op = "split"
// CHECK-SAME: op = "split"
// CHECK-NOT: memref.alloc
// CHECK: affine.for %[[I:.*]] = 0 to 4
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 4
// CHECK-NEXT: affine.load %[[A:.*]][%[[I]], %[[J]] * 2 + 1] : memref<4x8xf32>
// CHECK: affine.for %[[K:.*]] = 0 to 8
// CHECK-NEXT: affine.load %[[A]][0, %[[K]]] : memref<4x8xf32>
// CHECK: affine.for %[[P:.*]] = 0 to 3
// CHECK-NEXT: affine.for %[[Q:.*]] = 0 to 8
// CHECK-NEXT: affine.load %[[A]][%[[P]] + 1, %[[Q]]] : memref<4x8xf32>
// CHECK-NOT: memref.dealloc
func.func @slice_split(%a: memref<4x8xf32>, %o1: memref<4x4xf32>, %o2: memref<1x8xf32>, %o3: memref<3x8xf32>) {
  %s = memref.alloc() : memref<4x4xf32>
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 4 {
      %v = affine.load %a[%i, %j * 2 + 1] : memref<4x8xf32>
      affine.store %v, %s[%i, %j] : memref<4x4xf32>
    }
  } loc("slice")
  %top = memref.alloc() : memref<1x8xf32>
  %bottom = memref.alloc() : memref<3x8xf32>
  affine.for %j = 0 to 8 {
    %v = affine.load %a[0, %j] : memref<4x8xf32>
    affine.store %v, %top[0, %j] : memref<1x8xf32>
  } loc("split")
  affine.for %i = 0 to 3 {
    affine.for %j = 0 to 8 {
      %v = affine.load %a[%i + 1, %j] : memref<4x8xf32>
      affine.store %v, %bottom[%i, %j] : memref<3x8xf32>
    }
  } loc("split")
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 4 {
      %v = affine.load %s[%i, %j] : memref<4x4xf32>
      %w = arith.negf %v : f32
      affine.store %w, %o1[%i, %j] : memref<4x4xf32>
    }
  }
  affine.for %j = 0 to 8 {
    %v = affine.load %top[0, %j] : memref<1x8xf32>
    %w = arith.negf %v : f32
    affine.store %w, %o2[0, %j] : memref<1x8xf32>
  }
  affine.for %i = 0 to 3 {
    affine.for %j = 0 to 8 {
      %v = affine.load %bottom[%i, %j] : memref<3x8xf32>
      %w = arith.negf %v : f32
      affine.store %w, %o3[%i, %j] : memref<3x8xf32>
    }
  }
  memref.dealloc %s : memref<4x4xf32>
  memref.dealloc %top : memref<1x8xf32>
  memref.dealloc %bottom : memref<3x8xf32>
  return
}

// -----

// Concat of two inputs along columns: two copies into subviews of one
// buffer; the read becomes an affine.if choosing the input by column.
// CHECK: #[[LEFT:.*]] = affine_set<(d0, d1) : (-d1 + 2 >= 0)>
// CHECK-LABEL: func.func @concat
// CHECK-SAME: (%[[A:.*]]: memref<2x3xf32>, %[[B:.*]]: memref<2x5xf32>, %[[OUT:.*]]: memref<2x8xf32>)
// CHECK-SAME: elements = 6 : i64, op = "concat"}, {bytes = 64 : i64, elements = 10 : i64, op = "concat"}]
// CHECK-NOT: memref.alloc
// CHECK: affine.for %[[I:.*]] = 0 to 2
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 8
// CHECK-NEXT: %[[V:.*]] = affine.if #[[LEFT]](%[[I]], %[[J]]) -> f32
// CHECK-NEXT: %[[L:.*]] = affine.load %[[A]][%[[I]], %[[J]]]
// CHECK-NEXT: affine.yield %[[L]]
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[R:.*]] = affine.load %[[B]][%[[I]], %[[J]] - 3]
// CHECK-NEXT: affine.yield %[[R]]
// CHECK: arith.negf %[[V]]
func.func @concat(%a: memref<2x3xf32>, %b: memref<2x5xf32>, %out: memref<2x8xf32>) {
  %c = memref.alloc() : memref<2x8xf32>
  %lo = memref.subview %c[0, 0] [2, 3] [1, 1] : memref<2x8xf32> to memref<2x3xf32, strided<[8, 1]>>
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 3 {
      %v = affine.load %a[%i, %j] : memref<2x3xf32>
      affine.store %v, %lo[%i, %j] : memref<2x3xf32, strided<[8, 1]>>
    }
  } loc("concat")
  %hi = memref.subview %c[0, 3] [2, 5] [1, 1] : memref<2x8xf32> to memref<2x5xf32, strided<[8, 1], offset: 3>>
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 5 {
      %v = affine.load %b[%i, %j] : memref<2x5xf32>
      affine.store %v, %hi[%i, %j] : memref<2x5xf32, strided<[8, 1], offset: 3>>
    }
  } loc("concat")
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 8 {
      %v = affine.load %c[%i, %j] : memref<2x8xf32>
      %w = arith.negf %v : f32
      affine.store %w, %out[%i, %j] : memref<2x8xf32>
    }
  }
  memref.dealloc %c : memref<2x8xf32>
  return
}

// -----

// Pad: a fill of the whole buffer with 0, then a copy of the input into its
// interior; the read is the input inside and the fill value outside.
// CHECK: #[[INTERIOR:.*]] = affine_set<(d0, d1) : (d0 - 1 >= 0, -d0 + 2 >= 0, d1 - 1 >= 0, -d1 + 3 >= 0)>
// CHECK-LABEL: func.func @pad
// CHECK-SAME: (%[[A:.*]]: memref<2x3xf32>,
// CHECK-SAME: dlc.eliminated_copies = [{bytes = 80 : i64, elements = 6 : i64, op = "pad"}]
// CHECK: %[[ZERO:.*]] = arith.constant 0.0
// CHECK-NOT: memref.alloc
// CHECK: affine.for %[[I:.*]] = 0 to 4
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 5
// CHECK-NEXT: %[[V:.*]] = affine.if #[[INTERIOR]](%[[I]], %[[J]]) -> f32
// CHECK-NEXT: %[[L:.*]] = affine.load %[[A]][%[[I]] - 1, %[[J]] - 1]
// CHECK-NEXT: affine.yield %[[L]]
// CHECK-NEXT: } else {
// CHECK-NEXT: affine.yield %[[ZERO]]
// CHECK: arith.negf %[[V]]
// CHECK-NOT: affine.store %[[ZERO]]
func.func @pad(%a: memref<2x3xf32>, %out: memref<4x5xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<4x5xf32>
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 5 {
      affine.store %zero, %p[%i, %j] : memref<4x5xf32>
    }
  } loc("pad")
  %interior = memref.subview %p[1, 1] [2, 3] [1, 1] : memref<4x5xf32> to memref<2x3xf32, strided<[5, 1], offset: 6>>
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 3 {
      %v = affine.load %a[%i, %j] : memref<2x3xf32>
      affine.store %v, %interior[%i, %j] : memref<2x3xf32, strided<[5, 1], offset: 6>>
    }
  } loc("pad")
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 5 {
      %v = affine.load %p[%i, %j] : memref<4x5xf32>
      %w = arith.negf %v : f32
      affine.store %w, %out[%i, %j] : memref<4x5xf32>
    }
  }
  memref.dealloc %p : memref<4x5xf32>
  return
}

// -----

// Gather with constant indices [1, 3, 5, 7] along columns, as the Gather
// lowering writes it (index read from a constant table, wrapped and
// clamped): the table is an arithmetic sequence, so the gather is made an
// affine copy and then eliminated like any other.
// CHECK-LABEL: func.func @gather
// CHECK-SAME: op = "gather"
// CHECK-NOT: memref.alloc
// CHECK: affine.for %[[I:.*]] = 0 to 3
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 4
// CHECK-NEXT: affine.load %{{.*}}[%[[I]], %[[J]] * 2 + 1] : memref<3x8xf32>
// CHECK-NEXT: arith.negf
memref.global "private" constant @indices : memref<4xi64> = dense<[1, 3, 5, 7]>
func.func @gather(%a: memref<3x8xf32>, %out: memref<3x4xf32>) {
  %c0 = arith.constant 0 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %table = memref.get_global @indices : memref<4xi64>
  %g = memref.alloc() : memref<3x4xf32>
  affine.for %i = 0 to 3 {
    affine.for %j = 0 to 4 {
      %raw = affine.load %table[%j] : memref<4xi64>
      %index = arith.index_cast %raw : i64 to index
      %negative = arith.cmpi slt, %index, %c0 : index
      %shifted = arith.addi %index, %c8 : index
      %wrapped = arith.select %negative, %shifted, %index : index
      %low = arith.maxsi %wrapped, %c0 : index
      %clamped = arith.minsi %low, %c7 : index
      %v = memref.load %a[%i, %clamped] : memref<3x8xf32>
      affine.store %v, %g[%i, %j] : memref<3x4xf32>
    }
  } loc("gather")
  affine.for %i = 0 to 3 {
    affine.for %j = 0 to 4 {
      %v = affine.load %g[%i, %j] : memref<3x4xf32>
      %w = arith.negf %v : f32
      affine.store %w, %out[%i, %j] : memref<3x4xf32>
    }
  }
  memref.dealloc %g : memref<3x4xf32>
  return
}

// -----

// Expand (broadcast of a row) and tile (columns repeated with mod): the
// copies' loads read an element several times, which is fine; their stores
// are injective, which is what the inversion needs.
// CHECK-LABEL: func.func @expand_tile
// CHECK-SAME: op = "expand"
// CHECK-SAME: op = "tile"
// CHECK-NOT: memref.alloc
// CHECK: affine.for %{{.*}} = 0 to 4
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 3
// CHECK-NEXT: affine.load %{{.*}}[%[[J]]] : memref<3xf32>
// CHECK: affine.for %[[P:.*]] = 0 to 2
// CHECK-NEXT: affine.for %[[Q:.*]] = 0 to 6
// CHECK-NEXT: affine.load %{{.*}}[%[[P]], %[[Q]] mod 3] : memref<2x3xf32>
func.func @expand_tile(%a: memref<3xf32>, %b: memref<2x3xf32>, %o1: memref<4x3xf32>, %o2: memref<2x6xf32>) {
  %e = memref.alloc() : memref<4x3xf32>
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 3 {
      %v = affine.load %a[%j] : memref<3xf32>
      affine.store %v, %e[%i, %j] : memref<4x3xf32>
    }
  } loc("expand")
  %t = memref.alloc() : memref<2x6xf32>
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 6 {
      %v = affine.load %b[%i, %j mod 3] : memref<2x3xf32>
      affine.store %v, %t[%i, %j] : memref<2x6xf32>
    }
  } loc("tile")
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 3 {
      %v = affine.load %e[%i, %j] : memref<4x3xf32>
      %w = arith.negf %v : f32
      affine.store %w, %o1[%i, %j] : memref<4x3xf32>
    }
  }
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 6 {
      %v = affine.load %t[%i, %j] : memref<2x6xf32>
      %w = arith.negf %v : f32
      affine.store %w, %o2[%i, %j] : memref<2x6xf32>
    }
  }
  memref.dealloc %e : memref<4x3xf32>
  memref.dealloc %t : memref<2x6xf32>
  return
}

// -----

// Channel shuffle (6 channels, 2 groups) written as three copies: reshape
// to 2x3, transpose to 3x2, reshape back to 6. Copies are processed from
// the last one up, each buffer's reader then reading the buffer before it:
// the chain collapses onto the input, and the reader reads input channel
// 3 * (c mod 2) + c floordiv 2 directly.
// CHECK-LABEL: func.func @channel_shuffle
// CHECK-SAME: op = "reshape1"
// CHECK-SAME: op = "transpose"
// CHECK-SAME: op = "reshape2"
// CHECK-NOT: memref.alloc
// CHECK: affine.for %[[C:.*]] = 0 to 6
// CHECK-NEXT: affine.for %[[P:.*]] = 0 to 4
// CHECK-NEXT: affine.load %{{.*}}[%[[C]] * -2 + ((%[[C]] + 1) floordiv 2) * 5, %[[P]]] : memref<6x4xf32>
// CHECK-NEXT: arith.negf
// CHECK-NEXT: affine.store
// CHECK-NOT: affine.for
func.func @channel_shuffle(%x: memref<6x4xf32>, %out: memref<6x4xf32>) {
  %r = memref.alloc() : memref<2x3x4xf32>
  affine.for %g = 0 to 2 {
    affine.for %k = 0 to 3 {
      affine.for %p = 0 to 4 {
        %v = affine.load %x[%g * 3 + %k, %p] : memref<6x4xf32>
        affine.store %v, %r[%g, %k, %p] : memref<2x3x4xf32>
      }
    }
  } loc("reshape1")
  %t = memref.alloc() : memref<3x2x4xf32>
  affine.for %k = 0 to 3 {
    affine.for %g = 0 to 2 {
      affine.for %p = 0 to 4 {
        %v = affine.load %r[%g, %k, %p] : memref<2x3x4xf32>
        affine.store %v, %t[%k, %g, %p] : memref<3x2x4xf32>
      }
    }
  } loc("transpose")
  %s = memref.alloc() : memref<6x4xf32>
  affine.for %c = 0 to 6 {
    affine.for %p = 0 to 4 {
      %v = affine.load %t[%c floordiv 2, %c mod 2, %p] : memref<3x2x4xf32>
      affine.store %v, %s[%c, %p] : memref<6x4xf32>
    }
  } loc("reshape2")
  affine.for %c = 0 to 6 {
    affine.for %p = 0 to 4 {
      %v = affine.load %s[%c, %p] : memref<6x4xf32>
      %w = arith.negf %v : f32
      affine.store %w, %out[%c, %p] : memref<6x4xf32>
    }
  }
  memref.dealloc %r : memref<2x3x4xf32>
  memref.dealloc %t : memref<3x2x4xf32>
  memref.dealloc %s : memref<6x4xf32>
  return
}

// -----

// A transpose whose result is copied into the output (concatenated with
// another input): the output's copies stay, with a remark, but the first
// one reads the transpose's input directly, so the intermediate buffer goes.
// CHECK-LABEL: func.func @into_output
// CHECK-SAME: (%[[A:.*]]: memref<3x2xf32>, %[[B:.*]]: memref<2x5xf32>, %[[OUT:.*]]: memref<2x8xf32>)
// CHECK-SAME: dlc.eliminated_copies = [{bytes = 24 : i64, elements = 6 : i64, op = "transpose"}]
// CHECK-NOT: memref.alloc
// CHECK: %[[LO:.*]] = memref.subview %[[OUT]]
// CHECK: affine.for %[[I:.*]] = 0 to 2
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 3
// CHECK-NEXT: %[[V:.*]] = affine.load %[[A]][%[[J]], %[[I]]]
// CHECK-NEXT: affine.store %[[V]], %[[LO]][%[[I]], %[[J]]]
// CHECK: affine.load %[[B]]
func.func @into_output(%a: memref<3x2xf32>, %b: memref<2x5xf32>, %out: memref<2x8xf32>) {
  %t = memref.alloc() : memref<2x3xf32>
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 3 {
      %v = affine.load %a[%j, %i] : memref<3x2xf32>
      affine.store %v, %t[%i, %j] : memref<2x3xf32>
    }
  } loc("transpose")
  %lo = memref.subview %out[0, 0] [2, 3] [1, 1] : memref<2x8xf32> to memref<2x3xf32, strided<[8, 1]>>
  // expected-remark @below {{copy kept: it writes a function argument (an output)}}
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 3 {
      %v = affine.load %t[%i, %j] : memref<2x3xf32>
      affine.store %v, %lo[%i, %j] : memref<2x3xf32, strided<[8, 1]>>
    }
  }
  %hi = memref.subview %out[0, 3] [2, 5] [1, 1] : memref<2x8xf32> to memref<2x5xf32, strided<[8, 1], offset: 3>>
  // expected-remark @below {{copy kept: it writes a function argument (an output)}}
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 5 {
      %v = affine.load %b[%i, %j] : memref<2x5xf32>
      affine.store %v, %hi[%i, %j] : memref<2x5xf32, strided<[8, 1], offset: 3>>
    }
  }
  memref.dealloc %t : memref<2x3xf32>
  return
}

// -----

// A copy nothing reads is dead: it goes with its buffer.
// CHECK-LABEL: func.func @dead
// CHECK-SAME: dlc.eliminated_copies = [{bytes = 16 : i64, elements = 4 : i64, op = "dead"}]
// CHECK-NEXT: return
func.func @dead(%a: memref<4xf32>) {
  %d = memref.alloc() : memref<4xf32>
  affine.for %i = 0 to 4 {
    %v = affine.load %a[%i] : memref<4xf32>
    affine.store %v, %d[%i] : memref<4xf32>
  } loc("dead")
  memref.dealloc %d : memref<4xf32>
  return
}

// -----

// A concatenation feeding a transpose (a ShuffleNet unit's concat before its
// channel shuffle): the transpose goes first, so its reader reads the
// concatenation, which then goes as well; the reader ends up with one
// affine.if choosing the input.
// CHECK: #[[FIRST:.*]] = affine_set<(d0, d1) : (-d1 + 1 >= 0)>
// CHECK-LABEL: func.func @concat_then_transpose
// CHECK-SAME: (%[[A:.*]]: memref<2x3xf32>, %[[B:.*]]: memref<2x3xf32>,
// CHECK-SAME: op = "concat"}, {{.*}} op = "concat"}, {{.*}} op = "transpose"}]
// CHECK-NOT: memref.alloc
// CHECK: affine.for %[[I:.*]] = 0 to 3
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 4
// CHECK-NEXT: affine.if #[[FIRST]](%[[I]], %[[J]]) -> f32
// CHECK-NEXT: affine.load %[[A]][%[[J]], %[[I]]]
// CHECK: } else {
// CHECK-NEXT: affine.load %[[B]][%[[J]] - 2, %[[I]]]
func.func @concat_then_transpose(%a: memref<2x3xf32>, %b: memref<2x3xf32>, %out: memref<3x4xf32>) {
  %c = memref.alloc() : memref<4x3xf32>
  %top = memref.subview %c[0, 0] [2, 3] [1, 1] : memref<4x3xf32> to memref<2x3xf32, strided<[3, 1]>>
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 3 {
      %v = affine.load %a[%i, %j] : memref<2x3xf32>
      affine.store %v, %top[%i, %j] : memref<2x3xf32, strided<[3, 1]>>
    }
  } loc("concat")
  %bottom = memref.subview %c[2, 0] [2, 3] [1, 1] : memref<4x3xf32> to memref<2x3xf32, strided<[3, 1], offset: 6>>
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 3 {
      %v = affine.load %b[%i, %j] : memref<2x3xf32>
      affine.store %v, %bottom[%i, %j] : memref<2x3xf32, strided<[3, 1], offset: 6>>
    }
  } loc("concat")
  %t = memref.alloc() : memref<3x4xf32>
  affine.for %i = 0 to 3 {
    affine.for %j = 0 to 4 {
      %v = affine.load %c[%j, %i] : memref<4x3xf32>
      affine.store %v, %t[%i, %j] : memref<3x4xf32>
    }
  } loc("transpose")
  affine.for %i = 0 to 3 {
    affine.for %j = 0 to 4 {
      %v = affine.load %t[%i, %j] : memref<3x4xf32>
      %w = arith.negf %v : f32
      affine.store %w, %out[%i, %j] : memref<3x4xf32>
    }
  }
  memref.dealloc %c : memref<4x3xf32>
  memref.dealloc %t : memref<3x4xf32>
  return
}
