// RUN: dlc-opt --split-input-file --verify-diagnostics --dlc-test-access-analysis %s -o /dev/null | FileCheck %s

// A gather (index loaded from memory) and an index computed by a division
// are reported on the op, not dropped; the affine accesses of the nest are
// still described (arith.muli/addi by constants are affine), and the nest
// gets no footprint.
// CHECK-LABEL: nest 0 in @gather_and_division
// CHECK: non-affine memref.load: index is loaded from memory (data-dependent)
// CHECK: non-affine memref.store: index is computed by 'arith.divui', not an affine function of the loop indices
// CHECK: load [[IDX:arg1]]: {{.*}}
// CHECK: load [[A:arg0]]: { [[S:S[0-9]+]][[[I:[a-z0-9_]+]]] -> [[A]][(2 + 2[[I]])] : 0 <= [[I]] <= 15 }
// CHECK-NOT: footprint
// CHECK-NOT: pure copy
func.func @gather_and_division(%a: memref<16xf32>, %idx: memref<16xindex>, %b: memref<16xf32>) {
  %c2 = arith.constant 2 : index
  affine.for %i = 0 to 16 {
    %j = affine.load %idx[%i] : memref<16xindex>
    // expected-warning @+1 {{non-affine access: index is loaded from memory (data-dependent)}}
    %v = memref.load %a[%j] : memref<16xf32>
    %k = arith.divui %i, %c2 : index
    // expected-warning @+1 {{non-affine access: index is computed by 'arith.divui', not an affine function of the loop indices}}
    memref.store %v, %b[%k] : memref<16xf32>
    %l = arith.muli %i, %c2 : index
    %m = arith.addi %l, %c2 : index
    %w = memref.load %a[%m] : memref<16xf32>
    memref.store %w, %b[%i] : memref<16xf32>
  }
  return
}

// -----

// A product of two loop indices is not affine.
// CHECK-LABEL: nest 0 in @product
// CHECK: non-affine memref.load: index is a product of two variables
func.func @product(%a: memref<256xf32>, %b: memref<16x16xf32>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      %p = arith.muli %i, %j : index
      // expected-warning @+1 {{non-affine access: index is a product of two variables}}
      %v = memref.load %a[%p] : memref<256xf32>
      affine.store %v, %b[%i, %j] : memref<16x16xf32>
    }
  }
  return
}

// -----

// Ops the analysis cannot see through: a non-affine loop inside the nest
// (its accesses would miss its iterations) and an opaque memory effect.
// CHECK-LABEL: nest 0 in @opaque
// CHECK: non-affine scf.for: region of 'scf.for' inside an affine nest is not modelled
// CHECK: non-affine memref.copy: memory effects of 'memref.copy' are not modelled
func.func @opaque(%a: memref<4xf32>, %b: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  affine.for %i = 0 to 4 {
    // expected-warning @+1 {{non-affine access: region of 'scf.for' inside an affine nest is not modelled}}
    scf.for %j = %c0 to %c4 step %c1 {
      %v = memref.load %a[%j] : memref<4xf32>
      memref.store %v, %b[%j] : memref<4xf32>
    }
    // expected-warning @+1 {{non-affine access: memory effects of 'memref.copy' are not modelled}}
    memref.copy %a, %b : memref<4xf32> to memref<4xf32>
  }
  return
}
