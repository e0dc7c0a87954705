// RUN: dlc-opt --split-input-file --verify-diagnostics %s

// expected-error @below {{banks must be at least 1, got 0}}
module attributes {dlc.hardware = #dlc.hardware<banks = 0>} {
}

// -----

// expected-error @below {{local_memory_space must be at least 1, got 0}}
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 64, local_memory_space = 0>} {
}

// -----

// expected-error @below {{local_memory_bytes must not be negative, got -1}}
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = -1>} {
}

// -----

// expected-error @below {{dma_block_overhead_bytes must not be negative, got -8}}
module attributes {dlc.hardware = #dlc.hardware<local_memory_bytes = 64, dma_block_overhead_bytes = -8>} {
}

// -----

// A target parameter is a number, a flag or an array of numbers.
// expected-error @+1 {{target parameter 'name' must be a number, a boolean or an array of numbers, got "sw26010"}}
module attributes {dlc.hardware = #dlc.hardware<target = {name = "sw26010"}>} {
}
