// RUN: dlc-opt --split-input-file --dlc-sunway-vectorize-kernels --canonicalize --cse %s | FileCheck %s

// A matmul tile: j carries the lanes (unit stride in C and B), i is
// blocked four rows deep, k runs inside with the 4 x 4 accumulators in
// registers; A's element is one simd_loade per row, B's vectors are shared
// by the rows; aligned LDM offsets give aligned loads and stores.
// CHECK-LABEL: func.func @matmul
// CHECK: affine.for %[[I:.*]] = 0 to 8 step 4 {
// CHECK: affine.for %[[J:.*]] = 0 to 16 step 16 {
// CHECK-COUNT-16: vector.load %{{.*}} {alignment = 16 : i64} : memref<8x16xf32, #sunway.ldm>, vector<4xf32>
// CHECK: %[[ACC:.*]]:16 = affine.for %[[K:.*]] = 0 to 32 iter_args(
// CHECK: sunway.load_splat %{{.*}}[%[[I]], %[[K]]] : memref<8x32xf32, #sunway.ldm> -> vector<4xf32>
// CHECK: vector.load %{{.*}}[%[[K]], %[[J]]] {alignment = 16 : i64} : memref<32x16xf32, #sunway.ldm>, vector<4xf32>
// CHECK-COUNT-16: vector.fma
// CHECK: affine.yield
// CHECK-COUNT-16: vector.store %[[ACC]]#{{[0-9]+}}, %{{.*}} {alignment = 16 : i64} : memref<8x16xf32, #sunway.ldm>, vector<4xf32>
// CHECK-NOT: affine.load
module {
  func.func @matmul(%o: memref<8x16xf32>) {
    sunway.launch "k0" (%o) : memref<8x16xf32> attributes {node = "n", ldm_bytes = 3584 : i64} {
    ^bb0(%id: index, %row: index, %col: index, %out: memref<8x16xf32>):
      %a = sunway.ldm_alloc offset 0 : memref<8x32xf32, #sunway.ldm>
      %b = sunway.ldm_alloc offset 1024 : memref<32x16xf32, #sunway.ldm>
      %c = sunway.ldm_alloc offset 3072 : memref<8x16xf32, #sunway.ldm>
      affine.for %i = 0 to 8 {
        affine.for %j = 0 to 16 {
          affine.for %k = 0 to 32 {
            %x = affine.load %a[%i, %k] : memref<8x32xf32, #sunway.ldm>
            %y = affine.load %b[%k, %j] : memref<32x16xf32, #sunway.ldm>
            %z = affine.load %c[%i, %j] : memref<8x16xf32, #sunway.ldm>
            %p = arith.mulf %x, %y : f32
            %s = arith.addf %z, %p : f32
            affine.store %s, %c[%i, %j] : memref<8x16xf32, #sunway.ldm>
          }
        }
      }
    }
    return
  }
}

// -----

// A padded convolution row: ow carries the lanes, the input's offset by kw
// makes its loads unaligned; the padding guard is checked at the first and
// the last lane (one vector load when both hold, lane by lane otherwise).
// 18 output columns cost least as a block of three vectors and a block of
// a vector and a partial one: the last two columns load as a whole vector
// where the guard holds for both (the two lanes past them read the next
// floats of LDM, computed on and never stored), lane by lane otherwise
// (guarded loads, zeros in the other lanes); they are extracted and
// stored one by one.
// CHECK-LABEL: func.func @conv_row
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: affine.for %[[CO:.*]] = 0 to 4 step 4 {
// CHECK: affine.for %[[OW:.*]] = 0 to 12 step 12 {
// CHECK: affine.for %[[KW:.*]] = 0 to 3 iter_args(
// CHECK: affine.if #{{.*}}(%[[OW]], %[[KW]]) -> vector<4xf32> {
// CHECK: vector.load %{{.*}} : memref<20xf32, #sunway.ldm>, vector<4xf32>
// CHECK: } else {
// CHECK-COUNT-4: affine.if #{{.*}} -> f32 {
// CHECK: vector.from_elements
// CHECK: sunway.load_splat %{{.*}}[%[[CO]], %[[KW]]]
// CHECK: vector.fma
// The last six columns.
// CHECK: vector.from_elements %{{.*}}, %{{.*}}, %[[ZERO]], %[[ZERO]] : vector<4xf32>
// CHECK: affine.for %[[KW2:.*]] = 0 to 3 iter_args(
// CHECK: affine.if #{{.*}}(%[[KW2]]) -> vector<4xf32> {
// CHECK-NEXT: %[[AT:.*]] = affine.apply #{{.*}}(%[[KW2]])
// CHECK-NEXT: vector.load %{{.*}}[%[[AT]]] : memref<20xf32, #sunway.ldm>, vector<4xf32>
// CHECK: } else {
// CHECK: affine.load %{{.*}}[%[[KW2]] + 16]
// CHECK: affine.load %{{.*}}[%[[KW2]] + 17]
// CHECK: vector.from_elements %{{.*}}, %{{.*}}, %[[ZERO]], %[[ZERO]] : vector<4xf32>
// CHECK: vector.fma
// CHECK: vector.extract %{{.*}}[0] : f32 from vector<4xf32>
// CHECK: affine.store
// CHECK: vector.extract %{{.*}}[1] : f32 from vector<4xf32>
// CHECK: affine.store
#pad = affine_set<(ow, kw) : (ow + kw - 1 >= 0, 18 - ow - kw >= 0)>
module {
  func.func @conv_row(%o: memref<4x18xf32>) {
    sunway.launch "k0" (%o) : memref<4x18xf32> attributes {node = "n", ldm_bytes = 512 : i64} {
    ^bb0(%id: index, %row: index, %col: index, %out: memref<4x18xf32>):
      %zero = arith.constant 0.0 : f32
      %x = sunway.ldm_alloc offset 0 : memref<20xf32, #sunway.ldm>
      %w = sunway.ldm_alloc offset 96 : memref<4x3xf32, #sunway.ldm>
      %c = sunway.ldm_alloc offset 144 : memref<4x18xf32, #sunway.ldm>
      affine.for %co = 0 to 4 {
        affine.for %ow = 0 to 18 {
          affine.for %kw = 0 to 3 {
            %v = affine.if #pad(%ow, %kw) -> f32 {
              %l = affine.load %x[%ow + %kw] : memref<20xf32, #sunway.ldm>
              affine.yield %l : f32
            } else {
              affine.yield %zero : f32
            }
            %k = affine.load %w[%co, %kw] : memref<4x3xf32, #sunway.ldm>
            %z = affine.load %c[%co, %ow] : memref<4x18xf32, #sunway.ldm>
            %p = arith.mulf %v, %k : f32
            %s = arith.addf %z, %p : f32
            affine.store %s, %c[%co, %ow] : memref<4x18xf32, #sunway.ldm>
          }
        }
      }
    }
    return
  }
}

// -----

// An elementwise nest (relu) is one vector per four elements, the constant
// splat hoisted out; a stride-2 read (pooling) fills its lanes one by one.
// CHECK-LABEL: func.func @elementwise
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK: affine.for %[[I:.*]] = 0 to 16 step 4 {
// CHECK: %[[X:.*]] = vector.load %{{.*}}[%[[I]]] {alignment = 16 : i64}
// CHECK: %[[R:.*]] = arith.maximumf %[[X]], %[[ZERO]] : vector<4xf32>
// CHECK: vector.store %[[R]]
// CHECK: affine.for %{{.*}} = 0 to 8 step 4 {
// CHECK-COUNT-4: affine.load %{{.*}} : memref<16xf32, #sunway.ldm>
// CHECK: vector.from_elements
// CHECK: vector.store
module {
  func.func @elementwise(%o: memref<16xf32>) {
    sunway.launch "k0" (%o) : memref<16xf32> attributes {node = "n", ldm_bytes = 256 : i64} {
    ^bb0(%id: index, %row: index, %col: index, %out: memref<16xf32>):
      %zero = arith.constant 0.0 : f32
      %x = sunway.ldm_alloc offset 0 : memref<16xf32, #sunway.ldm>
      %y = sunway.ldm_alloc offset 64 : memref<16xf32, #sunway.ldm>
      %h = sunway.ldm_alloc offset 128 : memref<8xf32, #sunway.ldm>
      affine.for %i = 0 to 16 {
        %v = affine.load %x[%i] : memref<16xf32, #sunway.ldm>
        %r = arith.maximumf %v, %zero : f32
        affine.store %r, %y[%i] : memref<16xf32, #sunway.ldm>
      }
      affine.for %i = 0 to 8 {
        %v = affine.load %x[%i * 2] : memref<16xf32, #sunway.ldm>
        affine.store %v, %h[%i] : memref<8xf32, #sunway.ldm>
      }
    }
    return
  }
}

// -----

// What stays scalar: fewer than four lanes, a store whose last index does
// not move at unit stride, integer data, and buffers in main memory.
// CHECK-LABEL: func.func @scalar
// CHECK-NOT: vector.
// CHECK: return
module {
  func.func @scalar(%o: memref<16xf32>, %m: memref<16xi32>) {
    sunway.launch "k0" (%o, %m) : memref<16xf32>, memref<16xi32> attributes {node = "n", ldm_bytes = 256 : i64} {
    ^bb0(%id: index, %row: index, %col: index, %out: memref<16xf32>, %mi: memref<16xi32>):
      %x = sunway.ldm_alloc offset 0 : memref<16xf32, #sunway.ldm>
      %y = sunway.ldm_alloc offset 64 : memref<4xf32, #sunway.ldm>
      %n = sunway.ldm_alloc offset 128 : memref<16xi32, #sunway.ldm>
      affine.for %i = 0 to 3 {
        %v = affine.load %x[%i] : memref<16xf32, #sunway.ldm>
        affine.store %v, %y[%i] : memref<4xf32, #sunway.ldm>
      }
      affine.for %i = 0 to 8 {
        %v = affine.load %x[%i] : memref<16xf32, #sunway.ldm>
        affine.store %v, %x[%i * 2] : memref<16xf32, #sunway.ldm>
      }
      affine.for %i = 0 to 16 {
        %v = affine.load %n[%i] : memref<16xi32, #sunway.ldm>
        affine.store %v, %n[%i] : memref<16xi32, #sunway.ldm>
      }
      affine.for %i = 0 to 16 {
        %v = affine.load %out[%i] : memref<16xf32>
        affine.store %v, %out[%i] : memref<16xf32>
      }
    }
    return
  }
}

// -----

// A stride-2 convolution row: the lanes of x are two apart. Gathering them
// would cost 8 memory instructions a vector; copying x into two phase
// planes (element w to plane w mod 2 at w floordiv 2, after the kernel's
// buffers: ldm_bytes grows by 288) makes them vectors of plane k mod 2.
// CHECK-LABEL: func.func @strided_phases
// CHECK: attributes {ldm_bytes = 736 : i64
// CHECK: %[[X:.*]] = sunway.ldm_alloc offset 0 : memref<72xf32, #sunway.ldm>
// CHECK: %[[P:.*]] = sunway.ldm_alloc offset 448 : memref<2x36xf32, #sunway.ldm>
// CHECK: affine.for %[[W:.*]] = 0 to 72 {
// CHECK-NEXT: %[[E:.*]] = affine.load %[[X]][%[[W]]]
// CHECK-NEXT: affine.store %[[E]], %[[P]][%[[W]] mod 2, %[[W]] floordiv 2]
// CHECK: affine.for %[[I:.*]] = 0 to 32 step 32 {
// CHECK: affine.for %[[K:.*]] = 0 to 8 iter_args
// CHECK: %[[PLANE:.*]] = affine.apply #{{.*}}(%[[K]])
// CHECK: %[[AT:.*]] = affine.apply #{{.*}}(%[[I]], %[[K]])
// CHECK: vector.load %[[P]][%[[PLANE]], %[[AT]]] : memref<2x36xf32, #sunway.ldm>, vector<4xf32>
// CHECK-NOT: vector.from_elements
module {
  func.func @strided_phases(%o: memref<32xf32>) {
    sunway.launch "k0" (%o) : memref<32xf32> attributes {node = "n", ldm_bytes = 448 : i64} {
    ^bb0(%id: index, %row: index, %col: index, %out: memref<32xf32>):
      %x = sunway.ldm_alloc offset 0 : memref<72xf32, #sunway.ldm>
      %w = sunway.ldm_alloc offset 288 : memref<8xf32, #sunway.ldm>
      %y = sunway.ldm_alloc offset 320 : memref<32xf32, #sunway.ldm>
      affine.for %i = 0 to 32 {
        affine.for %k = 0 to 8 {
          %a = affine.load %x[%i * 2 + %k] : memref<72xf32, #sunway.ldm>
          %b = affine.load %w[%k] : memref<8xf32, #sunway.ldm>
          %c = affine.load %y[%i] : memref<32xf32, #sunway.ldm>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %c, %p : f32
          affine.store %s, %y[%i] : memref<32xf32, #sunway.ldm>
        }
      }
    }
    return
  }
}

// -----

// The same row when the kernel's buffers leave no room for the planes
// (57300 of the 57344 bytes a CPE gives to buffers): the lanes are
// gathered one by one.
// CHECK-LABEL: func.func @strided_no_room
// CHECK: attributes {ldm_bytes = 57300 : i64
// CHECK-NOT: 2x36xf32
// CHECK: vector.from_elements
module {
  func.func @strided_no_room(%o: memref<32xf32>) {
    sunway.launch "k0" (%o) : memref<32xf32> attributes {node = "n", ldm_bytes = 57300 : i64} {
    ^bb0(%id: index, %row: index, %col: index, %out: memref<32xf32>):
      %x = sunway.ldm_alloc offset 0 : memref<72xf32, #sunway.ldm>
      %w = sunway.ldm_alloc offset 288 : memref<8xf32, #sunway.ldm>
      %y = sunway.ldm_alloc offset 320 : memref<32xf32, #sunway.ldm>
      affine.for %i = 0 to 32 {
        affine.for %k = 0 to 8 {
          %a = affine.load %x[%i * 2 + %k] : memref<72xf32, #sunway.ldm>
          %b = affine.load %w[%k] : memref<8xf32, #sunway.ldm>
          %c = affine.load %y[%i] : memref<32xf32, #sunway.ldm>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %c, %p : f32
          affine.store %s, %y[%i] : memref<32xf32, #sunway.ldm>
        }
      }
    }
    return
  }
}

// -----

// A 6-wide elementwise row whose input ends the kernel's LDM: the partial
// vector's whole load reads two floats past it, so the kernel's LDM grows
// from 1032 to 1056 bytes (16-byte aligned) to cover them.
// CHECK-LABEL: func.func @over_read_grows
// CHECK: attributes {ldm_bytes = 1056 : i64
// CHECK: %[[X:.*]] = sunway.ldm_alloc offset 1008 : memref<6xf32, #sunway.ldm>
// CHECK: vector.load %[[X]][%{{.*}}] {alignment = 16 : i64} : memref<6xf32, #sunway.ldm>, vector<4xf32>
// CHECK: vector.load %[[X]][%{{.*}}] {alignment = 16 : i64} : memref<6xf32, #sunway.ldm>, vector<4xf32>
// CHECK-NOT: from_elements
// CHECK: vector.extract %{{.*}}[1]
module {
  func.func @over_read_grows(%o: memref<6xf32>) {
    sunway.launch "k0" (%o) : memref<6xf32> attributes {node = "n", ldm_bytes = 1032 : i64} {
    ^bb0(%id: index, %row: index, %col: index, %out: memref<6xf32>):
      %two = arith.constant 2.0 : f32
      %y = sunway.ldm_alloc offset 0 : memref<6xf32, #sunway.ldm>
      %x = sunway.ldm_alloc offset 1008 : memref<6xf32, #sunway.ldm>
      affine.for %i = 0 to 6 {
        %v = affine.load %x[%i] : memref<6xf32, #sunway.ldm>
        %r = arith.mulf %v, %two : f32
        affine.store %r, %y[%i] : memref<6xf32, #sunway.ldm>
      }
    }
    return
  }
}

// -----

// The same row at the end of the 57344 bytes a CPE gives to buffers: no
// room to read past it, so the last two lanes load one by one.
// CHECK-LABEL: func.func @over_read_no_room
// CHECK: attributes {ldm_bytes = 57344 : i64
// CHECK: vector.from_elements
module {
  func.func @over_read_no_room(%o: memref<6xf32>) {
    sunway.launch "k0" (%o) : memref<6xf32> attributes {node = "n", ldm_bytes = 57344 : i64} {
    ^bb0(%id: index, %row: index, %col: index, %out: memref<6xf32>):
      %two = arith.constant 2.0 : f32
      %y = sunway.ldm_alloc offset 0 : memref<6xf32, #sunway.ldm>
      %x = sunway.ldm_alloc offset 57312 : memref<6xf32, #sunway.ldm>
      affine.for %i = 0 to 6 {
        %v = affine.load %x[%i] : memref<6xf32, #sunway.ldm>
        %r = arith.mulf %v, %two : f32
        affine.store %r, %y[%i] : memref<6xf32, #sunway.ldm>
      }
    }
    return
  }
}

// -----

// A padded row on one output row: memory-bound (a load a multiply-add),
// so a vector across the border loads whole (its buffer leaves three
// floats before it in LDM) and takes its padding lanes from a mask: the
// table of masks (entry lo * 5 + hi: -1 in lanes lo..hi-1, +1 elsewhere)
// goes after the kernel's buffers (ldm_bytes 160 -> 560) and is filled at
// its start; lo and hi come from the guard's constraints; no lane inside
// gives the padding value alone.
// CHECK-LABEL: func.func @masked_border
// CHECK: attributes {ldm_bytes = 560 : i64
// CHECK: %[[TABLE:.*]] = sunway.ldm_alloc offset 160 : memref<100xf32, #sunway.ldm>
// CHECK: affine.for %[[LO:.*]] = 0 to 5 {
// CHECK: affine.for %[[HI:.*]] = 0 to 5 {
// CHECK: affine.for %[[L:.*]] = 0 to 4 {
// CHECK: affine.store %{{.*}}, %[[TABLE]][%[[L]] + %[[LO]] * 20 + %[[HI]] * 4]
// CHECK: %[[X:.*]] = sunway.ldm_alloc offset 16 : memref<16xf32, #sunway.ldm>
// CHECK: affine.for %[[KW:.*]] = 0 to 3 iter_args(
// CHECK: } else {
// CHECK-NEXT: affine.if
// CHECK-NEXT: %[[FROM:.*]] = affine.max
// CHECK-NEXT: %[[TO:.*]] = affine.min
// CHECK-NEXT: %[[ENTRY:.*]] = affine.apply #{{.*}}(%[[FROM]], %[[TO]])
// CHECK-NEXT: %[[MASK:.*]] = vector.load %[[TABLE]][%[[ENTRY]]] {alignment = 16 : i64}
// CHECK-NEXT: affine.apply
// CHECK-NEXT: %[[WHOLE:.*]] = vector.load %[[X]]
// CHECK-NEXT: sunway.select_negative %[[MASK]], %[[WHOLE]], %{{.*}} : vector<4xf32>
// CHECK-NOT: vector.from_elements
#pad = affine_set<(ow, kw) : (ow + kw - 1 >= 0, 16 - ow - kw >= 0)>
module {
  func.func @masked_border(%o: memref<16xf32>) {
    sunway.launch "k0" (%o) : memref<16xf32> attributes {node = "n", ldm_bytes = 160 : i64} {
    ^bb0(%id: index, %row: index, %col: index, %out: memref<16xf32>):
      %zero = arith.constant 0.0 : f32
      %x = sunway.ldm_alloc offset 16 : memref<16xf32, #sunway.ldm>
      %w = sunway.ldm_alloc offset 80 : memref<3xf32, #sunway.ldm>
      %c = sunway.ldm_alloc offset 96 : memref<16xf32, #sunway.ldm>
      affine.for %ow = 0 to 16 {
        affine.for %kw = 0 to 3 {
          %v = affine.if #pad(%ow, %kw) -> f32 {
            %l = affine.load %x[%ow + %kw - 1] : memref<16xf32, #sunway.ldm>
            affine.yield %l : f32
          } else {
            affine.yield %zero : f32
          }
          %k = affine.load %w[%kw] : memref<3xf32, #sunway.ldm>
          %z = affine.load %c[%ow] : memref<16xf32, #sunway.ldm>
          %p = arith.mulf %v, %k : f32
          %s = arith.addf %z, %p : f32
          affine.store %s, %c[%ow] : memref<16xf32, #sunway.ldm>
        }
      }
    }
    return
  }
}
