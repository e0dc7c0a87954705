// Calls the entry point of Inputs/conv_matmul.mlir compiled by `dlc compile`
// the way any C program can: _mlir_ciface_main takes one pointer per input
// and output to MLIR's ranked memref descriptor.
#include <stdint.h>
#include <stdio.h>

#define DESCRIPTOR(rank)                                                       \
  struct {                                                                     \
    float *allocated, *aligned;                                                \
    int64_t offset, sizes[rank], strides[rank];                                \
  }

typedef DESCRIPTOR(4) Input;
typedef DESCRIPTOR(2) Output;

void _mlir_ciface_main(Input *x, Output *y);

int main(void) {
  float x[1 * 2 * 5 * 5], y[1 * 4];
  for (int i = 0; i < 50; ++i)
    x[i] = 1.0f;
  Input input = {x, x, 0, {1, 2, 5, 5}, {50, 25, 5, 1}};
  Output output = {y, y, 0, {1, 4}, {4, 1}};
  _mlir_ciface_main(&input, &output);
  for (int i = 0; i < 4; ++i)
    printf("%g\n", y[i]);
  return 0;
}
