//===- DeviceTargets.cpp - built-in and JSON device targets ---------------===//
//
// Built-in figures are the vendors' published dense peaks (no sparsity):
// NVIDIA H100 SXM5 and H200 (same compute, HBM3 3.35 TB/s vs HBM3e 4.8 TB/s,
// PCIe Gen5 x16 host link), A100 80GB SXM (HBM2e 2.039 TB/s, PCIe Gen4 x16).
// `cpu` is a nominal small x86 host; measure yours and pass a JSON target.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Analysis/CostModel.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace mlir::ckpt;

namespace {

constexpr double kTera = 1e12;
constexpr double kGiga = 1e9;
constexpr double kGpuLaunchOverheadSeconds = 3e-6;

DeviceTarget makeHopper(llvm::StringRef name, double hbmBytesPerSecond) {
  DeviceTarget target;
  target.name = name.str();
  target.fp64FlopsPerSecond = 34 * kTera; // FP64 vector (not tensor core)
  target.fp32FlopsPerSecond = 67 * kTera;
  target.tf32FlopsPerSecond = 494.7 * kTera;
  target.bf16FlopsPerSecond = 989.4 * kTera;
  target.fp16FlopsPerSecond = 989.4 * kTera;
  target.memoryBandwidthBytesPerSecond = hbmBytesPerSecond;
  target.hostLinkBytesPerSecond = 64 * kGiga;
  target.kernelLaunchOverheadSeconds = kGpuLaunchOverheadSeconds;
  return target;
}

std::vector<DeviceTarget> getBuiltinTargets() {
  std::vector<DeviceTarget> targets;
  targets.push_back(makeHopper("h100-sxm", 3.35 * kTera));
  targets.push_back(makeHopper("h200", 4.8 * kTera));

  DeviceTarget a100;
  a100.name = "a100-80g";
  a100.fp64FlopsPerSecond = 9.7 * kTera; // FP64 vector (not tensor core)
  a100.fp32FlopsPerSecond = 19.5 * kTera;
  a100.tf32FlopsPerSecond = 156 * kTera;
  a100.bf16FlopsPerSecond = 312 * kTera;
  a100.fp16FlopsPerSecond = 312 * kTera;
  a100.memoryBandwidthBytesPerSecond = 2.039 * kTera;
  a100.hostLinkBytesPerSecond = 32 * kGiga;
  a100.kernelLaunchOverheadSeconds = kGpuLaunchOverheadSeconds;
  targets.push_back(a100);

  DeviceTarget cpu;
  cpu.name = "cpu";
  cpu.fp64FlopsPerSecond = 50 * kGiga;
  cpu.fp32FlopsPerSecond = 100 * kGiga;
  cpu.tf32FlopsPerSecond = cpu.fp32FlopsPerSecond;
  cpu.bf16FlopsPerSecond = cpu.fp32FlopsPerSecond;
  cpu.fp16FlopsPerSecond = cpu.fp32FlopsPerSecond;
  cpu.memoryBandwidthBytesPerSecond = 20 * kGiga;
  cpu.hostLinkBytesPerSecond = cpu.memoryBandwidthBytesPerSecond;
  cpu.kernelLaunchOverheadSeconds = 0;
  targets.push_back(cpu);
  return targets;
}

llvm::Error makeTargetError(llvm::StringRef path, const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "device target '" + path + "': " + message);
}

/// Reads a positive number at `key` of `object` into `value` when present.
llvm::Error readRate(const llvm::json::Object &object, llvm::StringRef key,
                     llvm::StringRef path, double &value, bool required) {
  const llvm::json::Value *field = object.get(key);
  if (!field) {
    if (required)
      return makeTargetError(path, "missing '" + key + "'");
    return llvm::Error::success();
  }
  std::optional<double> number = field->getAsNumber();
  if (!number || *number <= 0)
    return makeTargetError(path, "'" + key + "' must be a positive number");
  value = *number;
  return llvm::Error::success();
}

} // namespace

std::vector<llvm::StringRef> mlir::ckpt::getBuiltinTargetNames() {
  return {"h100-sxm", "h200", "a100-80g", "cpu"};
}

llvm::Expected<DeviceTarget>
mlir::ckpt::lookupDeviceTarget(llvm::StringRef nameOrPath) {
  for (DeviceTarget &target : getBuiltinTargets())
    if (target.name == nameOrPath)
      return target;
  if (!nameOrPath.ends_with(".json"))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "unknown device target '" + nameOrPath +
            "': expected one of h100-sxm, h200, a100-80g, cpu, or a path to "
            "a JSON target file ending in .json");

  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(nameOrPath);
  if (!file)
    return makeTargetError(nameOrPath,
                           "cannot read: " + file.getError().message());
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*file)->getBuffer());
  if (!json)
    return makeTargetError(nameOrPath, llvm::toString(json.takeError()));
  const llvm::json::Object *object = json->getAsObject();
  if (!object)
    return makeTargetError(nameOrPath, "expected a JSON object");
  const llvm::json::Object *rates = object->getObject("peak_flops_per_s");
  if (!rates)
    return makeTargetError(nameOrPath, "missing object 'peak_flops_per_s'");

  DeviceTarget target;
  target.name = object->getString("name").value_or(nameOrPath).str();
  if (llvm::Error error =
          readRate(*rates, "fp32", nameOrPath, target.fp32FlopsPerSecond, true))
    return std::move(error);
  target.fp64FlopsPerSecond = target.tf32FlopsPerSecond =
      target.bf16FlopsPerSecond = target.fp16FlopsPerSecond =
          target.fp32FlopsPerSecond;
  for (auto [key, field] : {std::pair<llvm::StringRef, double *>{
                                "fp64", &target.fp64FlopsPerSecond},
                            {"tf32", &target.tf32FlopsPerSecond},
                            {"bf16", &target.bf16FlopsPerSecond},
                            {"fp16", &target.fp16FlopsPerSecond}})
    if (llvm::Error error = readRate(*rates, key, nameOrPath, *field, false))
      return std::move(error);
  if (llvm::Error error =
          readRate(*object, "memory_bandwidth_bytes_per_s", nameOrPath,
                   target.memoryBandwidthBytesPerSecond, true))
    return std::move(error);
  target.hostLinkBytesPerSecond = target.memoryBandwidthBytesPerSecond;
  if (llvm::Error error = readRate(*object, "host_link_bytes_per_s", nameOrPath,
                                   target.hostLinkBytesPerSecond, false))
    return std::move(error);
  if (const llvm::json::Value *launch =
          object->get("kernel_launch_overhead_s")) {
    std::optional<double> seconds = launch->getAsNumber();
    if (!seconds || *seconds < 0)
      return makeTargetError(
          nameOrPath, "'kernel_launch_overhead_s' must be a number >= 0");
    target.kernelLaunchOverheadSeconds = *seconds;
  }
  return target;
}
