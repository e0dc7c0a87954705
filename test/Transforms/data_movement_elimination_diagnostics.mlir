// RUN: dlc-opt --split-input-file --verify-diagnostics --dlc-data-movement-elimination %s | FileCheck %s

// Copies that stay, each with the remark saying why; the IR is unchanged.

// The source is overwritten between the copy and the reader: the reader
// must see the old values, so the copy stays.
// CHECK-LABEL: func.func @source_overwritten
// CHECK: memref.alloc
// CHECK: affine.store %{{.*}}, %alloc
func.func @source_overwritten(%a: memref<4xf32>, %out: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<4xf32>
  // expected-remark @below {{copy kept: its source is written by 'affine.store' in the nest of}}
  affine.for %i = 0 to 4 {
    %v = affine.load %a[%i] : memref<4xf32>
    affine.store %v, %t[%i] : memref<4xf32>
  }
  affine.for %i = 0 to 4 {
    affine.store %zero, %a[%i] : memref<4xf32>
  }
  affine.for %i = 0 to 4 {
    %v = affine.load %t[3 - %i] : memref<4xf32>
    %w = arith.negf %v : f32
    affine.store %w, %out[%i] : memref<4xf32>
  }
  memref.dealloc %t : memref<4xf32>
  return
}

// -----

// A call between the copy and the reader may write anything.
// CHECK-LABEL: func.func @call_between
// CHECK: memref.alloc
// CHECK: affine.store %{{.*}}, %alloc
func.func private @opaque(memref<4xf32>)
func.func @call_between(%a: memref<4xf32>, %out: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  // expected-remark @below {{copy kept: its source is written by 'func.call' in the function body before the last reader}}
  affine.for %i = 0 to 4 {
    %v = affine.load %a[%i] : memref<4xf32>
    affine.store %v, %t[%i] : memref<4xf32>
  }
  func.call @opaque(%out) : (memref<4xf32>) -> ()
  affine.for %i = 0 to 4 {
    %v = affine.load %t[%i] : memref<4xf32>
    %w = arith.negf %v : f32
    affine.store %w, %out[%i] : memref<4xf32>
  }
  memref.dealloc %t : memref<4xf32>
  return
}

// -----

// A reader whose index is loaded from memory cannot be composed.
// CHECK-LABEL: func.func @non_affine_reader
// CHECK: memref.alloc
// CHECK: affine.store %{{.*}}, %alloc
func.func @non_affine_reader(%a: memref<4xf32>, %idx: memref<4xindex>, %out: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  // expected-remark @below {{copy kept: its buffer is accessed by the nest of}}
  affine.for %i = 0 to 4 {
    %v = affine.load %a[%i] : memref<4xf32>
    affine.store %v, %t[%i] : memref<4xf32>
  }
  affine.for %i = 0 to 4 {
    %j = affine.load %idx[%i] : memref<4xindex>
    %v = memref.load %t[%j] : memref<4xf32>
    %w = arith.negf %v : f32
    affine.store %w, %out[%i] : memref<4xf32>
  }
  memref.dealloc %t : memref<4xf32>
  return
}

// -----

// Two writers: the copy and a nest that computes into the same buffer.
// CHECK-LABEL: func.func @two_writers
// CHECK: memref.alloc
// CHECK: affine.store %{{.*}}, %alloc
func.func @two_writers(%a: memref<4xf32>, %out: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  // expected-remark @below {{copy kept: its buffer is also written by the nest of}}
  affine.for %i = 0 to 4 {
    %v = affine.load %a[%i] : memref<4xf32>
    affine.store %v, %t[%i] : memref<4xf32>
  }
  affine.for %i = 0 to 2 {
    %v = affine.load %a[%i] : memref<4xf32>
    %w = arith.negf %v : f32
    affine.store %w, %t[%i] : memref<4xf32>
  }
  affine.for %i = 0 to 4 {
    %v = affine.load %t[%i] : memref<4xf32>
    %w = arith.negf %v : f32
    affine.store %w, %out[%i] : memref<4xf32>
  }
  memref.dealloc %t : memref<4xf32>
  return
}

// -----

// A copy that writes half of the buffer, with no fill: the reader also
// reads the other half, which no copy defines.
// CHECK-LABEL: func.func @partial
// CHECK: memref.alloc
// CHECK: affine.store %{{.*}}, %alloc
func.func @partial(%a: memref<2xf32>, %out: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  // expected-remark @below {{copy kept: the nest of}}
  affine.for %i = 0 to 2 {
    %v = affine.load %a[%i] : memref<2xf32>
    affine.store %v, %t[%i] : memref<4xf32>
  }
  affine.for %i = 0 to 4 {
    %v = affine.load %t[%i] : memref<4xf32>
    %w = arith.negf %v : f32
    affine.store %w, %out[%i] : memref<4xf32>
  }
  memref.dealloc %t : memref<4xf32>
  return
}

// -----

// A store that writes every element four times (a reduction shape) is not
// injective: which iteration's value is read is not one copy iteration.
// CHECK-LABEL: func.func @not_injective
// CHECK: memref.alloc
// CHECK: affine.store %{{.*}}, %alloc
func.func @not_injective(%a: memref<4xf32>, %out: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  // expected-remark @below {{copy kept: a copy's store is not injective or two copies write the same element}}
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 4 {
      %v = affine.load %a[%j] : memref<4xf32>
      affine.store %v, %t[%i] : memref<4xf32>
    }
  }
  affine.for %i = 0 to 4 {
    %v = affine.load %t[%i] : memref<4xf32>
    %w = arith.negf %v : f32
    affine.store %w, %out[%i] : memref<4xf32>
  }
  memref.dealloc %t : memref<4xf32>
  return
}

// -----

// The buffer escapes to a call.
// CHECK-LABEL: func.func @escapes
// CHECK: memref.alloc
// CHECK: affine.store %{{.*}}, %alloc
func.func private @consume(memref<4xf32>)
func.func @escapes(%a: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  // expected-remark @below {{copy kept: its buffer is used by 'func.call'}}
  affine.for %i = 0 to 4 {
    %v = affine.load %a[%i] : memref<4xf32>
    affine.store %v, %t[%i] : memref<4xf32>
  }
  func.call @consume(%t) : (memref<4xf32>) -> ()
  memref.dealloc %t : memref<4xf32>
  return
}

// -----

// A gather whose constant indices [2, 0, 1] are no affine function of the
// loop index stays a non-affine copy.
// CHECK-LABEL: func.func @gather_permutation
// CHECK: memref.alloc
// CHECK: affine.store %{{.*}}, %alloc
memref.global "private" constant @indices : memref<3xi64> = dense<[2, 0, 1]>
func.func @gather_permutation(%a: memref<3xf32>, %out: memref<3xf32>) {
  %table = memref.get_global @indices : memref<3xi64>
  %g = memref.alloc() : memref<3xf32>
  // expected-remark @below {{copy kept: not affine: index is loaded from memory (data-dependent)}}
  affine.for %i = 0 to 3 {
    %raw = affine.load %table[%i] : memref<3xi64>
    %index = arith.index_cast %raw : i64 to index
    %v = memref.load %a[%index] : memref<3xf32>
    affine.store %v, %g[%i] : memref<3xf32>
  }
  affine.for %i = 0 to 3 {
    %v = affine.load %g[%i] : memref<3xf32>
    %w = arith.negf %v : f32
    affine.store %w, %out[%i] : memref<3xf32>
  }
  memref.dealloc %g : memref<3xf32>
  return
}
