// RUN: dlc-opt --split-input-file --dlc-test-access-analysis %s -o /dev/null | FileCheck %s

// Negative coefficients (a slice with negative steps, as the host pipeline
// lowers it) are modelled like any other: the reversed, strided read is
// 19x3x2 elements inside a 19x7x3 box.
// CHECK-LABEL: nest 0 in @negative_steps
// CHECK: load [[X:arg0]]: { [[S:S[0-9]+]][[[I:[a-z0-9_]+]], [[J:[a-z0-9_]+]], [[K:[a-z0-9_]+]]] -> [[X]][(19 - [[I]]), (9 - 3[[J]]), (4 - 2[[K]])] :
// CHECK: footprint [[X]]: 114 elements, 456 bytes, box 19x7x3 (399 elements, 1596 bytes)
// CHECK: pure copy: yes
func.func @negative_steps(%x: memref<20x10x5xf32>, %y: memref<19x3x2xf32>) {
  affine.for %i = 0 to 19 {
    affine.for %j = 0 to 3 {
      affine.for %k = 0 to 2 {
        %0 = affine.load %x[-%i + 19, %j * -3 + 9, %k * -2 + 4] : memref<20x10x5xf32>
        affine.store %0, %y[%i, %j, %k] : memref<19x3x2xf32>
      }
    }
  }
  return
}

// -----

// The same with the index computed by arith ops (a negative constant factor
// of a loop index).
// CHECK-LABEL: nest 0 in @negative_factor
// CHECK: load [[X:arg0]]: { [[S:S[0-9]+]][[[I:[a-z0-9_]+]]] -> [[X]][(7 - [[I]])] :
func.func @negative_factor(%x: memref<8xf32>, %y: memref<8xf32>) {
  %minus1 = arith.constant -1 : index
  %c7 = arith.constant 7 : index
  affine.for %i = 0 to 8 {
    %scaled = arith.muli %i, %minus1 : index
    %index = arith.addi %scaled, %c7 : index
    %0 = memref.load %x[%index] : memref<8xf32>
    affine.store %0, %y[%i] : memref<8xf32>
  }
  return
}
