// RUN: dlc-opt %s --split-input-file --verify-diagnostics --dlc-partition-for-target=target=snowflake
// RUN: not dlc-opt %s --split-input-file --dlc-partition-for-target=target=nosuch 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// UNKNOWN: error: unknown target 'nosuch'

// A module that is partitioned already is not partitioned again.
// expected-error @below {{the module is partitioned already}}
module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {dlc.segment = "snowflake"} {
    %0 = call @main_segment0_host(%x) : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @main_segment0_host(%x: tensor<4xf32>) -> tensor<4xf32> attributes {dlc.segment = "host"} {
    return %x : tensor<4xf32>
  }
}

// -----

// expected-error @below {{the module has no entry function to partition}}
module {
  func.func private @declared(%x: tensor<4xf32>) -> tensor<4xf32>
}
