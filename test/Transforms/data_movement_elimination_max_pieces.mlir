// RUN: dlc-opt --verify-diagnostics --dlc-data-movement-elimination=max-pieces=1 %s | FileCheck %s

// With max-pieces=1 a concatenation (two pieces per read) stays; both of
// its copies get the remark.
// CHECK-LABEL: func.func @concat
// CHECK: memref.alloc
// CHECK-NOT: affine.if
func.func @concat(%a: memref<2xf32>, %b: memref<3xf32>, %out: memref<5xf32>) {
  %c = memref.alloc() : memref<5xf32>
  %lo = memref.subview %c[0] [2] [1] : memref<5xf32> to memref<2xf32, strided<[1]>>
  // expected-remark @below {{copy kept: a read in the nest of}}
  affine.for %i = 0 to 2 {
    %v = affine.load %a[%i] : memref<2xf32>
    affine.store %v, %lo[%i] : memref<2xf32, strided<[1]>>
  }
  %hi = memref.subview %c[2] [3] [1] : memref<5xf32> to memref<3xf32, strided<[1], offset: 2>>
  // expected-remark @below {{needs 2 pieces (max-pieces is 1)}}
  affine.for %i = 0 to 3 {
    %v = affine.load %b[%i] : memref<3xf32>
    affine.store %v, %hi[%i] : memref<3xf32, strided<[1], offset: 2>>
  }
  affine.for %i = 0 to 5 {
    %v = affine.load %c[%i] : memref<5xf32>
    %w = arith.negf %v : f32
    affine.store %w, %out[%i] : memref<5xf32>
  }
  memref.dealloc %c : memref<5xf32>
  return
}
