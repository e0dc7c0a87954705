// RUN: dlc-opt --split-input-file --dlc-test-access-analysis %s -o /dev/null | FileCheck %s

// Transpose: the store is injective, its inverse maps the buffer back to
// iterations, and a later read of column 2 of the transposed buffer is row 2
// of the source.
// CHECK-LABEL: nest 0 in @transpose: 2 loops, band depth 2
// CHECK: load [[SRC:arg0]]: { [[S0:S[0-9]+]][[[I:[a-z0-9_]+]], [[J:[a-z0-9_]+]]] -> [[SRC]][([[J]]), ([[I]])] : 0 <= [[I]] <= 7 and 0 <= [[J]] <= 3 }
// CHECK: store [[T:alloc]]: { [[S0]][[[I]], [[J]]] -> [[T]][([[I]]), ([[J]])] : {{.*}} } injective
// CHECK: pure copy: yes
// CHECK: copy inverse: { [[T]][i0, i1] -> [[S0]][[[I]] = i0, [[J]] = i1] : 0 <= i0 <= 7 and 0 <= i1 <= 3 }
// CHECK-LABEL: nest 1 in @transpose
// CHECK: load [[T]]: { [[S1:S[0-9]+]][[[K:[a-z0-9_]+]]] -> [[T]][([[K]]), (2)] : 0 <= [[K]] <= 7 }
// CHECK: nest 1 load [[T]] through copy nest 0:
// CHECK-NEXT: from [[SRC]]: { [[S1]][[[K]]] -> [[SRC]][(2), ([[K]])] : 0 <= [[K]] <= 7 } (1 affine piece)
// CHECK-NEXT: piece always: (d0) -> (2, d0)
// CHECK-NEXT: covers the whole read
func.func @transpose(%a: memref<4x8xf32>, %out: memref<8xf32>) {
  %t = memref.alloc() : memref<8x4xf32>
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 4 {
      %v = affine.load %a[%j, %i] : memref<4x8xf32>
      affine.store %v, %t[%i, %j] : memref<8x4xf32>
    }
  }
  affine.for %i = 0 to 8 {
    %v = affine.load %t[%i, 2] : memref<8x4xf32>
    affine.store %v, %out[%i] : memref<8xf32>
  }
  memref.dealloc %t : memref<8x4xf32>
  return
}

// -----

// Reshape 6x4 -> 24 -> 4x6 written with floordiv/mod (quasi-affine): the
// flattening load is still a function, and the 4x6 read seen through the
// copy reads A[(6i + j) floordiv 4, (6i + j) mod 4].
// CHECK-LABEL: nest 0 in @reshape: 1 loops, band depth 1
// CHECK: load [[SRC:arg0]]: { [[S0:S[0-9]+]][[[I:[a-z0-9_]+]]] -> [[SRC]][(floor(([[I]])/4)), (([[I]]) mod 4)] : 0 <= [[I]] <= 23 }
// CHECK: store [[R:alloc]]: {{.*}} injective
// CHECK: footprint [[SRC]]: 24 elements, 96 bytes, box 6x4 (24 elements, 96 bytes)
// CHECK: pure copy: yes
// CHECK-LABEL: nest 1 in @reshape
// CHECK: load [[R]]: { [[S1:S[0-9]+]][[[P:[a-z0-9_]+]], [[Q:[a-z0-9_]+]]] -> [[R]][(6[[P]] + [[Q]])] :
// CHECK: nest 1 load [[R]] through copy nest 0:
// CHECK-NEXT: from [[SRC]]: { [[S1]][[[P]], [[Q]]] -> [[SRC]][([[P]] + floor((2[[P]] + [[Q]])/4)), ((2[[P]] + [[Q]]) mod 4)] : {{.*}} } (1 affine piece)
// CHECK-NEXT: piece always: (d0, d1) -> (d0 + (d0 * 2 + d1) floordiv 4, (d0 * 2 + d1) mod 4)
// CHECK-NEXT: covers the whole read
func.func @reshape(%a: memref<6x4xf32>, %out: memref<4x6xf32>) {
  %r = memref.alloc() : memref<24xf32>
  affine.for %i = 0 to 24 {
    %v = affine.load %a[%i floordiv 4, %i mod 4] : memref<6x4xf32>
    affine.store %v, %r[%i] : memref<24xf32>
  }
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 6 {
      %v = affine.load %r[%i * 6 + %j] : memref<24xf32>
      affine.store %v, %out[%i, %j] : memref<4x6xf32>
    }
  }
  memref.dealloc %r : memref<24xf32>
  return
}

// -----

// The same reshape as the views bufferization produces: collapse_shape and
// expand_shape are resolved to the underlying buffer with floordiv/mod.
// CHECK-LABEL: nest 0 in @views
// CHECK: load collapse_shape: { [[S0:S[0-9]+]][[[I:[a-z0-9_]+]]] -> collapse_shape[([[I]])] : 0 <= [[I]] <= 23 }
// CHECK-NEXT: on [[SRC:arg0]]: { [[S0]][[[I]]] -> [[SRC]][(floor(([[I]])/12)), (floor(([[I]])/4) - 3*floor(([[I]])/12)), (([[I]]) mod 4)] : 0 <= [[I]] <= 23 }
// CHECK: footprint [[SRC]]: 24 elements, 96 bytes, box 2x3x4 (24 elements, 96 bytes)
// CHECK-LABEL: nest 1 in @views
// CHECK: load expand_shape: { [[S1:S[0-9]+]][[[P:[a-z0-9_]+]], [[Q:[a-z0-9_]+]]] -> expand_shape[([[P]]), ([[Q]])] :
// CHECK-NEXT: on [[R:alloc]]: { [[S1]][[[P]], [[Q]]] -> [[R]][(6[[P]] + [[Q]])] :
// CHECK-LABEL: nest 1 load expand_shape through copy nest 0:
// CHECK-NEXT: from [[SRC]]: { [[S1]][[[P]], [[Q]]] -> [[SRC]][(floor((6[[P]] + [[Q]])/12)), ([[P]] + floor((2[[P]] + [[Q]])/4) - 3*floor((6[[P]] + [[Q]])/12)), ((2[[P]] + [[Q]]) mod 4)] : {{.*}} } (1 affine piece)
// CHECK-NEXT: piece always: (d0, d1) -> ((d0 * 6 + d1) floordiv 12, d0 + (d0 * 2 + d1) floordiv 4 - ((d0 * 6 + d1) floordiv 12) * 3, (d0 * 2 + d1) mod 4)
// CHECK-NEXT: covers the whole read
func.func @views(%a: memref<2x3x4xf32>, %out: memref<4x6xf32>) {
  %flat = memref.collapse_shape %a [[0, 1, 2]] : memref<2x3x4xf32> into memref<24xf32>
  %r = memref.alloc() : memref<24xf32>
  affine.for %i = 0 to 24 {
    %v = affine.load %flat[%i] : memref<24xf32>
    affine.store %v, %r[%i] : memref<24xf32>
  }
  %m = memref.expand_shape %r [[0, 1]] output_shape [4, 6] : memref<24xf32> into memref<4x6xf32>
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 6 {
      %v = affine.load %m[%i, %j] : memref<4x6xf32>
      affine.store %v, %out[%i, %j] : memref<4x6xf32>
    }
  }
  memref.dealloc %r : memref<24xf32>
  return
}

// -----

// Concat of two inputs into subviews of one buffer: each half's store is
// resolved to the buffer, and the read of the whole buffer splits into one
// relation per source, each defined on its half of the columns (as affine
// pieces, simplified within the reader's loops: one column bound each).
// CHECK-LABEL: nest 0 in @concat
// CHECK: store subview: {{.*}} injective
// CHECK-NEXT: on [[C:alloc]]: { [[S0:S[0-9]+]][[[I:[a-z0-9_]+]], [[J:[a-z0-9_]+]]] -> [[C]][([[I]]), ([[J]])] : 0 <= [[I]] <= 1 and 0 <= [[J]] <= 2 }
// CHECK-LABEL: nest 1 in @concat
// CHECK: store subview_0: {{.*}} injective
// CHECK-NEXT: on [[C]]: { [[S1:S[0-9]+]][[[I1:[a-z0-9_]+]], [[J1:[a-z0-9_]+]]] -> [[C]][([[I1]]), (3 + [[J1]])] : 0 <= [[I1]] <= 1 and 0 <= [[J1]] <= 4 }
// CHECK: copy inverse: { [[C]][i0, i1] -> [[S1]][[[I1]] = i0, [[J1]] = -3 + i1] : 0 <= i0 <= 1 and 3 <= i1 <= 7 }
// CHECK-LABEL: nest 2 in @concat
// CHECK: pure copy: no
// CHECK: nest 2 load [[C]] through copy nest 0 1:
// CHECK-NEXT: from arg0: { [[S2:S[0-9]+]][[[P:[a-z0-9_]+]], [[Q:[a-z0-9_]+]]] -> arg0[([[P]]), ([[Q]])] : 0 <= [[P]] <= 1 and 0 <= [[Q]] <= 2 } (1 affine piece)
// CHECK-NEXT: piece (d0, d1) : (-d1 + 2 >= 0): (d0, d1) -> (d0, d1)
// CHECK-NEXT: from arg1: { [[S2]][[[P]], [[Q]]] -> arg1[([[P]]), (-3 + [[Q]])] : 0 <= [[P]] <= 1 and 3 <= [[Q]] <= 7 } (1 affine piece)
// CHECK-NEXT: piece (d0, d1) : (d1 - 3 >= 0): (d0, d1) -> (d0, d1 - 3)
// CHECK-NEXT: covers the whole read
func.func @concat(%a: memref<2x3xf32>, %b: memref<2x5xf32>, %out: memref<2x8xf32>) {
  %c = memref.alloc() : memref<2x8xf32>
  %lo = memref.subview %c[0, 0] [2, 3] [1, 1] : memref<2x8xf32> to memref<2x3xf32, strided<[8, 1]>>
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 3 {
      %v = affine.load %a[%i, %j] : memref<2x3xf32>
      affine.store %v, %lo[%i, %j] : memref<2x3xf32, strided<[8, 1]>>
    }
  }
  %hi = memref.subview %c[0, 3] [2, 5] [1, 1] : memref<2x8xf32> to memref<2x5xf32, strided<[8, 1], offset: 3>>
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 5 {
      %v = affine.load %b[%i, %j] : memref<2x5xf32>
      affine.store %v, %hi[%i, %j] : memref<2x5xf32, strided<[8, 1], offset: 3>>
    }
  }
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 8 {
      %v = affine.load %c[%i, %j] : memref<2x8xf32>
      %w = arith.addf %v, %v : f32
      affine.store %w, %out[%i, %j] : memref<2x8xf32>
    }
  }
  memref.dealloc %c : memref<2x8xf32>
  return
}

// -----

// Concat of a tensor with itself: one source, so the composed relation is a
// single piecewise function with one piece per half.
// CHECK-LABEL: nest 0 in @concat_self
// CHECK: nest 2 load alloc through copy nest 0 1:
// CHECK-NEXT: from arg0: { [[S:S[0-9]+]][[[P:[a-z0-9_]+]], [[Q:[a-z0-9_]+]]] -> arg0[([[P]]), ([[Q]])] : 0 <= [[P]] <= 1 and 0 <= [[Q]] <= 2; [[S]][[[P]], [[Q]]] -> arg0[([[P]]), (-3 + [[Q]])] : 0 <= [[P]] <= 1 and 3 <= [[Q]] <= 5 } (2 affine pieces)
// CHECK-NEXT: piece (d0, d1) : (d1 - 3 >= 0): (d0, d1) -> (d0, d1 - 3)
// CHECK-NEXT: piece (d0, d1) : (-d1 + 2 >= 0): (d0, d1) -> (d0, d1)
// CHECK-NEXT: covers the whole read
func.func @concat_self(%a: memref<2x3xf32>, %out: memref<2x6xf32>) {
  %c = memref.alloc() : memref<2x6xf32>
  %lo = memref.subview %c[0, 0] [2, 3] [1, 1] : memref<2x6xf32> to memref<2x3xf32, strided<[6, 1]>>
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 3 {
      %v = affine.load %a[%i, %j] : memref<2x3xf32>
      affine.store %v, %lo[%i, %j] : memref<2x3xf32, strided<[6, 1]>>
    }
  }
  %hi = memref.subview %c[0, 3] [2, 3] [1, 1] : memref<2x6xf32> to memref<2x3xf32, strided<[6, 1], offset: 3>>
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 3 {
      %v = affine.load %a[%i, %j] : memref<2x3xf32>
      affine.store %v, %hi[%i, %j] : memref<2x3xf32, strided<[6, 1], offset: 3>>
    }
  }
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 6 {
      %v = affine.load %c[%i, %j] : memref<2x6xf32>
      affine.store %v, %out[%i, %j] : memref<2x6xf32>
    }
  }
  memref.dealloc %c : memref<2x6xf32>
  return
}

// -----

// Broadcast: the store of each element happens 4 times (not injective), so
// a read through it is not determined by one copy iteration.
// CHECK-LABEL: nest 0 in @broadcast
// CHECK: store alloc: {{.*}} not injective
// CHECK: pure copy: yes
// CHECK: nest 1 load alloc through copy nest 0: not invertible (a store is not injective or copies overlap)
func.func @broadcast(%a: memref<4xf32>, %out: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 4 {
      %v = affine.load %a[%j] : memref<4xf32>
      affine.store %v, %t[%i] : memref<4xf32>
    }
  }
  affine.for %i = 0 to 4 {
    %v = affine.load %t[%i] : memref<4xf32>
    affine.store %v, %out[%i] : memref<4xf32>
  }
  memref.dealloc %t : memref<4xf32>
  return
}

// -----

// A reversed copy (negative step): the index `-i + 7` multiplies by a
// negative constant, which isl reads only as a bare number.
// CHECK-LABEL: nest 0 in @reverse
// CHECK: load [[SRC:arg0]]: { [[S0:S[0-9]+]][[[I:[a-z0-9_]+]]] -> [[SRC]][(7 - [[I]])] : 0 <= [[I]] <= 7 }
// CHECK: nest 1 load alloc through copy nest 0:
// CHECK-NEXT: from [[SRC]]: {{.*}} (1 affine piece)
// CHECK-NEXT: piece always: (d0) -> (-d0 + 7)
func.func @reverse(%a: memref<8xf32>, %out: memref<8xf32>) {
  %t = memref.alloc() : memref<8xf32>
  affine.for %i = 0 to 8 {
    %v = affine.load %a[7 - %i] : memref<8xf32>
    affine.store %v, %t[%i] : memref<8xf32>
  }
  affine.for %i = 0 to 8 {
    %v = affine.load %t[%i] : memref<8xf32>
    %w = arith.negf %v : f32
    affine.store %w, %out[%i] : memref<8xf32>
  }
  memref.dealloc %t : memref<8xf32>
  return
}
