// RUN: dlc-opt --split-input-file --verify-diagnostics --dlc-attach-hardware="overrides=bank=4" %s
// RUN: not dlc-opt --dlc-attach-hardware="overrides=local_memory_bytes=lots" %s 2>&1 | FileCheck %s --check-prefix=NUMBER
// RUN: not dlc-opt --dlc-attach-hardware="overrides=local_memory_bytes=10,banks=4" %s 2>&1 | FileCheck %s --check-prefix=BANKS
// RUN: not dlc-opt --dlc-attach-hardware="overrides=double_buffering=maybe" %s 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: not dlc-opt --dlc-attach-hardware="hardware=#dlc.hardware" %s 2>&1 | FileCheck %s --check-prefix=SYNTAX

// An unknown parameter is named, with the known ones.
// expected-error @below {{hardware override 'bank=4': unknown parameter 'bank' (known: local_memory_bytes, local_memory_space, banks, double_buffering, dma_block_overhead_bytes, processing_units, broadcast_reads, strided_read_copies)}}
module {
}

// NUMBER: hardware override 'local_memory_bytes=lots': expected an integer
// BANKS: local_memory_bytes (10) must be a multiple of banks (4)
// FLAG: hardware override 'double_buffering=maybe': expected true or false
// SYNTAX: '#dlc.hardware' is not a #dlc.hardware description
