# A 1x1 convolution with bias and ReLU, 256 -> 128 channels on 14 x 14
# pixels (a ResNet bottleneck's reduction), written by hand for the
# Snowflake, to hold the compiler's code for the same layer against
# (bench/snowflake_hand.sh).
#
# DRAM (16-bit elements): the input at 0 (14 x 14 x 256, depth-minor), the
# output at 50176 (14 x 14 x 128), the weights (the .data section the
# script appends) at 75264: block b (filters 64 b ..), vMAC v: 257 rows
# of 16 lanes, row c holding W[64 b + 16 v + l][c], then the bias row.
#
# The reasoning:
# - 128 filters are two blocks and 14 rows are two bands of 7: CU 0 and
#   CU 1 take blocks 0 and 1 of rows 0-6, CU 2 and CU 3 the same blocks of
#   rows 7-13. All four busy, nothing computed twice.
# - Weights: block 0 goes to every CU at once (buffers 8-11), then block 1
#   over CU 1's and CU 3's vMACs, on the same load/store units so that it
#   lands after (a third less traffic than 16 separate loads).
# - A pixel is one trace of its 256 channels: vbias, vmac of 256, vwb; 261
#   MAC cycles against 9 issue cycles.
# - The tiles stream in by rows, one row ahead: each CU's next input row
#   loads while the current one computes, so only the weights and the
#   first row are exposed. The last row is peeled (nothing left to load).
.text
    movi r1, 1
    lscfg 0, r1, r0, r0
    lscfg 1, r1, r0, r0
    lscfg 2, r1, r0, r0
    lscfg 3, r1, r0, r0
    movi r2, 4112                # 257 rows x 16 lanes
    movi r3, 75264               # block 0, vMAC 0
    movi r5, 91712               # block 1, vMAC 0
    ld 0, 8, r0, r3, r2          # block 0 to vMAC 0 of every CU
    ld 0, 20, r0, r5, r2         # block 1 to vMAC 0 of CU 1
    ld 0, 28, r0, r5, r2         # ... and of CU 3
    addi r3, r3, 4112
    addi r5, r5, 4112
    ld 1, 9, r0, r3, r2
    ld 1, 21, r0, r5, r2
    ld 1, 29, r0, r5, r2
    addi r3, r3, 4112
    addi r5, r5, 4112
    ld 2, 10, r0, r3, r2
    ld 2, 22, r0, r5, r2
    ld 2, 30, r0, r5, r2
    addi r3, r3, 4112
    addi r5, r5, 4112
    ld 3, 11, r0, r3, r2
    ld 3, 23, r0, r5, r2
    ld 3, 31, r0, r5, r2
    # Row 0 of each band: input row 0 (CUs 0, 1) and 7 (CUs 2, 3).
    movi r4, 3584                # an input row: 14 pixels x 256 channels
    movi r8, 25088               # input row 7
    ld 0, 0, r0, r0, r4
    ld 1, 1, r0, r0, r4
    ld 2, 2, r0, r8, r4
    ld 3, 3, r0, r8, r4
    movi r6, 3584                # the next row: tile address,
    movi r7, 3584                # its DRAM address for CUs 0 and 1,
    movi r8, 28672               # and for CUs 2 and 3
    movi r10, 0                  # the computed row's tile address
    movi r11, 25088              # the output pixel in the maps buffer
    movi r12, 4096               # the bias row (256 x 16)
    movi r13, 256
    movi r16, 64
    movi r20, 0
    movi r21, 6
    movi r23, 14
    sync 0xf                     # the weights and the first rows are in
row:
    ld 0, 0, r6, r7, r4          # the next row, while this one computes
    ld 1, 1, r6, r7, r4
    ld 2, 2, r6, r8, r4
    ld 3, 3, r6, r8, r4
    movi r22, 0
    add r24, r10, r0
col:
    vbias 0xf, r12
    vmac 0xf, r24, r0, r13
    vwb 0xf, r11, r16, 1
    addi r24, r24, 256
    addi r11, r11, 64
    addi r22, r22, 1
    blt r22, r23, col
    sync 0xf                     # the next row is in
    add r6, r6, r4
    add r7, r7, r4
    add r8, r8, r4
    add r10, r10, r4
    addi r20, r20, 1
    blt r20, r21, row
    movi r22, 0                  # the last row, with nothing to load
    add r24, r10, r0
last:
    vbias 0xf, r12
    vmac 0xf, r24, r0, r13
    vwb 0xf, r11, r16, 1
    addi r24, r24, 256
    addi r11, r11, 64
    addi r22, r22, 1
    blt r22, r23, last
    sync 0xf0                    # the MACs are done
    # Each CU's 98 pixels x 64 channels into its slice of the output
    # (pixels 128 apart).
    movi r1, 98
    movi r2, 128
    lscfg 0, r1, r2, r16
    lscfg 1, r1, r2, r16
    lscfg 2, r1, r2, r16
    lscfg 3, r1, r2, r16
    movi r9, 25088
    movi r3, 50176
    st 0, 0, r9, r3, r16         # rows 0-6, channels 0-63
    addi r3, r3, 64
    st 1, 1, r9, r3, r16         # rows 0-6, channels 64-127
    movi r3, 62720               # 50176 + 98 x 128
    st 2, 2, r9, r3, r16
    addi r3, r3, 64
    st 3, 3, r9, r3, r16
    halt
