//===- Passes.td - dlc analysis test passes ----------------*- tablegen -*-===//
#ifndef DLC_ANALYSIS_PASSES_TD
#define DLC_ANALYSIS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TestAccessAnalysis : Pass<"dlc-test-access-analysis", "mlir::ModuleOp"> {
  let summary = "Print the polyhedral access analysis of every affine nest";
  let description = [{
    Test pass for `dlc/Analysis/AccessAnalysis.h`: for each top-level
    `affine.for` nest of each function it prints to stdout the loops with
    their trip counts, every access with its iteration domain and its access
    relation (to the accessed memref and, through static subview /
    expand_shape / collapse_shape views, to the underlying buffer), the
    footprint of each buffer (distinct elements and bytes, and the bounding
    box a transfer would move) for the whole nest and for one tile of
    `tile-sizes`, and whether the nest is a pure copy. For a pure copy it
    also prints, for each later nest that reads the copied buffer, the
    reader's access composed with the inverse of the copy's store and with
    the copy's load (reader iteration -> source element), or why that is
    not possible. Accesses that are not affine are reported as warnings on
    the op. The IR is not changed.

    Before:
    ```mlir
    func.func @t(%a: memref<4x8xf32>, %b: memref<8x4xf32>) {
      affine.for %i = 0 to 8 {
        affine.for %j = 0 to 4 {
          %v = affine.load %a[%j, %i] : memref<4x8xf32>
          affine.store %v, %b[%i, %j] : memref<8x4xf32>
        }
      }
      return
    }
    ```
    Printed:
    ```
    nest 0 in @t: 2 loops, band depth 2
      loop arg2: depth 0, trip count 8
      loop arg3: depth 1, trip count 4
      load arg0: { S0[arg2, arg3] -> arg0[(arg3), (arg2)] : 0 <= arg2 <= 7 and 0 <= arg3 <= 3 }
      store arg1: { S0[arg2, arg3] -> arg1[(arg2), (arg3)] : 0 <= arg2 <= 7 and 0 <= arg3 <= 3 } injective
      footprint arg0: 32 elements, 128 bytes, box 4x8 (32 elements, 128 bytes)
      footprint arg1: 32 elements, 128 bytes, box 8x4 (32 elements, 128 bytes)
      pure copy: yes
      copy inverse: { arg1[i0, i1] -> S0[arg2 = i0, arg3 = i1] : 0 <= i0 <= 7 and 0 <= i1 <= 3 }
    ```
  }];
  let options = [
    ListOption<"tileSizes", "tile-sizes", "int64_t",
               "Iterations per tile of each loop of the outer band (1 fixes "
               "a loop, 0 keeps its full range)">
  ];
}

#endif // DLC_ANALYSIS_PASSES_TD
