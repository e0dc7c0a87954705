//===- Layers.h - a model as Snowflake layers -------------------*- C++ -*-===//
//
// What dlc-snowflake-lower-layers makes of the entry function before it
// writes instructions: every tensor placed in DRAM depth-minor, every ONNX
// node (with the ReLU fused into it) one layer of a kind the machine runs.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_LIB_TARGET_SNOWFLAKE_LAYERS_H
#define DLC_LIB_TARGET_SNOWFLAKE_LAYERS_H

#include "dlc/Target/Snowflake/SnowflakeHardware.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Location.h"

#include <string>
#include <vector>

namespace dlc::snowflake {

/// Whether an op of the cleaned-up dlc IR has a layer on the accelerator (the
/// ops LayerBuilder::run handles; they may still have limits it checks, such
/// as 2-D pooling only).
bool hasLayerFor(mlir::Operation *op);

/// A 4-D tensor (N, C, H, W) in DRAM, depth-minor: element (n, c, h, w) is
/// at `address + ((n * h_ + h) * w_ + w) * pixelStride + c` (a channel
/// slice of a wider tensor, as Concat makes, has pixelStride > c).
struct DramView {
  int64_t address = 0;
  int64_t n = 1, c = 1, h = 1, w = 1;
  int64_t pixelStride = 1;

  int64_t getPixels() const { return n * h * w; }
  int64_t getElements() const { return n * c * h * w; }
  /// One past the last element.
  int64_t getEnd() const {
    return address + (getPixels() - 1) * pixelStride + c;
  }
  bool isDense() const { return pixelStride == c; }
  /// The view of channels [first, first + count).
  DramView channels(int64_t first, int64_t count) const {
    DramView v = *this;
    v.address += first;
    v.c = count;
    return v;
  }
};

/// A convolution as the vMACs compute it: also Gemm/MatMul (a kernel over
/// the whole input) and average pooling (a depthwise kernel of 1 / size).
struct ConvLayer {
  DramView in, out;
  int64_t kH = 1, kW = 1, strideH = 1, strideW = 1, dilationH = 1,
          dilationW = 1;
  int64_t padTop = 0, padLeft = 0, padBottom = 0, padRight = 0;
  int64_t groups = 1;
  /// F x (C / groups) x kH x kW, ONNX order; `bias` F values or empty.
  std::vector<float> weights, bias;
  bool relu = false;
};

/// Max pooling on the vector MAX units.
struct PoolLayer {
  DramView in, out;
  int64_t kH = 1, kW = 1, strideH = 1, strideW = 1, dilationH = 1,
          dilationW = 1;
  int64_t padTop = 0, padLeft = 0, padBottom = 0, padRight = 0;
  bool relu = false;
};

/// Elementwise work on the MAX units: a sum of two tensors of one shape
/// (with ReLU), or a ReLU alone (`rhs` unset).
struct ElementwiseLayer {
  DramView lhs, out;
  std::optional<DramView> rhs;
  bool relu = false;
};

struct Layer {
  enum class Kind { Conv, Pool, Elementwise } kind;
  /// The ONNX node, the op type and the nodes fused into it.
  std::string name, opType;
  std::vector<std::string> fused;
  mlir::Location loc;
  /// MACs as ONNX counts them (no zero weights of grouped convolutions).
  int64_t macs = 0;
  ConvLayer conv;
  PoolLayer pool;
  ElementwiseLayer elementwise;
};

/// An entry-function argument or result and where it lives.
struct PlacedTensor {
  std::string name;
  DramView view;
};

struct LayeredModel {
  std::vector<Layer> layers;
  std::vector<PlacedTensor> inputs, outputs;
  /// The classifier's final normalisation (Softmax, LogSoftmax), which the
  /// Zynq's ARM cores compute: its ops in order, and the accelerator's
  /// tensors it reads (the program's outputs then).
  std::vector<mlir::Operation *> armOps;
  std::vector<mlir::Value> armInputs;
  /// DRAM elements the tensors take, from address 0 (the data section
  /// follows).
  int64_t tensorElements = 0;
};

/// Places the entry function's tensors and makes its ops layers; an op the
/// machine cannot run is an error on it (its ONNX node and op type),
/// except a final Softmax or LogSoftmax (with reshapes around it), which
/// goes to the ARM.
mlir::FailureOr<LayeredModel> buildLayers(mlir::func::FuncOp func);

} // namespace dlc::snowflake

#endif // DLC_LIB_TARGET_SNOWFLAKE_LAYERS_H
