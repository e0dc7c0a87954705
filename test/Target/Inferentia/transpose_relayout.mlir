// RUN: dlc-opt %s --dlc-inferentia-pipeline | FileCheck %s --check-prefix=F32
// RUN: dlc-opt %s --dlc-inferentia-pipeline="hw=bf16_matmul=1" | FileCheck %s --check-prefix=BF16
// RUN: dlc run %s --target inferentia | FileCheck %s --check-prefix=OUT
// RUN: dlc run %s --target host | FileCheck %s --check-prefix=OUT

// A relayout between two partition dimensions: Exp keeps its 64 rows across
// the partitions, the softmax of the transposed view reduces along them and
// needs its 32 rows there. The compiler's estimate prefers one transpose on
// the tensor engine (through PSUM) and one evacuation by the vector engine
// to 32 small DMAs (about 0.15 us against 2.6 us).
// F32-LABEL: inferentia.program @transpose_relayout
// F32: %[[T:[0-9]+]] = inferentia.transpose %[[PSUM:[0-9]+]]<p = 0 : 32, offset = 0, strides = [1], sizes = [64]>, %{{[0-9]+}}<p = 0 : 64, offset = 0, strides = [1], sizes = [32]> cause("relayout")
// F32-NEXT: inferentia.tensor_copy %{{[0-9]+}}<p = 0 : 32, offset = 0, strides = [1], sizes = [64]>, %[[PSUM]]<p = 0 : 32, offset = 0, strides = [1], sizes = [64]> cause("relayout") deps(%[[T]])

// With bf16 matmul inputs a transpose would round the values: the relayout
// stays DMAs between SBUF ranges.
// BF16-LABEL: inferentia.program @transpose_relayout
// BF16-NOT: inferentia.transpose
// BF16: inferentia.dma_copy {{.*}} cause("relayout")
// BF16-NOT: inferentia.transpose

// The simulator's result is the host's (the transpose is exact in fp32).
// OUT: output 'y': f32[32x64] min 0.00449008 max 0.0715615 mean 0.015625
func.func @transpose_relayout(%x: tensor<64x32xf32> {dlc.name = "x"}) -> (tensor<32x64xf32> {dlc.name = "y"}) {
  %e = dlc.exp %x : tensor<64x32xf32> loc("exp"("Exp"))
  %t = dlc.transpose %e {perm = array<i64: 1, 0>} : tensor<64x32xf32> -> tensor<32x64xf32> loc("t"("Transpose"))
  %s = dlc.softmax %t {axis = 1 : i64} : tensor<32x64xf32> loc("softmax"("Softmax"))
  return %s : tensor<32x64xf32>
}
