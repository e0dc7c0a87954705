// RUN: dlc-opt --split-input-file --verify-diagnostics --dlc-verify-local-memory %s

// The allocation that crosses the capacity is reported with the nest's
// node (the next nest's, for staging buffers allocated before it), the
// bytes live, every live buffer and the capacity.
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 8192>} {
  func.func @over_committed() {
    %a = memref.alloc() : memref<32x32xf32, 1>
    %b = memref.alloc() : memref<32x32xf32, 1>
    // expected-error @below {{local memory over-committed in 'mm': 12288 bytes live, capacity 8192 bytes; live buffers: %alloc (memref<32x32xf32, 1>) 4096 bytes, %alloc_0 (memref<32x32xf32, 1>) 4096 bytes, %alloc_1 (memref<32x32xf32, 1>) 4096 bytes}}
    %c = memref.alloc() : memref<32x32xf32, 1>
    affine.for %i = 0 to 32 {
      %v = affine.load %a[%i, 0] : memref<32x32xf32, 1>
    } loc("mm")
    memref.dealloc %a : memref<32x32xf32, 1>
    memref.dealloc %b : memref<32x32xf32, 1>
    memref.dealloc %c : memref<32x32xf32, 1>
    return
  }
}

// -----

// Inside a nest: the buffer allocated in the loop body comes on top of the
// buffer allocated before the nest.
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @in_loop_body() {
    %w = memref.alloc() : memref<768xf32, 1>
    affine.for %t = 0 to 8 {
      // expected-error @below {{local memory over-committed in 'conv': 4608 bytes live, capacity 4096 bytes; live buffers: %alloc (memref<768xf32, 1>) 3072 bytes, %alloc_0 (memref<384xf32, 1>) 1536 bytes}}
      %tile = memref.alloc() : memref<384xf32, 1>
      memref.dealloc %tile : memref<384xf32, 1>
    } loc("conv")
    memref.dealloc %w : memref<768xf32, 1>
    return
  }
}

// -----

// Buffers allocated in a loop body and never freed accumulate, one instance
// per iteration: the last of 5 iterations has 5 KiB live.
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @accumulating() {
    affine.for %t = 0 to 5 {
      // expected-error @below {{local memory over-committed in 'leak': 5120 bytes live, capacity 4096 bytes; live buffers: %alloc (memref<256xf32, 1>) 5 x 1024 bytes}}
      %tile = memref.alloc() : memref<256xf32, 1>
    } loc("leak")
    return
  }
}

// -----

// With an unknown trip count, the instances of a buffer never freed in the
// loop body cannot be counted.
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @unknown_trip_count(%n: index) {
    affine.for %t = 0 to %n {
      // expected-error @below {{local buffer is allocated in a loop without a constant trip count and not freed in its body: its live instances cannot be counted}}
      %tile = memref.alloc() : memref<16xf32, 1>
    } loc("leak")
    return
  }
}

// -----

// A local buffer needs a static size.
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @dynamic(%n: index) {
    // expected-error @below {{local buffer 'memref<?xf32, 1>' has no static size: local memory can only be checked with static shapes}}
    %a = memref.alloc(%n) : memref<?xf32, 1>
    memref.dealloc %a : memref<?xf32, 1>
    return
  }
}

// -----

// A load after the deallocation reads a dead buffer.
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @use_after_dealloc() {
    %a = memref.alloc() : memref<16xf32, 1>
    memref.dealloc %a : memref<16xf32, 1>
    affine.for %i = 0 to 16 {
      // expected-error @below {{uses local buffer %alloc (memref<16xf32, 1>) after its deallocation}}
      %v = affine.load %a[%i] : memref<16xf32, 1>
    } loc("late")
    return
  }
}

// -----

// So does a DMA, through a view.
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @dma_after_dealloc(%g: memref<16xf32>) {
    %c8 = arith.constant 8 : index
    %a = memref.alloc() : memref<16xf32, 1>
    %tag = memref.alloc() : memref<1xi32>
    %half = memref.subview %a[8] [8] [1] : memref<16xf32, 1> to memref<8xf32, strided<[1], offset: 8>, 1>
    memref.dealloc %a : memref<16xf32, 1>
    // expected-error @below {{uses local buffer %alloc (memref<16xf32, 1>) after its deallocation}}
    affine.dma_start %g[0], %half[0], %tag[0], %c8 : memref<16xf32>, memref<8xf32, strided<[1], offset: 8>, 1>, memref<1xi32>
    return
  }
}

// -----

// A buffer is deallocated once.
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @double_dealloc() {
    %a = memref.alloc() : memref<16xf32, 1>
    memref.dealloc %a : memref<16xf32, 1>
    // expected-error @below {{deallocates local buffer %alloc (memref<16xf32, 1>), which is not live here}}
    memref.dealloc %a : memref<16xf32, 1>
    return
  }
}

// -----

// Freed in a loop body, a buffer of the enclosing block would be freed once
// per iteration.
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @dealloc_below() {
    %a = memref.alloc() : memref<16xf32, 1>
    affine.for %i = 0 to 2 {
      // expected-error @below {{deallocates local buffer %alloc (memref<16xf32, 1>) in a region nested below its allocation; it must be deallocated in the block that allocates it}}
      memref.dealloc %a : memref<16xf32, 1>
    }
    return
  }
}

// -----

// Local memory is checked per function: a local buffer passed in has no
// allocation to count.
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @argument(%a: memref<16xf32, 1>) {
    affine.for %i = 0 to 16 {
      // expected-error @below {{uses local buffer %arg0 (memref<16xf32, 1>), which is not a memref.alloc or memref.alloca result: local memory is checked per function, on its own allocations}}
      %v = affine.load %a[%i] : memref<16xf32, 1>
    }
    return
  }
}

// -----

// An element type without a static size.
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  func.func @unsized_element() {
    // expected-error @below {{local buffer 'memref<4xvector<[4]xf32>, 1>' has an element type without a known size}}
    %a = memref.alloc() : memref<4xvector<[4]xf32>, 1>
    return
  }
}

// -----

// Control flow between blocks is not modelled.
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 4096>} {
  // expected-error @below {{local memory is checked on single-block function bodies (affine code); this one has 2 blocks}}
  func.func @blocks() {
    cf.br ^next
  ^next:
    return
  }
}
