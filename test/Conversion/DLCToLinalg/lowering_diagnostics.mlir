// RUN: dlc-opt --convert-dlc-to-linalg --split-input-file --verify-diagnostics %s

// Arithmetic on unsigned integers has no lowering (arith is signless and
// ONNX semantics are signed): the op is reported, not miscompiled.
func.func @unsigned_relu(%x: tensor<4xui8>) -> tensor<4xui8> {
  // expected-error @below {{'dlc.relu' op cannot lower element type 'ui8' (supported: floats and signless integers)}}
  %0 = dlc.relu %x : tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// The check covers operands as well as results (here a cast's source).
func.func @unsigned_cast(%x: tensor<4xui16>) -> tensor<4xf32> {
  // expected-error @below {{'dlc.cast' op cannot lower element type 'ui16'}}
  %0 = dlc.cast %x : tensor<4xui16> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Data movement takes any element type, but a constant fill value must be
// representable.
func.func @pad_unsigned_constant(%x: tensor<4xui8>) -> tensor<6xui8> {
  // expected-error @below {{'dlc.pad' op cannot constant-pad element type 'ui8' (supported: floats and signless integers)}}
  %0 = dlc.pad %x {pads = array<i64: 1, 1>} : tensor<4xui8> -> tensor<6xui8>
  return %0 : tensor<6xui8>
}

// -----

// Gathering from an empty axis has no element to read, whatever the index.
func.func @gather_empty_axis(%x: tensor<2x0xf32>, %i: tensor<3xi64>) -> tensor<2x3xf32> {
  // expected-error @below {{'dlc.gather' op cannot gather from an empty axis}}
  %0 = dlc.gather %x, %i {axis = 1 : i64} : (tensor<2x0xf32>, tensor<3xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

