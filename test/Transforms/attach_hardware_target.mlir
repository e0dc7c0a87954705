// RUN: dlc-opt --dlc-attach-hardware="overrides=cpes=16,clock_hz=1e9,curve=1:2.5,fast=false" %s | FileCheck %s
// RUN: not dlc-opt --dlc-attach-hardware="overrides=cpus=16" %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not dlc-opt --dlc-attach-hardware="overrides=cpes=many" %s 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not dlc-opt --dlc-attach-hardware="overrides=curve=1:x" %s 2>&1 | FileCheck %s --check-prefix=ARRAY

// A target's own parameters are overridden like the memory fields, each
// parsed like its default: an integer, a float, an array (a:b), a flag.
// CHECK: dlc.hardware = #dlc.hardware<local_memory_bytes = 1024, target = {clock_hz = 1.000000e+09 : f64, cpes = 16 : i64, curve = [1.000000e+00, 2.500000e+00], fast = false}>
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 1024, target = {cpes = 64 : i64, clock_hz = 1.45e9 : f64, curve = [1.0, 2.0, 3.0], fast = true}>} {
}

// UNKNOWN: hardware override 'cpus=16': unknown parameter 'cpus' (known: local_memory_bytes, local_memory_space, banks, double_buffering, dma_block_overhead_bytes, processing_units, broadcast_reads, strided_read_copies, clock_hz, cpes, curve, fast)
// TYPE: hardware override 'cpes=many': expected a value like 64 : i64
// ARRAY: hardware override 'curve=1:x': expected a value like [1.000000e+00, 2.000000e+00, 3.000000e+00]

