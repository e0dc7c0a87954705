// RUN: dlc-opt --dlc-host-check-memory --split-input-file --verify-diagnostics %s | FileCheck %s

// Buffers that fit pass unchanged.
// CHECK-LABEL: func.func @small
// CHECK: memref.alloc() : memref<2x3xf32>
// CHECK: memref.alloca() : memref<4xi8>
func.func @small() {
  %0 = memref.alloc() : memref<2x3xf32>
  %1 = memref.alloca() : memref<4xi8>
  memref.dealloc %0 : memref<2x3xf32>
  return
}

// -----

// A dynamic allocation has no static size to check.
// CHECK-LABEL: func.func @dynamic
func.func @dynamic(%n: index) {
  %0 = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %0 : memref<?xf32>
  return
}

// -----

// An allocation of 4 PiB is refused at the op.
func.func @huge_alloc() {
  // expected-error @+1 {{buffer of type 'memref<1073741824x1048576xf32>' needs 4503599627370496 bytes, more than the}}
  %0 = memref.alloc() : memref<1073741824x1048576xf32>
  memref.dealloc %0 : memref<1073741824x1048576xf32>
  return
}

// -----

// An alloca and a global too; a byte count beyond 64 bits does not wrap.
// expected-error @+1 {{buffer of type 'memref<4294967296x4294967296xf32>' needs 2^64 or more bytes}}
memref.global "private" @big : memref<4294967296x4294967296xf32>
func.func @huge_alloca() {
  // expected-error @+1 {{buffer of type 'memref<1073741824x1048576xi8>' needs 1125899906842624 bytes}}
  %0 = memref.alloca() : memref<1073741824x1048576xi8>
  return
}
