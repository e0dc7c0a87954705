/*===- sunway-weights.c - fuzz the Sunway weights-file loader ------------===*
 *
 * Inputs are weights files (weights.bin). dlc_load_weights reads a path, so
 * each input goes through a file of this process's own. The model's
 * expectations come from the input's header when they are plausible (so the
 * payload and checksum checks are reached), else from its length: the
 * generated code passes the compiler's numbers, which never exceed what the
 * model's constants need.
 *
 *===----------------------------------------------------------------------===*/

#include "dlc_sunway.h"

#include <unistd.h>

static char path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  snprintf(path, sizeof path, "/tmp/dlc-fuzz-weights-%d.bin", (int)getpid());
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint64_t expected_size = size > 24 ? size - 24 : 0;
  uint64_t expected_hash = 0;
  void *payload = NULL;
  FILE *file;
  if (size >= 24) {
    uint64_t declared = dlc_read_u64(data + 8);
    if (declared <= (uint64_t)1 << 24)
      expected_size = declared;
    expected_hash = dlc_read_u64(data + 16);
  }
  file = fopen(path, "wb");
  if (!file)
    return 0;
  if (size)
    fwrite(data, 1, size, file);
  fclose(file);
  if (dlc_load_weights(path, expected_size, expected_hash, &payload) ==
      DLC_OK) {
    /* The whole payload is readable (ASan checks it). */
    volatile unsigned char sum = 0;
    uint64_t i;
    for (i = 0; i < expected_size; ++i)
      sum ^= ((unsigned char *)payload)[i];
    (void)sum;
  }
  free(payload);
  return 0;
}
