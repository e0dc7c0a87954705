//===- HostTarget.cpp - the host CPU target -------------------------------===//
//
// Calling convention. The host pipeline turns the entry function into
// `@main(inputs..., outputs...)` on memrefs (results become out-parameters).
// Before lowering, the entry gets `llvm.emit_c_interface`, so the LLVM
// module also exports `_mlir_ciface_main(Desc *...)`, which takes one pointer
// per argument to MLIR's documented ranked memref descriptor
// `{T *allocated, T *aligned, int64_t offset, int64_t sizes[rank],
// int64_t strides[rank]}`. That is the one entry point a C program can call
// when it links the emitted object file, and the JIT calls the very same
// function, so the serialized artifact and `dlc run` share one ABI whatever
// the ranks (bare pointers would lose the shapes, the expanded descriptor
// form depends on each rank).
//
// The lowering erases the tensor types and the ONNX names, so the shared
// `dlc-record-entry-signature` pass records the tensor-level signature on
// the module (`dlc.entry`) first; the executor reads it back to check the
// inputs and to allocate the outputs.
//
//===----------------------------------------------------------------------===//

#include "dlc/Target/Host/HostTarget.h"

#include "dlc/Support/EntrySignature.h"
#include "dlc/Target/Host/HostPipeline.h"
#include "dlc/Target/Host/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "mlir/AsmParser/AsmParser.h"

#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <chrono>
#include <mutex>

using namespace mlir;
using namespace dlc;

/// MLIR's runtime support (memrefCopy, ...) that lowered code may call.
static constexpr llvm::StringLiteral kRuntimeLibrary =
    DLC_MLIR_RUNTIME_DIR "/libmlir_c_runner_utils.so";

namespace {

void initializeLLVMOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

/// A target machine for the host CPU with -O2-like code generation. Both the
/// JIT and the object file use the host's CPU features: the object is meant
/// for the machine that compiled it, like the JIT code.
/// `forObjectFile` selects what a linker expects (position independent,
/// small code model) rather than the JIT's defaults.
FailureOr<std::unique_ptr<llvm::TargetMachine>>
createHostTargetMachine(ModuleOp module, bool forObjectFile) {
  initializeLLVMOnce();
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return module.emitError() << "cannot describe the host CPU: "
                              << llvm::toString(builder.takeError());
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Default);
  if (forObjectFile) {
    // Links into executables and shared libraries alike.
    builder->setRelocationModel(llvm::Reloc::PIC_);
    builder->setCodeModel(llvm::CodeModel::Small);
  }
  auto machine = builder->createTargetMachine();
  if (!machine)
    return module.emitError() << "cannot create a host target machine: "
                              << llvm::toString(machine.takeError());
  return std::move(*machine);
}

/// Checks that the lowered C interface takes exactly one descriptor
/// pointer per input and output and returns nothing, as HostExecutable::run
/// calls it.
LogicalResult verifyCInterface(ModuleOp module,
                               const EntrySignature &signature) {
  std::string name = "_mlir_ciface_" + signature.functionName;
  auto function = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
  if (!function)
    return module.emitError()
           << "the lowered module has no '" << name << "' function";
  LLVM::LLVMFunctionType type = function.getFunctionType();
  size_t numBuffers = signature.inputs.size() + signature.outputs.size();
  if (type.getNumParams() != numBuffers ||
      !isa<LLVM::LLVMVoidType>(type.getReturnType()) ||
      !llvm::all_of(type.getParams(), llvm::IsaPred<LLVM::LLVMPointerType>))
    return function.emitError()
           << "expected " << numBuffers
           << " memref descriptor pointers (inputs, then outputs as "
              "out-parameters) and no result, got "
           << type;
  return success();
}

/// Appends the bytes of an array constant; false if it is not a plain
/// array of numbers (then the caller leaves it alone).
bool appendArrayBytes(const llvm::Constant *constant, std::string &bytes) {
  if (auto *data = dyn_cast<llvm::ConstantDataSequential>(constant)) {
    bytes += data->getRawDataValues();
    return true;
  }
  if (auto *array = dyn_cast<llvm::ConstantArray>(constant)) {
    for (const llvm::Use &element : array->operands())
      if (!appendArrayBytes(cast<llvm::Constant>(element.get()), bytes))
        return false;
    return true;
  }
  return false;
}

/// Gives large array initializers (the weights) the form of byte strings
/// with the same bytes. The AsmWriter prints every float of a data array
/// through a decimal round trip, which makes the .ll of a model with 50 MB
/// of weights take a minute to write; a c"..." string is written at memory
/// speed. Uses do not care: pointers are opaque and GEPs carry their type.
void convertLargeInitializersToBytes(llvm::Module &llvmModule) {
  constexpr uint64_t kMinBytes = 4096;
  const llvm::DataLayout &layout = llvmModule.getDataLayout();
  for (llvm::GlobalVariable &global :
       llvm::make_early_inc_range(llvmModule.globals())) {
    if (!global.hasInitializer() || !global.getValueType()->isArrayTy() ||
        layout.getTypeAllocSize(global.getValueType()) < kMinBytes)
      continue;
    std::string bytes;
    if (!appendArrayBytes(global.getInitializer(), bytes) ||
        bytes.size() != layout.getTypeAllocSize(global.getValueType()))
      continue;
    llvm::Align alignment = layout.getPreferredAlign(&global);
    llvm::Constant *initializer = llvm::ConstantDataArray::getString(
        llvmModule.getContext(), bytes, /*AddNull=*/false);
    auto *replacement = new llvm::GlobalVariable(
        llvmModule, initializer->getType(), global.isConstant(),
        global.getLinkage(), initializer, "", &global,
        global.getThreadLocalMode(), global.getAddressSpace());
    replacement->copyAttributesFrom(&global);
    replacement->setAlignment(alignment);
    replacement->takeName(&global);
    global.replaceAllUsesWith(replacement);
    global.eraseFromParent();
  }
}

void registerLLVMTranslations(MLIRContext *context) {
  registerBuiltinDialectTranslation(*context);
  registerLLVMDialectTranslation(*context);
}

/// Appends MLIR's ranked memref descriptor for `data` with `shape`
/// (row-major, offset 0) as 64-bit words.
void appendMemRefDescriptor(std::vector<int64_t> &words, void *data,
                            ArrayRef<int64_t> shape) {
  auto pointer = static_cast<int64_t>(reinterpret_cast<intptr_t>(data));
  words.push_back(pointer); // allocated
  words.push_back(pointer); // aligned
  words.push_back(0);       // offset
  words.insert(words.end(), shape.begin(), shape.end());
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  words.insert(words.end(), strides.begin(), strides.end());
}

/// The description the module was compiled for (the default one when the
/// module carries none).
HardwareAttr getHardwareInForce(ModuleOp module) {
  if (HardwareAttr hardware = HardwareAttr::lookup(module))
    return hardware;
  if (auto text = module->getAttrOfType<StringAttr>(host::kHardwareTextAttr)) {
    module.getContext()->loadDialect<DLCDialect>();
    if (auto hardware = dyn_cast_or_null<HardwareAttr>(
            parseAttribute(text.getValue(), module.getContext())))
      return hardware;
  }
  return HardwareAttr::get(module.getContext(), 0, 1, 1, true, 0, 1, false,
                           false, DictionaryAttr());
}

/// The host's layers: every ONNX node with its tensor-level MACs and bytes.
std::vector<LayerFigures> getHostLayers(const ModelCost &cost) {
  std::vector<LayerFigures> layers;
  for (const OpCost &op : cost.ops) {
    LayerFigures &layer = layers.emplace_back();
    layer.name = op.name.empty() ? op.location : op.name;
    layer.op = op.opType.empty() ? op.opName : op.opType;
    layer.macs = op.macs;
    layer.dramReadBytes = op.bytesRead;
    layer.dramWriteBytes = op.bytesWritten;
  }
  return layers;
}

/// The host's reports: nanoseconds as cycles of a nominal 1 GHz clock (the
/// host has no cycle model; measured runs time the whole model).
TargetReport makeHostReport(StringRef source, std::vector<LayerFigures> layers,
                            HardwareAttr hardware) {
  TargetReport report;
  report.target = "host";
  report.source = source.str();
  report.clockHz = 1e9;
  report.hardware = hardwareToJSON(hardware);
  report.layers = std::move(layers);
  return report;
}

class HostExecutable : public Executable {
public:
  /// `call` runs the entry on one descriptor pointer per input and output.
  HostExecutable(EntrySignature signature, std::vector<LayerFigures> layers,
                 HardwareAttr hardware)
      : signature(std::move(signature)), layers(std::move(layers)),
        hardware(hardware) {}

  /// JIT-compiles `module` (already in the LLVM dialect) with the
  /// ExecutionEngine.
  LogicalResult compile(ModuleOp module,
                        std::unique_ptr<llvm::TargetMachine> jitMachine,
                        std::unique_ptr<llvm::TargetMachine> optimizerMachine) {
    this->optimizerMachine = std::move(optimizerMachine);
    optimizer = makeOptimizingTransformer(/*optLevel=*/2, /*sizeLevel=*/0,
                                          this->optimizerMachine.get());
    ExecutionEngineOptions options;
    // The engine keeps this reference and optimises lazily, on lookup.
    options.transformer = optimizer;
    options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Default;
    SmallVector<StringRef, 1> libraries = {kRuntimeLibrary};
    options.sharedLibPaths = libraries;
    options.enableGDBNotificationListener = false;
    options.enablePerfNotificationListener = false;
    auto created =
        ExecutionEngine::create(module, options, std::move(jitMachine));
    if (!created)
      return module.emitError() << "cannot JIT-compile the module: "
                                << llvm::toString(created.takeError());
    engine = std::move(*created);
    auto function =
        engine->lookupPacked("_mlir_ciface_" + signature.functionName);
    if (!function)
      return module.emitError() << "cannot find the entry function: "
                                << llvm::toString(function.takeError());
    auto packed = *function;
    call = [packed](std::vector<void *> &descriptors) {
      // The packed wrapper takes one pointer per argument, and each
      // argument of the C interface is itself a pointer to a descriptor.
      std::vector<void *> packedArgs;
      for (void *&pointer : descriptors)
        packedArgs.push_back(&pointer);
      packed(packedArgs.data());
    };
    return success();
  }

  /// Links the object file `dlc compile` wrote (model.o) with ORC.
  llvm::Error link(StringRef objectPath) {
    initializeLLVMOnce();
    auto created = llvm::orc::LLJITBuilder().create();
    if (!created)
      return created.takeError();
    jit = std::move(*created);
    auto buffer = llvm::MemoryBuffer::getFile(objectPath);
    if (!buffer)
      return llvm::createStringError("cannot read %s: %s",
                                     objectPath.str().c_str(),
                                     buffer.getError().message().c_str());
    if (llvm::Error error = jit->addObjectFile(std::move(*buffer)))
      return error;
    char prefix = jit->getDataLayout().getGlobalPrefix();
    for (const char *library :
         {kRuntimeLibrary.data(), (const char *)nullptr}) {
      auto generator =
          library
              ? llvm::orc::DynamicLibrarySearchGenerator::Load(library, prefix)
              : llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
                    prefix);
      if (!generator)
        return generator.takeError();
      jit->getMainJITDylib().addGenerator(std::move(*generator));
    }
    auto symbol = jit->lookup("_mlir_ciface_" + signature.functionName);
    if (!symbol)
      return symbol.takeError();
    void *address = symbol->toPtr<void *>();
    size_t arity = signature.inputs.size() + signature.outputs.size();
    if (arity > kMaxObjectArity)
      return llvm::createStringError(
          "the host runs compiled objects with at most %zu inputs and "
          "outputs; this model has %zu (run the model itself instead)",
          kMaxObjectArity, arity);
    call = [address](std::vector<void *> &d) { callWithArity(address, d); };
    return llvm::Error::success();
  }

  const EntrySignature &getSignature() const override { return signature; }

  llvm::Expected<std::vector<Tensor>>
  run(llvm::ArrayRef<Tensor> inputs) override {
    if (llvm::Error error = signature.checkInputs(inputs))
      return std::move(error);

    // The compiled code may update its arguments in place (bufferization
    // treats them as writable), so it works on copies of the inputs.
    std::vector<Tensor> inputCopies(inputs.begin(), inputs.end());
    std::vector<Tensor> outputs;
    for (const TensorSpec &spec : signature.outputs)
      outputs.emplace_back(spec.kind, spec.shape);

    std::vector<std::vector<int64_t>> descriptors;
    for (Tensor &tensor : inputCopies)
      appendMemRefDescriptor(descriptors.emplace_back(), tensor.data.data(),
                             tensor.shape);
    for (Tensor &tensor : outputs)
      appendMemRefDescriptor(descriptors.emplace_back(), tensor.data.data(),
                             tensor.shape);
    std::vector<void *> descriptorPointers;
    for (std::vector<int64_t> &descriptor : descriptors)
      descriptorPointers.push_back(descriptor.data());
    auto start = std::chrono::steady_clock::now();
    call(descriptorPointers);
    lastSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    hasRun = true;
    return outputs;
  }

  llvm::Expected<TargetReport> getReport() const override {
    if (!hasRun)
      return llvm::createStringError("the model has not run yet");
    TargetReport report = makeHostReport("measured", layers, hardware);
    report.measuredCycles = lastSeconds * report.clockHz;
    return report;
  }

private:
  static constexpr size_t kMaxObjectArity = 16;

  /// Calls `void f(void *, ...)` with `d.size()` descriptor pointers.
  static void callWithArity(void *f, std::vector<void *> &d) {
    using P = void *;
    switch (d.size()) {
#define DLC_CALL(N, ...)                                                       \
  case N:                                                                      \
    return reinterpret_cast<void (*)(__VA_ARGS__)>(f)
      DLC_CALL(0, void)();
      DLC_CALL(1, P)(d[0]);
      DLC_CALL(2, P, P)(d[0], d[1]);
      DLC_CALL(3, P, P, P)(d[0], d[1], d[2]);
      DLC_CALL(4, P, P, P, P)(d[0], d[1], d[2], d[3]);
      DLC_CALL(5, P, P, P, P, P)(d[0], d[1], d[2], d[3], d[4]);
      DLC_CALL(6, P, P, P, P, P, P)(d[0], d[1], d[2], d[3], d[4], d[5]);
      DLC_CALL(7, P, P, P, P, P, P, P)(d[0], d[1], d[2], d[3], d[4], d[5],
                                       d[6]);
      DLC_CALL(8, P, P, P, P, P, P, P, P)
      (d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]);
      DLC_CALL(9, P, P, P, P, P, P, P, P, P)
      (d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8]);
      DLC_CALL(10, P, P, P, P, P, P, P, P, P, P)
      (d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8], d[9]);
      DLC_CALL(11, P, P, P, P, P, P, P, P, P, P, P)
      (d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8], d[9], d[10]);
      DLC_CALL(12, P, P, P, P, P, P, P, P, P, P, P, P)
      (d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8], d[9], d[10],
       d[11]);
      DLC_CALL(13, P, P, P, P, P, P, P, P, P, P, P, P, P)
      (d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8], d[9], d[10], d[11],
       d[12]);
      DLC_CALL(14, P, P, P, P, P, P, P, P, P, P, P, P, P, P)
      (d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8], d[9], d[10], d[11],
       d[12], d[13]);
      DLC_CALL(15, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P)
      (d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8], d[9], d[10], d[11],
       d[12], d[13], d[14]);
      DLC_CALL(16, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P)
      (d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8], d[9], d[10], d[11],
       d[12], d[13], d[14], d[15]);
#undef DLC_CALL
    default:
      return;
    }
  }

  EntrySignature signature;
  std::vector<LayerFigures> layers;
  HardwareAttr hardware;
  // Declared before the engine, which uses them until it is destroyed.
  std::unique_ptr<llvm::TargetMachine> optimizerMachine;
  std::function<llvm::Error(llvm::Module *)> optimizer;
  std::unique_ptr<ExecutionEngine> engine;
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::function<void(std::vector<void *> &)> call;
  double lastSeconds = 0;
  bool hasRun = false;
};

class HostTarget : public Target {
public:
  StringRef getName() const override { return "host"; }
  StringRef getDescription() const override {
    return "the host CPU: LLVM via upstream MLIR, run by the JIT (the "
           "numerical reference)";
  }
  // The default Tolerance (rtol 1e-3, atol 1e-5) is the host's: it compares
  // float32 code with float32 references.

  // The host computes on its own memory: no local memory unless the user
  // asks for one to exercise the shared memory passes.
  HardwareAttr getDefaultHardware(MLIRContext *context) const override {
    return HardwareAttr::get(context, /*localMemoryBytes=*/0,
                             /*localMemorySpace=*/1, /*banks=*/1,
                             /*doubleBuffering=*/true,
                             /*dmaBlockOverheadBytes=*/0,
                             /*processingUnits=*/1,
                             /*broadcastReads=*/false,
                             /*stridedReadCopies=*/false,
                             /*target=*/DictionaryAttr());
  }

  void buildPipeline(OpPassManager &pm,
                     const PipelineOptions &options) const override {
    addAttachHardware(pm, options);
    pm.addPass(createRecordEntrySignature());
    pm.addPass(host::createPrepareHostEntry());
    host::buildHostPipeline(pm, options);
  }

  LogicalResult serialize(ModuleOp module, StringRef outputDir,
                          ArtifactManifest manifest,
                          const ModelCost &cost) const override {
    llvm::json::Array layers;
    for (const LayerFigures &layer : getHostLayers(cost))
      layers.push_back(
          llvm::json::Object{{"name", layer.name},
                             {"op", layer.op},
                             {"macs", layer.macs},
                             {"dram_read_bytes", layer.dramReadBytes},
                             {"dram_write_bytes", layer.dramWriteBytes}});
    manifest.extra["layers"] = std::move(layers);
    llvm::raw_string_ostream hardwareText(manifest.hardware);
    Attribute(getHardwareInForce(module)).print(hardwareText);
    if (llvm::Error error = writeArtifactManifest(outputDir, manifest))
      return module.emitError() << llvm::toString(std::move(error));

    registerLLVMTranslations(module.getContext());
    llvm::LLVMContext llvmContext;
    std::unique_ptr<llvm::Module> llvmModule =
        translateModuleToLLVMIR(module, llvmContext, "dlc_model");
    if (!llvmModule)
      return module.emitError("cannot translate the module to LLVM IR");
    auto machine = createHostTargetMachine(module, /*forObjectFile=*/true);
    if (failed(machine))
      return failure();
    ExecutionEngine::setupTargetTripleAndDataLayout(llvmModule.get(),
                                                    machine->get());
    // Only `_mlir_ciface_<entry>` is the object's interface; the entry itself
    // (typically `main`) would clash with the C program's main.
    FailureOr<EntrySignature> signature = getRecordedEntrySignature(module);
    if (failed(signature))
      return failure();
    if (llvm::Function *entry =
            llvmModule->getFunction(signature->functionName))
      entry->setLinkage(llvm::GlobalValue::InternalLinkage);
    if (llvm::Error error = makeOptimizingTransformer(
            /*optLevel=*/2, /*sizeLevel=*/0, machine->get())(llvmModule.get()))
      return module.emitError() << "LLVM optimisation failed: "
                                << llvm::toString(std::move(error));

    convertLargeInitializersToBytes(*llvmModule);

    SmallString<256> llPath(outputDir), objectPath(outputDir);
    llvm::sys::path::append(llPath, "model.ll");
    llvm::sys::path::append(objectPath, "model.o");
    std::error_code ec;
    {
      llvm::raw_fd_ostream os(llPath, ec, llvm::sys::fs::OF_Text);
      if (ec)
        return module.emitError()
               << "cannot write " << llPath << ": " << ec.message();
      llvmModule->print(os, nullptr);
      if (os.has_error())
        return module.emitError() << "cannot write " << llPath;
    }
    llvm::raw_fd_ostream os(objectPath, ec, llvm::sys::fs::OF_None);
    if (ec)
      return module.emitError()
             << "cannot write " << objectPath << ": " << ec.message();
    llvm::legacy::PassManager codegen;
    if ((*machine)->addPassesToEmitFile(codegen, os, nullptr,
                                        llvm::CodeGenFileType::ObjectFile))
      return module.emitError("the host target cannot emit object files");
    codegen.run(*llvmModule);
    os.close();
    if (os.has_error())
      return module.emitError() << "cannot write " << objectPath;
    return success();
  }

  FailureOr<TargetReport> predictReport(ModuleOp module,
                                        const ModelCost &cost) const override {
    // No cycle model: the layers' MACs and bytes, cycles 0.
    return makeHostReport("predicted", getHostLayers(cost),
                          getHardwareInForce(module));
  }

  FailureOr<std::unique_ptr<Executable>>
  load(ModuleOp module, const ModelCost &cost) const override {
    FailureOr<EntrySignature> signature = getRecordedEntrySignature(module);
    if (failed(signature) || failed(verifyCInterface(module, *signature)))
      return failure();
    registerLLVMTranslations(module.getContext());
    auto jitMachine = createHostTargetMachine(module, /*forObjectFile=*/false);
    auto optimizerMachine =
        createHostTargetMachine(module, /*forObjectFile=*/false);
    if (failed(jitMachine) || failed(optimizerMachine))
      return failure();
    auto executable = std::make_unique<HostExecutable>(
        std::move(*signature), getHostLayers(cost), getHardwareInForce(module));

    if (failed(executable->compile(module, std::move(*jitMachine),
                                   std::move(*optimizerMachine))))
      return failure();
    return std::unique_ptr<Executable>(std::move(executable));
  }

  FailureOr<std::unique_ptr<Executable>>
  loadArtifacts(StringRef dir, const ArtifactManifest &manifest,
                MLIRContext *context) const override {
    context->loadDialect<DLCDialect>();
    Location loc = FileLineColLoc::get(context, dir, 0, 0);
    auto hardware = dyn_cast_or_null<HardwareAttr>(
        parseAttribute(manifest.hardware, context));
    std::vector<LayerFigures> layers;
    if (const llvm::json::Array *records = manifest.extra.getArray("layers"))
      for (const llvm::json::Value &value : *records)
        if (const llvm::json::Object *record = value.getAsObject()) {
          LayerFigures &layer = layers.emplace_back();
          layer.name = record->getString("name").value_or("").str();
          layer.op = record->getString("op").value_or("").str();
          layer.macs = record->getInteger("macs").value_or(0);
          layer.dramReadBytes =
              record->getInteger("dram_read_bytes").value_or(0);
          layer.dramWriteBytes =
              record->getInteger("dram_write_bytes").value_or(0);
        }
    auto executable = std::make_unique<HostExecutable>(
        manifest.signature, std::move(layers), hardware);
    SmallString<256> object(dir);
    llvm::sys::path::append(object, "model.o");
    if (llvm::Error error = executable->link(object))
      return emitError(loc) << "cannot load " << object << ": "
                            << llvm::toString(std::move(error));
    return std::unique_ptr<Executable>(std::move(executable));
  }
};

} // namespace

void dlc::registerHostTargetDialects(DialectRegistry &) {}

void dlc::registerHostTarget() {
  registerTarget(std::make_unique<HostTarget>());
  host::registerDLCHostPasses();
}
