// RUN: dlc-opt %s --split-input-file --verify-diagnostics

// The kernel marker names the ONNX node the kernel computes.
// expected-error @below {{'func.func' op 'sunway.kernel' must be a string on a kernel function}}
func.func @kernel_not_string() attributes {sunway.kernel = 1 : i64} {
  return
}

// -----

// The LDM footprint is a byte count.
// expected-error @below {{'func.func' op 'sunway.ldm_bytes' must be an integer on an operation}}
func.func @ldm_bytes_not_integer() attributes {sunway.kernel = "n", sunway.ldm_bytes = "big"} {
  return
}

// -----

// The weights file size belongs on the module.
// expected-error @below {{'func.func' op 'sunway.weights_bytes' must be an integer on the module}}
func.func @weights_bytes_on_function() attributes {sunway.weights_bytes = 16 : i64} {
  return
}

// -----

// A misspelt sunway attribute is an error.
// expected-error @below {{'builtin.module' op unknown attribute 'sunway.weight_bytes'}}
module attributes {sunway.weight_bytes = 16 : i64} {
}

// -----

// Where work runs is said of a kernel launch, not of a function.
// expected-error @below {{'func.func' op 'sunway.placement' must be a string on a sunway.launch}}
func.func @placement_on_function() attributes {sunway.placement = "64 CPEs"} {
  return
}
