// RUN: dlc-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// Every error of the dialect's verifiers: attributes and types first, then
// the program and its buffers, then the machine's rules for instructions
// (Trace.h: checkInstruction, the same function the trace's reader runs).

// A mapping whose partition dimension is not a dimension.
// expected-error @+1 {{mapping: partition_dim 2 is not a dimension of a rank-2 tensor (or -1)}}
#bad = #inferentia.mapping<shape = [4, 8], partition_dim = 2, partition_tile = 4>

// -----

// A mapping with a tile larger than its partition dimension.
// expected-error @+1 {{mapping: partition_tile 8 must be between 1 and the partition dimension's size (1 without one)}}
#bad = #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 8>

// -----

// A mapping of an empty dimension.
// expected-error @+1 {{mapping: every dimension must be positive}}
#bad = #inferentia.mapping<shape = [4, 0], partition_dim = 0, partition_tile = 4>

// -----

// A buffer in a memory the machine does not have.
// expected-error @+1 {{buffer: unknown memory 'hbm' (sbuf, psum or dram)}}
!bad = !inferentia.buffer<hbm, 4, 8, f32, #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 4>>

// -----

// Elements the engines do not compute on.
// expected-error @+1 {{buffer: elements must be f32 or bf16, not 'i32'}}
!bad = !inferentia.buffer<sbuf, 4, 8, i32, #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 4>>

// -----

// DRAM has no partitions.
// expected-error @+1 {{buffer: a DRAM buffer has one partition}}
!bad = !inferentia.buffer<dram, 4, 8, f32, #inferentia.mapping<shape = [4, 8], partition_dim = -1, partition_tile = 1>>

// -----

// An empty buffer.
// expected-error @+1 {{buffer: 4 partitions of 0 elements}}
!bad = !inferentia.buffer<sbuf, 4, 0, f32, #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 4>>

// -----

// A buffer too small for its mapping (4 partitions of 16 elements).
// expected-error @+1 {{buffer: its mapping needs 4 partitions of 16 elements}}
!bad = !inferentia.buffer<sbuf, 4, 8, f32, #inferentia.mapping<shape = [8, 8], partition_dim = 0, partition_tile = 4>>

// -----

// Access patterns: a partition range that is not one.
!s = !inferentia.buffer<sbuf, 4, 8, f32, #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 4>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %s = inferentia.alloc address(0) : !s
  // expected-error @+1 {{access pattern: partitions 0 : 0 are not a range}}
  %t = inferentia.memset %s<p = 0 : 0, offset = 0, strides = [1], sizes = [8]> value(0.0) {engine = "vector"} : !s
}

// -----

// Access patterns: a stride per size.
!s = !inferentia.buffer<sbuf, 4, 8, f32, #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 4>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %s = inferentia.alloc address(0) : !s
  // expected-error @+1 {{access pattern: 2 strides for 1 sizes}}
  %t = inferentia.memset %s<p = 0 : 4, offset = 0, strides = [4, 1], sizes = [8]> value(0.0) {engine = "vector"} : !s
}

// -----

// Access patterns: empty dimensions.
!s = !inferentia.buffer<sbuf, 4, 8, f32, #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 4>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %s = inferentia.alloc address(0) : !s
  // expected-error @+1 {{access pattern: sizes must be positive}}
  %t = inferentia.memset %s<p = 0 : 4, offset = 0, strides = [1], sizes = [0]> value(0.0) {engine = "vector"} : !s
}

// -----

// The program: a layout mode the bank-layout pass does not have.
// expected-error @+1 {{layout_mode must be 'global' or 'local', not 'greedy'}}
inferentia.program @p attributes {
    layers = [], layout_mode = "greedy", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
}

// -----

// The program: an instruction of a layer the program does not have.
!s = !inferentia.buffer<sbuf, 4, 8, f32, #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 4>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %s = inferentia.alloc address(0) : !s
  // expected-error @+1 {{layer 0 is not one of the program's 0 layers}}
  %t = inferentia.memset %s<p = 0 : 4, offset = 0, strides = [1], sizes = [8]> value(0.0) {engine = "vector", layer = 0 : i64} : !s
}

// -----

// A machine that breaks its own rules (a PSUM bank of no bytes): checked
// before any instruction is.
!s = !inferentia.buffer<sbuf, 4, 8, f32, #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 4>>
module attributes {dlc.hardware = #dlc.hardware<target = {psum_bank_bytes = 0 : i64}>} {
  // expected-error @+1 {{runs on a machine that cannot exist: hardware parameter 'psum_bank_bytes': 0 must be positive}}
  inferentia.program @p attributes {
      layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
      load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
      intermediate_bytes_total = 0 : i64} {
    %s = inferentia.alloc address(0) : !s
    %t = inferentia.memset %s<p = 0 : 4, offset = 0, strides = [1], sizes = [8]> value(0.0) {engine = "vector"} : !s
  }
}

// -----

// DRAM tensors live in DRAM.
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  // expected-error @+1 {{a DRAM tensor's buffer must be in dram}}
  %x = inferentia.dram_tensor "x" "input" address(0) : !inferentia.buffer<sbuf, 4, 8, f32, #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 4>>
}

// -----

// A role the executor does not know.
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  // expected-error @+1 {{role must be input, output, weights or scratch, not 'state'}}
  %x = inferentia.dram_tensor "x" "state" address(0) : !inferentia.buffer<dram, 1, 8, f32, #inferentia.mapping<shape = [8], partition_dim = -1, partition_tile = 1>>
}

// -----

// Weights without their values.
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  // expected-error @+1 {{weights, and only weights, carry a value}}
  %w = inferentia.dram_tensor "w" "weights" address(0) : !inferentia.buffer<dram, 1, 8, f32, #inferentia.mapping<shape = [8], partition_dim = -1, partition_tile = 1>>
}

// -----

// An input with a value (the executor writes inputs).
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  // expected-error @+1 {{weights, and only weights, carry a value}}
  %x = inferentia.dram_tensor "x" "input" address(0) {value = dense<1.0> : tensor<8xf32>} : !inferentia.buffer<dram, 1, 8, f32, #inferentia.mapping<shape = [8], partition_dim = -1, partition_tile = 1>>
}

// -----

// Weights of a type the machine does not store.
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  // expected-error @+1 {{value must hold f32 or bf16 elements, not 'i32'}}
  %w = inferentia.dram_tensor "w" "weights" address(0) {value = dense<1> : tensor<8xi32>} : !inferentia.buffer<dram, 1, 8, f32, #inferentia.mapping<shape = [8], partition_dim = -1, partition_tile = 1>>
}

// -----

// Weights whose value does not fill their buffer.
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  // expected-error @+1 {{value has 4 elements, the buffer 8}}
  %w = inferentia.dram_tensor "w" "weights" address(0) {value = dense<1.0> : tensor<4xf32>} : !inferentia.buffer<dram, 1, 8, f32, #inferentia.mapping<shape = [8], partition_dim = -1, partition_tile = 1>>
}

// -----

// A DRAM tensor at an address its elements cannot start at.
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  // expected-error @+1 {{address 6 is not a multiple of the element size (4 bytes)}}
  %x = inferentia.dram_tensor "x" "input" address(6) : !inferentia.buffer<dram, 1, 8, f32, #inferentia.mapping<shape = [8], partition_dim = -1, partition_tile = 1>>
}

// -----

// A DRAM tensor past the end of a machine with 64 KiB of DRAM.
module attributes {dlc.hardware = #dlc.hardware<target = {dram_bytes = 65536 : i64}>} {
  inferentia.program @p attributes {
      layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
      load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
      intermediate_bytes_total = 0 : i64} {
    // expected-error @+1 {{bytes [65520, 65552) are not within DRAM (65536 bytes)}}
    %x = inferentia.dram_tensor "x" "input" address(65520) : !inferentia.buffer<dram, 1, 8, f32, #inferentia.mapping<shape = [8], partition_dim = -1, partition_tile = 1>>
  }
}

// -----

// DRAM is not allocated on chip.
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  // expected-error @+1 {{allocates SBUF or PSUM; DRAM is a dram_tensor}}
  %s = inferentia.alloc address(0) : !inferentia.buffer<dram, 1, 8, f32, #inferentia.mapping<shape = [8], partition_dim = -1, partition_tile = 1>>
}

// -----

// More partitions than a machine of 64 has.
module attributes {dlc.hardware = #dlc.hardware<target = {partitions = 64 : i64, stationary_free_max = 64 : i64}>} {
  inferentia.program @p attributes {
      layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
      load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
      intermediate_bytes_total = 0 : i64} {
    // expected-error @+1 {{needs 128 partitions, the machine has 64}}
    %s = inferentia.alloc address(0) : !inferentia.buffer<sbuf, 128, 8, f32, #inferentia.mapping<shape = [128, 8], partition_dim = 0, partition_tile = 128>>
  }
}

// -----

// Past the end of each SBUF partition (192 KiB).
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  // expected-error @+1 {{bytes [196600, 196632) of each partition exceed the sbuf's 196608 bytes per partition}}
  %s = inferentia.alloc address(196600) : !inferentia.buffer<sbuf, 4, 8, f32, #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 4>>
}

// -----

// Past the end of each PSUM partition (16 KiB).
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  // expected-error @+1 {{bytes [14336, 16896) of each partition exceed the psum's 16384 bytes per partition}}
  %p = inferentia.alloc address(14336) : !inferentia.buffer<psum, 4, 640, f32, #inferentia.mapping<shape = [4, 640], partition_dim = 0, partition_tile = 4>>
}

// -----

// Instructions: operands are buffers with a place.
!s = !inferentia.buffer<sbuf, 4, 8, f32, #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 4>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %s = "test.buffer"() : () -> !s
  // expected-error @+1 {{operand is not an inferentia.alloc or inferentia.dram_tensor}}
  %t = inferentia.memset %s<p = 0 : 4, offset = 0, strides = [1], sizes = [8]> value(0.0) {engine = "vector"} : !s
}

// -----

// An engine the trace does not know.
!s = !inferentia.buffer<sbuf, 4, 8, f32, #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 4>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %s = inferentia.alloc address(0) : !s
  // expected-error @+1 {{engine 'pool' is not one the trace knows}}
  %t = inferentia.memset %s<p = 0 : 4, offset = 0, strides = [1], sizes = [8]> value(0.0) {engine = "pool"} : !s
}

// -----

// An ALU operation the trace does not know.
!s = !inferentia.buffer<sbuf, 4, 8, f32, #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 4>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %s = inferentia.alloc address(0) : !s
  // expected-error @+1 {{alu0 'pow' is not one the trace knows}}
  %t = inferentia.tensor_tensor "pow" %s<p = 0 : 4, offset = 0, strides = [1], sizes = [8]>, %s<p = 0 : 4, offset = 0, strides = [1], sizes = [8]>, %s<p = 0 : 4, offset = 0, strides = [1], sizes = [8]> {engine = "vector"} : !s, !s, !s
}

// -----

// A source without its access pattern (generic form).
!s = !inferentia.buffer<sbuf, 4, 8, f32, #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 4>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %s = inferentia.alloc address(0) : !s
  // expected-error @+1 {{has 1 sources and 0 source access patterns}}
  %t = "inferentia.tensor_copy"(%s, %s) {dst_ap = #inferentia.ap<p = 0 : 4, offset = 0, strides = [1], sizes = [8]>, src_aps = [], engine = "vector", cause = "none", operandSegmentSizes = array<i32: 1, 1, 0>} : (!s, !s) -> !inferentia.token
}

// -----

// The machine's rules (checkInstruction): an access of 8 partitions starts
// at a multiple of 32.
!s = !inferentia.buffer<sbuf, 32, 8, f32, #inferentia.mapping<shape = [32, 8], partition_dim = 0, partition_tile = 32>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %s = inferentia.alloc address(0) : !s
  // expected-error @+1 {{dst: partitions 8..15 start at 8: an access of 1 to 32 partitions must start at a multiple of 32}}
  %t = inferentia.memset %s<p = 8 : 8, offset = 0, strides = [1], sizes = [8]> value(0.0) {engine = "vector"} : !s
}

// -----

// ... and an access of 33 to 64 partitions at 0 or 64.
!s = !inferentia.buffer<sbuf, 128, 8, f32, #inferentia.mapping<shape = [128, 8], partition_dim = 0, partition_tile = 128>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %s = inferentia.alloc address(0) : !s
  // expected-error @+1 {{srcs[0]: partitions 32..79 start at 32: an access of 33 to 64 partitions must start at a multiple of 64}}
  %t = inferentia.tensor_copy %s<p = 64 : 48, offset = 0, strides = [1], sizes = [8]>, %s<p = 32 : 48, offset = 0, strides = [1], sizes = [8]> cause("none") {engine = "vector"} : !s, !s
}

// -----

// The contraction dimension K is at most the 128 partitions.
!w = !inferentia.buffer<sbuf, 128, 8, f32, #inferentia.mapping<shape = [128, 8], partition_dim = 0, partition_tile = 128>>
!p = !inferentia.buffer<psum, 8, 512, f32, #inferentia.mapping<shape = [8, 512], partition_dim = 0, partition_tile = 8>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %w = inferentia.alloc address(0) : !w
  %p = inferentia.alloc address(0) : !p
  // expected-error @+1 {{K = 256 (the partitions of srcs[0] and srcs[1]) exceeds the 128 partitions}}
  %t = inferentia.matmul %p<p = 0 : 8, offset = 0, strides = [1], sizes = [8]>, %w<p = 0 : 256, offset = 0, strides = [1], sizes = [8]>, %w<p = 0 : 256, offset = 0, strides = [1], sizes = [8]> {engine = "tensor"} : !p, !w, !w
}

// -----

// The stationary operand has at most stationary_free_max (128) columns.
!w = !inferentia.buffer<sbuf, 4, 256, f32, #inferentia.mapping<shape = [4, 256], partition_dim = 0, partition_tile = 4>>
!p = !inferentia.buffer<psum, 128, 512, f32, #inferentia.mapping<shape = [128, 512], partition_dim = 0, partition_tile = 128>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %w = inferentia.alloc address(0) : !w
  %p = inferentia.alloc address(0) : !p
  // expected-error @+1 {{M = 256 (the free elements of srcs[0], stationary) exceeds stationary_free_max (128)}}
  %t = inferentia.matmul %p<p = 0 : 128, offset = 0, strides = [1], sizes = [16]>, %w<p = 0 : 4, offset = 0, strides = [1], sizes = [256]>, %w<p = 0 : 4, offset = 0, strides = [1], sizes = [16]> {engine = "tensor"} : !p, !w, !w
}

// -----

// The moving operand has at most moving_free_max (512) columns.
!w = !inferentia.buffer<sbuf, 4, 1024, f32, #inferentia.mapping<shape = [4, 1024], partition_dim = 0, partition_tile = 4>>
!p = !inferentia.buffer<psum, 8, 2048, f32, #inferentia.mapping<shape = [8, 2048], partition_dim = 0, partition_tile = 8>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %w = inferentia.alloc address(0) : !w
  %p = inferentia.alloc address(0) : !p
  // expected-error @+1 {{N = 1024 (the free elements of srcs[1], moving) exceeds moving_free_max (512)}}
  %t = inferentia.matmul %p<p = 0 : 8, offset = 0, strides = [1], sizes = [1024]>, %w<p = 0 : 4, offset = 0, strides = [1], sizes = [8]>, %w<p = 0 : 4, offset = 0, strides = [1], sizes = [1024]> {engine = "tensor"} : !p, !w, !w
}

// -----

// A matmul's result is M partitions of N elements.
!w = !inferentia.buffer<sbuf, 4, 64, f32, #inferentia.mapping<shape = [4, 64], partition_dim = 0, partition_tile = 4>>
!p = !inferentia.buffer<psum, 8, 512, f32, #inferentia.mapping<shape = [8, 512], partition_dim = 0, partition_tile = 8>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %w = inferentia.alloc address(0) : !w
  %p = inferentia.alloc address(0) : !p
  // expected-error @+1 {{dst has 8 partitions x 32 elements, expected M = 8 partitions x N = 64 elements}}
  %t = inferentia.matmul %p<p = 0 : 8, offset = 0, strides = [1], sizes = [32]>, %w<p = 0 : 4, offset = 0, strides = [1], sizes = [8]>, %w<p = 0 : 4, offset = 0, strides = [1], sizes = [64]> {engine = "tensor"} : !p, !w, !w
}

// -----

// A matmul writes one PSUM bank (2 KiB per partition).
!w = !inferentia.buffer<sbuf, 4, 64, f32, #inferentia.mapping<shape = [4, 64], partition_dim = 0, partition_tile = 4>>
!p = !inferentia.buffer<psum, 8, 1024, f32, #inferentia.mapping<shape = [8, 1024], partition_dim = 0, partition_tile = 8>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %w = inferentia.alloc address(0) : !w
  %p = inferentia.alloc address(0) : !p
  // expected-error @+1 {{dst: bytes 1920..2175 of each partition cross a PSUM bank boundary (banks of 2048 bytes): the tensor engine writes one bank}}
  %t = inferentia.matmul %p<p = 0 : 8, offset = 480, strides = [1], sizes = [64]>, %w<p = 0 : 4, offset = 0, strides = [1], sizes = [8]>, %w<p = 0 : 4, offset = 0, strides = [1], sizes = [64]> {engine = "tensor"} : !p, !w, !w
}

// -----

// The tensor engine writes PSUM.
!w = !inferentia.buffer<sbuf, 8, 64, f32, #inferentia.mapping<shape = [8, 64], partition_dim = 0, partition_tile = 8>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %w = inferentia.alloc address(0) : !w
  // expected-error @+1 {{dst: the tensor engine writes PSUM}}
  %t = inferentia.matmul %w<p = 0 : 8, offset = 0, strides = [1], sizes = [64]>, %w<p = 0 : 8, offset = 0, strides = [1], sizes = [8]>, %w<p = 0 : 8, offset = 0, strides = [1], sizes = [64]> {engine = "tensor"} : !w, !w, !w
}

// -----

// A transpose's result has one partition per source element.
!s = !inferentia.buffer<sbuf, 4, 8, f32, #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 4>>
!p = !inferentia.buffer<psum, 8, 512, f32, #inferentia.mapping<shape = [8, 512], partition_dim = 0, partition_tile = 8>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %s = inferentia.alloc address(0) : !s
  %p = inferentia.alloc address(0) : !p
  // expected-error @+1 {{dst has 8 partitions x 8 elements, expected 8 partitions x 4 elements (srcs[0] transposed)}}
  %t = inferentia.transpose %p<p = 0 : 8, offset = 0, strides = [1], sizes = [8]>, %s<p = 0 : 4, offset = 0, strides = [1], sizes = [8]> cause("relayout") {engine = "tensor"} : !p, !s
}

// -----

// An engine that does not run the opcode.
!s = !inferentia.buffer<sbuf, 4, 8, f32, #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 4>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %s = inferentia.alloc address(0) : !s
  // expected-error @+1 {{engine 'scalar' cannot run tensor_reduce (it runs on vector)}}
  %t = inferentia.tensor_reduce "add" %s<p = 0 : 4, offset = 0, strides = [1], sizes = [1]>, %s<p = 0 : 4, offset = 0, strides = [1], sizes = [8]> dims(1) {engine = "scalar"} : !s, !s
}

// -----

// A DMA queue the machine does not have (16 queues).
!s = !inferentia.buffer<sbuf, 4, 8, f32, #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 4>>
!d = !inferentia.buffer<dram, 1, 32, f32, #inferentia.mapping<shape = [32], partition_dim = -1, partition_tile = 1>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %d = inferentia.dram_tensor "x" "input" address(0) : !d
  %s = inferentia.alloc address(0) : !s
  // expected-error @+1 {{queue 16: expected 0 to 15}}
  %t = inferentia.dma_copy %s<p = 0 : 4, offset = 0, strides = [1], sizes = [8]>, %d<p = 0 : 4 step 8, offset = 0, strides = [1], sizes = [8]> queue(16) cause("load") {engine = "dma"} : !s, !d
}

// -----

// A cause on a computation.
!s = !inferentia.buffer<sbuf, 4, 8, f32, #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 4>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %s = inferentia.alloc address(0) : !s
  // expected-error @+1 {{cause 'spill': only copies (dma_copy, tensor_copy, transpose) have a cause}}
  %t = inferentia.memset %s<p = 0 : 4, offset = 0, strides = [1], sizes = [8]> value(0.0) {engine = "vector", cause = "spill"} : !s
}

// -----

// DMA does not reach PSUM.
!p = !inferentia.buffer<psum, 4, 8, f32, #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 4>>
!d = !inferentia.buffer<dram, 1, 32, f32, #inferentia.mapping<shape = [32], partition_dim = -1, partition_tile = 1>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %d = inferentia.dram_tensor "y" "output" address(0) : !d
  %p = inferentia.alloc address(0) : !p
  // expected-error @+1 {{srcs[0]: DMA moves between DRAM and SBUF, not PSUM}}
  %t = inferentia.dma_copy %d<p = 0 : 4 step 8, offset = 0, strides = [1], sizes = [8]>, %p<p = 0 : 4, offset = 0, strides = [1], sizes = [8]> queue(0) cause("store") {engine = "dma"} : !d, !p
}

// -----

// A compute engine does not read DRAM.
!s = !inferentia.buffer<sbuf, 4, 8, f32, #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 4>>
!d = !inferentia.buffer<dram, 1, 32, f32, #inferentia.mapping<shape = [32], partition_dim = -1, partition_tile = 1>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %d = inferentia.dram_tensor "x" "input" address(0) : !d
  %s = inferentia.alloc address(0) : !s
  // expected-error @+1 {{srcs[0]: the vector engine accesses SBUF and PSUM, not DRAM}}
  %t = inferentia.tensor_copy %s<p = 0 : 4, offset = 0, strides = [1], sizes = [8]>, %d<p = 0 : 4 step 8, offset = 0, strides = [1], sizes = [8]> cause("none") {engine = "vector"} : !s, !d
}

// -----

// A copy moves as many elements as it writes.
!s = !inferentia.buffer<sbuf, 4, 8, f32, #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 4>>
!d = !inferentia.buffer<dram, 1, 32, f32, #inferentia.mapping<shape = [32], partition_dim = -1, partition_tile = 1>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %d = inferentia.dram_tensor "x" "input" address(0) : !d
  %s = inferentia.alloc address(0) : !s
  // expected-error @+1 {{srcs[0] has 16 elements and dst 32: a copy moves element i to element i}}
  %t = inferentia.dma_copy %s<p = 0 : 4, offset = 0, strides = [1], sizes = [8]>, %d<p = 0 : 4 step 8, offset = 0, strides = [1], sizes = [4]> queue(0) cause("load") {engine = "dma"} : !s, !d
}

// -----

// A DRAM pattern has no start partition of its own.
!s = !inferentia.buffer<sbuf, 4, 8, f32, #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 4>>
!d = !inferentia.buffer<dram, 1, 32, f32, #inferentia.mapping<shape = [32], partition_dim = -1, partition_tile = 1>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %d = inferentia.dram_tensor "x" "input" address(0) : !d
  %s = inferentia.alloc address(0) : !s
  // expected-error @+1 {{srcs[0]: a DRAM pattern starts at partition 0 (it has no partitions of its own), not 2}}
  %t = inferentia.dma_copy %s<p = 0 : 2, offset = 0, strides = [1], sizes = [8]>, %d<p = 2 : 2 step 8, offset = 0, strides = [1], sizes = [8]> queue(0) cause("load") {engine = "dma"} : !s, !d
}

// -----

// `step` lines DRAM up with partitions: an SBUF pattern has none.
!s = !inferentia.buffer<sbuf, 4, 8, f32, #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 4>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %s = inferentia.alloc address(0) : !s
  // expected-error @+1 {{dst: partition_stride applies to DRAM patterns only}}
  %t = inferentia.memset %s<p = 0 : 4 step 8, offset = 0, strides = [1], sizes = [8]> value(0.0) {engine = "vector"} : !s
}

// -----

// More free dimensions than an engine's pattern has (max_free_dims 4).
!s = !inferentia.buffer<sbuf, 4, 32, f32, #inferentia.mapping<shape = [4, 32], partition_dim = 0, partition_tile = 4>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %s = inferentia.alloc address(0) : !s
  // expected-error @+1 {{dst: 5 free dims exceed max_free_dims (4)}}
  %t = inferentia.memset %s<p = 0 : 4, offset = 0, strides = [16, 8, 4, 2, 1], sizes = [2, 2, 2, 2, 2]> value(0.0) {engine = "vector"} : !s
}

// -----

// Elementwise operands have the destination's shape.
!s = !inferentia.buffer<sbuf, 4, 16, f32, #inferentia.mapping<shape = [4, 16], partition_dim = 0, partition_tile = 4>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %s = inferentia.alloc address(0) : !s
  // expected-error @+1 {{srcs[1] has 4 partitions x 16 elements, dst 4 partitions x 8 elements: an elementwise operand has dst's partitions and free elements}}
  %t = inferentia.tensor_tensor "add" %s<p = 0 : 4, offset = 0, strides = [1], sizes = [8]>, %s<p = 0 : 4, offset = 8, strides = [1], sizes = [8]>, %s<p = 0 : 4, offset = 0, strides = [1], sizes = [16]> {engine = "vector"} : !s, !s, !s
}

// -----

// A per-partition operand is one element per partition.
!s = !inferentia.buffer<sbuf, 4, 16, f32, #inferentia.mapping<shape = [4, 16], partition_dim = 0, partition_tile = 4>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %s = inferentia.alloc address(0) : !s
  // expected-error @+1 {{srcs[1] has 4 partitions x 2 elements, dst 4 partitions x 8 elements: a per-partition operand has dst's partitions and one element}}
  %t = inferentia.activation "relu" %s<p = 0 : 4, offset = 0, strides = [1], sizes = [8]>, %s<p = 0 : 4, offset = 8, strides = [1], sizes = [8]>, %s<p = 0 : 4, offset = 0, strides = [1], sizes = [2]> {engine = "scalar"} : !s, !s, !s
}

// -----

// tensor_tensor needs an operation.
!s = !inferentia.buffer<sbuf, 4, 8, f32, #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 4>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %s = inferentia.alloc address(0) : !s
  // expected-error @+1 {{alu0: tensor_tensor needs an operation, not bypass}}
  %t = inferentia.tensor_tensor "bypass" %s<p = 0 : 4, offset = 0, strides = [1], sizes = [8]>, %s<p = 0 : 4, offset = 0, strides = [1], sizes = [8]>, %s<p = 0 : 4, offset = 0, strides = [1], sizes = [8]> {engine = "vector"} : !s, !s, !s
}

// -----

// A third tensor_scalar operand is alu1's.
!s = !inferentia.buffer<sbuf, 4, 8, f32, #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 4>>
!b = !inferentia.buffer<sbuf, 4, 1, f32, #inferentia.mapping<shape = [4, 1], partition_dim = 0, partition_tile = 4>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %s = inferentia.alloc address(0) : !s
  %b = inferentia.alloc address(32) : !b
  // expected-error @+1 {{srcs[2] is the operand of alu1, which is bypass}}
  %t = inferentia.tensor_scalar "add", "bypass" %s<p = 0 : 4, offset = 0, strides = [1], sizes = [8]>, %s<p = 0 : 4, offset = 0, strides = [1], sizes = [8]>, %b<p = 0 : 4, offset = 0, strides = [1], sizes = [1]>, %b<p = 0 : 4, offset = 0, strides = [1], sizes = [1]> {engine = "vector"} : !s, !s, !b, !b
}

// -----

// A reduction's destination is the source without its reduced dims.
!s = !inferentia.buffer<sbuf, 4, 64, f32, #inferentia.mapping<shape = [4, 64], partition_dim = 0, partition_tile = 4>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %s = inferentia.alloc address(0) : !s
  // expected-error @+1 {{dst has 4 partitions x 8 elements, expected 4 partitions x 4 elements (srcs[0] without its 1 innermost free dims)}}
  %t = inferentia.tensor_reduce "max" %s<p = 0 : 4, offset = 48, strides = [1], sizes = [8]>, %s<p = 0 : 4, offset = 0, strides = [8, 1], sizes = [4, 8]> dims(1) {engine = "vector"} : !s, !s
}

// -----

// ... and reduces no more dims than it has.
!s = !inferentia.buffer<sbuf, 4, 64, f32, #inferentia.mapping<shape = [4, 64], partition_dim = 0, partition_tile = 4>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %s = inferentia.alloc address(0) : !s
  // expected-error @+1 {{reduce_dims 3: srcs[0] has 2 free dims}}
  %t = inferentia.tensor_reduce "add" %s<p = 0 : 4, offset = 48, strides = [1], sizes = [1]>, %s<p = 0 : 4, offset = 0, strides = [8, 1], sizes = [4, 8]> dims(3) {engine = "vector"} : !s, !s
}

// -----

// A pattern past its buffer (into the next one's bytes).
!s = !inferentia.buffer<sbuf, 4, 8, f32, #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 4>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %s = inferentia.alloc address(0) : !s
  // expected-error @+1 {{srcs[0]: elements 4..11 of each partition are outside the buffer's 8}}
  %t = inferentia.tensor_copy %s<p = 0 : 4, offset = 0, strides = [1], sizes = [8]>, %s<p = 0 : 4, offset = 4, strides = [1], sizes = [8]> cause("none") {engine = "vector"} : !s, !s
}

// -----

// A pattern on partitions its buffer does not span.
!s = !inferentia.buffer<sbuf, 4, 8, f32, #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 4>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %s = inferentia.alloc address(0) : !s
  // expected-error @+1 {{dst: partitions 0..7 are outside the buffer's 4}}
  %t = inferentia.memset %s<p = 0 : 8, offset = 0, strides = [1], sizes = [8]> value(0.0) {engine = "vector"} : !s
}

// -----

// A DRAM pattern's lines past its tensor.
!s = !inferentia.buffer<sbuf, 4, 8, f32, #inferentia.mapping<shape = [4, 8], partition_dim = 0, partition_tile = 4>>
!d = !inferentia.buffer<dram, 1, 32, f32, #inferentia.mapping<shape = [32], partition_dim = -1, partition_tile = 1>>
inferentia.program @p attributes {
    layers = [], layout_mode = "global", load_store_pairs_removed = 0 : i64,
    load_store_pairs_total = 0 : i64, intermediate_bytes_removed = 0 : i64,
    intermediate_bytes_total = 0 : i64} {
  %d = inferentia.dram_tensor "x" "input" address(0) : !d
  %s = inferentia.alloc address(0) : !s
  // expected-error @+1 {{srcs[0]: elements 0..37 are outside the buffer's 32}}
  %t = inferentia.dma_copy %s<p = 0 : 4, offset = 0, strides = [1], sizes = [8]>, %d<p = 0 : 4 step 10, offset = 0, strides = [1], sizes = [8]> queue(0) cause("load") {engine = "dma"} : !s, !d
}
