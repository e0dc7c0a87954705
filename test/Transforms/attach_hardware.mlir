// RUN: dlc-opt --split-input-file --dlc-attach-hardware="overrides=local_memory_bytes=16K,banks=4" %s | FileCheck %s
// RUN: dlc-opt --split-input-file --dlc-attach-hardware="hardware={#dlc.hardware<local_memory_bytes = 1024, double_buffering = false>}" %s | FileCheck %s --check-prefix=DEFAULTS

// A module without a description gets the defaults, then the overrides
// (a K suffix means KiB).
// CHECK-LABEL: module @bare
// CHECK-SAME: dlc.hardware = #dlc.hardware<local_memory_bytes = 16384, banks = 4>
// DEFAULTS-LABEL: module @bare
// DEFAULTS-SAME: dlc.hardware = #dlc.hardware<local_memory_bytes = 1024, double_buffering = false>
module @bare {
}

// -----

// A description already on the module wins over the target's defaults;
// the overrides still apply on top of it.
// CHECK-LABEL: module @described
// CHECK-SAME: dlc.hardware = #dlc.hardware<local_memory_bytes = 16384, local_memory_space = 3, banks = 4>
// DEFAULTS-LABEL: module @described
// DEFAULTS-SAME: dlc.hardware = #dlc.hardware<local_memory_bytes = 2048, local_memory_space = 3>
module @described attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 2048, local_memory_space = 3>} {
}
