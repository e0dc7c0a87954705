// RUN: dlc-opt --split-input-file --verify-diagnostics --dlc-memory-report="output=%t.json" %s
// RUN: not dlc-opt --dlc-memory-report="output=%t.missing/report.json" %s 2>&1 | FileCheck %s --check-prefix=OUTPUT

// Without dlc.transfers on its nest, the direction comes from the memory spaces: one
// side must be local.
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @global_to_global(%a: memref<16xf32>, %b: memref<16xf32>) {
    %c16 = arith.constant 16 : index
    %tag = memref.alloc() : memref<1xi32>
    // expected-error @below {{is not listed in a 'dlc.transfers' and its direction is unknown: exactly one side must be in the local memory space 1}}
    affine.dma_start %a[0], %b[0], %tag[0], %c16 : memref<16xf32>, memref<16xf32>, memref<1xi32>
    return
  }
}

// -----

// Without dlc.transfers on its nest, the number of elements must be a constant.
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @dynamic_elements(%a: memref<16xf32>, %n: index) {
    %tag = memref.alloc() : memref<1xi32>
    %l = memref.alloc() : memref<16xf32, 1>
    // expected-error @below {{is not listed in a 'dlc.transfers' and a non-constant number of elements}}
    affine.dma_start %a[0], %l[0], %tag[0], %n : memref<16xf32>, memref<16xf32, 1>, memref<1xi32>
    memref.dealloc %l : memref<16xf32, 1>
    return
  }
}

// -----

// So must the elements per stride of a strided transfer.
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @dynamic_block(%a: memref<16xf32>, %n: index) {
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %tag = memref.alloc() : memref<1xi32>
    %l = memref.alloc() : memref<16xf32, 1>
    // expected-error @below {{is not listed in a 'dlc.transfers' and a non-constant number of elements per stride}}
    affine.dma_start %a[0], %l[0], %tag[0], %c16, %c8, %n : memref<16xf32>, memref<16xf32, 1>, memref<1xi32>
    memref.dealloc %l : memref<16xf32, 1>
    return
  }
}

// -----

// A malformed dlc.transfers entry is named.
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @bad_transfer(%a: memref<16xf32>) {
    %c16 = arith.constant 16 : index
    %tag = memref.alloc() : memref<1xi32>
    // expected-error @below {{'dlc.transfers' entries must be dictionaries with direction = "in" or "out" and non-negative integers count, elements and block; got {block = 16 : i64, count = 1 : i64, direction = "sideways", elements = 16 : i64}}}
    %l = memref.alloc() {dlc.transfers = [{direction = "sideways", count = 1, elements = 16, block = 16}]} : memref<16xf32, 1>
    affine.for %i = 0 to 1 {
      affine.dma_start %a[0], %l[0], %tag[0], %c16 : memref<16xf32>, memref<16xf32, 1>, memref<1xi32>
    }
    memref.dealloc %l : memref<16xf32, 1>
    return
  }
}

// -----

// dlc.transfers must list every transfer of its buffer.
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @short_list(%a: memref<16xf32>) {
    %c16 = arith.constant 16 : index
    %tag = memref.alloc() : memref<1xi32>
    // expected-error @below {{'dlc.transfers' must list one dictionary per transfer of the buffer (2); got [{block = 16 : i64, count = 1 : i64, direction = "in", elements = 16 : i64}]}}
    %l = memref.alloc() {dlc.transfers = [{direction = "in", count = 1, elements = 16, block = 16}]} : memref<16xf32, 1>
    affine.for %i = 0 to 1 {
      affine.dma_start %a[0], %l[0], %tag[0], %c16 : memref<16xf32>, memref<16xf32, 1>, memref<1xi32>
      affine.dma_start %l[0], %a[0], %tag[0], %c16 : memref<16xf32, 1>, memref<16xf32>, memref<1xi32>
    }
    memref.dealloc %l : memref<16xf32, 1>
    return
  }
}

// -----

// dlc.eliminated_copies entries need the node and the bytes.
module {
  // expected-error @below {{'dlc.eliminated_copies' entries must be dictionaries with a string 'op' and an integer 'bytes'; got {elements = 4 : i64, op = "t"}}}
  func.func @bad_record() attributes {dlc.eliminated_copies = [{op = "t", elements = 4}]} {
    return
  }
}

// -----


// The MACs of a nest whose bounds depend on a function argument are not a
// number.
module {
  func.func @parametric(%n: index) {
    %x = arith.constant 1.0 : f32
    affine.for %i = 0 to %n {
      // expected-error @below {{cannot count how many times this op runs: its loop bounds depend on values defined outside the nest}}
      %p = arith.mulf %x, %x : f32
      %s = arith.addf %p, %x : f32
    } loc("param")
    return
  }
}

// -----

// Nor are those of a loop that is not affine.
module {
  func.func @scf_inside() {
    %x = arith.constant 1.0 : f32
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    affine.for %i = 0 to 4 {
      scf.for %j = %c0 to %c4 step %c1 {
        // expected-error @below {{cannot count how many times this op runs: it is inside 'scf.for', whose iterations are not modelled}}
        %p = arith.mulf %x, %x : f32
        %s = arith.addf %p, %x : f32
      }
    } loc("scf")
    return
  }
}

// -----

// The footprint needs local buffers of static size.
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @dynamic_local(%n: index) {
    // expected-error @below {{local buffer 'memref<?xf32, 1>' has no static size: local memory can only be checked with static shapes}}
    %a = memref.alloc(%n) : memref<?xf32, 1>
    memref.dealloc %a : memref<?xf32, 1>
    return
  }
}

// OUTPUT: error: cannot write the memory report to '{{.*}}.missing/report.json':
