//===- SunwayExecutor.cpp - run the emitted C on the athread emulation ----===//
//
// The executor of the Sunway target is the emitted C itself, built with the
// system C compiler against runtime/sunway (the athread emulation, its
// counters and its SW26010 performance model) into a shared object that is
// loaded and called through `dlc_model_run_packed`. Nothing here computes a
// result or a figure: the C computes, the emulation counts.
//
//===----------------------------------------------------------------------===//

#include "dlc/Target/Sunway/SunwayExecutor.h"

#include "dlc_athread_emu.h"
#include "dlc_sunway.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <dlfcn.h>

using namespace mlir;
using namespace dlc;
using namespace dlc::sunway;

namespace {

/// What a DLC_ERROR_* code of dlc_sunway.h means.
const char *describeStatus(int status) {
  switch (status) {
  case DLC_ERROR_WEIGHTS_OPEN:
    return "the weights file cannot be opened";
  case DLC_ERROR_WEIGHTS_FORMAT:
    return "the weights file is not a version-1 dlc weights file";
  case DLC_ERROR_WEIGHTS_SIZE:
    return "the weights file holds the wrong number of bytes";
  case DLC_ERROR_WEIGHTS_CHECKSUM:
    return "the weights file's checksum is not the model's";
  case DLC_ERROR_OUT_OF_MEMORY:
    return "out of memory";
  case DLC_ERROR_KERNEL:
    return "a CPE kernel failed";
  default:
    return "an unknown error";
  }
}

using RunPackedFn = int (*)(const char *, void **);

/// The emulation's query API in the loaded object.
struct EmulationAPI {
  void (*defaultParams)(dlc_emu_params *) = nullptr;
  int (*configure)(const dlc_emu_params *) = nullptr;
  void (*reset)() = nullptr;
  int (*launchCount)() = nullptr;
  const struct dlc_emu_launch *(*launch)(int) = nullptr;
  const char *(*error)() = nullptr;
};

/// Runs `program args...`, its output into `log`; the log's tail on failure.
llvm::Error runTool(StringRef program, ArrayRef<std::string> args,
                    StringRef log) {
  SmallVector<StringRef> argv = {program};
  for (const std::string &arg : args)
    argv.push_back(arg);
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log),
                                          StringRef(log)};
  std::string message;
  int status = llvm::sys::ExecuteAndWait(program, argv, std::nullopt, redirects,
                                         /*SecondsToWait=*/0,
                                         /*MemoryLimit=*/0, &message);
  if (status == 0)
    return llvm::Error::success();
  std::string output;
  if (auto buffer = llvm::MemoryBuffer::getFile(log))
    output = (*buffer)->getBuffer().take_back(4000).str();
  std::string command = llvm::join(argv, " ");
  return llvm::createStringError("`%s` failed%s%s:\n%s", command.c_str(),
                                 message.empty() ? "" : ": ", message.c_str(),
                                 output.c_str());
}

class SunwayExecutable : public Executable {
public:
  SunwayExecutable(const ArtifactManifest &manifest, SunwayHardware hardware)
      : signature(manifest.signature), hardware(std::move(hardware)) {
    this->manifest.model = manifest.model;
    this->manifest.extra = manifest.extra;
  }

  ~SunwayExecutable() override {
    if (handle)
      dlclose(handle);
    if (!buildDir.empty())
      (void)llvm::sys::fs::remove_directories(buildDir);
    if (!artifactDir.empty())
      (void)llvm::sys::fs::remove_directories(artifactDir);
  }

  void removeOnDestruction(StringRef dir) { artifactDir = dir.str(); }

  /// Builds the C in `artifacts` against the emulation and loads it.
  llvm::Error build(StringRef artifacts) {
    weightsPath = (artifacts + "/weights.bin").str();
    SmallString<256> dir;
    if (std::error_code ec =
            llvm::sys::fs::createUniqueDirectory("dlc-sunway", dir))
      return llvm::createStringError("cannot create a build directory: %s",
                                     ec.message().c_str());
    buildDir = dir.str().str();
    // A sanitizer build (DLC_SANITIZE) builds it with its own clang and
    // sanitizers, so that the emitted code is checked as it runs.
    auto compiler = llvm::sys::findProgramByName(DLC_SUNWAY_EMULATION_CC);
    if (!compiler)
      return llvm::createStringError(
          "the Sunway executor builds the emitted C with the C compiler "
          "`%s`, which is not on PATH",
          DLC_SUNWAY_EMULATION_CC);
    std::vector<std::string> flags = {"-std=c99",
                                      "-O2",
                                      "-fPIC",
                                      "-Wall",
                                      "-Wextra",
                                      "-Werror",
                                      "-I" + artifacts.str(),
                                      "-I" DLC_SUNWAY_RUNTIME_DIR "/include"};
    SmallVector<StringRef> extraFlags;
    StringRef(DLC_SUNWAY_EMULATION_CFLAGS)
        .split(extraFlags, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    for (StringRef flag : extraFlags)
      flags.push_back(flag.str());
    std::string log = buildDir + "/build.log";
    std::vector<std::string> objects;
    for (StringRef file : {"host", "slave"}) {
      std::string object = buildDir + "/" + file.str() + ".o";
      std::vector<std::string> args = flags;
      args.insert(args.end(),
                  {"-c", (artifacts + "/" + file + ".c").str(), "-o", object});
      if (llvm::Error error = runTool(*compiler, args, log))
        return error;
      objects.push_back(object);
    }
    std::string library = buildDir + "/model-emulation.so";
    std::vector<std::string> link = {"-shared", "-o", library};
    for (StringRef flag : extraFlags)
      link.push_back(flag.str());
    link.insert(link.end(), objects.begin(), objects.end());
    link.insert(link.end(),
                {DLC_SUNWAY_RUNTIME_LIBRARY, "-lpthread", "-lm", "-ldl"});
    if (llvm::Error error = runTool(*compiler, link, log))
      return error;

    handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle)
      return llvm::createStringError("cannot load %s: %s", library.c_str(),
                                     dlerror());
    auto lookup = [&](const char *name, auto &function) -> llvm::Error {
      function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(
          dlsym(handle, name));
      if (!function)
        return llvm::createStringError("%s has no %s", library.c_str(), name);
      return llvm::Error::success();
    };
    if (llvm::Error error = lookup("dlc_model_run_packed", runPacked))
      return error;
    std::pair<const char *, void **> entries[] = {
        {"dlc_emu_default_params",
         reinterpret_cast<void **>(&api.defaultParams)},
        {"dlc_emu_configure", reinterpret_cast<void **>(&api.configure)},
        {"dlc_emu_reset", reinterpret_cast<void **>(&api.reset)},
        {"dlc_emu_launch_count", reinterpret_cast<void **>(&api.launchCount)},
        {"dlc_emu_launch", reinterpret_cast<void **>(&api.launch)},
        {"dlc_emu_error", reinterpret_cast<void **>(&api.error)}};
    for (auto [name, slot] : entries) {
      *slot = dlsym(handle, name);
      if (!*slot)
        return llvm::createStringError("%s has no %s", library.c_str(), name);
    }
    return configure();
  }

  const EntrySignature &getSignature() const override { return signature; }

  llvm::Expected<std::vector<Tensor>>
  run(llvm::ArrayRef<Tensor> inputs) override {
    if (llvm::Error error = signature.checkInputs(inputs))
      return std::move(error);
    // The compiled code may update its inputs in place (bufferization
    // treats arguments as writable): it works on copies.
    std::vector<Tensor> inputCopies(inputs.begin(), inputs.end());
    std::vector<Tensor> outputs;
    for (const TensorSpec &spec : signature.outputs)
      outputs.emplace_back(spec.kind, spec.shape);
    std::vector<void *> buffers;
    for (Tensor &tensor : inputCopies)
      buffers.push_back(tensor.data.data());
    for (Tensor &tensor : outputs)
      buffers.push_back(tensor.data.data());
    api.reset();
    int status = runPacked(weightsPath.c_str(), buffers.data());
    collectLaunches();
    if (const char *error = api.error())
      return llvm::createStringError("the SW26010 emulation stopped: %s",
                                     error);
    if (status != 0)
      return llvm::createStringError(
          "dlc_model_run returned %d (%s; DLC_ERROR_* in dlc_sunway.h)", status,
          describeStatus(status));
    return outputs;
  }

  llvm::Expected<TargetReport> getReport() const override {
    if (!hasRun)
      return llvm::createStringError("the model has not run yet");
    return report;
  }

private:
  llvm::Error configure() {
    dlc_emu_params params;
    api.defaultParams(&params);
    params.clock_hz = hardware.clockHz;
    params.cpes = static_cast<int>(hardware.cpes);
    params.ldm_bytes = static_cast<int>(hardware.ldmBytes);
    params.stack_reserve_bytes = static_cast<int>(hardware.stackReserveBytes);
    params.regcomm_fifo_depth = static_cast<int>(hardware.regcommFifoDepth);
    params.regcomm_latency_cycles = hardware.regcommLatencyCycles;
    params.barrier_cycles = hardware.barrierCycles;
    params.spawn_overhead_cycles = hardware.spawnOverheadCycles;
    params.divide_cycles = hardware.divideCycles;
    params.main_memory_access_cycles = hardware.mainMemoryAccessCycles;
    params.dma_alignment_bytes = static_cast<int>(hardware.dmaAlignmentBytes);
    size_t points = hardware.dmaCurveBlockBytes.size();
    if (points > DLC_EMU_MAX_BANDWIDTH_POINTS)
      return llvm::createStringError(
          "the emulation takes at most %d DMA curve points, the hardware "
          "description has %zu",
          DLC_EMU_MAX_BANDWIDTH_POINTS, points);
    params.bandwidth_points = static_cast<int>(points);
    for (size_t i = 0; i < points; ++i) {
      params.bandwidth_block_bytes[i] = hardware.dmaCurveBlockBytes[i];
      params.bandwidth_bytes_per_second[i] = hardware.dmaCurveBytesPerSecond[i];
    }
    if (api.configure(&params) != 0)
      return llvm::createStringError(
          "the SW26010 emulation rejects this hardware description (it "
          "models 64 CPEs; see docs/Targets/Sunway.md)");
    return llvm::Error::success();
  }

  /// The report of the last run: each kernel's launch as the emulation
  /// counted and modeled it, grouped by ONNX node.
  void collectLaunches() {
    hasRun = true;
    report = TargetReport();
    report.target = "sunway";
    report.model = manifest.model;
    report.source = "simulated";
    report.clockHz = hardware.clockHz;
    report.peakMacsPerCycle = hardware.getPeakFlopsPerCycle() / 2;
    report.peakDramBytesPerSecond =
        *llvm::max_element(hardware.dmaCurveBytesPerSecond);
    if (auto compulsory = manifest.extra.getInteger("compulsory_dram_bytes"))
      report.compulsoryDramBytes = *compulsory;
    if (const llvm::json::Object *hw = manifest.extra.getObject("hardware"))
      report.hardware = *hw;
    // Kernel symbol -> its layer.
    llvm::StringMap<size_t> layerOfKernel;
    if (const llvm::json::Array *layers = manifest.extra.getArray("layers")) {
      for (const llvm::json::Value &value : *layers) {
        const llvm::json::Object *layer = value.getAsObject();
        if (!layer)
          continue;
        LayerFigures &figures = report.layers.emplace_back();
        figures.name = layer->getString("name").value_or("").str();
        figures.op = layer->getString("op").value_or("").str();
        figures.macs = layer->getInteger("macs").value_or(0);
        figures.extra["unit"] = layer->getString("unit").value_or("").str();
        if (const llvm::json::Value *placement = layer->get("placement"))
          figures.extra["placement"] = *placement;
        // What the compiler allocated: the emulation checks it, never
        // changes it.
        if (auto ldmBytes = layer->getInteger("ldm_bytes"))
          figures.extra["ldm_bytes"] = *ldmBytes;
        if (const llvm::json::Array *kernels = layer->getArray("kernels"))
          for (const llvm::json::Value &kernel : *kernels)
            if (auto name = kernel.getAsString())
              layerOfKernel[*name] = report.layers.size() - 1;
      }
    }
    struct Totals {
      double cycles = 0, dmaBoundCycles = 0, maxCompute = 0, meanCompute = 0;
      double maxDmaWait = 0, maxBarrierWait = 0;
      uint64_t fp = 0, ldm = 0, transfers = 0, launches = 0;
      int64_t read = 0, written = 0;
    };
    std::vector<Totals> totals(report.layers.size());
    for (int i = 0, e = api.launchCount(); i < e; ++i) {
      const struct dlc_emu_launch *launch = api.launch(i);
      std::string kernel = launch->kernel ? launch->kernel : "";
      auto it = layerOfKernel.find(kernel);
      if (it == layerOfKernel.end()) {
        LayerFigures &figures = report.layers.emplace_back();
        figures.name = kernel;
        figures.op = "kernel";
        totals.emplace_back();
        layerOfKernel[kernel] = report.layers.size() - 1;
        it = layerOfKernel.find(kernel);
      }
      Totals &t = totals[it->second];
      t.cycles += launch->cycles;
      t.dmaBoundCycles += launch->dma_bound_cycles;
      t.transfers += launch->dma_transfers;
      ++t.launches;
      double maxCompute = 0, sumCompute = 0, maxDmaWait = 0, maxBarrierWait = 0;
      for (const dlc_emu_cpe_counters &cpe : launch->cpe) {
        maxDmaWait = std::max(maxDmaWait, double(cpe.dma_wait_cycles));
        maxBarrierWait =
            std::max(maxBarrierWait, double(cpe.barrier_wait_cycles));
        t.fp += cpe.fp_vector + cpe.fp_scalar;
        t.ldm += cpe.ldm_vector_loads + cpe.ldm_vector_stores +
                 cpe.ldm_scalar_loads + cpe.ldm_scalar_stores;
        t.read += cpe.dma_get_bytes;
        t.written += cpe.dma_put_bytes;
        maxCompute = std::max(maxCompute, double(cpe.compute_cycles));
        sumCompute += cpe.compute_cycles;
      }
      t.maxCompute += maxCompute;
      t.maxDmaWait += maxDmaWait;
      t.maxBarrierWait += maxBarrierWait;
      t.meanCompute += sumCompute / DLC_EMU_CPES;
    }
    for (auto [figures, t] : llvm::zip_equal(report.layers, totals)) {
      figures.cycles = t.cycles;
      figures.dramReadBytes = t.read;
      figures.dramWriteBytes = t.written;
      figures.extra["launches"] = static_cast<int64_t>(t.launches);
      figures.extra["dma_bound_cycles"] = t.dmaBoundCycles;
      figures.extra["dma_transfers"] = static_cast<int64_t>(t.transfers);
      figures.extra["mean_dma_block_bytes"] =
          t.transfers ? double(t.read + t.written) / t.transfers : 0.0;
      figures.extra["fp_instructions"] = static_cast<int64_t>(t.fp);
      figures.extra["ldm_accesses"] = static_cast<int64_t>(t.ldm);
      figures.extra["cpe_compute_cycles_max"] = t.maxCompute;
      // Where the slowest CPEs stall: on DMA replies, at barriers.
      figures.extra["cpe_dma_wait_cycles_max"] = t.maxDmaWait;
      figures.extra["cpe_barrier_wait_cycles_max"] = t.maxBarrierWait;
      // Mean over max of the CPEs' compute: 1 when balanced.
      figures.extra["load_balance"] =
          t.maxCompute > 0 ? t.meanCompute / t.maxCompute : 1.0;
    }
  }

  EntrySignature signature;
  ArtifactManifest manifest;
  SunwayHardware hardware;
  std::string weightsPath, buildDir, artifactDir;
  bool hasRun = false;
  TargetReport report;
  void *handle = nullptr;
  RunPackedFn runPacked = nullptr;
  EmulationAPI api;
};

} // namespace

FailureOr<std::unique_ptr<Executable>>
dlc::sunway::loadSunwayArtifacts(Location loc, StringRef dir,
                                 const ArtifactManifest &manifest,
                                 const SunwayHardware &hardware, bool ownsDir) {
  auto executable = std::make_unique<SunwayExecutable>(manifest, hardware);
  if (ownsDir)
    executable->removeOnDestruction(dir);
  if (llvm::Error error = executable->build(dir))
    return emitError(loc) << llvm::toString(std::move(error));
  return std::unique_ptr<Executable>(std::move(executable));
}
