// RUN: dlc-translate --sunway-to-slave-c %s | FileCheck %s

// C's `for (size_t i = lb; i < ub; ...)` compares unsigned, scf.for signed.
// A loop whose upper bound may be negative (a min of a shifted extent)
// gets max(ub, lb) compared signed; one whose lower bound may be negative
// counts its trips from 0 and computes lb + k.
module attributes {dlc.entry = {arg_attrs = [{dlc.name = "x"}], function = "main", res_attrs = [{dlc.name = "y"}], type = (tensor<64xf32>) -> tensor<64xf32>}, dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @main(%x: memref<64xf32>, %y: memref<64xf32>) {
    sunway.launch "k0" (%x, %y) : memref<64xf32>, memref<64xf32>
        attributes {node = "loops", ldm_bytes = 64 : i64} {
    ^bb0(%id: index, %row: index, %col: index, %gx: memref<64xf32>, %gy: memref<64xf32>):
      %one = arith.constant 1.0 : f32
      affine.for %i = 0 to min affine_map<(d0) -> (d0 - 60, 4)>(%id) {
        affine.store %one, %gy[%i] : memref<64xf32>
      }
      affine.for %j = affine_map<(d0) -> (d0 - 2)>(%id) to 8 {
        affine.store %one, %gy[%j + 2] : memref<64xf32>
      }
    }
    return
  }
}

// CHECK-LABEL: void k0(
// The first loop: ub = min(id - 60, 4), then max(ub, 0), both signed.
// CHECK:      bool [[LT:v[0-9]+]] = {{v[0-9]+}} < {{v[0-9]+}};
// CHECK:      size_t [[MIN:v[0-9]+]] = [[LT]] ?
// CHECK:      ptrdiff_t [[SMIN:v[0-9]+]] = (ptrdiff_t) [[MIN]];
// CHECK:      bool [[GT:v[0-9]+]] = [[SMIN]] > {{v[0-9]+}};
// CHECK:      size_t [[UB:v[0-9]+]] = [[GT]] ? [[MIN]] :
// CHECK:      for (size_t {{i[0-9]+}} = {{v[0-9]+}}; {{i[0-9]+}} < [[UB]];
// The second loop: lb = id - 2 may be negative; trips = lb < 8 ? 8 - lb : 0.
// CHECK:      size_t [[LB:v[0-9]+]] = {{v[0-9]+}} + {{v[0-9]+}};
// CHECK:      size_t [[SPAN:v[0-9]+]] = {{v[0-9]+}} - [[LB]];
// CHECK:      bool [[RUNS:v[0-9]+]] = {{v[0-9]+}} < {{v[0-9]+}};
// CHECK:      size_t [[TRIPS:v[0-9]+]] = [[RUNS]] ?
// CHECK:      for (size_t [[K:i[0-9]+]] = {{v[0-9]+}}; [[K]] < [[TRIPS]]; [[K]] += {{v[0-9]+}}) {
// CHECK-NEXT:   size_t {{v[0-9]+}} = [[LB]] + [[K]];
