# A 3x3 convolution with bias and ReLU, 64 -> 64 channels on 16 x 16 pixels
# (stride 1, padding 1), written by hand for the Snowflake: the schedule a
# person would write, to hold the compiler's code for the same layer
# against (bench/snowflake_hand.sh).
#
# DRAM (16-bit elements): the input at 0, depth-minor (16 x 16 x 64); the
# output at 16384, the same; the weights (the .data section the script
# appends) at 32768: for vMAC v, 577 rows of 16 lanes, row (kh, kw, c) =
# 192 kh + 64 kw + c holding W[16 v + l][c][kh][kw], then the bias row.
#
# The reasoning:
# - 64 filters are one CU's 4 vMACs x 16 lanes, so the four CUs take four
#   bands of 4 output rows each and run the same instructions: all four
#   busy, no row wasted (16 = 4 x 4).
# - All CUs need the same weights: one broadcast load per vMAC (buffers
#   8-11), one on each load/store unit, so the four loads share the DRAM
#   and no port is the bottleneck.
# - 577 rows fit a weights buffer (1024 rows): no chunks, no partial sums.
# - Each CU's tile is its 4 rows plus the halo, 6 rows x 18 columns x 64
#   channels, zero-padded. A row of the window is 3 adjacent pixels, i.e.
#   one trace of 192 elements, so a pixel is vbias, 3 vmac of 192 and a
#   vwb: 581 MAC cycles against 13 issue cycles, so the MACs never wait.
# - One round only. The weights (about 73 KiB) are needed by the first
#   pixel, so their load cannot overlap compute; the tiles load in two
#   parts, the rows the first output row reads first, the rest while it
#   computes.
.text
    movi r1, 6912
    vfill 0xf, r0, r0, r1        # zero the tiles: pad columns, missing rows
    movi r1, 1
    lscfg 0, r1, r0, r0
    lscfg 1, r1, r0, r0
    lscfg 2, r1, r0, r0
    lscfg 3, r1, r0, r0
    movi r2, 9232                # 577 rows x 16 lanes
    movi r3, 32768
    ld 0, 8, r0, r3, r2          # vMAC 0 of every CU
    addi r3, r3, 9232
    ld 1, 9, r0, r3, r2
    addi r3, r3, 9232
    ld 2, 10, r0, r3, r2
    addi r3, r3, 9232
    ld 3, 11, r0, r3, r2
    sync 0xf00                   # the fill is done before the tiles land
    movi r4, 1024                # an input row: 16 pixels x 64 channels
    movi r5, 1152                # a tile row: 18 pixels x 64 channels
    movi r6, 2
    movi r7, 3
    # First the three tile rows each CU's first output row reads (two for
    # CU 0, whose first is padding), so compute starts before the rest.
    lscfg 0, r6, r4, r5          # CU 0: input rows 0-1 -> tile rows 1-2
    movi r8, 1216
    ld 0, 0, r8, r0, r4
    lscfg 1, r7, r4, r5          # CU 1: input rows 3-5 -> tile rows 0-2
    movi r8, 64
    movi r9, 3072
    ld 1, 1, r8, r9, r4
    lscfg 2, r7, r4, r5          # CU 2: input rows 7-9
    movi r9, 7168
    ld 2, 2, r8, r9, r4
    lscfg 3, r7, r4, r5          # CU 3: input rows 11-13
    movi r9, 11264
    ld 3, 3, r8, r9, r4
    movi r10, 0                  # the pixel row's tile address
    movi r11, 8192               # the output pixel in the maps buffer
    movi r12, 9216               # the bias row
    movi r13, 192                # a trace: 3 pixels x 64 channels
    movi r14, 3072               # weights of kh = 1 (192 rows x 16)
    movi r15, 6144               # kh = 2
    movi r16, 64
    movi r20, 0
    movi r21, 4
    movi r23, 16
    sync 0xf                     # the weights and the first tile rows are in
    # Then the other tile rows (3-5), while the first output row computes
    # from rows 0-2.
    movi r8, 3520                # tile row 3, column 1
    lscfg 0, r7, r4, r5          # CU 0: input rows 2-4
    movi r9, 2048
    ld 0, 0, r8, r9, r4
    lscfg 1, r7, r4, r5          # CU 1: input rows 6-8
    movi r9, 6144
    ld 1, 1, r8, r9, r4
    lscfg 2, r7, r4, r5          # CU 2: input rows 10-12
    movi r9, 10240
    ld 2, 2, r8, r9, r4
    lscfg 3, r6, r4, r5          # CU 3: input rows 14-15 (row 5: padding)
    movi r9, 14336
    ld 3, 3, r8, r9, r4
row:
    movi r22, 0
    add r24, r10, r0
col:
    vbias 0xf, r12
    vmac 0xf, r24, r0, r13
    addi r25, r24, 1152
    vmac 0xf, r25, r14, r13
    addi r25, r24, 2304
    vmac 0xf, r25, r15, r13
    vwb 0xf, r11, r16, 1
    addi r24, r24, 64
    addi r11, r11, 64
    addi r22, r22, 1
    blt r22, r23, col
    sync 0xf                     # (after the first row: the rest of the tiles)
    addi r10, r10, 1152
    addi r20, r20, 1
    blt r20, r21, row
    sync 0xf0                    # the MACs are done
    lscfg 0, r1, r0, r0
    lscfg 1, r1, r0, r0
    lscfg 2, r1, r0, r0
    lscfg 3, r1, r0, r0
    movi r8, 8192
    movi r2, 4096                # 4 rows x 16 pixels x 64 channels
    movi r3, 16384
    st 0, 0, r8, r3, r2
    addi r3, r3, 4096
    st 1, 1, r8, r3, r2
    addi r3, r3, 4096
    st 2, 2, r8, r3, r2
    addi r3, r3, 4096
    st 3, 3, r8, r3, r2
    halt
