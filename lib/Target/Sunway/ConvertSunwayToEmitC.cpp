//===- ConvertSunwayToEmitC.cpp - the sunway module as two C files --------===//
//
// See the pass description in include/dlc/Target/Sunway/Passes.td. Three
// steps:
//  1. structure: every sunway.launch becomes a kernel function
//     `void k<N>(void *args)` (its region, with the buffers unpacked from
//     the argument block and the CPE id from athread_get_id) and, in the
//     entry, the athread_spawn/athread_join that runs it; the entry becomes
//     `int dlc_model_compute(weights, inputs..., outputs...)` and reads its
//     constants from the weights blob;
//  2. a dialect conversion of everything to EmitC: memrefs are element
//     pointers (a load is the pointer indexed by the linearised position
//     under the memref's static strides and offset), index is size_t, and
//     loops whose bounds may be negative first get bounds that C's
//     unsigned `i < ub` compares as scf.for's signed one does;
//  3. the `host` and `slave` emitc.files, with their includes, the kernels'
//     declarations, the LDM area and `dlc_model_run`.
//
//===----------------------------------------------------------------------===//

#include "dlc/Dialect/Sunway/IR/SunwayOps.h"
#include "dlc/Support/EntrySignature.h"
#include "dlc/Target/Sunway/Passes.h"
#include "dlc/Target/Sunway/SunwayEmission.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Analysis/DataFlow/Utils.h"
#include "mlir/Analysis/DataFlowFramework.h"

#include "mlir/Conversion/ArithToEmitC/ArithToEmitC.h"
#include "mlir/Conversion/FuncToEmitC/FuncToEmitC.h"
#include "mlir/Conversion/SCFToEmitC/SCFToEmitC.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/EmitC/Transforms/TypeConversions.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringSwitch.h"

namespace dlc::sunway {
#define GEN_PASS_DEF_CONVERTSUNWAYTOEMITC
#include "dlc/Target/Sunway/Passes.h.inc"
} // namespace dlc::sunway

using namespace mlir;
using namespace dlc;
using namespace dlc::sunway;

namespace {

constexpr StringLiteral kWeightsOffsetAttr =
    SunwayDialect::WeightsOffsetAttrHelper::getNameStr();

Type getVoidPtr(MLIRContext *context) {
  return emitc::PointerType::get(emitc::OpaqueType::get(context, "void"));
}
Type getBytePtr(MLIRContext *context) {
  return emitc::PointerType::get(
      emitc::OpaqueType::get(context, "unsigned char"));
}

Value createSizeT(OpBuilder &b, Location loc, int64_t value) {
  return emitc::ConstantOp::create(
      b, loc, emitc::SizeTType::get(b.getContext()), b.getIndexAttr(value));
}

Value castToMemRef(OpBuilder &b, Location loc, Value pointer, Type memref) {
  return UnrealizedConversionCastOp::create(b, loc, memref, pointer)
      .getResult(0);
}

int64_t getElementBytes(MemRefType type) {
  return std::max<int64_t>(type.getElementTypeBitWidth() / 8, 1);
}

//===----------------------------------------------------------------------===//
// 1. Structure
//===----------------------------------------------------------------------===//

/// `&pointer[index]`: EmitC's pointer arithmetic.
Value offsetPointer(OpBuilder &b, Location loc, Value pointer, Value index) {
  Type pointee = cast<emitc::PointerType>(pointer.getType()).getPointee();
  Value element = emitc::SubscriptOp::create(
      b, loc, emitc::LValueType::get(pointee), pointer, ValueRange{index});
  return emitc::AddressOfOp::create(b, loc, pointer.getType(), element);
}

/// `&lvalue`.
Value createAddressOf(OpBuilder &b, Location loc, Value lvalue) {
  Type pointee = cast<emitc::LValueType>(lvalue.getType()).getValueType();
  return emitc::AddressOfOp::create(b, loc, emitc::PointerType::get(pointee),
                                    lvalue);
}

/// `memref` as a pointer to its elements, for an emitc op built before the
/// conversion (the cast folds away once `memref` is converted).
Value castToPointer(OpBuilder &b, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  return UnrealizedConversionCastOp::create(
             b, loc, emitc::PointerType::get(type.getElementType()), memref)
      .getResult(0);
}

/// Makes every scf.for of `module` iterate as often under C's unsigned
/// `for (size_t i = lb; i < ub; i += step)` as under scf.for's signed
/// comparison. Tile loops clipped by `min` (an operand's extent minus a
/// shift, such as the second input of a concatenation read in place) have
/// negative upper bounds when they run zero times; compared unsigned, they
/// would run to 2^64. Bounds the integer range analysis proves non-negative
/// stay as they are; with a non-negative lower bound the upper one becomes
/// max(ub, lb); otherwise the loop counts its trips from zero and computes
/// `lb + k * step`.
void makeLoopBoundsUnsignedSafe(ModuleOp module) {
  DataFlowSolver solver;
  dataflow::loadBaselineAnalyses(solver);
  solver.load<dataflow::IntegerRangeAnalysis>();
  bool analysed = succeeded(solver.initializeAndRun(module));
  auto isNonNegative = [&](Value value) {
    return analysed &&
           succeeded(dataflow::staticallyNonNegative(solver, value));
  };
  SmallVector<scf::ForOp> loops;
  module.walk([&](scf::ForOp loop) { loops.push_back(loop); });
  for (scf::ForOp loop : loops) {
    Value lb = loop.getLowerBound(), ub = loop.getUpperBound();
    bool lbNonNegative = isNonNegative(lb);
    if (lbNonNegative && isNonNegative(ub))
      continue;
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    if (lbNonNegative) {
      loop.setUpperBound(arith::MaxSIOp::create(b, loc, ub, lb));
      continue;
    }
    Value step = loop.getStep();
    Type type = lb.getType();
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
    Value one = arith::ConstantOp::create(b, loc, b.getOneAttr(type));
    Value span = arith::SubIOp::create(b, loc, ub, lb);
    // scf.for's step is positive; a negative span is selected away below.
    Value trips = arith::DivSIOp::create(
        b, loc,
        arith::AddIOp::create(b, loc, span,
                              arith::SubIOp::create(b, loc, step, one)),
        step);
    Value runs =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, ub, lb);
    loop.setLowerBound(zero);
    loop.setUpperBound(arith::SelectOp::create(b, loc, runs, trips, zero));
    loop.setStep(one);
    Value trip = loop.getInductionVar();
    b.setInsertionPointToStart(loop.getBody());
    auto scaled = arith::MulIOp::create(b, loc, trip, step);
    Value position = arith::AddIOp::create(b, loc, lb, scaled);
    trip.replaceAllUsesExcept(position, scaled);
  }
}

/// The kernel function of `launch` (its region, with the buffers taken
/// from the argument block), and the spawn and join in its place.
void outlineLaunch(LaunchOp launch, ModuleOp module) {
  MLIRContext *context = launch.getContext();
  Location loc = launch.getLoc();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Type voidPtr = getVoidPtr(context);
  auto kernel = func::FuncOp::create(b, loc, launch.getKernel(),
                                     b.getFunctionType({voidPtr}, {}));
  kernel->setAttr(SunwayDialect::KernelAttrHelper::getNameStr(),
                  b.getStringAttr(launch.getNode()));
  kernel->setAttr(SunwayDialect::LdmBytesAttrHelper::getNameStr(),
                  launch.getLdmBytesAttr());
  Block *entry = kernel.addEntryBlock();
  b.setInsertionPointToStart(entry);
  IRMapping mapping;
  Value id32 = emitc::CallOpaqueOp::create(
                   b, loc, TypeRange{b.getI32Type()}, "athread_get_id",
                   ValueRange{}, b.getArrayAttr({b.getI32IntegerAttr(-1)}))
                   .getResult(0);
  // Only what the kernel uses: C would warn about unused variables.
  Type i32 = b.getI32Type();
  // Unsigned casts: the CPE id, row and column are never negative, which
  // lets the integer range analysis of makeLoopBoundsUnsignedSafe prove
  // the distributed loops' bounds non-negative.
  auto toIndex = [&](Value value) -> Value {
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), value);
  };
  if (!launch.getCpeId().use_empty())
    mapping.map(launch.getCpeId(), toIndex(id32));
  if (!launch.getRow().use_empty() || !launch.getCol().use_empty()) {
    Value columns =
        emitc::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(8));
    if (!launch.getRow().use_empty())
      mapping.map(launch.getRow(),
                  toIndex(emitc::DivOp::create(b, loc, i32, id32, columns)));
    if (!launch.getCol().use_empty())
      mapping.map(launch.getCol(),
                  toIndex(emitc::RemOp::create(b, loc, i32, id32, columns)));
  }
  Value words = emitc::CastOp::create(b, loc, emitc::PointerType::get(voidPtr),
                                      entry->getArgument(0));
  for (auto [i, buffer] : llvm::enumerate(launch.getBuffers())) {
    auto type = cast<MemRefType>(buffer.getType());
    Value slot =
        emitc::SubscriptOp::create(b, loc, emitc::LValueType::get(voidPtr),
                                   words, ValueRange{createSizeT(b, loc, i)});
    Value word = emitc::LoadOp::create(b, loc, voidPtr, slot);
    Value typed = emitc::CastOp::create(
        b, loc, emitc::PointerType::get(type.getElementType()), word);
    mapping.map(launch.getBufferArgument(i), castToMemRef(b, loc, typed, type));
  }
  for (Operation &op : launch.getBody().front().without_terminator())
    b.clone(op, mapping);
  func::ReturnOp::create(b, loc);

  // athread_spawn(k, args); dlc_record_join(athread_join());
  b.setInsertionPoint(launch);
  unsigned numBuffers = launch.getBuffers().size();
  Value arguments;
  if (numBuffers == 0) {
    arguments = emitc::LiteralOp::create(b, loc, voidPtr, "NULL");
  } else {
    auto arrayType = emitc::ArrayType::get({numBuffers}, voidPtr);
    Value array = emitc::VariableOp::create(
        b, loc, arrayType, emitc::OpaqueAttr::get(context, ""));
    for (auto [i, buffer] : llvm::enumerate(launch.getBuffers())) {
      Value slot =
          emitc::SubscriptOp::create(b, loc, emitc::LValueType::get(voidPtr),
                                     array, ValueRange{createSizeT(b, loc, i)});
      Value pointer =
          emitc::CastOp::create(b, loc, voidPtr, castToPointer(b, loc, buffer));
      emitc::AssignOp::create(b, loc, slot, pointer);
    }
    Value first =
        emitc::SubscriptOp::create(b, loc, emitc::LValueType::get(voidPtr),
                                   array, ValueRange{createSizeT(b, loc, 0)});
    arguments =
        emitc::CastOp::create(b, loc, voidPtr, createAddressOf(b, loc, first));
  }
  emitc::CallOpaqueOp::create(
      b, loc, TypeRange{}, "athread_spawn", ValueRange{arguments},
      b.getArrayAttr({emitc::OpaqueAttr::get(context, launch.getKernel()),
                      b.getIndexAttr(0)}));
  Value status = emitc::CallOpaqueOp::create(b, loc, TypeRange{b.getI32Type()},
                                             "athread_join", ValueRange{})
                     .getResult(0);
  emitc::CallOpaqueOp::create(b, loc, TypeRange{}, "dlc_record_join",
                              ValueRange{status});
  launch.erase();
}

/// The entry becomes dlc_model_compute(weights, inputs..., outputs...) ->
/// status: constants are pointers into the weights, athread is started and
/// stopped around the body.
LogicalResult prepareEntry(func::FuncOp entry, ModuleOp module) {
  MLIRContext *context = module.getContext();
  Type bytePtr = getBytePtr(context);
  SmallVector<Type> inputs{bytePtr};
  llvm::append_range(inputs, entry.getArgumentTypes());
  Builder builder(context);
  entry.setName("dlc_model_compute");
  entry.setType(builder.getFunctionType(inputs, {builder.getI32Type()}));
  Block &body = entry.getBody().front();
  Value weights = body.insertArgument(0u, bytePtr, entry.getLoc());
  entry.setArgAttrsAttr(nullptr);

  OpBuilder b = OpBuilder::atBlockBegin(&body);
  emitc::CallOpaqueOp::create(b, entry.getLoc(), TypeRange{}, "dlc_model_begin",
                              ValueRange{weights});
  emitc::CallOpaqueOp::create(b, entry.getLoc(), TypeRange{}, "athread_init",
                              ValueRange{});
  WalkResult result = entry.walk([&](memref::GetGlobalOp get) {
    auto global = module.lookupSymbol<memref::GlobalOp>(get.getName());
    auto offset = global
                      ? global->getAttrOfType<IntegerAttr>(kWeightsOffsetAttr)
                      : nullptr;
    if (!offset) {
      get.emitError("reads a global that is not in the weights file");
      return WalkResult::interrupt();
    }
    OpBuilder at(get);
    Value address =
        offsetPointer(at, get.getLoc(), weights,
                      createSizeT(at, get.getLoc(), offset.getInt()));
    Value typed = emitc::CastOp::create(
        at, get.getLoc(),
        emitc::PointerType::get(get.getType().getElementType()), address);
    get.replaceAllUsesWith(
        castToMemRef(at, get.getLoc(), typed, get.getType()));
    get.erase();
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  b.setInsertionPoint(ret);
  emitc::CallOpaqueOp::create(b, ret.getLoc(), TypeRange{}, "athread_halt",
                              ValueRange{});
  Value status =
      emitc::CallOpaqueOp::create(b, ret.getLoc(), TypeRange{b.getI32Type()},
                                  "dlc_kernel_status", ValueRange{})
          .getResult(0);
  func::ReturnOp::create(b, ret.getLoc(), ValueRange{status});
  ret.erase();
  return success();
}

//===----------------------------------------------------------------------===//
// 2. Conversion
//===----------------------------------------------------------------------===//

/// True when `op` is in a CPE kernel, whose scalar code goes through the
/// counted accessors of dlc_sunway.h.
bool isInKernel(Operation *op) {
  auto function = op->getParentOfType<FunctionOpInterface>();
  return function &&
         function->hasAttr(SunwayDialect::KernelAttrHelper::getNameStr());
}

/// `DLC_FOP(value)` (or DLC_FDIV): the emulation counts one instruction.
Value countFloatOp(OpBuilder &b, Location loc, Value value, bool divide) {
  return emitc::CallOpaqueOp::create(b, loc, TypeRange{value.getType()},
                                     divide ? "DLC_FDIV" : "DLC_FOP",
                                     ValueRange{value})
      .getResult(0);
}

class SunwayTypeConverter : public TypeConverter {
public:
  SunwayTypeConverter() {
    addConversion([](Type type) { return type; });
    populateEmitCSizeTTypeConversions(*this);
    // The micro-kernels' vectors: simd.h's floatv4.
    addConversion([](VectorType type) -> Type {
      return emitc::OpaqueType::get(type.getContext(), "floatv4");
    });
    addConversion([this](MemRefType type) -> std::optional<Type> {
      Type element = convertType(type.getElementType());
      if (!element)
        return std::nullopt;
      return emitc::PointerType::get(element);
    });
    auto cast = [](OpBuilder &b, Type type, ValueRange inputs,
                   Location loc) -> Value {
      return UnrealizedConversionCastOp::create(b, loc, type, inputs)
          .getResult(0);
    };
    addSourceMaterialization(cast);
    addTargetMaterialization(cast);
  }
};

/// The position of `indices` in a memref of `type` under its static
/// strides and offset, as a size_t expression.
FailureOr<Value> linearize(OpBuilder &b, Location loc, Operation *op,
                           MemRefType type, ValueRange indices) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return op->emitError("the Sunway target needs static strides and "
                         "offsets, got ")
           << type;
  Type sizeT = emitc::SizeTType::get(b.getContext());
  Value linear;
  auto add = [&](Value term) {
    linear = linear ? Value(emitc::AddOp::create(b, loc, sizeT, linear, term))
                    : term;
  };
  if (offset != 0 || indices.empty())
    add(createSizeT(b, loc, offset));
  for (auto [index, stride] : llvm::zip_equal(indices, strides)) {
    if (stride == 1)
      add(index);
    else
      add(emitc::MulOp::create(b, loc, sizeT, index,
                               createSizeT(b, loc, stride)));
  }
  return linear;
}

/// `pointer + position of indices`: the address of one element.
FailureOr<Value> getElementAddress(OpBuilder &b, Location loc, Operation *op,
                                   Value pointer, MemRefType type,
                                   ValueRange indices) {
  FailureOr<Value> linear = linearize(b, loc, op, type, indices);
  if (failed(linear))
    return failure();
  return offsetPointer(b, loc, pointer, *linear);
}

FailureOr<Value> getElement(OpBuilder &b, Location loc, Operation *op,
                            Value pointer, MemRefType type,
                            ValueRange indices) {
  FailureOr<Value> linear = linearize(b, loc, op, type, indices);
  if (failed(linear))
    return failure();
  Type element = cast<emitc::PointerType>(pointer.getType()).getPointee();
  return Value(emitc::SubscriptOp::create(
      b, loc, emitc::LValueType::get(element), pointer, ValueRange{*linear}));
}

struct LoadPattern : OpConversionPattern<memref::LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(memref::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (isInKernel(op)) {
      FailureOr<Value> address =
          getElementAddress(rewriter, op.getLoc(), op, adaptor.getMemref(),
                            op.getMemRefType(), adaptor.getIndices());
      if (failed(address))
        return failure();
      rewriter.replaceOpWithNewOp<emitc::CallOpaqueOp>(
          op, TypeRange{type},
          isLDM(op.getMemRefType()) ? "DLC_LDM_LOAD" : "DLC_GLOBAL_LOAD",
          ValueRange{*address});
      return success();
    }
    FailureOr<Value> element =
        getElement(rewriter, op.getLoc(), op, adaptor.getMemref(),
                   op.getMemRefType(), adaptor.getIndices());
    if (failed(element))
      return failure();
    rewriter.replaceOpWithNewOp<emitc::LoadOp>(op, type, *element);
    return success();
  }
};

struct StorePattern : OpConversionPattern<memref::StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(memref::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (isInKernel(op)) {
      FailureOr<Value> address =
          getElementAddress(rewriter, op.getLoc(), op, adaptor.getMemref(),
                            op.getMemRefType(), adaptor.getIndices());
      if (failed(address))
        return failure();
      rewriter.replaceOpWithNewOp<emitc::CallOpaqueOp>(
          op, TypeRange{},
          isLDM(op.getMemRefType()) ? "DLC_LDM_STORE" : "DLC_GLOBAL_STORE",
          ValueRange{*address, adaptor.getValue()});
      return success();
    }
    FailureOr<Value> element =
        getElement(rewriter, op.getLoc(), op, adaptor.getMemref(),
                   op.getMemRefType(), adaptor.getIndices());
    if (failed(element))
      return failure();
    rewriter.replaceOpWithNewOp<emitc::AssignOp>(op, *element,
                                                 adaptor.getValue());
    return success();
  }
};

/// Main-memory buffers: malloc and free (the MPE's).
struct AllocPattern : OpConversionPattern<memref::AllocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(memref::AllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MemRefType type = op.getType();
    if (!type.hasStaticShape())
      return op.emitError("the Sunway target allocates static shapes only");
    Location loc = op.getLoc();
    Value bytes = createSizeT(rewriter, loc,
                              type.getNumElements() * getElementBytes(type));
    Value raw = emitc::CallOpaqueOp::create(rewriter, loc,
                                            TypeRange{getVoidPtr(getContext())},
                                            "malloc", ValueRange{bytes})
                    .getResult(0);
    rewriter.replaceOpWithNewOp<emitc::CastOp>(
        op, getTypeConverter()->convertType(type), raw);
    return success();
  }
};

struct DeallocPattern : OpConversionPattern<memref::DeallocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(memref::DeallocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<emitc::CallOpaqueOp>(
        op, TypeRange{}, "free", ValueRange{adaptor.getMemref()});
    return success();
  }
};

/// A view is the same elements: the same pointer, its type's strides and
/// offset say where they are.
template <typename ViewOp> struct ViewPattern : OpConversionPattern<ViewOp> {
  using OpConversionPattern<ViewOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ViewOp op, typename ViewOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<MemRefType>(op.getResult().getType());
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)) ||
        ShapedType::isDynamic(offset) ||
        llvm::any_of(strides, ShapedType::isDynamic))
      return op.emitError("the Sunway target needs views with static "
                          "strides and offsets, got ")
             << type;
    rewriter.replaceOp(op, adaptor.getOperands().front());
    return success();
  }
};

/// `(T *)(dlc_ldm + offset)`: every kernel's buffers live in one LDM area.
struct LDMAllocPattern : OpConversionPattern<LDMAllocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LDMAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type bytePtr = getBytePtr(getContext());
    Value area = emitc::LiteralOp::create(rewriter, loc, bytePtr, "dlc_ldm");
    Value address = offsetPointer(rewriter, loc, area,
                                  createSizeT(rewriter, loc, op.getOffset()));
    rewriter.replaceOpWithNewOp<emitc::CastOp>(
        op, getTypeConverter()->convertType(op.getType()), address);
    return success();
  }
};

template <typename DMAOp> struct DMAPattern : OpConversionPattern<DMAOp> {
  using OpConversionPattern<DMAOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DMAOp op, typename DMAOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    constexpr bool isGet = std::is_same_v<DMAOp, DMAGetOp>;
    Location loc = op.getLoc();
    MLIRContext *context = op.getContext();
    FailureOr<Value> src = getElementAddress(
        rewriter, loc, op, adaptor.getSrc(),
        cast<MemRefType>(op.getSrc().getType()), adaptor.getSrcIndices());
    FailureOr<Value> dst = getElementAddress(
        rewriter, loc, op, adaptor.getDst(),
        cast<MemRefType>(op.getDst().getType()), adaptor.getDstIndices());
    if (failed(src) || failed(dst))
      return failure();
    Type sizeT = emitc::SizeTType::get(context);
    Type i32 = rewriter.getI32Type();
    Value elementBytes = createSizeT(rewriter, loc, op.getElementBytes());
    auto bytes = [&](Value elements) -> Value {
      Value product =
          emitc::MulOp::create(rewriter, loc, sizeT, elements, elementBytes);
      return emitc::CastOp::create(rewriter, loc, i32, product);
    };
    Value length = bytes(adaptor.getElements());
    Value stride, block;
    if (adaptor.getBlockElements()) {
      // athread's stride is the gap between blocks, in bytes.
      Value gap = emitc::SubOp::create(rewriter, loc, sizeT,
                                       adaptor.getStrideElements(),
                                       adaptor.getBlockElements());
      stride = bytes(gap);
      block = bytes(adaptor.getBlockElements());
    } else {
      stride = emitc::ConstantOp::create(rewriter, loc, i32,
                                         rewriter.getI32IntegerAttr(0));
      block = stride;
    }
    Value reply = offsetPointer(rewriter, loc, adaptor.getReply(),
                                adaptor.getReplyIndex());
    Value replyWord =
        emitc::CastOp::create(rewriter, loc, getVoidPtr(context), reply);
    Value srcVoid =
        emitc::CastOp::create(rewriter, loc, getVoidPtr(context), *src);
    Value dstVoid =
        emitc::CastOp::create(rewriter, loc, getVoidPtr(context), *dst);
    StringRef mode =
        llvm::StringSwitch<StringRef>(stringifyDMAMode(op.getMode()))
            .Case("pe", "PE_MODE")
            .Case("bcast", "BCAST_MODE")
            .Case("row", "ROW_MODE")
            .Case("brow", "BROW_MODE")
            .Default("RANK_MODE");
    SmallVector<Attribute> args = {emitc::OpaqueAttr::get(context, mode)};
    SmallVector<Value> operands = {srcVoid, dstVoid, length, replyWord};
    for (unsigned i = 0; i < 4; ++i)
      args.push_back(rewriter.getIndexAttr(i));
    // The broadcast modes deliver to every CPE of the mask: all of them.
    bool broadcasts =
        op.getMode() == DMAMode::bcast || op.getMode() == DMAMode::brow;
    if (isGet)
      args.push_back(
          emitc::OpaqueAttr::get(context, broadcasts ? "0xff" : "0"));
    operands.push_back(stride);
    operands.push_back(block);
    args.push_back(rewriter.getIndexAttr(4));
    args.push_back(rewriter.getIndexAttr(5));
    rewriter.replaceOpWithNewOp<emitc::CallOpaqueOp>(
        op, TypeRange{}, isGet ? "athread_get" : "athread_put", operands,
        rewriter.getArrayAttr(args));
    return success();
  }
};

struct WaitReplyPattern : OpConversionPattern<WaitReplyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WaitReplyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value word = offsetPointer(rewriter, op.getLoc(), adaptor.getReply(),
                               adaptor.getIndex());
    rewriter.replaceOpWithNewOp<emitc::CallOpaqueOp>(
        op, TypeRange{}, "dlc_wait_reply",
        ValueRange{word, adaptor.getCount()});
    return success();
  }
};

struct BarrierPattern : OpConversionPattern<BarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MLIRContext *context = op.getContext();
    StringRef scope, mask;
    switch (op.getScope()) {
    case Scope::row:
      scope = "ROW_SCOPE", mask = "0xff";
      break;
    case Scope::col:
      scope = "COL_SCOPE", mask = "0xff";
      break;
    case Scope::array:
      scope = "ARRAY_SCOPE", mask = "0xffff";
      break;
    }
    rewriter.replaceOpWithNewOp<emitc::CallOpaqueOp>(
        op, TypeRange{}, "athread_syn", ValueRange{},
        rewriter.getArrayAttr({emitc::OpaqueAttr::get(context, scope),
                               emitc::OpaqueAttr::get(context, mask)}));
    return success();
  }
};

/// Ops that become a call of a C function of the same operands: math.h
/// (the float versions for f32) and the ABI header's helpers.
struct CallPattern : ConversionPattern {
  CallPattern(const TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1,
                          context) {}

  static std::optional<std::string> getCallee(Operation *op) {
    std::optional<StringRef> base =
        llvm::StringSwitch<std::optional<StringRef>>(
            op->getName().getStringRef())
            .Case("math.exp", StringRef("exp"))
            .Case("math.log", StringRef("log"))
            .Case("math.log1p", StringRef("log1p"))
            .Case("math.tanh", StringRef("tanh"))
            .Case("math.sqrt", StringRef("sqrt"))
            .Case("math.erf", StringRef("erf"))
            .Case("math.powf", StringRef("pow"))
            .Case("math.absf", StringRef("fabs"))
            .Case("math.floor", StringRef("floor"))
            .Case("math.ceil", StringRef("ceil"))
            .Case("math.roundeven", StringRef("rint"))
            .Case("math.sin", StringRef("sin"))
            .Case("math.cos", StringRef("cos"))
            .Case("math.tan", StringRef("tan"))
            .Case("math.asin", StringRef("asin"))
            .Case("math.acos", StringRef("acos"))
            .Case("math.atan", StringRef("atan"))
            .Case("math.sinh", StringRef("sinh"))
            .Case("math.cosh", StringRef("cosh"))
            .Case("math.asinh", StringRef("asinh"))
            .Case("math.acosh", StringRef("acosh"))
            .Case("math.atanh", StringRef("atanh"))
            .Case("math.fma", StringRef("fma"))
            .Case("arith.remf", StringRef("fmod"))
            .Case("arith.maximumf", StringRef("dlc_maximum"))
            .Case("arith.minimumf", StringRef("dlc_minimum"))
            .Case("arith.maxnumf", StringRef("fmax"))
            .Case("arith.minnumf", StringRef("fmin"))
            .Default(std::nullopt);
    if (!base || op->getNumResults() != 1)
      return std::nullopt;
    Type type = op->getResult(0).getType();
    if (type.isF32())
      return (*base + "f").str();
    if (type.isF64())
      return base->str();
    return std::nullopt;
  }

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<std::string> callee = getCallee(op);
    if (!callee)
      return failure();
    Value result =
        emitc::CallOpaqueOp::create(rewriter, op->getLoc(),
                                    op->getResultTypes(), *callee, operands)
            .getResult(0);
    if (isInKernel(op))
      result =
          countFloatOp(rewriter, op->getLoc(), result,
                       /*divide=*/isa<math::MathDialect>(op->getDialect()));
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Integer maximum and minimum (22's arith-to-emitc has none): a compare in
/// the operation's signedness and a conditional.
template <typename ArithOp, bool isMax, bool isUnsigned>
struct IntegerMinMaxPattern : OpConversionPattern<ArithOp> {
  using OpConversionPattern<ArithOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ArithOp op, typename ArithOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
    Type type = lhs.getType();
    // Compare in the op's signedness: size_t is unsigned, signless
    // integers are signed in C.
    Type compareType = type;
    if (isa<emitc::SizeTType>(type) && !isUnsigned)
      compareType = emitc::PtrDiffTType::get(op.getContext());
    else if (auto integer = dyn_cast<IntegerType>(type))
      compareType = IntegerType::get(op.getContext(), integer.getWidth(),
                                     isUnsigned ? IntegerType::Unsigned
                                                : IntegerType::Signless);
    else if (!isa<emitc::SizeTType>(type))
      return failure();
    auto asCompared = [&](Value value) -> Value {
      return compareType == type ? value
                                 : Value(emitc::CastOp::create(
                                       rewriter, loc, compareType, value));
    };
    Value condition = emitc::CmpOp::create(rewriter, loc, rewriter.getI1Type(),
                                           isMax ? emitc::CmpPredicate::gt
                                                 : emitc::CmpPredicate::lt,
                                           asCompared(lhs), asCompared(rhs));
    rewriter.replaceOpWithNewOp<emitc::ConditionalOp>(op, type, condition, lhs,
                                                      rhs);
    return success();
  }
};

/// math.rsqrt: 1 / sqrt(x).
struct RsqrtPattern : OpConversionPattern<math::RsqrtOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(math::RsqrtOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!type.isF32() && !type.isF64())
      return failure();
    Value root =
        emitc::CallOpaqueOp::create(rewriter, op.getLoc(), TypeRange{type},
                                    type.isF32() ? "sqrtf" : "sqrt",
                                    ValueRange{adaptor.getOperand()})
            .getResult(0);
    Value one = emitc::ConstantOp::create(rewriter, op.getLoc(), type,
                                          rewriter.getFloatAttr(type, 1.0));
    Value result = emitc::DivOp::create(rewriter, op.getLoc(), type, one, root);
    if (isInKernel(op))
      result = countFloatOp(rewriter, op.getLoc(), result, /*divide=*/true);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// The floating-point arithmetic of the kernels, counted: `DLC_FOP(a + b)`.
template <typename ArithOp, typename EmitCOp, bool isDivide = false>
struct CountedFloatPattern : OpConversionPattern<ArithOp> {
  CountedFloatPattern(const TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern<ArithOp>(converter, context, /*benefit=*/2) {}
  LogicalResult
  matchAndRewrite(ArithOp op, typename ArithOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!isInKernel(op) || !(type.isF32() || type.isF64()))
      return failure();
    Value value =
        EmitCOp::create(rewriter, op.getLoc(), type, adaptor.getOperands());
    rewriter.replaceOp(op,
                       countFloatOp(rewriter, op.getLoc(), value, isDivide));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// The micro-kernels' floatv4 code: simd.h's intrinsics, counted by the
// emulation, through the expression forms of dlc_sunway.h.
//===----------------------------------------------------------------------===//

Type getFloatV4(MLIRContext *context) {
  return emitc::OpaqueType::get(context, "floatv4");
}

/// `op` replaced by a call of `callee` on `arguments`.
void replaceWithCall(ConversionPatternRewriter &rewriter, Operation *op,
                     StringRef callee, ValueRange arguments) {
  TypeRange results;
  Type floatv4 = getFloatV4(op->getContext());
  if (op->getNumResults())
    results = floatv4;
  rewriter.replaceOpWithNewOp<emitc::CallOpaqueOp>(op, results, callee,
                                                   arguments);
}

/// vector.load / vector.store: simd_load(u) / simd_store(u), aligned
/// where the op's alignment says 16 bytes.
template <typename VectorOp>
struct VectorAccessPattern : OpConversionPattern<VectorOp> {
  VectorAccessPattern(const TypeConverter &converter, MLIRContext *context,
                      StringRef aligned, StringRef unaligned)
      : OpConversionPattern<VectorOp>(converter, context), aligned(aligned),
        unaligned(unaligned) {}
  LogicalResult
  matchAndRewrite(VectorOp op, typename VectorOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Value> address =
        getElementAddress(rewriter, op.getLoc(), op, adaptor.getBase(),
                          op.getMemRefType(), adaptor.getIndices());
    if (failed(address))
      return failure();
    SmallVector<Value> arguments;
    if constexpr (std::is_same_v<VectorOp, vector::StoreOp>)
      arguments.push_back(adaptor.getValueToStore());
    arguments.push_back(*address);
    bool isAligned = op.getAlignment() && *op.getAlignment() % 16 == 0;
    replaceWithCall(rewriter, op, isAligned ? aligned : unaligned, arguments);
    return success();
  }
  std::string aligned, unaligned;
};

struct LoadSplatPattern : OpConversionPattern<LoadSplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LoadSplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Value> address = getElementAddress(
        rewriter, op.getLoc(), op, adaptor.getMemref(),
        cast<MemRefType>(op.getMemref().getType()), adaptor.getIndices());
    if (failed(address))
      return failure();
    replaceWithCall(rewriter, op, "dlc_vloade", {*address});
    return success();
  }
};

/// A vector op that is one call on its converted operands.
struct VectorCallPattern : ConversionPattern {
  VectorCallPattern(const TypeConverter &converter, MLIRContext *context,
                    StringRef op, StringRef callee)
      : ConversionPattern(converter, op, /*benefit=*/3, context),
        callee(callee) {}
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (op->getNumResults() != 1 ||
        !isa<VectorType>(op->getResult(0).getType()))
      return failure();
    replaceWithCall(rewriter, op, callee, operands);
    return success();
  }
  std::string callee;
};

/// vector.extract of a constant lane: simd_vextfsN.
struct VectorExtractPattern : OpConversionPattern<vector::ExtractOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(vector::ExtractOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<int64_t> lane =
        op.getStaticPosition().size() == 1
            ? std::optional<int64_t>(op.getStaticPosition().front())
            : std::nullopt;
    if (!lane || *lane == ShapedType::kDynamic)
      return failure();
    rewriter.replaceOpWithNewOp<emitc::CallOpaqueOp>(
        op, TypeRange{op.getType()}, "simd_vextfs" + std::to_string(*lane),
        ValueRange{adaptor.getSource()});
    return success();
  }
};

/// A constant vector (a folded splat): simd_set_floatv4 of its lanes.
struct VectorConstantPattern : OpConversionPattern<arith::ConstantOp> {
  VectorConstantPattern(const TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern(converter, context, /*benefit=*/3) {}
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto elements = dyn_cast<DenseFPElementsAttr>(op.getValue());
    if (!elements || !isa<VectorType>(op.getType()))
      return failure();
    Type element = elements.getElementType();
    SmallVector<Value> lanes;
    for (APFloat lane : elements.getValues<APFloat>())
      lanes.push_back(
          emitc::ConstantOp::create(rewriter, op.getLoc(), element,
                                    rewriter.getFloatAttr(element, lane)));
    if (elements.isSplat())
      replaceWithCall(rewriter, op, "dlc_vsplat", {lanes.front()});
    else
      replaceWithCall(rewriter, op, "simd_set_floatv4", lanes);
    return success();
  }
};

/// The floatv4 ops: each one intrinsic of simd.h (or dlc_sunway.h).
void populateVectorPatterns(const TypeConverter &converter,
                            RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<VectorAccessPattern<vector::LoadOp>>(converter, context,
                                                    "dlc_vload", "dlc_vloadu");
  patterns.add<VectorAccessPattern<vector::StoreOp>>(
      converter, context, "dlc_vstore", "dlc_vstoreu");
  static const std::pair<StringRef, StringRef> calls[] = {
      {"vector.fma", "simd_vmas"},
      {"sunway.select_negative", "simd_vsellts"},
      {"vector.broadcast", "dlc_vsplat"},
      {"vector.from_elements", "simd_set_floatv4"},
      {"arith.addf", "simd_vadds"},
      {"arith.subf", "simd_vsubs"},
      {"arith.mulf", "simd_vmuls"},
      {"arith.divf", "simd_vdivs"},
      {"arith.maximumf", "dlc_vmaxs"},
      {"arith.maxnumf", "dlc_vmaxs"},
      {"arith.minimumf", "dlc_vmins"},
      {"arith.minnumf", "dlc_vmins"}};
  for (auto [op, callee] : calls)
    patterns.add<VectorCallPattern>(converter, context, op, callee);
}

//===----------------------------------------------------------------------===//
// 3. Files
//===----------------------------------------------------------------------===//

void addIncludes(OpBuilder &b, Location loc, ArrayRef<StringRef> system,
                 ArrayRef<StringRef> local) {
  for (StringRef header : system)
    emitc::IncludeOp::create(b, loc, header, /*is_standard_include=*/true);
  for (StringRef header : local)
    emitc::IncludeOp::create(b, loc, header, /*is_standard_include=*/false);
}

StringRef getCType(ElementKind kind) { return getSunwayCType(kind); }

/// `int dlc_model_run(const char *weights_path, inputs..., outputs...)`.
LogicalResult buildModelRun(OpBuilder &b, Location loc,
                            const EntrySignature &signature,
                            const WeightsLayout &weights,
                            emitc::FuncOp compute) {
  MLIRContext *context = b.getContext();
  SmallVector<Type> argTypes = {
      emitc::PointerType::get(emitc::OpaqueType::get(context, "const char"))};
  for (const TensorSpec &spec : signature.inputs)
    argTypes.push_back(emitc::PointerType::get(emitc::OpaqueType::get(
        context, ("const " + getCType(spec.kind)).str())));
  for (const TensorSpec &spec : signature.outputs)
    argTypes.push_back(emitc::PointerType::get(
        emitc::OpaqueType::get(context, getCType(spec.kind))));
  Type i32 = b.getI32Type();
  auto run = emitc::FuncOp::create(b, loc, "dlc_model_run",
                                   b.getFunctionType(argTypes, {i32}));
  Block *entry = run.addEntryBlock();
  OpBuilder body = OpBuilder::atBlockBegin(entry);
  Type voidPtr = getVoidPtr(context);
  Value weightsVar =
      emitc::VariableOp::create(body, loc, emitc::LValueType::get(voidPtr),
                                emitc::OpaqueAttr::get(context, "NULL"));
  Value status =
      emitc::VariableOp::create(body, loc, emitc::LValueType::get(i32),
                                emitc::OpaqueAttr::get(context, "DLC_OK"));
  Value loaded = emitc::CallOpaqueOp::create(
                     body, loc, TypeRange{i32}, "dlc_load_weights",
                     ValueRange{entry->getArgument(0),
                                createAddressOf(body, loc, weightsVar)},
                     body.getArrayAttr(
                         {body.getIndexAttr(0),
                          emitc::OpaqueAttr::get(
                              context, std::to_string(weights.bytes) + "ull"),
                          emitc::OpaqueAttr::get(
                              context, std::to_string(weights.hash) + "ull"),
                          body.getIndexAttr(1)}))
                     .getResult(0);
  emitc::AssignOp::create(body, loc, status, loaded);
  Value statusValue = emitc::LoadOp::create(body, loc, i32, status);
  Value ok = emitc::LiteralOp::create(body, loc, i32, "DLC_OK");
  Value isOk = emitc::CmpOp::create(body, loc, body.getI1Type(),
                                    emitc::CmpPredicate::eq, statusValue, ok);
  auto ifOk = emitc::IfOp::create(body, loc, isOk, /*addThenBlock=*/true,
                                  /*addElseBlock=*/false);
  {
    OpBuilder then = OpBuilder::atBlockBegin(&ifOk.getThenRegion().front());
    // Each buffer as dlc_model_compute takes it (signless integers are
    // signed in C; the entry spells ONNX's unsigned types).
    SmallVector<Value> operands = {emitc::CastOp::create(
        then, loc, getBytePtr(context),
        emitc::LoadOp::create(then, loc, voidPtr, weightsVar))};
    for (auto [index, type] :
         llvm::enumerate(compute.getFunctionType().getInputs().drop_front()))
      operands.push_back(emitc::CastOp::create(then, loc, type,
                                               entry->getArgument(index + 1)));
    Value computed = emitc::CallOpaqueOp::create(then, loc, TypeRange{i32},
                                                 "dlc_model_compute", operands)
                         .getResult(0);
    emitc::AssignOp::create(then, loc, status, computed);
    emitc::YieldOp::create(then, loc);
  }
  emitc::CallOpaqueOp::create(
      body, loc, TypeRange{}, "free",
      ValueRange{emitc::LoadOp::create(body, loc, voidPtr, weightsVar)});
  emitc::ReturnOp::create(body, loc,
                          emitc::LoadOp::create(body, loc, i32, status));

  // The same entry with the buffers in an array: one signature for every
  // model, for callers (like dlc's executor) that cannot spell the other.
  b.setInsertionPointAfter(run);
  Type voidPtrPtr = emitc::PointerType::get(voidPtr);
  auto packed = emitc::FuncOp::create(
      b, loc, "dlc_model_run_packed",
      b.getFunctionType({argTypes.front(), voidPtrPtr}, {i32}));
  Block *packedEntry = packed.addEntryBlock();
  OpBuilder packedBody = OpBuilder::atBlockBegin(packedEntry);
  SmallVector<Value> arguments = {packedEntry->getArgument(0)};
  size_t numBuffers = signature.inputs.size() + signature.outputs.size();
  for (size_t i = 0; i < numBuffers; ++i) {
    Value slot = emitc::SubscriptOp::create(
        packedBody, loc, emitc::LValueType::get(voidPtr),
        packedEntry->getArgument(1),
        ValueRange{createSizeT(packedBody, loc, i)});
    arguments.push_back(emitc::LoadOp::create(packedBody, loc, voidPtr, slot));
  }
  Value result = emitc::CallOpaqueOp::create(packedBody, loc, TypeRange{i32},
                                             "dlc_model_run", arguments)
                     .getResult(0);
  emitc::ReturnOp::create(packedBody, loc, result);
  return success();
}

struct ConvertSunwayToEmitCPass
    : dlc::sunway::impl::ConvertSunwayToEmitCBase<ConvertSunwayToEmitCPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    FailureOr<EntrySignature> signature = getRecordedEntrySignature(module);
    if (failed(signature))
      return signalPassFailure();
    auto entry = module.lookupSymbol<func::FuncOp>(signature->functionName);
    if (!entry || entry.isExternal()) {
      module.emitError("the module has no body for its entry '")
          << signature->functionName << "'";
      return signalPassFailure();
    }
    for (auto func : module.getOps<func::FuncOp>())
      if (func != entry && !func.isExternal()) {
        func.emitError("the Sunway target compiles one function, the entry");
        return signalPassFailure();
      }

    // 1. Structure.
    FailureOr<WeightsLayout> weights = layOutWeights(module);
    if (failed(weights))
      return signalPassFailure();
    Builder attrs(context);
    for (const WeightsLayout::Entry &entry : weights->entries)
      module.lookupSymbol(entry.symbol)
          ->setAttr(kWeightsOffsetAttr, attrs.getI64IntegerAttr(entry.offset));
    SmallVector<LaunchOp> launches;
    entry.walk([&](LaunchOp launch) { launches.push_back(launch); });
    int64_t ldmBytes = 0;
    for (LaunchOp launch : launches) {
      ldmBytes = std::max<int64_t>(ldmBytes, launch.getLdmBytes());
      outlineLaunch(launch, module);
    }
    if (failed(prepareEntry(entry, module)))
      return signalPassFailure();

    // 2. Conversion.
    makeLoopBoundsUnsignedSafe(module);
    SunwayTypeConverter converter;
    RewritePatternSet patterns(context);
    populateArithToEmitCPatterns(converter, patterns);
    populateSCFToEmitCConversionPatterns(patterns, converter);
    populateFuncToEmitCPatterns(converter, patterns);
    patterns.add<
        LoadPattern, StorePattern, AllocPattern, DeallocPattern,
        ViewPattern<memref::ExpandShapeOp>,
        ViewPattern<memref::CollapseShapeOp>, ViewPattern<memref::SubViewOp>,
        ViewPattern<memref::ReinterpretCastOp>, ViewPattern<memref::CastOp>,
        LDMAllocPattern, DMAPattern<DMAGetOp>, DMAPattern<DMAPutOp>,
        WaitReplyPattern, BarrierPattern, CallPattern, RsqrtPattern,
        CountedFloatPattern<arith::AddFOp, emitc::AddOp>,
        CountedFloatPattern<arith::SubFOp, emitc::SubOp>,
        CountedFloatPattern<arith::MulFOp, emitc::MulOp>,
        CountedFloatPattern<arith::DivFOp, emitc::DivOp, true>,
        CountedFloatPattern<arith::NegFOp, emitc::UnaryMinusOp>,
        IntegerMinMaxPattern<arith::MaxSIOp, true, false>,
        IntegerMinMaxPattern<arith::MinSIOp, false, false>,
        IntegerMinMaxPattern<arith::MaxUIOp, true, true>,
        IntegerMinMaxPattern<arith::MinUIOp, false, true>, LoadSplatPattern,
        VectorConstantPattern, VectorExtractPattern>(converter, context);
    populateVectorPatterns(converter, patterns);
    ConversionTarget target(*context);
    target.addLegalDialect<emitc::EmitCDialect>();
    target.addLegalOp<ModuleOp, UnrealizedConversionCastOp>();
    target.addIllegalDialect<memref::MemRefDialect, vector::VectorDialect>();
    target.addLegalOp<memref::GlobalOp>();
    if (failed(applyFullConversion(module, target, std::move(patterns))))
      return signalPassFailure();

    // 3. Files.
    for (auto global :
         llvm::make_early_inc_range(module.getOps<memref::GlobalOp>()))
      global.erase();
    SmallVector<Operation *> hostOps, slaveOps;
    SmallVector<std::string> kernels;
    for (Operation &op : module.getBody()->getOperations()) {
      auto func = dyn_cast<emitc::FuncOp>(op);
      if (func &&
          func->hasAttr(SunwayDialect::KernelAttrHelper::getNameStr())) {
        kernels.push_back(func.getSymName().str());
        slaveOps.push_back(func);
      } else {
        hostOps.push_back(&op);
      }
    }
    Location loc = module.getLoc();
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    auto host = emitc::FileOp::create(b, loc, "host");
    auto slave = emitc::FileOp::create(b, loc, "slave");
    OpBuilder hostBuilder =
        OpBuilder::atBlockBegin(&host.getBodyRegion().front());
    addIncludes(hostBuilder, loc, {"stdbool.h", "athread.h"},
                {"dlc_sunway.h", "model.h"});
    std::string declarations;
    for (const std::string &kernel : kernels)
      declarations += "extern void SLAVE_FUN(" + kernel + ")(void *);\n";
    if (!declarations.empty())
      emitc::VerbatimOp::create(hostBuilder, loc, declarations);
    for (Operation *op : hostOps) {
      op->moveBefore(&host.getBodyRegion().front(),
                     host.getBodyRegion().front().end());
      if (auto func = dyn_cast<emitc::FuncOp>(op))
        func.setSpecifiersAttr(b.getStrArrayAttr({"static"}));
    }
    hostBuilder.setInsertionPointToEnd(&host.getBodyRegion().front());
    auto compute = dyn_cast_or_null<emitc::FuncOp>(
        SymbolTable::lookupSymbolIn(host, "dlc_model_compute"));
    if (!compute) {
      module.emitError("the converted module has no dlc_model_compute");
      return signalPassFailure();
    }
    // A model may ignore an input (Shape reads only its type): C would warn.
    {
      OpBuilder unused = OpBuilder::atBlockBegin(&compute.getBody().front());
      for (BlockArgument argument : compute.getArguments())
        if (argument.use_empty())
          emitc::CallOpaqueOp::create(unused, loc, TypeRange{}, "DLC_UNUSED",
                                      ValueRange{argument});
    }
    if (failed(buildModelRun(hostBuilder, loc, *signature, *weights, compute)))
      return signalPassFailure();

    OpBuilder slaveBuilder =
        OpBuilder::atBlockBegin(&slave.getBodyRegion().front());
    emitc::VerbatimOp::create(slaveBuilder, loc, "#define DLC_SUNWAY_CPE 1");
    addIncludes(slaveBuilder, loc, {"stdbool.h", "slave.h", "simd.h"},
                {"dlc_sunway.h"});
    // One LDM area for every kernel: static LDM data is the whole slave
    // program's, so kernels share it. A model without kernels (its outputs
    // are constants) has none.
    if (!slaveOps.empty())
      emitc::VerbatimOp::create(
          slaveBuilder, loc,
          "static __thread_local unsigned char dlc_ldm[" +
              std::to_string(std::max<int64_t>(ldmBytes, 32)) +
              "] __attribute__((aligned(32)));");
    for (Operation *op : slaveOps)
      op->moveBefore(&slave.getBodyRegion().front(),
                     slave.getBodyRegion().front().end());
    module->setAttr(SunwayDialect::WeightsBytesAttrHelper::getNameStr(),
                    b.getI64IntegerAttr(weights->bytes));
  }
};

} // namespace
