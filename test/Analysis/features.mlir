// RUN: dlc-opt --split-input-file --dlc-test-access-analysis=tile-sizes=2 %s -o /dev/null | FileCheck %s

// Steps become strides of the domain and affine.if conditions restrict it
// (the else branch gets the complement): the loads touch the even elements
// 8..14 and the odd elements 1..7, 8 distinct elements inside a box of 14.
// CHECK-LABEL: nest 0 in @guards
// CHECK: loop [[I:[a-z0-9_]+]]: depth 0, trip count 8
// CHECK: load [[A:arg0]]: { [[S:S[0-9]+]][[[I]]] -> [[A]][([[I]])] : ([[I]]) mod 2 = 0 and 8 <= [[I]] <= 15 }
// CHECK: store [[B:arg1]]: { [[S]][[[I]]] -> [[B]][(floor(([[I]])/2))] : ([[I]]) mod 2 = 0 and 8 <= [[I]] <= 15 } injective
// CHECK: load [[A]]: { [[S]][[[I]]] -> [[A]][(1 + [[I]])] : ([[I]]) mod 2 = 0 and 0 <= [[I]] <= 7 }
// CHECK: footprint [[A]]: 8 elements, 32 bytes, box 14 (14 elements, 56 bytes)
// CHECK: footprint [[B]]: 8 elements, 32 bytes, box 8 (8 elements, 32 bytes)
// A tile of 2 iterations of the step-2 loop spans 4 values of it and reads
// 2 elements; the box at a fixed offset from the tile origin o must hold
// a[o+1..o+3] (else tiles) and a[o..o+2] (then tiles): 4 elements.
// CHECK: tile 2 footprint [[A]]: 2 elements, 8 bytes, box 4 (4 elements, 16 bytes)
func.func @guards(%a: memref<16xf32>, %b: memref<16xf32>) {
  affine.for %i = 0 to 16 step 2 {
    affine.if affine_set<(d0) : (d0 - 8 >= 0)>(%i) {
      %v = affine.load %a[%i] : memref<16xf32>
      affine.store %v, %b[%i floordiv 2] : memref<16xf32>
    } else {
      %v = affine.load %a[%i + 1] : memref<16xf32>
      affine.store %v, %b[%i floordiv 2] : memref<16xf32>
    }
  }
  return
}

// -----

// Values defined outside the nest are parameters; a parametric footprint has
// no count. A copy within one buffer is not a pure copy (there is no
// intermediate buffer to remove).
// CHECK-LABEL: nest 0 in @symbolic
// CHECK: loop [[I:[a-z0-9_]+]]: depth 0, trip count non-constant
// CHECK: load [[A:arg0]]: [[[N:arg1]]] -> { [[S:S[0-9]+]][[[I]]] -> [[A]][([[I]])] : 0 <= [[I]] < [[N]] }
// CHECK: store [[A]]: [[[N]]] -> { [[S]][[[I]]] -> [[A]][(1 + [[I]])] : 0 <= [[I]] < [[N]] } injective
// CHECK: footprint [[A]]: unknown
// CHECK: pure copy: no
func.func @symbolic(%a: memref<?xf32>, %n: index) {
  affine.for %i = 0 to %n {
    %v = affine.load %a[%i] : memref<?xf32>
    affine.store %v, %a[%i + 1] : memref<?xf32>
  }
  return
}

// -----

// Imperfect nest: the band stops at the first loop with more than one op in
// its body; inner loops get their own depth, and affine.apply results are
// expanded in the index expressions.
// CHECK-LABEL: nest 0 in @imperfect: 3 loops, band depth 1
// CHECK: loop [[I:[a-z0-9_]+]]: depth 0, trip count 4
// CHECK: loop [[J:[a-z0-9_]+]]: depth 1, trip count 3
// CHECK: loop [[K:[a-z0-9_]+]]: depth 1, trip count 5
// CHECK: store [[A:arg0]]: { [[S:S[0-9]+]][[[I]], [[J]]] -> [[A]][([[I]]), ([[J]])] : 0 <= [[I]] <= 3 and 0 <= [[J]] <= 2 } injective
// CHECK: store [[A]]: { [[S]][[[I]], [[K]]] -> [[A]][([[I]]), (3 + [[K]])] : 0 <= [[I]] <= 3 and 0 <= [[K]] <= 4 } injective
// CHECK: footprint [[A]]: 32 elements, 128 bytes, box 4x8 (32 elements, 128 bytes)
// CHECK: tile 2 footprint [[A]]: 16 elements, 64 bytes, box 2x8 (16 elements, 64 bytes)
func.func @imperfect(%a: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 3 {
      affine.store %zero, %a[%i, %j] : memref<4x8xf32>
    }
    affine.for %k = 0 to 5 {
      %col = affine.apply affine_map<(d0) -> (d0 + 3)>(%k)
      affine.store %zero, %a[%i, %col] : memref<4x8xf32>
    }
  }
  return
}
