// RUN: dlc-opt --convert-dlc-to-linalg --split-input-file --verify-diagnostics %s

// Data movement takes any element type, but a constant fill value must be
// representable.
func.func @pad_complex_constant(%x: tensor<4xcomplex<f32>>) -> tensor<6xcomplex<f32>> {
  // expected-error @below {{'dlc.pad' op cannot constant-pad element type 'complex<f32>' (supported: floats and integers)}}
  %0 = dlc.pad %x {pads = array<i64: 1, 1>} : tensor<4xcomplex<f32>> -> tensor<6xcomplex<f32>>
  return %0 : tensor<6xcomplex<f32>>
}

// -----

// Gathering from an empty axis has no element to read, whatever the index.
func.func @gather_empty_axis(%x: tensor<2x0xf32>, %i: tensor<3xi64>) -> tensor<2x3xf32> {
  // expected-error @below {{'dlc.gather' op cannot gather from an empty axis}}
  %0 = dlc.gather %x, %i {axis = 1 : i64} : (tensor<2x0xf32>, tensor<3xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Unsigned constants are retyped to signless: only dense and dense_resource
// storage can be.
func.func @unsigned_sparse_constant() -> tensor<4xui8> {
  // expected-error @below {{'dlc.constant' op cannot lower a constant of type 'tensor<4xui8>' stored as sparse<1, 200> : tensor<4xui8>}}
  %c = dlc.constant sparse<[[1]], [200]> : tensor<4xui8>
  return %c : tensor<4xui8>
}

// -----

// A dense_resource whose blob is missing (here: elided) cannot be lowered.
func.func @constant_blob_elided() {
  // expected-error @+1 {{'dlc.constant' op resource '__elided__' has no data (was the IR printed with elided resources?)}}
  %0 = dlc.constant dense_resource<__elided__> : tensor<2x2xf32>
  return
}

// -----

// Also on a rank-0 tensor, when the file defines other blobs only.
func.func @constant_blob_missing_scalar() {
  // expected-error @+1 {{'dlc.constant' op resource 'blob' has no data (was the IR printed with elided resources?)}}
  %0 = dlc.constant dense_resource<blob> : tensor<f32>
  return
}

{-#
  dialect_resources: {
    builtin: {
      other: "0x040000000000803F"
    }
  }
#-}
