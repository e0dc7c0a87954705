// Calls the entry of Inputs/make_big_matmul.py's model, compiled by `dlc
// compile`, on an all-ones input and prints the outputs the way
// `dlc run --print-outputs` does.
#include <stdint.h>
#include <stdio.h>

typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} Descriptor;

void _mlir_ciface_main(Descriptor *x, Descriptor *y);

int main(void) {
  float x[64], y[64];
  for (int i = 0; i < 64; ++i)
    x[i] = 1.0f;
  Descriptor input = {x, x, 0, {1, 64}, {64, 1}};
  Descriptor output = {y, y, 0, {1, 64}, {64, 1}};
  _mlir_ciface_main(&input, &output);
  printf("  [");
  for (int i = 0; i < 16; ++i)
    printf("%s%g", i ? ", " : "", y[i]);
  printf(", ... (64 values)]\n");
  return 0;
}
