// RUN: dlc-opt --split-input-file --verify-diagnostics %s

// The hardware description must be a #dlc.hardware, not a plain dictionary
// (which every pass would otherwise silently ignore).
// expected-error @below {{'builtin.module' op 'dlc.hardware' must be a #dlc.hardware description}}
module attributes {dlc.hardware = {local_memory_bytes = 65536}} {
}

// -----

// A misspelt dlc attribute is an error, not an attribute nobody reads.
module {
  func.func @typo(%a: memref<4xf32>) {
    // expected-error @below {{'affine.for' op unknown attribute 'dlc.tile_lop' (docs/Architecture.md lists the dlc attributes)}}
    affine.for %i = 0 to 4 {
    } {dlc.tile_lop}
    return
  }
}

// -----

// Module-level attributes belong on the module.
// expected-error @below {{'func.func' op 'dlc.hardware' does not belong on an operation}}
func.func @hardware_on_function() attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  return
}

// -----

// Nest attributes do not belong on the module.
// expected-error @below {{'builtin.module' op 'dlc.tile_loop' does not belong on a module}}
module attributes {dlc.tile_loop} {
}

// -----

// A marker is a unit attribute.
func.func @marker_with_value() {
  // expected-error @below {{'affine.for' op 'dlc.parallel' must be a unit attribute}}
  affine.for %i = 0 to 4 {
  } {dlc.parallel = 1 : i64}
  return
}

// -----

// The transfer records of a buffer are an array.
func.func @transfers_not_array() {
  // expected-error @below {{'memref.alloc' op 'dlc.transfers' must be an array}}
  %0 = memref.alloc() {dlc.transfers = {direction = "in"}} : memref<4xf32, 1>
  memref.dealloc %0 : memref<4xf32, 1>
  return
}

// -----

// The distribution of a loop is a dictionary.
func.func @distributed_not_dictionary() {
  // expected-error @below {{'affine.for' op 'dlc.distributed' must be a dictionary}}
  affine.for %i = 0 to 4 {
  } {dlc.distributed = 64 : i64}
  return
}

// -----

// An ONNX name is a string on an argument or a result.
// expected-error @below {{'func.func' op argument 0: 'dlc.name' must be a string}}
func.func @name_not_string(%a: memref<4xf32> {dlc.name = 3 : i64}) {
  return
}

// -----

// expected-error @below {{'func.func' op result 0: 'dlc.bank_dim' does not belong on a result}}
func.func @bank_dim_on_result(%a: memref<4xf32>) -> (memref<4xf32> {dlc.bank_dim = 0 : i64}) {
  return %a : memref<4xf32>
}

// -----

// ... and never on an operation.
func.func @name_on_operation() {
  // expected-error @below {{'memref.alloc' op 'dlc.name' does not belong on an operation}}
  %0 = memref.alloc() {dlc.name = "x"} : memref<4xf32>
  memref.dealloc %0 : memref<4xf32>
  return
}

// -----

// The bank dimension is an integer.
func.func @bank_dim_not_integer(%a: memref<4xf32> {dlc.bank_dim = "rows"}) {
  // expected-error @-1 {{'func.func' op argument 0: 'dlc.bank_dim' must be an integer}}
  return
}

// -----

// The entry signature is a dictionary on the module.
// expected-error @below {{'builtin.module' op 'dlc.entry' must be a dictionary}}
module attributes {dlc.entry = "main"} {
}
