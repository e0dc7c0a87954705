// RUN: dlc-opt --split-input-file --dlc-assign-bank-layout %s | FileCheck %s
// RUN: dlc-opt --split-input-file --dlc-assign-bank-layout=mode=local %s | FileCheck %s --check-prefix=LOCAL

// Hand-written affine nests for the rewrites a dlc graph rarely needs.

// Two contractions accumulate into C, the first with its columns across
// banks, the second (C[i, j] += A[j, k] * B[k, i]) with its rows. C keeps
// the first's layout; the second accumulates into a copy of C in its own
// layout, copied back after it: two copies (2 x 256 bytes) in both modes.
// CHECK-LABEL: func.func @accumulate_in_two_layouts
// CHECK-SAME: %[[A:[^:]*]]: memref<8x8xf32> {dlc.bank_dim = 1 : i64}
// CHECK-SAME: %[[B:[^:]*]]: memref<8x8xf32> {dlc.bank_dim = 0 : i64}
// CHECK-SAME: %[[C:[^:]*]]: memref<8x8xf32> {dlc.bank_dim = 1 : i64}
// CHECK-SAME: dlc.bank_layout = {mode = "global", relayout_bytes = 512 : i64, relayouts = 2 : i64}
// CHECK: affine.store %{{.*}}, %[[C]][
// CHECK: %[[ROWS:.*]] = memref.alloc() {dlc.bank_dim = 0 : i64} : memref<8x8xf32>
// CHECK: affine.load %[[C]][
// CHECK: affine.store %{{.*}}, %[[ROWS]][
// CHECK: } {dlc.relayout}
// CHECK: affine.load %[[ROWS]][
// CHECK: affine.store %{{.*}}, %[[ROWS]][
// CHECK: affine.load %[[ROWS]][
// CHECK: affine.store %{{.*}}, %[[C]][
// CHECK: } {dlc.relayout}
// CHECK-NEXT: memref.dealloc %[[ROWS]] :
// LOCAL-LABEL: func.func @accumulate_in_two_layouts
// LOCAL-SAME: relayouts = 2
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 65536, banks = 4>} {
  func.func @accumulate_in_two_layouts(%a: memref<8x8xf32>, %b: memref<8x8xf32>, %c: memref<8x8xf32>) {
    affine.for %i = 0 to 8 {
      affine.for %j = 0 to 8 {
        affine.for %k = 0 to 8 {
          %x = affine.load %a[%i, %k] : memref<8x8xf32>
          %y = affine.load %b[%k, %j] : memref<8x8xf32>
          %z = affine.load %c[%i, %j] : memref<8x8xf32>
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %z, %p : f32
          affine.store %s, %c[%i, %j] : memref<8x8xf32>
        }
      }
    }
    affine.for %i = 0 to 8 {
      affine.for %j = 0 to 8 {
        affine.for %k = 0 to 8 {
          %x = affine.load %a[%j, %k] : memref<8x8xf32>
          %y = affine.load %b[%k, %i] : memref<8x8xf32>
          %z = affine.load %c[%i, %j] : memref<8x8xf32>
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %z, %p : f32
          affine.store %s, %c[%i, %j] : memref<8x8xf32>
        }
      }
    }
    return
  }
}

// -----

// A contraction reads every other row of C (a subview) as its weights, so
// wants C's rows across banks while the producer wrote columns: the copy is
// of the whole buffer, and the subview is rebuilt on it.
// CHECK-LABEL: func.func @weights_through_a_view
// CHECK-SAME: relayout_bytes = 256 : i64, relayouts = 1 : i64
// CHECK: %[[C:.*]] = memref.alloc() {dlc.bank_dim = 1 : i64} : memref<8x8xf32>
// CHECK: %[[VIEW:.*]] = memref.subview %[[C]][0, 0] [4, 8] [2, 1]
// CHECK: %[[ROWS:.*]] = memref.alloc() {dlc.bank_dim = 0 : i64} : memref<8x8xf32>
// CHECK: } {dlc.relayout}
// CHECK: %[[ROWS_VIEW:.*]] = memref.subview %[[ROWS]][0, 0] [4, 8] [2, 1]
// CHECK: affine.for
// CHECK: affine.load %[[ROWS_VIEW]][
// CHECK: memref.dealloc %[[ROWS]] :
// CHECK: memref.dealloc %[[C]] :
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 65536, banks = 4>} {
  func.func @weights_through_a_view(%a: memref<8x8xf32>, %b: memref<8x8xf32>, %e: memref<4x4xf32>, %d: memref<4x8xf32>) {
    %zero = arith.constant 0.0 : f32
    %c = memref.alloc() : memref<8x8xf32>
    affine.for %i = 0 to 8 {
      affine.for %j = 0 to 8 {
        affine.store %zero, %c[%i, %j] : memref<8x8xf32>
      }
    }
    affine.for %i = 0 to 8 {
      affine.for %j = 0 to 8 {
        affine.for %k = 0 to 8 {
          %x = affine.load %a[%i, %k] : memref<8x8xf32>
          %y = affine.load %b[%k, %j] : memref<8x8xf32>
          %z = affine.load %c[%i, %j] : memref<8x8xf32>
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %z, %p : f32
          affine.store %s, %c[%i, %j] : memref<8x8xf32>
        }
      }
    }
    %v = memref.subview %c[0, 0] [4, 8] [2, 1] : memref<8x8xf32> to memref<4x8xf32, strided<[16, 1]>>
    affine.for %i = 0 to 4 {
      affine.for %j = 0 to 8 {
        affine.for %k = 0 to 4 {
          %x = affine.load %e[%i, %k] : memref<4x4xf32>
          %y = affine.load %v[%k, %j] : memref<4x8xf32, strided<[16, 1]>>
          %z = affine.load %d[%i, %j] : memref<4x8xf32>
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %z, %p : f32
          affine.store %s, %d[%i, %j] : memref<4x8xf32>
        }
      }
    }
    memref.dealloc %c : memref<8x8xf32>
    return
  }
}

// -----

// Global mode shares one copy between the readers that want it until the
// buffer is written again; local mode copies for every reader. Rank-0
// buffers get no layout; small ones (fewer elements than banks) use the
// banks they can.
// CHECK-LABEL: func.func @shared_copy
// CHECK-SAME: memref<2xf32> {dlc.bank_dim = 0 : i64}, %{{[a-z0-9]+}}: memref<f32>)
// CHECK-SAME: relayouts = 1
// CHECK: %[[ROWS:.*]] = memref.alloc() {dlc.bank_dim = 0 : i64} : memref<8x8xf32>
// CHECK: } {dlc.relayout}
// CHECK: affine.load %[[ROWS]][
// CHECK: affine.load %[[ROWS]][
// CHECK-NOT: {dlc.relayout}
// CHECK: memref.dealloc %[[ROWS]] :
// LOCAL-LABEL: func.func @shared_copy
// LOCAL-SAME: relayouts = 2
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 65536, banks = 4>} {
  func.func @shared_copy(%a: memref<8x8xf32>, %b: memref<8x8xf32>, %c: memref<8x8xf32>, %x: memref<8x8xf32>, %y: memref<8x8xf32>, %tiny: memref<2xf32>, %scalar: memref<f32>) {
    // C = A * B: C banked on its columns.
    affine.for %i = 0 to 8 {
      affine.for %j = 0 to 8 {
        affine.for %k = 0 to 8 {
          %p = affine.load %a[%i, %k] : memref<8x8xf32>
          %q = affine.load %b[%k, %j] : memref<8x8xf32>
          %z = affine.load %c[%i, %j] : memref<8x8xf32>
          %m = arith.mulf %p, %q : f32
          %s = arith.addf %z, %m : f32
          affine.store %s, %c[%i, %j] : memref<8x8xf32>
        }
      }
    }
    // Two contractions read C as weights (rows across banks).
    affine.for %i = 0 to 8 {
      affine.for %j = 0 to 8 {
        affine.for %k = 0 to 8 {
          %p = affine.load %a[%i, %k] : memref<8x8xf32>
          %q = affine.load %c[%k, %j] : memref<8x8xf32>
          %z = affine.load %x[%i, %j] : memref<8x8xf32>
          %m = arith.mulf %p, %q : f32
          %s = arith.addf %z, %m : f32
          affine.store %s, %x[%i, %j] : memref<8x8xf32>
        }
      }
    }
    affine.for %i = 0 to 8 {
      affine.for %j = 0 to 8 {
        affine.for %k = 0 to 8 {
          %p = affine.load %a[%i, %k] : memref<8x8xf32>
          %q = affine.load %c[%k, %j] : memref<8x8xf32>
          %z = affine.load %y[%i, %j] : memref<8x8xf32>
          %m = arith.mulf %p, %q : f32
          %s = arith.addf %z, %m : f32
          affine.store %s, %y[%i, %j] : memref<8x8xf32>
        }
      }
    }
    affine.for %i = 0 to 2 {
      %t = affine.load %tiny[%i] : memref<2xf32>
      affine.store %t, %scalar[] : memref<f32>
    }
    return
  }
}

// -----

// Nothing to do without banks or without a local memory.
// CHECK-LABEL: func.func @one_bank
// CHECK-NOT: dlc.bank
// CHECK: return
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 65536, banks = 1>} {
  func.func @one_bank(%a: memref<8xf32>, %b: memref<8xf32>) {
    affine.for %i = 0 to 8 {
      %v = affine.load %a[%i] : memref<8xf32>
      affine.store %v, %b[%i] : memref<8xf32>
    }
    return
  }
}

// -----

// CHECK-LABEL: func.func @no_local_memory
// CHECK-NOT: dlc.bank
// CHECK: return
module attributes {dlc.hardware = #dlc.hardware<banks = 4>} {
  func.func @no_local_memory(%a: memref<8xf32>, %b: memref<8xf32>) {
    affine.for %i = 0 to 8 {
      %v = affine.load %a[%i] : memref<8xf32>
      affine.store %v, %b[%i] : memref<8xf32>
    }
    return
  }
}
