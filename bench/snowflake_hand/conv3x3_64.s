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
# - 64 filters are one CU's 4 vMACs x 16 lanes, so all CUs need the same
#   weights: one broadcast load per vMAC (buffers 8-11). 577 rows fit a
#   weights buffer: no chunks.
# - The CUs take column strips: CU c computes output columns 4c..4c+3 of
#   every row, in four rounds of four rows. All four busy, nothing
#   computed twice, and a round's tile is small (6 rows x 6 columns x 64
#   channels), so little of the first one is exposed and the last round's
#   store is short.
# - A row of the window is 3 adjacent pixels, one trace of 192 elements:
#   a pixel is vbias, 3 vmac and a vwb, 581 MAC cycles against 11 issue
#   cycles.
# - The weights (73 KiB) would be the longest exposed load. The first
#   round therefore runs in two passes: the first kernel row (with the
#   bias row, 25 KiB) loads first, every pixel of the round takes it and
#   saves its partial sums (vsave); the other two kernel rows load
#   meanwhile, and the second pass restores, adds them and writes back.
#   That costs 16 cycles per pixel of the first round and hides two
#   thirds of the weights.
# - Two input slots: the next round's tile loads during this round. Two
#   output slots: a round's outputs store during the next round.
# - Padding: CU 0's tiles have a zero column on the left, CU 3's on the
#   right, filled once in both slots (loads never write them); the first
#   round's top row and the last round's bottom row are filled before
#   their tiles load (the fills and the loads write different rows).
# - Maps buffer: input slots at 0 and 2304 (6 x 384), outputs at 4608 and
#   5632 (16 pixels x 64), partial sums at 6656 (16 x 128). Maps loads on
#   units 0 and 1, stores on units 2 and 3: each keeps its shape.
.text
    movi r16, 64
    movi r1, 384
    movi r2, 0
    movi r3, 12
    movi r10, 320
padding:
    vfill 1, r2, r0, r16         # CU 0: tile column 0 of both slots
    add r8, r2, r10
    vfill 8, r8, r0, r16         # CU 3: tile column 5
    add r2, r2, r1
    addi r3, r3, -1
    bne r3, r0, padding
    vfill 0xf, r0, r0, r1        # the first round's top row (input row -1)
    movi r1, 1
    lscfg 0, r1, r0, r0
    lscfg 1, r1, r0, r0
    lscfg 2, r1, r0, r0
    lscfg 3, r1, r0, r0
    # The first kernel row (rows 0-191) and the bias row (576) of each vMAC.
    movi r2, 3072                # 192 rows x 16 lanes
    movi r26, 16
    movi r12, 9216               # the bias row
    movi r3, 32768
    ld 0, 8, r0, r3, r2
    addi r8, r3, 9216
    ld 0, 8, r12, r8, r26
    addi r3, r3, 9232
    ld 1, 9, r0, r3, r2
    addi r8, r3, 9216
    ld 1, 9, r12, r8, r26
    addi r3, r3, 9232
    ld 2, 10, r0, r3, r2
    addi r8, r3, 9216
    ld 2, 10, r12, r8, r26
    addi r3, r3, 9232
    ld 3, 11, r0, r3, r2
    addi r8, r3, 9216
    ld 3, 11, r12, r8, r26
    # The first round's tiles: input rows 0-4 into tile rows 1-5.
    movi r4, 1024                # an input row in DRAM (16 x 64)
    movi r5, 384                 # a tile row (6 x 64)
    movi r27, 320                # a strip with a padding column: 5 x 64
    movi r28, 384                # 6 x 64
    movi r30, 5
    movi r6, 384                 # slot 0, tile row 1
    lscfg 0, r30, r4, r5
    lscfg 1, r30, r4, r5
    movi r9, 0
    addi r8, r6, 64          # CU 0: columns 0-4 -> tile columns 1-5
    ld 0, 0, r8, r9, r27
    movi r9, 192
    ld 1, 1, r6, r9, r28     # CU 1: columns 3-8
    movi r9, 448
    ld 0, 2, r6, r9, r28     # CU 2: columns 7-12
    movi r9, 704
    ld 1, 3, r6, r9, r27     # CU 3: columns 11-15 -> tile columns 0-4
    movi r13, 192                # a trace: 3 pixels x 64 channels
    movi r14, 3072               # weights of kh = 1 (192 rows x 16)
    movi r15, 6144               # kh = 2
    movi r17, 4608               # output slots
    movi r18, 5632
    movi r19, 6656               # partial sums
    movi r21, 4
    movi r29, 256                # an output row of a strip: 4 x 64
    movi r6, 0                   # this round's input slot
    movi r7, 2304                # the other
    sync 0xfff                   # the first weights, tiles and padding are in
    # Round 0, first pass, while the other kernel rows (192-575) and the
    # second round's tiles (input rows 3-8) load.
    movi r2, 6144
    movi r3, 35840               # 32768 + 3072
    ld 2, 8, r14, r3, r2
    addi r3, r3, 9232
    ld 3, 9, r14, r3, r2
    addi r3, r3, 9232
    ld 2, 10, r14, r3, r2
    addi r3, r3, 9232
    ld 3, 11, r14, r3, r2
    lscfg 2, r21, r4, r29        # units 2 and 3 store from now on
    lscfg 3, r21, r4, r29
    movi r30, 6
    lscfg 0, r30, r4, r5
    lscfg 1, r30, r4, r5
    movi r9, 3072
    addi r8, r7, 64          # CU 0: columns 0-4 -> tile columns 1-5
    ld 0, 0, r8, r9, r27
    movi r9, 3264
    ld 1, 1, r7, r9, r28     # CU 1: columns 3-8
    movi r9, 3520
    ld 0, 2, r7, r9, r28     # CU 2: columns 7-12
    movi r9, 3776
    ld 1, 3, r7, r9, r27     # CU 3: columns 11-15 -> tile columns 0-4
    add r24, r6, r0
    add r26, r19, r0
    movi r20, 0
passAr:
    movi r22, 0
passAc:
    vbias 0xf, r12
    vmac 0xf, r24, r0, r13
    vsave 0xf, r26
    addi r24, r24, 64
    addi r26, r26, 128
    addi r22, r22, 1
    blt r22, r21, passAc
    addi r24, r24, 128
    addi r20, r20, 1
    blt r20, r21, passAr
    sync 0xff                    # the other kernel rows are in
    # Round 0, second pass: kernel rows 1 and 2 onto the partial sums.
    add r24, r6, r0
    add r26, r19, r0
    add r11, r17, r0
    movi r20, 0
passBr:
    movi r22, 0
passBc:
    vrestore 0xf, r26
    addi r25, r24, 384
    vmac 0xf, r25, r14, r13
    addi r25, r24, 768
    vmac 0xf, r25, r15, r13
    vwb 0xf, r11, r16, 1
    addi r24, r24, 64
    addi r26, r26, 128
    addi r11, r11, 64
    addi r22, r22, 1
    blt r22, r21, passBc
    addi r24, r24, 128
    addi r20, r20, 1
    blt r20, r21, passBr
    sync 0xfff
    # Round 1: round 0's outputs out, round 2's tiles (input rows 7-12) in.
    movi r9, 16384
    st 2, 0, r17, r9, r29
    movi r9, 16640
    st 3, 1, r17, r9, r29
    movi r9, 16896
    st 2, 2, r17, r9, r29
    movi r9, 17152
    st 3, 3, r17, r9, r29
    lscfg 0, r30, r4, r5
    lscfg 1, r30, r4, r5
    movi r9, 7168
    addi r8, r6, 64          # CU 0: columns 0-4 -> tile columns 1-5
    ld 0, 0, r8, r9, r27
    movi r9, 7360
    ld 1, 1, r6, r9, r28     # CU 1: columns 3-8
    movi r9, 7616
    ld 0, 2, r6, r9, r28     # CU 2: columns 7-12
    movi r9, 7872
    ld 1, 3, r6, r9, r27     # CU 3: columns 11-15 -> tile columns 0-4
    add r24, r7, r0
    add r11, r18, r0
    movi r20, 0
round1r:
    movi r22, 0
round1c:
    vbias 0xf, r12
    vmac 0xf, r24, r0, r13
    addi r25, r24, 384
    vmac 0xf, r25, r14, r13
    addi r25, r24, 768
    vmac 0xf, r25, r15, r13
    vwb 0xf, r11, r16, 1
    addi r24, r24, 64
    addi r11, r11, 64
    addi r22, r22, 1
    blt r22, r21, round1c
    addi r24, r24, 128           # to the next tile row (384 - 4 x 64)
    addi r20, r20, 1
    blt r20, r21, round1r
    sync 0xfff
    # Round 2: round 1's outputs out, round 3's tiles (input rows 11-15;
    # tile row 5 is the bottom padding) in.
    movi r9, 20480
    st 2, 0, r18, r9, r29
    movi r9, 20736
    st 3, 1, r18, r9, r29
    movi r9, 20992
    st 2, 2, r18, r9, r29
    movi r9, 21248
    st 3, 3, r18, r9, r29
    movi r30, 5
    movi r8, 4224                # slot 1, tile row 5
    movi r1, 384
    vfill 0xf, r8, r0, r1
    lscfg 0, r30, r4, r5
    lscfg 1, r30, r4, r5
    movi r9, 11264
    addi r8, r7, 64          # CU 0: columns 0-4 -> tile columns 1-5
    ld 0, 0, r8, r9, r27
    movi r9, 11456
    ld 1, 1, r7, r9, r28     # CU 1: columns 3-8
    movi r9, 11712
    ld 0, 2, r7, r9, r28     # CU 2: columns 7-12
    movi r9, 11968
    ld 1, 3, r7, r9, r27     # CU 3: columns 11-15 -> tile columns 0-4
    add r24, r6, r0
    add r11, r17, r0
    movi r20, 0
round2r:
    movi r22, 0
round2c:
    vbias 0xf, r12
    vmac 0xf, r24, r0, r13
    addi r25, r24, 384
    vmac 0xf, r25, r14, r13
    addi r25, r24, 768
    vmac 0xf, r25, r15, r13
    vwb 0xf, r11, r16, 1
    addi r24, r24, 64
    addi r11, r11, 64
    addi r22, r22, 1
    blt r22, r21, round2c
    addi r24, r24, 128           # to the next tile row (384 - 4 x 64)
    addi r20, r20, 1
    blt r20, r21, round2r
    sync 0xfff
    # Round 3: round 2's outputs out.
    movi r9, 24576
    st 2, 0, r17, r9, r29
    movi r9, 24832
    st 3, 1, r17, r9, r29
    movi r9, 25088
    st 2, 2, r17, r9, r29
    movi r9, 25344
    st 3, 3, r17, r9, r29
    add r24, r7, r0
    add r11, r18, r0
    movi r20, 0
round3r:
    movi r22, 0
round3c:
    vbias 0xf, r12
    vmac 0xf, r24, r0, r13
    addi r25, r24, 384
    vmac 0xf, r25, r14, r13
    addi r25, r24, 768
    vmac 0xf, r25, r15, r13
    vwb 0xf, r11, r16, 1
    addi r24, r24, 64
    addi r11, r11, 64
    addi r22, r22, 1
    blt r22, r21, round3c
    addi r24, r24, 128           # to the next tile row (384 - 4 x 64)
    addi r20, r20, 1
    blt r20, r21, round3r
    sync 0xfff
    movi r9, 28672
    st 2, 0, r18, r9, r29
    movi r9, 28928
    st 3, 1, r18, r9, r29
    movi r9, 29184
    st 2, 2, r18, r9, r29
    movi r9, 29440
    st 3, 3, r18, r9, r29
    sync 0xf
    halt
