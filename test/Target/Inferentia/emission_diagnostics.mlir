// RUN: dlc-translate --inferentia-to-trace %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// What the emitter refuses, on the op it comes from.

// A module with two programs: a trace is one program.
// expected-error @+1 {{expected exactly one inferentia.program}}
module {
  inferentia.program @a attributes {
      layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
      load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
      intermediate_bytes_total = 0 : i64} {
  }
  inferentia.program @b attributes {
      layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
      load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
      intermediate_bytes_total = 0 : i64} {
  }
}

// -----

// Weights that share bytes: the weights file is one image of DRAM.
!d = !inferentia.buffer<dram, 1, 4, f32, #inferentia.mapping<shape = [4], partition_dim = -1, partition_tile = 1>>
inferentia.program @main attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %a = inferentia.dram_tensor "a" "weights" address(0) {value = dense<1.0> : tensor<4xf32>} : !d
  // expected-error @+1 {{overlaps the weights 'a' (bytes [0, 16))}}
  %b = inferentia.dram_tensor "b" "weights" address(8) {value = dense<2.0> : tensor<4xf32>} : !d
}

// -----

// Weights whose values are a resource the file does not hold.
!d = !inferentia.buffer<dram, 1, 4, f32, #inferentia.mapping<shape = [4], partition_dim = -1, partition_tile = 1>>
inferentia.program @main attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  // expected-error @+1 {{value is a resource without data}}
  %a = inferentia.dram_tensor "a" "weights" address(0) {value = dense_resource<missing> : tensor<4xf32>} : !d
}

// -----

// A dependency on a token that no instruction returns.
!s = !inferentia.buffer<sbuf, 4, 8, f32, #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 4>>
inferentia.program @main attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
^bb0(%token: !inferentia.token):
  %s = inferentia.alloc address(0) : !s
  // expected-error @+1 {{waits for a token that no earlier instruction of the program returns}}
  %t = inferentia.memset %s<p = 0 : 4, offset = 0, strides = [1], sizes = [8]> value(0.0) deps(%token) {engine = "vector"} : !s
}

// -----

// An op of no trace instruction.
inferentia.program @main attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  // expected-error @+1 {{'test.op' op is not part of an inferentia trace}}
  "test.op"() : () -> ()
}
