//===- Layers.cpp - a model as Snowflake layers ---------------------------===//

#include "Layers.h"

#include "dlc/Dialect/DLC/IR/DLCOps.h"
#include "dlc/Support/ConstantData.h"
#include "dlc/Support/CostReport.h"
#include "dlc/Support/EntrySignature.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cstring>

using namespace mlir;
using namespace dlc;
using namespace dlc::snowflake;

namespace {

/// What a tensor value is while layers are built.
struct TensorInfo {
  DramView view;
  /// A Flatten/Reshape of `view` to [N, C x H x W]: only a Gemm, a MatMul
  /// or the function's results may take it.
  bool flattened = false;
  /// The layer that writes it (-1: a function argument).
  int producer = -1;
};

class LayerBuilder {
public:
  explicit LayerBuilder(func::FuncOp func) : func(func) {}

  FailureOr<LayeredModel> run();

private:
  InFlightDiagnostic error(Operation *op) {
    // Ops that are not ONNX nodes (the function's return) name themselves.
    if (getNodeName(op->getLoc()).empty())
      return op->emitError()
             << "snowflake: "
             << (isa<func::ReturnOp>(op) ? std::string("the model's outputs")
                                         : op->getName().getStringRef().str())
             << ": ";
    return op->emitError() << "snowflake: '" << getNodeName(op) << "' ("
                           << getNodeOpType(op->getLoc()) << "): ";
  }

  /// A fresh depth-minor tensor of `type` (rank 1 to 4, as N, C, H, W).
  FailureOr<DramView> allocate(Operation *op, Type type);
  FailureOr<TensorInfo> lookup(Operation *op, Value value,
                               bool allowFlattened = false);
  FailureOr<std::vector<float>> constantFloats(Operation *op, Value value);
  Layer &addLayer(Operation *op, Layer::Kind kind, Value result,
                  const DramView &out);
  /// Fuses a ReLU that is the only user of `result` into the layer that
  /// produced it; returns the value the rest of the graph sees.
  Value fuseRelu(Layer &layer, Value result, bool &relu);

  LogicalResult visitConv(ConvOp op);
  LogicalResult visitGemmLike(Operation *op, Value a, Value b, Value c,
                              float alpha, float beta, bool transA,
                              bool transB);
  LogicalResult visitMaxPool(MaxPoolOp op);
  LogicalResult visitAveragePool(Operation *op, Value input,
                                 ArrayRef<int64_t> kernel,
                                 ArrayRef<int64_t> strides,
                                 ArrayRef<int64_t> pads);
  LogicalResult visitElementwise(Operation *op, Value lhs, Value rhs);
  LogicalResult visitReshape(ReshapeOp op);
  LogicalResult visitConcat(ConcatOp op);
  /// Hands `first` and every op after it to the ARM, when they are the
  /// final normalisation.
  LogicalResult collectArmTail(Operation *first);

  func::FuncOp func;
  LayeredModel model;
  DenseMap<Value, TensorInfo> tensors;
  int64_t nextAddress = 0;
};

FailureOr<DramView> LayerBuilder::allocate(Operation *op, Type type) {
  auto shaped = dyn_cast<RankedTensorType>(type);
  if (!shaped || shaped.getRank() < 1 || shaped.getRank() > 4 ||
      !shaped.hasStaticShape()) {
    error(op) << "the tensor " << type
              << " is not a statically shaped tensor of rank 1 to 4";
    return failure();
  }
  ArrayRef<int64_t> shape = shaped.getShape();
  DramView view;
  view.n = shape[0];
  view.c = shape.size() > 1 ? shape[1] : 1;
  view.h = shape.size() > 2 ? shape[2] : 1;
  view.w = shape.size() > 3 ? shape[3] : 1;
  view.pixelStride = view.c;
  view.address = nextAddress;
  // Tensors start on 8-byte boundaries, whole 64-bit beats.
  nextAddress += (view.getElements() + 3) / 4 * 4;
  return view;
}

FailureOr<TensorInfo> LayerBuilder::lookup(Operation *op, Value value,
                                           bool allowFlattened) {
  auto it = tensors.find(value);
  if (it == tensors.end()) {
    error(op) << "an operand is "
              << (value.getDefiningOp<ConstantOp>()
                      ? "a constant where the accelerator needs a tensor "
                        "computed on it"
                      : "not computed by the accelerator");
    return failure();
  }
  if (it->second.flattened && !allowFlattened) {
    error(op) << "takes a flattened depth-minor tensor; only Gemm, MatMul "
                 "and the model's outputs can";
    return failure();
  }
  return it->second;
}

FailureOr<std::vector<float>> LayerBuilder::constantFloats(Operation *op,
                                                           Value value) {
  auto constant = value.getDefiningOp<ConstantOp>();
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!constant || !type || !type.getElementType().isF32()) {
    error(op) << "needs its weights as an f32 constant";
    return failure();
  }
  std::string bytes;
  if (failed(appendConstantBytes(cast<ElementsAttr>(constant.getValue()),
                                 bytes))) {
    error(op) << "cannot read its constant";
    return failure();
  }
  std::vector<float> values(bytes.size() / 4);
  std::memcpy(values.data(), bytes.data(), values.size() * 4);
  return values;
}

Layer &LayerBuilder::addLayer(Operation *op, Layer::Kind kind, Value result,
                              const DramView &out) {
  Layer &layer = model.layers.emplace_back(Layer{
      kind, getNodeName(op), getNodeOpType(op->getLoc()), {}, op->getLoc()});
  tensors[result] = {out, false, static_cast<int>(model.layers.size() - 1)};
  return layer;
}

Value LayerBuilder::fuseRelu(Layer &layer, Value result, bool &relu) {
  if (!result.hasOneUse())
    return result;
  auto next = dyn_cast<ReluOp>(*result.getUsers().begin());
  if (!next)
    return result;
  relu = true;
  layer.fused.push_back(getNodeName(next));
  tensors[next.getResult()] = tensors[result];
  return next.getResult();
}

LogicalResult LayerBuilder::visitConv(ConvOp op) {
  auto filterType = cast<RankedTensorType>(op.getFilter().getType());
  if (filterType.getRank() != 4)
    return error(op) << "only 2-D convolutions run on the accelerator";
  FailureOr<TensorInfo> in = lookup(op, op.getInput());
  FailureOr<DramView> out = allocate(op, op.getType());
  FailureOr<std::vector<float>> weights = constantFloats(op, op.getFilter());
  if (failed(in) || failed(out) || failed(weights))
    return failure();
  std::vector<float> bias;
  if (op.getBias()) {
    FailureOr<std::vector<float>> b = constantFloats(op, op.getBias());
    if (failed(b))
      return failure();
    bias = std::move(*b);
  }
  Layer &layer = addLayer(op, Layer::Kind::Conv, op.getResult(), *out);
  ConvLayer &conv = layer.conv;
  conv.in = in->view;
  conv.out = *out;
  conv.kH = filterType.getDimSize(2);
  conv.kW = filterType.getDimSize(3);
  conv.strideH = op.getStrides()[0];
  conv.strideW = op.getStrides()[1];
  conv.dilationH = op.getDilations()[0];
  conv.dilationW = op.getDilations()[1];
  conv.padTop = op.getPads()[0];
  conv.padLeft = op.getPads()[1];
  conv.padBottom = op.getPads()[2];
  conv.padRight = op.getPads()[3];
  conv.groups = op.getGroup();
  conv.weights = std::move(*weights);
  conv.bias = std::move(bias);
  layer.macs = computeMACs(op);
  fuseRelu(layer, op.getResult(), conv.relu);
  return success();
}

LogicalResult LayerBuilder::visitGemmLike(Operation *op, Value a, Value b,
                                          Value c, float alpha, float beta,
                                          bool transA, bool transB) {
  if (transA)
    return error(op) << "a transposed left operand does not run on the "
                        "accelerator";
  auto bType = dyn_cast<RankedTensorType>(b.getType());
  auto aType = dyn_cast<RankedTensorType>(a.getType());
  if (!bType || bType.getRank() != 2 || !aType || aType.getRank() != 2)
    return error(op) << "only 2-D products run on the accelerator";
  FailureOr<TensorInfo> in = lookup(op, a, /*allowFlattened=*/true);
  FailureOr<DramView> out = allocate(op, op->getResult(0).getType());
  FailureOr<std::vector<float>> matrix = constantFloats(op, b);
  if (failed(in) || failed(out) || failed(matrix))
    return failure();
  int64_t k = aType.getDimSize(1);
  int64_t n = transB ? bType.getDimSize(0) : bType.getDimSize(1);
  std::vector<float> bias;
  if (c) {
    auto cType = cast<RankedTensorType>(c.getType());
    bool scalar = cType.getNumElements() == 1;
    if (!scalar && (cType.getNumElements() != n ||
                    (cType.getRank() == 2 && cType.getDimSize(1) != n)))
      return error(op) << "only a bias of one value per output column runs "
                          "on the accelerator";
    FailureOr<std::vector<float>> values = constantFloats(op, c);
    if (failed(values))
      return failure();
    bias = scalar ? std::vector<float>(n, values->front()) : std::move(*values);
    for (float &v : bias)
      v *= beta;
  }
  // A kernel over the whole input: the flattened index c x H x W + h x W +
  // w of ONNX's NCHW order is (c, h, w) of the depth-minor tensor.
  Layer &layer = addLayer(op, Layer::Kind::Conv, op->getResult(0), *out);
  ConvLayer &conv = layer.conv;
  conv.in = in->view;
  conv.out = *out;
  conv.out.h = conv.out.w = 1;
  conv.kH = in->view.h;
  conv.kW = in->view.w;
  conv.weights.resize(n * k);
  for (int64_t col = 0; col < n; ++col)
    for (int64_t row = 0; row < k; ++row)
      conv.weights[col * k + row] =
          alpha * (*matrix)[transB ? col * k + row : row * n + col];
  conv.bias = std::move(bias);
  layer.macs = computeMACs(op);
  fuseRelu(layer, op->getResult(0), conv.relu);
  return success();
}

LogicalResult LayerBuilder::visitMaxPool(MaxPoolOp op) {
  if (op.getKernelShape().size() != 2)
    return error(op) << "only 2-D pooling runs on the accelerator";
  FailureOr<TensorInfo> in = lookup(op, op.getInput());
  FailureOr<DramView> out = allocate(op, op.getType());
  if (failed(in) || failed(out))
    return failure();
  Layer &layer = addLayer(op, Layer::Kind::Pool, op.getResult(), *out);
  PoolLayer &pool = layer.pool;
  pool.in = in->view;
  pool.out = *out;
  pool.kH = op.getKernelShape()[0];
  pool.kW = op.getKernelShape()[1];
  pool.strideH = op.getStrides()[0];
  pool.strideW = op.getStrides()[1];
  pool.dilationH = op.getDilations()[0];
  pool.dilationW = op.getDilations()[1];
  pool.padTop = op.getPads()[0];
  pool.padLeft = op.getPads()[1];
  // ceil_mode: the last window may reach past the end padding, which
  // counts as more minus infinity.
  pool.padBottom =
      std::max<int64_t>(op.getPads()[2], (out->h - 1) * pool.strideH +
                                             (pool.kH - 1) * pool.dilationH +
                                             1 - in->view.h - pool.padTop);
  pool.padRight =
      std::max<int64_t>(op.getPads()[3], (out->w - 1) * pool.strideW +
                                             (pool.kW - 1) * pool.dilationW +
                                             1 - in->view.w - pool.padLeft);
  fuseRelu(layer, op.getResult(), pool.relu);
  return success();
}

LogicalResult LayerBuilder::visitAveragePool(Operation *op, Value input,
                                             ArrayRef<int64_t> kernel,
                                             ArrayRef<int64_t> strides,
                                             ArrayRef<int64_t> pads) {
  FailureOr<TensorInfo> in = lookup(op, input);
  FailureOr<DramView> out = allocate(op, op->getResult(0).getType());
  if (failed(in) || failed(out))
    return failure();
  // A depthwise convolution with weights 1 / window.
  Layer &layer = addLayer(op, Layer::Kind::Conv, op->getResult(0), *out);
  ConvLayer &conv = layer.conv;
  conv.in = in->view;
  conv.out = *out;
  if (conv.out.c != conv.in.c || conv.out.n != conv.in.n) {
    // ReduceMean without keepdims over [2, 3] of [N, C, H, W] is [N, C].
    conv.out.h = conv.out.w = 1;
  }
  conv.kH = kernel[0];
  conv.kW = kernel[1];
  conv.strideH = strides[0];
  conv.strideW = strides[1];
  conv.padTop = pads[0];
  conv.padLeft = pads[1];
  conv.padBottom = pads[2];
  conv.padRight = pads[3];
  conv.groups = conv.in.c;
  conv.weights.assign(conv.in.c * conv.kH * conv.kW,
                      1.0f / static_cast<float>(conv.kH * conv.kW));
  layer.macs = 0;
  fuseRelu(layer, op->getResult(0), conv.relu);
  return success();
}

LogicalResult LayerBuilder::visitElementwise(Operation *op, Value lhs,
                                             Value rhs) {
  FailureOr<TensorInfo> a = lookup(op, lhs);
  if (failed(a))
    return failure();
  std::optional<DramView> b;
  if (rhs) {
    if (lhs.getType() != rhs.getType())
      return error(op) << "only a sum of two tensors of one shape runs on "
                          "the accelerator (no broadcasting)";
    FailureOr<TensorInfo> info = lookup(op, rhs);
    if (failed(info))
      return failure();
    b = info->view;
  }
  FailureOr<DramView> out = allocate(op, op->getResult(0).getType());
  if (failed(out))
    return failure();
  Layer &layer = addLayer(op, Layer::Kind::Elementwise, op->getResult(0), *out);
  layer.elementwise.lhs = a->view;
  layer.elementwise.rhs = b;
  layer.elementwise.out = *out;
  if (rhs)
    fuseRelu(layer, op->getResult(0), layer.elementwise.relu);
  else
    layer.elementwise.relu = true;
  return success();
}

LogicalResult LayerBuilder::visitReshape(ReshapeOp op) {
  FailureOr<TensorInfo> in = lookup(op, op.getInput(), true);
  if (failed(in))
    return failure();
  ArrayRef<int64_t> shape = op.getType().getShape();
  const DramView &v = in->view;
  TensorInfo result = *in;
  bool spatial = v.h > 1 || v.w > 1;
  if (shape.size() == 2 && shape[0] == v.n && shape[1] == v.c * v.h * v.w) {
    result.flattened = spatial;
  } else if (!spatial && !in->flattened && shape.size() >= 2 &&
             shape[0] == v.n && shape[1] == v.c &&
             llvm::all_of(shape.drop_front(2),
                          [](int64_t d) { return d == 1; })) {
    result.flattened = false;
  } else {
    return error(op) << "only a flatten to [N, C x H x W] (or adding or "
                        "dropping unit spatial dimensions) runs on the "
                        "accelerator, which keeps tensors depth-minor";
  }
  tensors[op.getResult()] = result;
  return success();
}

LogicalResult LayerBuilder::visitConcat(ConcatOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  if (op.getAxis() != 1 || type.getRank() < 2)
    return error(op) << "only a concatenation of channels (axis 1) runs on "
                        "the accelerator";
  FailureOr<DramView> out = allocate(op, type);
  if (failed(out))
    return failure();
  // The producers write their channel slices of the result in place.
  int64_t first = 0;
  for (Value input : op.getInputs()) {
    FailureOr<TensorInfo> info = lookup(op, input);
    if (failed(info))
      return failure();
    if (info->producer < 0 || !input.hasOneUse() || !info->view.isDense())
      return error(op) << "concatenates a tensor that is not computed here "
                          "for the concatenation alone";
    Layer &producer = model.layers[info->producer];
    DramView slice = out->channels(first, info->view.c);
    switch (producer.kind) {
    case Layer::Kind::Conv:
      producer.conv.out = slice;
      break;
    case Layer::Kind::Pool:
      producer.pool.out = slice;
      break;
    case Layer::Kind::Elementwise:
      producer.elementwise.out = slice;
      break;
    }
    first += info->view.c;
  }
  tensors[op.getResult()] = {*out, false, -1};
  return success();
}

LogicalResult LayerBuilder::collectArmTail(Operation *first) {
  if (model.layers.empty())
    return error(first) << "runs on the Zynq's ARM only as the final "
                           "normalisation after the accelerator's layers";
  llvm::SmallPtrSet<Operation *, 8> tail;
  for (Operation *op = first; op; op = op->getNextNode()) {
    if (isa<func::ReturnOp>(op))
      break;
    if (!isa<SoftmaxOp, LogSoftmaxOp, ReshapeOp, ConstantOp>(op))
      return error(op) << "'" << op->getName()
                       << "' runs neither on the accelerator nor, after a "
                          "final Softmax, on the ARM";
    tail.insert(op);
    model.armOps.push_back(op);
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if ((def && (tail.contains(def) || isa<ConstantOp>(def))) ||
          llvm::is_contained(model.armInputs, operand))
        continue;
      if (failed(lookup(op, operand, /*allowFlattened=*/true)))
        return failure();
      model.armInputs.push_back(operand);
    }
  }
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  for (Value value : ret.getOperands()) {
    Operation *def = value.getDefiningOp();
    if ((def && tail.contains(def)) ||
        llvm::is_contained(model.armInputs, value))
      continue;
    if (failed(lookup(ret, value, true)))
      return failure();
    model.armInputs.push_back(value);
  }
  for (Value value : model.armInputs)
    model.outputs.push_back({"", tensors[value].view});
  return success();
}

// The cases are the ops of hasLayerFor.
FailureOr<LayeredModel> LayerBuilder::run() {
  for (BlockArgument arg : func.getArguments()) {
    Operation *at = func;
    FailureOr<DramView> view = allocate(at, arg.getType());
    if (failed(view))
      return failure();
    tensors[arg] = {*view, false, -1};
    auto name =
        func.getArgAttrOfType<StringAttr>(arg.getArgNumber(), kONNXNameAttr);
    model.inputs.push_back(
        {name ? name.str() : "input" + std::to_string(arg.getArgNumber()),
         *view});
  }
  for (Operation &op : func.getBody().front()) {
    LogicalResult result =
        TypeSwitch<Operation *, LogicalResult>(&op)
            .Case([](ConstantOp) { return success(); })
            .Case([&](ConvOp conv) { return visitConv(conv); })
            .Case([&](GemmOp gemm) {
              return visitGemmLike(gemm, gemm.getA(), gemm.getB(), gemm.getC(),
                                   gemm.getAlpha().convertToFloat(),
                                   gemm.getBeta().convertToFloat(),
                                   gemm.getTransA(), gemm.getTransB());
            })
            .Case([&](MatMulOp matmul) {
              return visitGemmLike(matmul, matmul.getLhs(), matmul.getRhs(),
                                   Value(), 1.0f, 1.0f, false, false);
            })
            .Case([&](MaxPoolOp pool) { return visitMaxPool(pool); })
            .Case([&](AveragePoolOp pool) -> LogicalResult {
              if (pool.getKernelShape().size() != 2)
                return error(pool) << "only 2-D pooling runs on the "
                                      "accelerator";
              if (!pool.getCountIncludePad() &&
                  llvm::any_of(pool.getPads(), [](int64_t p) { return p; }))
                return error(pool) << "averages over the real elements of "
                                      "padded windows (count_include_pad = "
                                      "0), which a convolution cannot";
              // ceil_mode's last windows may reach past the padding, and
              // average fewer elements.
              auto in = cast<RankedTensorType>(pool.getInput().getType());
              auto out = cast<RankedTensorType>(pool.getType());
              for (int d = 0; d < 2; ++d)
                if ((out.getDimSize(2 + d) - 1) * pool.getStrides()[d] +
                        pool.getKernelShape()[d] >
                    in.getDimSize(2 + d) + pool.getPads()[d] +
                        pool.getPads()[2 + d])
                  return error(pool) << "has windows that reach past the "
                                        "padding (ceil_mode), which average "
                                        "fewer elements than a convolution";
              return visitAveragePool(pool, pool.getInput(),
                                      pool.getKernelShape(), pool.getStrides(),
                                      pool.getPads());
            })
            .Case([&](ReduceMeanOp mean) -> LogicalResult {
              auto type = cast<RankedTensorType>(mean.getInput().getType());
              if (type.getRank() != 4 ||
                  mean.getAxes() != ArrayRef<int64_t>{2, 3})
                return error(mean) << "only a mean over the spatial axes "
                                      "[2, 3] runs on the accelerator";
              int64_t kernel[] = {type.getDimSize(2), type.getDimSize(3)};
              int64_t strides[] = {1, 1}, pads[] = {0, 0, 0, 0};
              return visitAveragePool(mean, mean.getInput(), kernel, strides,
                                      pads);
            })
            .Case([&](AddOp add) {
              return visitElementwise(add, add.getLhs(), add.getRhs());
            })
            .Case([&](ReluOp relu) -> LogicalResult {
              if (tensors.count(relu.getResult()))
                return success(); // Fused into its producer.
              return visitElementwise(relu, relu.getInput(), Value());
            })
            .Case([&](ReshapeOp reshape) { return visitReshape(reshape); })
            .Case([&](ConcatOp concat) { return visitConcat(concat); })
            .Case<SoftmaxOp, LogSoftmaxOp>(
                [&](Operation *norm) { return collectArmTail(norm); })
            .Case([&](func::ReturnOp ret) -> LogicalResult {
              for (auto [i, value] : llvm::enumerate(ret.getOperands())) {
                FailureOr<TensorInfo> info = lookup(ret, value, true);
                if (failed(info))
                  return failure();
                auto name =
                    func.getResultAttrOfType<StringAttr>(i, kONNXNameAttr);
                model.outputs.push_back(
                    {name ? name.str() : "output" + std::to_string(i),
                     info->view});
              }
              return success();
            })
            .Default([&](Operation *other) -> LogicalResult {
              return error(other) << "'" << other->getName()
                                  << "' does not run on the accelerator";
            });
    if (failed(result))
      return failure();
    if (!model.armOps.empty())
      break;
  }
  model.tensorElements = nextAddress;
  return std::move(model);
}

} // namespace

bool dlc::snowflake::hasLayerFor(Operation *op) {
  return isa<ConstantOp, ConvOp, GemmOp, MatMulOp, MaxPoolOp, AveragePoolOp,
             ReduceMeanOp, AddOp, ReluOp, ReshapeOp, ConcatOp, SoftmaxOp,
             LogSoftmaxOp>(op);
}

FailureOr<LayeredModel> dlc::snowflake::buildLayers(func::FuncOp func) {
  return LayerBuilder(func).run();
}
