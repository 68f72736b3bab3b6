# lit configuration of the slmc conformance suite.
import os
import lit.formats

config.name = "slmc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cpp", ".test", ".ll"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.slmc_obj_root, "test", "lit")

# FileCheck, not, count and split-file come from LLVM 22's tools.
path = os.path.pathsep.join([config.slmc_bin_dir, config.llvm_tools_dir,
                             config.environment.get("PATH", os.environ["PATH"])])
config.environment["PATH"] = path
# Programs built by the tests run on the CPU fallback unless a test asks.
config.environment["SLMC_DEVICE"] = "cpu"
for var in ["HOME", "TMPDIR"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]

# Sanitizer builds (-DSLMC_SANITIZE, docs/testing.md). Programs the tests
# build are not instrumented but load the instrumented libslmrt, so ASan must
# not insist on coming first; the sanitizers' own options pass through.
for var in ["ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS",
            "ZE_ENABLE_ALT_DRIVERS"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]
config.asan_preload = ""
if "address" in config.slmc_sanitize:
    asan = config.environment.get("ASAN_OPTIONS", "")
    config.environment["ASAN_OPTIONS"] = ":".join(
        o for o in [asan, "verify_asan_link_order=0"] if o)
    # Stock clang loads the instrumented plugin: the ASan runtime comes first,
    # and clang's deliberate leaks at exit (-disable-free) are not ours.
    config.asan_preload = "env LD_PRELOAD=%s ASAN_OPTIONS=%s " % (
        config.asan_runtime, ":".join(o for o in [asan, "verify_asan_link_order=0",
                                                  "detect_leaks=0"] if o))
    config.available_features.add("asan")
clangxx = config.asan_preload + config.clangxx

# The host's architecture: the CPU fallback's x86-64 entries come in
# versions per micro-architecture level.
import platform
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("x86_64-host")

plugin = os.path.join(config.slmc_lib_dir, "slmcPlugin.so")
config.substitutions.append(("%slmcxx", os.path.join(config.slmc_bin_dir, "slmc++")))
config.substitutions.append(("%slmc-cmc", os.path.join(config.slmc_bin_dir, "slmc-cmc")))
config.substitutions.append(("%clangxx", clangxx))
# opt loads the (maybe instrumented) pass plugins as clang does.
config.substitutions.append(("%opt", config.asan_preload + os.path.join(config.llvm_tools_dir, "opt")))
config.substitutions.append(("%plugin", "-fplugin=" + plugin))
config.substitutions.append(("%slmc-libdir", config.slmc_lib_dir))
config.substitutions.append(("%examples", os.path.join(config.slmc_src_root, "examples")))
config.substitutions.append(("%benchmarks", os.path.join(config.slmc_src_root, "benchmarks")))
config.substitutions.append(("%spirv-dis", config.spirv_dis or "spirv-dis"))
config.substitutions.append(("%spirv-val", config.spirv_val or "spirv-val"))
config.substitutions.append(("%ocloc", config.ocloc or "ocloc"))

# The fake CUDA driver of test/cuda (host memory, launches run nothing):
# what the runtime does around a GPU's device copies, with no GPU.
if config.fake_cuda_driver:
    config.available_features.add("fake-cuda")
    config.substitutions.append(
        ("%fake-cuda", "env -u SLMC_DEVICE SLMC_CUDA_DRIVER=%s ONEAPI_DEVICE_SELECTOR='cuda:*'"
         % config.fake_cuda_driver))

import sys
import ctypes
config.substitutions.append(("%python", sys.executable))
try:
    ctypes.CDLL("libcuda.so.1")
    config.available_features.add("cuda-driver")
except OSError:
    pass

# CUDA's libdevice, as slmc++ looks for it (SYCL math in PTX links it).
def _find_libdevice():
    import glob
    if os.environ.get("SLMC_LIBDEVICE"):
        return os.path.exists(os.environ["SLMC_LIBDEVICE"])
    roots = [os.environ[v] for v in ("CUDA_PATH", "CUDA_HOME") if os.environ.get(v)]
    roots += sorted(glob.glob("/usr/local/cuda*"), reverse=True)
    files = [os.path.join(r, "nvvm", "libdevice", "libdevice.10.bc") for r in roots]
    files += ["/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc",
              "/usr/lib/cuda/nvvm/libdevice/libdevice.10.bc"]
    return any(os.path.exists(f) for f in files)
if _find_libdevice():
    config.available_features.add("libdevice")
for var in ["SLMC_LIBDEVICE", "CUDA_PATH", "CUDA_HOME"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]

if config.ocloc:
    config.available_features.add("ocloc")
# Intel's GPU assembler (Debian libigc-tools): benchmarks/intel/isa-report.sh.
import shutil
if shutil.which("iga64", path=config.environment["PATH"]):
    config.available_features.add("iga64")
if config.spirv_dis and config.spirv_val:
    config.available_features.add("spirv-tools")
