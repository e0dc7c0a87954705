// RUN: dlc-opt %s --split-input-file --dlc-inferentia-pipeline | FileCheck %s

// Few channels (2) and 9 taps: the taps go across the partitions with the
// channels (18 rows), the moving operand gathered by DMA per channel and tap
// (clipped to the image, zeros elsewhere), one matmul; the scalar engine
// evacuates PSUM with the bias per partition and the ReLU in one
// activation, so the bias broadcast and the ReLU nest emit nothing (the
// layer lists the ReLU as fused).
// CHECK-LABEL: inferentia.program @conv_relu
// CHECK-SAME: layers = [#inferentia.layer<name = "conv", op = "Conv", fused = ["relu"]
// CHECK: %[[W:[0-9]+]] = inferentia.dram_tensor "{{.*}}4x2x3x3xf32" "weights"
// CHECK-SAME: #inferentia.mapping<shape = [18, 4], partition_dim = 0, partition_tile = 18>
// CHECK: inferentia.memset %[[SLOT:[0-9]+]]<p = 0 : 18, offset = 0, strides = [1], sizes = [36]> value(0.000000e+00)
// CHECK: inferentia.dma_copy %[[SLOT]]<p = 0 : 1, offset = 7, strides = [6, 1], sizes = [5, 5]>, %{{[0-9]+}}<p = 0 : 1, offset = 0, strides = [6, 1], sizes = [5, 5]> queue({{[0-9]+}}) cause("relayout")
// CHECK: inferentia.dma_copy %[[SLOT]]<p = 17 : 1, offset = 0, strides = [6, 1], sizes = [5, 5]>
// CHECK: %[[MM:[0-9]+]] = inferentia.matmul %[[PSUM:[0-9]+]]<p = 0 : 4, offset = 0, strides = [1], sizes = [36]>, %{{[0-9]+}}<p = 0 : 18, offset = 0, strides = [1], sizes = [4]>, %[[SLOT]]<p = 0 : 18, offset = 0, strides = [1], sizes = [36]>
// CHECK: inferentia.activation "relu" %[[Y:[0-9]+]]<p = 0 : 4, offset = 0, strides = [1], sizes = [36]>, %[[PSUM]]<p = 0 : 4, offset = 0, strides = [1], sizes = [36]>, %{{[0-9]+}}<p = 0 : 4, offset = 0, strides = [1], sizes = [1]> deps(%[[MM]]
// CHECK-NOT: inferentia.tensor_scalar "max"
// CHECK: inferentia.dma_copy %{{[0-9]+}}<p = 0 : 4 step 36, offset = 0, strides = [1], sizes = [36]>, %[[Y]]<p = 0 : 4, {{.*}}> queue({{[0-9]+}}) cause("store")
func.func @conv_relu(%x: tensor<1x2x6x6xf32> {dlc.name = "x"}) -> (tensor<1x4x6x6xf32> {dlc.name = "y"}) {
  %w = dlc.constant dense<[[[[-0.73, 0.69, 0.53], [-0.49, -0.01, -0.10], [0.30, 0.58, -0.81]], [[-0.94, 0.67, -0.13], [0.52, -1.00, -0.11], [0.44, -0.54, 0.89]]], [[[0.80, -0.94, -0.95], [0.08, 0.88, -0.24], [-0.57, -0.16, -0.94]], [[-0.56, -0.12, -0.01], [-0.53, -0.54, -0.56], [-0.08, -0.42, -0.96]]], [[[0.68, 0.11, 0.28], [-0.63, 0.99, 0.72], [-0.76, -0.33, 0.44]], [[0.42, 0.87, -0.16], [0.66, 0.34, -0.39], [0.18, 0.76, 0.69]]], [[[0.01, 0.18, -0.93], [-0.51, 0.59, -0.17], [-0.65, 0.10, 0.41]], [[0.35, -0.25, -0.12], [0.02, 0.56, 0.04], [-0.21, -0.02, -0.94]]]]> : tensor<4x2x3x3xf32> loc("w")
  %b = dlc.constant dense<[-0.91, 0.41, 0.97, 0.19]> : tensor<4xf32> loc("b")
  %c = dlc.conv %x, %w, %b {dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x2x6x6xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32> loc("conv"("Conv"))
  %r = dlc.relu %c : tensor<1x4x6x6xf32> loc("relu"("Relu"))
  return %r : tensor<1x4x6x6xf32>
}

// -----

// 32 channels, one tap: a matmul contracting the channels across 32
// partitions; the weights lie transposed ([32 channels, 8 outputs]) so the
// stationary operand is one run per partition.
// CHECK-LABEL: inferentia.program @pointwise
// CHECK: inferentia.dram_tensor "{{.*}}8x32x1x1xf32" "weights"
// CHECK-SAME: #inferentia.mapping<shape = [32, 1, 1, 8], partition_dim = 0, partition_tile = 32>
// CHECK: %[[X:[0-9]+]] = inferentia.dma_copy %[[XS:[0-9]+]]<p = 0 : 32, offset = 0, strides = [1], sizes = [16]>, %{{[0-9]+}}<p = 0 : 32 step 16, {{.*}}> queue({{[0-9]+}}) cause("load")
// CHECK: %[[WL:[0-9]+]] = inferentia.dma_copy %[[WS:[0-9]+]]<p = 0 : 32, offset = 0, strides = [1], sizes = [8]>
// CHECK: inferentia.matmul %{{[0-9]+}}<p = 0 : 8, offset = 0, strides = [1], sizes = [16]>, %[[WS]]<p = 0 : 32, offset = 0, strides = [1], sizes = [8]>, %[[XS]]<p = 0 : 32, offset = 0, strides = [1], sizes = [16]>
func.func @pointwise(%x: tensor<1x32x4x4xf32> {dlc.name = "x"}) -> (tensor<1x8x4x4xf32> {dlc.name = "y"}) {
  %w = dlc.constant dense<[[[[0.91]], [[0.90]], [[-0.89]], [[-0.83]], [[0.67]], [[0.47]], [[0.34]], [[-0.38]], [[0.21]], [[0.21]], [[0.16]], [[-0.68]], [[-0.14]], [[-0.21]], [[0.45]], [[0.99]], [[0.90]], [[0.09]], [[-0.11]], [[-0.46]], [[-0.93]], [[-0.95]], [[-0.07]], [[-0.36]], [[-0.24]], [[0.78]], [[0.05]], [[0.12]], [[-0.53]], [[-0.95]], [[-0.35]], [[-0.73]]], [[[0.02]], [[1.00]], [[0.35]], [[-0.64]], [[0.79]], [[0.59]], [[0.47]], [[0.81]], [[0.53]], [[0.58]], [[-0.29]], [[0.96]], [[0.92]], [[-0.68]], [[0.51]], [[0.43]], [[-0.08]], [[0.06]], [[-0.02]], [[0.85]], [[0.00]], [[0.66]], [[-0.29]], [[0.77]], [[0.80]], [[-0.08]], [[0.14]], [[0.84]], [[0.45]], [[-0.03]], [[-0.56]], [[-0.35]]], [[[0.40]], [[-0.67]], [[0.82]], [[-0.46]], [[0.82]], [[-0.38]], [[0.91]], [[0.41]], [[0.01]], [[0.04]], [[0.30]], [[0.18]], [[-0.38]], [[-0.58]], [[0.02]], [[0.87]], [[0.25]], [[-0.85]], [[0.64]], [[0.45]], [[0.82]], [[-0.62]], [[0.49]], [[-0.88]], [[0.31]], [[-0.45]], [[-0.55]], [[0.75]], [[-0.79]], [[0.04]], [[0.71]], [[-0.51]]], [[[-0.58]], [[0.76]], [[-0.15]], [[0.43]], [[-0.94]], [[-0.28]], [[-0.66]], [[0.35]], [[-0.83]], [[0.91]], [[-0.95]], [[0.46]], [[-0.96]], [[-0.49]], [[0.63]], [[-0.69]], [[-0.63]], [[0.38]], [[-0.23]], [[-0.91]], [[0.98]], [[-0.70]], [[-0.93]], [[-0.31]], [[0.23]], [[0.48]], [[-0.77]], [[-0.33]], [[-0.94]], [[-0.10]], [[0.53]], [[0.48]]], [[[0.80]], [[0.51]], [[0.72]], [[0.41]], [[-0.05]], [[-0.55]], [[0.32]], [[-0.37]], [[-0.80]], [[-0.10]], [[0.75]], [[-0.74]], [[0.17]], [[-0.21]], [[0.03]], [[-0.71]], [[0.92]], [[-0.48]], [[0.21]], [[-0.16]], [[-0.96]], [[0.12]], [[-0.72]], [[-0.89]], [[-0.93]], [[-0.68]], [[-0.81]], [[0.27]], [[0.02]], [[0.97]], [[0.87]], [[0.99]]], [[[-0.54]], [[-0.11]], [[-0.50]], [[0.18]], [[0.25]], [[0.60]], [[0.42]], [[-0.49]], [[-0.15]], [[0.05]], [[-0.99]], [[-0.93]], [[-0.18]], [[-0.78]], [[0.45]], [[-0.52]], [[-0.80]], [[-0.64]], [[-0.54]], [[-0.57]], [[0.04]], [[-0.07]], [[-0.38]], [[0.28]], [[-0.58]], [[0.81]], [[0.93]], [[0.46]], [[-0.13]], [[0.02]], [[0.16]], [[-0.90]]], [[[-0.16]], [[0.05]], [[-0.64]], [[-0.81]], [[0.61]], [[-0.27]], [[0.04]], [[0.84]], [[0.22]], [[-0.42]], [[0.97]], [[-0.26]], [[-0.96]], [[0.37]], [[-0.80]], [[-0.39]], [[0.68]], [[0.35]], [[-0.97]], [[-0.10]], [[-0.18]], [[-0.03]], [[-0.58]], [[0.18]], [[-0.85]], [[-0.43]], [[-0.25]], [[0.87]], [[-0.85]], [[0.51]], [[-0.62]], [[0.14]]], [[[-0.22]], [[-0.07]], [[0.51]], [[-0.21]], [[-0.76]], [[-0.76]], [[-0.84]], [[0.70]], [[0.28]], [[0.92]], [[0.39]], [[-0.95]], [[0.32]], [[0.55]], [[0.45]], [[-0.00]], [[-0.28]], [[-0.09]], [[0.60]], [[-0.46]], [[0.05]], [[-0.04]], [[0.91]], [[0.61]], [[0.86]], [[0.67]], [[-0.41]], [[-0.54]], [[-0.02]], [[-0.48]], [[-0.14]], [[0.36]]]]> : tensor<8x32x1x1xf32> loc("w")
  %b = dlc.constant dense<[0.84, 0.17, 0.64, -0.81, -0.29, 1.00, -0.71, -0.17]> : tensor<8xf32> loc("b")
  %c = dlc.conv %x, %w, %b {dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x32x4x4xf32>, tensor<8x32x1x1xf32>, tensor<8xf32>) -> tensor<1x8x4x4xf32> loc("conv"("Conv"))
  return %c : tensor<1x8x4x4xf32>
}

// -----

// Softmax along the partitions of its input: the reductions run along free
// dimensions, so the bank layout relays the tensor out (DMA between SBUF
// ranges, cause relayout); the row maximum and sum reach every partition
// through a matmul with a column of ones.
// CHECK-LABEL: inferentia.program @softmax
// CHECK: inferentia.tensor_reduce "max"
// CHECK: inferentia.dma_copy {{.*}} cause("relayout")
// CHECK: inferentia.matmul %{{[0-9]+}}<p = 0 : 10, {{.*}}>, %{{[0-9]+}}<p = 0 : 1, offset = 0, strides = [1], sizes = [10]>
// CHECK: inferentia.activation "exp"
// CHECK: inferentia.tensor_reduce "add"
func.func @softmax(%x: tensor<1x10xf32> {dlc.name = "x"}) -> (tensor<1x10xf32> {dlc.name = "y"}) {
  %s = dlc.softmax %x {axis = 1 : i64} : tensor<1x10xf32> loc("softmax"("Softmax"))
  return %s : tensor<1x10xf32>
}

// -----

// LeakyRelu as a comparison and a select; Sigmoid (1 / (1 + exp(-x)) after
// lowering) as one instruction of the scalar engine.
// CHECK-LABEL: inferentia.program @activations
// CHECK: %[[MASK:[0-9]+]] = inferentia.tensor_scalar "is_lt", "bypass"
// CHECK: %[[SCALED:[0-9]+]] = inferentia.tensor_scalar "multiply", "bypass"
// CHECK: inferentia.select %{{[0-9]+}}<{{.*}}>, %{{[0-9]+}}<{{.*}}>, %{{[0-9]+}}<{{.*}}>, %{{[0-9]+}}<{{.*}}> deps(
// CHECK: inferentia.activation "sigmoid"
func.func @activations(%x: tensor<1x8x16xf32> {dlc.name = "x"}) -> (tensor<1x8x16xf32> {dlc.name = "y"}) {
  %l = dlc.leaky_relu %x {alpha = 0.1 : f32} : tensor<1x8x16xf32> loc("leaky"("LeakyRelu"))
  %s = dlc.sigmoid %l : tensor<1x8x16xf32> loc("sigmoid"("Sigmoid"))
  return %s : tensor<1x8x16xf32>
}

// -----

// A mean along the free dimension: a reduction of the vector engine into a
// slot, added to the (zero) accumulator, then the division by 16.
// CHECK-LABEL: inferentia.program @reduce
// CHECK: inferentia.tensor_reduce "add" %{{[0-9]+}}<p = 0 : 4, offset = 0, strides = [1], sizes = [1]>, %{{[0-9]+}}<p = 0 : 4, offset = 0, strides = [1], sizes = [16]> dims(1)
// CHECK: inferentia.tensor_scalar "divide", "bypass"
func.func @reduce(%x: tensor<1x4x16xf32> {dlc.name = "x"}) -> (tensor<1x4x1xf32> {dlc.name = "y"}) {
  %m = dlc.reduce_mean %x {axes = array<i64: 2>} : tensor<1x4x16xf32> -> tensor<1x4x1xf32> loc("mean"("ReduceMean"))
  return %m : tensor<1x4x1xf32>
}
