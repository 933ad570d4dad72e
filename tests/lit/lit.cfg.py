# lit configuration for every .mlir test in the source tree: ir/test,
# passes/test, codegen/test and tests/tools. Inputs/ folders and the JAX
# corpus's programs/ hold data, not tests.
import os

import lit.formats

config.name = "Torus"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir", ".hlo"]
config.test_source_root = config.torus_source_dir
config.test_exec_root = os.path.join(config.torus_binary_dir, "tests", "lit")
config.excludes = ["Inputs", "corpus", "programs", "build", "build-debug", "build-tsan", "examples",
                   "docs", "benchmarks", "runtime", "include", "api",
                   "support", "scripts", "lit"]

config.environment["PATH"] = os.pathsep.join(
    [config.torus_tools_dir, config.llvm_tools_dir,
     config.environment.get("PATH", os.environ.get("PATH", ""))])
config.substitutions.append(("%torus_src", config.torus_source_dir))
