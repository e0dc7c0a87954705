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
# - 128 filters are two blocks of 64; one block's kernel is 257 rows, so
#   both fit every vMAC's weights buffer at once (rows 0 and 512): each
#   goes to every CU in one broadcast load per vMAC and stays for the
#   whole layer. Only block 0's weights and the first rows are exposed;
#   block 1's load while block 0's first pixels compute.
# - The CUs share the weights, so they take different pixels: a round is
#   four output rows, one per CU, computed for block 0 and then for block
#   1 (a step each). 14 rows are three rounds and two rows left, which run
#   as a fourth round of four pieces of 7 pixels, so that no CU idles.
# - A pixel is one trace of its 256 channels: vbias, vmac of 256, vwb;
#   261 MAC cycles against 7 issue cycles.
# - Splitting the first step in two passes over halves of the channels
#   (as conv3x3_64.s does with its kernel rows) was tried: block 1's
#   weights then load during the second pass, which is too short to hide
#   them, and the layer is no faster (29821 cycles against 29816).
# - Two input slots: the next round's rows load during block 1 of this
#   one. Two output slots (one per block): a step's outputs store during
#   the next step. Units 0 and 1 load rows, units 2 and 3 store (each keeps
#   its shape), all four load the weights. A step's transfers issue after
#   its first pixel, so that the MACs start right after the sync.
# - Maps buffer: input slots at 0 and 3584 (a row, 14 x 256), outputs of
#   block 0 at 7168 and of block 1 at 8064 (14 x 64 each).
.text
    movi r1, 1
    lscfg 0, r1, r0, r0
    lscfg 1, r1, r0, r0
    lscfg 2, r1, r0, r0
    lscfg 3, r1, r0, r0
    # Block 0's weights to every CU (weights row 0), one vMAC per unit.
    movi r2, 4112                # 257 rows x 16 lanes
    movi r3, 75264
    ld 0, 8, r0, r3, r2
    addi r3, r3, 4112
    ld 1, 9, r0, r3, r2
    addi r3, r3, 4112
    ld 2, 10, r0, r3, r2
    addi r3, r3, 4112
    ld 3, 11, r0, r3, r2
    # Rows 0-3 to CUs 0-3, input slot 0.
    movi r4, 3584                # a row: 14 pixels x 256 channels
    movi r5, 0
    ld 0, 0, r0, r5, r4
    add r5, r5, r4
    ld 1, 1, r0, r5, r4
    add r5, r5, r4
    ld 0, 2, r0, r5, r4
    add r5, r5, r4
    ld 1, 3, r0, r5, r4
    movi r12, 4096               # block 0's bias row
    movi r14, 12288              # block 1's bias row (512 x 16 + 4096)
    movi r15, 8192               # block 1's first weights row (512 x 16)
    movi r13, 256                # a trace: the pixel's channels
    movi r16, 64                 # channels per block
    movi r17, 7168               # block 0's output slot
    movi r18, 8064               # block 1's output slot
    movi r19, 1792               # an output row in DRAM (14 x 128)
    movi r23, 14                 # pixels per CU and step
    movi r6, 0                   # this round's input slot
    movi r7, 3584                # the other
    movi r8, 14336               # the next round's first row in DRAM
    movi r25, 3584               # from one CU's next rows to the next's
    movi r26, 3584               # their length
    movi r9, 50176               # this round's first output row in DRAM
    movi r20, 0                  # rounds done
    movi r21, 3
    movi r27, 2
    movi r28, 128                # an output pixel in DRAM
    sync 0xf                     # block 0's weights and rows 0-3 are in
    # Block 1's weights (weights row 512), during block 0's first step.
    movi r3, 91712
    ld 2, 8, r15, r3, r2
    addi r3, r3, 4112
    ld 3, 9, r15, r3, r2
    addi r3, r3, 4112
    ld 2, 10, r15, r3, r2
    addi r3, r3, 4112
    ld 3, 11, r15, r3, r2
    # Units 2 and 3 store from now on: 14 pixels of 64 channels.
    lscfg 2, r23, r28, r16
    lscfg 3, r23, r28, r16
round:
    # Step (r, 0): block 0 over this round's rows. Its first pixel issues
    # before the previous round's block 1 outputs store, so the MACs start
    # right after the sync.
    add r24, r6, r0
    add r11, r17, r0
    movi r22, 1
    vbias 0xf, r12
    vmac 0xf, r24, r0, r13
    vwb 0xf, r11, r16, 1
    addi r24, r24, 256
    addi r11, r11, 64
    beq r20, r0, block0          # round 0 has nothing to store
    # The previous round's block 1 outputs (channels 64-127).
    addi r10, r9, -7104          # its first output row, + 64 channels
    st 2, 0, r18, r10, r16
    add r10, r10, r19
    st 3, 1, r18, r10, r16
    add r10, r10, r19
    st 2, 2, r18, r10, r16
    add r10, r10, r19
    st 3, 3, r18, r10, r16
block0:
    vbias 0xf, r12
    vmac 0xf, r24, r0, r13
    vwb 0xf, r11, r16, 1
    addi r24, r24, 256
    addi r11, r11, 64
    addi r22, r22, 1
    blt r22, r23, block0
    add r24, r6, r0
    add r11, r18, r0
    movi r22, 1
    sync 0xff                    # the MACs are done, the loads are in
    # Step (r, 1): block 1 over the same rows; after its first pixel,
    vbias 0xf, r14
    vmac 0xf, r24, r15, r13
    vwb 0xf, r11, r16, 1
    addi r24, r24, 256
    addi r11, r11, 64
    # block 0's outputs to output rows 4 r + c, channels 0-63,
    st 2, 0, r17, r9, r16
    add r10, r9, r19
    st 3, 1, r17, r10, r16
    add r10, r10, r19
    st 2, 2, r17, r10, r16
    add r10, r10, r19
    st 3, 3, r17, r10, r16
    # and the next round's rows (or the last two rows' pieces) into the
    # other input slot.
    ld 0, 0, r7, r8, r26
    add r10, r8, r25
    ld 1, 1, r7, r10, r26
    add r10, r10, r25
    ld 0, 2, r7, r10, r26
    add r10, r10, r25
    ld 1, 3, r7, r10, r26
block1:
    vbias 0xf, r14
    vmac 0xf, r24, r15, r13
    vwb 0xf, r11, r16, 1
    addi r24, r24, 256
    addi r11, r11, 64
    addi r22, r22, 1
    blt r22, r23, block1
    add r1, r6, r0               # swap the input slots
    add r6, r7, r0
    add r7, r1, r0
    addi r9, r9, 7168            # four output rows further
    addi r8, r8, 14336           # four input rows further
    addi r20, r20, 1
    bne r20, r27, next
    # The third round loads the pieces of rows 12 and 13: 7 pixels each,
    # consecutive in DRAM from row 12.
    movi r8, 43008
    movi r25, 1792
    movi r26, 1792
next:
    sync 0xff
    blt r20, r21, round
    # The last round: CU c computes piece c (7 pixels), whose outputs are
    # pixels 168 + 7 c. After its first pixel, the third round's block 1
    # outputs store (rows 8-11), then the units take the pieces' shape.
    movi r23, 7
    add r24, r6, r0
    add r11, r17, r0
    movi r22, 1
    vbias 0xf, r12
    vmac 0xf, r24, r0, r13
    vwb 0xf, r11, r16, 1
    addi r24, r24, 256
    addi r11, r11, 64
    addi r10, r9, -7104
    st 2, 0, r18, r10, r16
    add r10, r10, r19
    st 3, 1, r18, r10, r16
    add r10, r10, r19
    st 2, 2, r18, r10, r16
    add r10, r10, r19
    st 3, 3, r18, r10, r16
    lscfg 2, r23, r28, r16
    lscfg 3, r23, r28, r16
    movi r9, 71680               # 50176 + 168 x 128
    movi r19, 896                # 7 pixels x 128
last0:
    vbias 0xf, r12
    vmac 0xf, r24, r0, r13
    vwb 0xf, r11, r16, 1
    addi r24, r24, 256
    addi r11, r11, 64
    addi r22, r22, 1
    blt r22, r23, last0
    add r24, r6, r0
    add r11, r18, r0
    movi r22, 1
    sync 0xff
    vbias 0xf, r14
    vmac 0xf, r24, r15, r13
    vwb 0xf, r11, r16, 1
    addi r24, r24, 256
    addi r11, r11, 64
    st 2, 0, r17, r9, r16
    add r10, r9, r19
    st 3, 1, r17, r10, r16
    add r10, r10, r19
    st 2, 2, r17, r10, r16
    add r10, r10, r19
    st 3, 3, r17, r10, r16
last1:
    vbias 0xf, r14
    vmac 0xf, r24, r15, r13
    vwb 0xf, r11, r16, 1
    addi r24, r24, 256
    addi r11, r11, 64
    addi r22, r22, 1
    blt r22, r23, last1
    sync 0xff
    addi r10, r9, 64
    st 2, 0, r18, r10, r16
    add r10, r10, r19
    st 3, 1, r18, r10, r16
    add r10, r10, r19
    st 2, 2, r18, r10, r16
    add r10, r10, r19
    st 3, 3, r18, r10, r16
    sync 0xf
    halt
