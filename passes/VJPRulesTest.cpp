//===- VJPRulesTest.cpp - Every VJP rule against finite differences -------===//
//
// Each case is one op in a .mlir snippet. The harness wraps it into the loss
// sum(op(args) * w) for a random weight tensor w (so every output element
// has its own cotangent), runs --torus-value-and-grad, compiles both
// functions, and compares each gradient element with the central difference
// of the compiled loss, in f64.
//
//===----------------------------------------------------------------------===//

#include "ir/trace/TracedFunctionImpl.h"
#include "passes/Passes.h"
#include "torus/Torus.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <regex>

using namespace torus;

namespace {

struct OpCase {
  std::string name;
  /// Argument types, e.g. "tensor<3x4xf64>"; all are differentiated.
  std::vector<std::string> args;
  /// The body: defines %y from %a0, %a1, ... (ints as constants inside).
  std::string body;
  std::string resultType;
  double lo = -1.0, hi = 1.0;
  /// Finite-difference step (relative) and tolerance.
  double h = 1e-6, tol = 2e-6;
};

/// The loss function, `@loss_<name>`: not `@<name>`, which for erf or cbrt
/// would be taken for the libm function the op calls (codegen/Pipelines.cpp).
std::string wrap(const OpCase &c) {
  std::string params;
  for (size_t i = 0; i < c.args.size(); ++i)
    params += fmt::format("%a{}: {}, ", i, c.args[i]);
  std::smatch m;
  std::regex shape("tensor<((?:[0-9]+x)*)f64>");
  std::regex_search(c.resultType, m, shape);
  std::string dimsText = m[1].str();
  int rank = static_cast<int>(std::count(dimsText.begin(), dimsText.end(), 'x'));
  std::vector<int> all(rank);
  for (int i = 0; i < rank; ++i)
    all[i] = i;
  return fmt::format(
      "func.func @loss_{0}({1}%w: {2}) -> tensor<f64> {{\n{3}\n"
      "  %loss_p = torus.multiply %y, %w : {2}\n"
      "  %loss_s = torus.reduce sum %loss_p, dims = [{4}] : ({2}) -> "
      "tensor<f64>\n"
      "  return %loss_s : tensor<f64>\n}}\n",
      c.name, params, c.resultType, c.body, fmt::join(all, ", "));
}

Executable compileOrDie(const TracedFunction &fn) {
  auto exe = compile(fn);
  EXPECT_TRUE(exe.ok()) << exe.status();
  return *exe;
}

void checkOp(const OpCase &c) {
  SCOPED_TRACE(c.name);
  std::string text = wrap(c);
  auto forwardFn = parseModule(text, c.name + ".mlir");
  ASSERT_TRUE(forwardFn.ok()) << forwardFn.status() << "\n" << text;
  auto gradFn = parseModule(text, c.name + ".mlir");
  ASSERT_TRUE(gradFn.ok());
  {
    // Replace the module's function by its value-and-grad version.
    auto &impl = gradFn->impl();
    mlir::PassManager pm(impl.context.get());
    pm.addPass(mlir::torus::createTorusValueAndGrad());
    ASSERT_TRUE(mlir::succeeded(pm.run(*impl.module))) << text;
    impl.module->lookupSymbol<mlir::func::FuncOp>("loss_" + c.name).erase();
  }
  auto gradTraced = makeTracedFunction(std::move(gradFn->impl().context),
                                       std::move(gradFn->impl().module));
  ASSERT_TRUE(gradTraced.ok()) << gradTraced.status();
  Executable forward = compileOrDie(*forwardFn);
  Executable backward = compileOrDie(*gradTraced);
  auto mesh = EmulatedMesh::create(1);
  ASSERT_TRUE(mesh.ok());

  std::mt19937 gen(11);
  std::uniform_real_distribution<double> dist(c.lo, c.hi);
  std::uniform_real_distribution<double> weights(0.5, 1.5);
  std::vector<HostTensor> inputs;
  for (size_t i = 0; i < forward.inputs().size(); ++i) {
    HostTensor t(forward.inputs()[i]);
    for (double &x : t.data<double>())
      x = i + 1 == forward.inputs().size() ? weights(gen) : dist(gen);
    inputs.push_back(t);
  }
  auto lossAt = [&](const std::vector<HostTensor> &in) {
    auto out = mesh->run(forward, {in});
    EXPECT_TRUE(out.ok()) << out.status();
    return (*out)[0][0].data<double>()[0];
  };
  auto grads = mesh->run(backward, {inputs});
  ASSERT_TRUE(grads.ok()) << grads.status();
  ASSERT_EQ((*grads)[0].size(), inputs.size() + 1);
  EXPECT_NEAR((*grads)[0][0].data<double>()[0], lossAt(inputs), 1e-9);
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto g = (*grads)[0][i + 1].data<double>();
    for (int64_t e = 0; e < inputs[i].numElements(); ++e) {
      std::vector<HostTensor> plus = inputs, minus = inputs;
      double x = inputs[i].data<double>()[e];
      double h = c.h * std::max(1.0, std::abs(x));
      plus[i].data<double>()[e] = x + h;
      minus[i].data<double>()[e] = x - h;
      double fd = (lossAt(plus) - lossAt(minus)) / (2 * h);
      EXPECT_NEAR(g[e], fd, c.tol * std::max(1.0, std::abs(fd)))
          << "argument " << i << " element " << e;
    }
  }
}

#define UNARY(op, lo, hi)                                                      \
  OpCase {                                                                     \
    #op, {"tensor<2x3xf64>"}, "  %y = torus." #op " %a0 : tensor<2x3xf64>",    \
        "tensor<2x3xf64>", lo, hi                                              \
  }
#define BINARY(op, lo, hi)                                                     \
  OpCase {                                                                     \
    #op, {"tensor<2x3xf64>", "tensor<2x3xf64>"},                               \
        "  %y = torus." #op " %a0, %a1 : tensor<2x3xf64>", "tensor<2x3xf64>",  \
        lo, hi                                                                 \
  }

TEST(VJPRulesTest, UnaryElementwise) {
  for (const OpCase &c :
       {UNARY(negate, -1, 1), UNARY(abs, -1, 1), UNARY(exp, -1, 1),
        UNARY(expm1, -1, 1), UNARY(log, 0.5, 2), UNARY(log1p, 0.1, 2),
        UNARY(sqrt, 0.5, 2), UNARY(rsqrt, 0.5, 2), UNARY(tanh, -1, 1),
        UNARY(logistic, -2, 2), UNARY(sin, -2, 2), UNARY(cos, -2, 2),
        UNARY(floor, 0.1, 0.9), UNARY(sign, 0.1, 0.9), UNARY(erf, -2, 2),
        UNARY(cbrt, 0.2, 2), UNARY(cbrt, -2, -0.2),
        UNARY(round_nearest_afz, 0.6, 1.4)})
    checkOp(c);
}

TEST(VJPRulesTest, BinaryElementwise) {
  for (const OpCase &c :
       {BINARY(add, -1, 1), BINARY(subtract, -1, 1), BINARY(multiply, -1, 1),
        BINARY(divide, 0.5, 2), BINARY(maximum, -1, 1), BINARY(minimum, -1, 1),
        BINARY(power, 0.5, 2), BINARY(atan2, 0.2, 2),
        BINARY(remainder, 0.3, 2)})
    checkOp(c);
}

TEST(VJPRulesTest, SelectClampConvert) {
  checkOp({"select", {"tensor<4xf64>", "tensor<4xf64>"},
           "  %p = torus.compare GT, %a0, %a1 : (tensor<4xf64>, tensor<4xf64>) "
           "-> tensor<4xi1>\n"
           "  %y = torus.select %p, %a0, %a1 : tensor<4xi1>, tensor<4xf64>",
           "tensor<4xf64>"});
  checkOp({"clamp", {"tensor<f64>", "tensor<6xf64>", "tensor<f64>"},
           "  %abs_lo = torus.abs %a0 : tensor<f64>\n"
           "  %lo = torus.negate %abs_lo : tensor<f64>\n"
           "  %hi = torus.abs %a2 : tensor<f64>\n"
           "  %y = torus.clamp %lo, %a1, %hi : (tensor<f64>, tensor<6xf64>, "
           "tensor<f64>) -> tensor<6xf64>",
           "tensor<6xf64>", -2, 2});
  checkOp({"convert", {"tensor<3xf64>"},
           "  %f = torus.convert %a0 : (tensor<3xf64>) -> tensor<3xf32>\n"
           "  %y = torus.convert %f : (tensor<3xf32>) -> tensor<3xf64>",
           // The loss is linear in x: a large step is exact, and needed to
           // see past f32 rounding.
           "tensor<3xf64>", -1, 1, /*h=*/1e-2, /*tol=*/1e-4});
}

TEST(VJPRulesTest, ReducePrecision) {
  // f32's format: the loss is linear in x up to the rounding, so a large
  // step sees past it (as for convert); the cotangent w is rounded to f32's
  // format too, within the tolerance.
  checkOp({"reduce_precision", {"tensor<3xf64>"},
           "  %y = torus.reduce_precision %a0, exponent_bits = 8, "
           "mantissa_bits = 23 : tensor<3xf64>",
           "tensor<3xf64>", -1, 1, /*h=*/1e-2, /*tol=*/1e-4});
}

TEST(VJPRulesTest, ShapeOps) {
  checkOp({"broadcast", {"tensor<1x3xf64>"},
           "  %y = torus.broadcast_in_dim %a0, dims = [0, 2] : "
           "(tensor<1x3xf64>) -> tensor<2x4x3xf64>",
           "tensor<2x4x3xf64>"});
  checkOp({"slice", {"tensor<5x6xf64>"},
           "  %y = torus.slice %a0, start_indices = [1, 0], limit_indices = [5, 5], strides = [2, 3] : (tensor<5x6xf64>) -> "
           "tensor<2x2xf64>",
           "tensor<2x2xf64>"});
  checkOp({"pad", {"tensor<2x3xf64>", "tensor<f64>"},
           "  %y = torus.pad %a0, %a1, low = [1, 0], high = [0, 2], interior "
           "= [1, 1] : (tensor<2x3xf64>, tensor<f64>) -> tensor<4x7xf64>",
           "tensor<4x7xf64>"});
  checkOp({"concatenate", {"tensor<2x3xf64>", "tensor<2x1xf64>"},
           "  %y = torus.concatenate(%a0, %a1), dimension = 1 : (tensor<2x3xf64>, "
           "tensor<2x1xf64>) -> tensor<2x4xf64>",
           "tensor<2x4xf64>"});
  checkOp({"reverse", {"tensor<2x3xf64>"},
           "  %y = torus.reverse %a0, dims = [1] : tensor<2x3xf64>",
           "tensor<2x3xf64>"});
  checkOp({"dynamic_slice", {"tensor<5x4xf64>"},
           "  %i = torus.constant dense<2> : tensor<i32>\n"
           "  %j = torus.constant dense<1> : tensor<i32>\n"
           "  %y = torus.dynamic_slice %a0 [%i, %j], sizes = [2, 3] : "
           "(tensor<5x4xf64>, tensor<i32>, tensor<i32>) -> tensor<2x3xf64>",
           "tensor<2x3xf64>"});
  checkOp({"dynamic_update_slice", {"tensor<4x4xf64>", "tensor<2x2xf64>"},
           "  %i = torus.constant dense<1> : tensor<i32>\n"
           "  %y = torus.dynamic_update_slice %a0, %a1 [%i, %i] : "
           "(tensor<4x4xf64>, tensor<2x2xf64>, tensor<i32>, tensor<i32>) -> "
           "tensor<4x4xf64>",
           "tensor<4x4xf64>"});
}

TEST(VJPRulesTest, Reductions) {
  for (const char *kind : {"sum", "max", "min", "product"})
    checkOp({std::string("reduce_") + kind, {"tensor<3x4xf64>"},
             fmt::format("  %y = torus.reduce {} %a0, dims = [1] : "
                         "(tensor<3x4xf64>) -> tensor<3xf64>",
                         kind),
             "tensor<3xf64>", 0.5, 1.5});
}

TEST(VJPRulesTest, DotGeneral) {
  checkOp({"dot", {"tensor<3x2x4xf64>", "tensor<2x4x5xf64>"},
           "  %y = torus.dot_general %a0, %a1, batching_dims = [1] x [0], "
           "contracting_dims = [2] x [1] : (tensor<3x2x4xf64>, "
           "tensor<2x4x5xf64>) -> tensor<2x3x5xf64>",
           "tensor<2x3x5xf64>"});
}

TEST(VJPRulesTest, Pooling) {
  checkOp({"max_pool_overlapping", {"tensor<1x5x5x2xf64>"},
           "  %y = torus.reduce_window max %a0, window = [1, 3, 3, 1] "
           "{window_strides = array<i64: 1, 2, 2, 1>, padding = dense<[[0, 0], "
           "[1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>} : "
           "(tensor<1x5x5x2xf64>) -> tensor<1x3x3x2xf64>",
           "tensor<1x3x3x2xf64>"});
  checkOp({"sum_pool", {"tensor<2x4x4x1xf64>"},
           "  %y = torus.reduce_window sum %a0, window = [1, 2, 2, 1] "
           "{window_strides = array<i64: 1, 2, 2, 1>} : "
           "(tensor<2x4x4x1xf64>) -> tensor<2x2x2x1xf64>",
           "tensor<2x2x2x1xf64>"});
}

TEST(VJPRulesTest, SortAndTopK) {
  // Keys and a payload sorted together along dimension 1; both results
  // feed the loss, so each operand gets the cotangent of where it went.
  checkOp({"sort_keys_payload", {"tensor<3x5xf64>", "tensor<3x5xf64>"},
           "  %s:2 = torus.sort(%a0, %a1) dimension = 1 : (tensor<3x5xf64>, "
           "tensor<3x5xf64>) -> (tensor<3x5xf64>, tensor<3x5xf64>) {\n"
           "  ^bb0(%l: tensor<f64>, %r: tensor<f64>, %p: tensor<f64>, %q: "
           "tensor<f64>):\n"
           "    %lt = torus.compare GT, %l, %r {total_order} : (tensor<f64>, "
           "tensor<f64>) -> tensor<i1>\n"
           "    torus.return %lt : tensor<i1>\n  }\n"
           "  %y = torus.add %s#0, %s#1 : tensor<3x5xf64>",
           "tensor<3x5xf64>"});
  checkOp({"top_k", {"tensor<2x6xf64>"},
           "  %v, %i = torus.top_k %a0, k = 3 : (tensor<2x6xf64>) -> "
           "(tensor<2x3xf64>, tensor<2x3xi32>)\n"
           "  %y = torus.multiply %v, %v : tensor<2x3xf64>",
           "tensor<2x3xf64>"});
}

TEST(VJPRulesTest, TriangularSolve) {
  // Entries in [0.5, 1.5] keep the small systems well conditioned; each
  // case reads one triangle of a, so the other gets a zero gradient (and
  // the diagonal too under unit_diagonal), which the differences confirm.
  auto solve = [](std::string name, std::string a, std::string b,
                  std::string options) {
    return OpCase{name,
                  {a, b},
                  fmt::format("  %y = torus.triangular_solve %a0, %a1, {} : "
                              "({}, {}) -> {}",
                              options, a, b, b),
                  b,
                  0.5,
                  1.5};
  };
  checkOp(solve("solve_left_lower", "tensor<2x3x3xf64>", "tensor<2x3x2xf64>",
                "left_side = true, lower = true, unit_diagonal = false, "
                "transpose_a = NO_TRANSPOSE"));
  checkOp(solve("solve_right_upper_transposed_unit", "tensor<3x3xf64>",
                "tensor<2x3xf64>",
                "left_side = false, lower = false, unit_diagonal = true, "
                "transpose_a = TRANSPOSE"));
  checkOp(solve("solve_left_upper_adjoint", "tensor<3x3xf64>",
                "tensor<3x2xf64>",
                "left_side = true, lower = false, unit_diagonal = false, "
                "transpose_a = ADJOINT"));
  checkOp(solve("solve_right_lower", "tensor<3x3xf64>", "tensor<1x3xf64>",
                "left_side = false, lower = true, unit_diagonal = false, "
                "transpose_a = NO_TRANSPOSE"));
}

TEST(VJPRulesTest, Fft) {
  // Real functions through complex values: built with torus.complex, read
  // back with real and imag and multiplied (so both parts matter), which
  // checks fft's rules against JAX's conventions for those three.
  auto through = [](std::string name, std::string shape, std::string fft,
                    std::string spectrum) {
    std::string c = "tensor<" + shape + "xcomplex<f64>>";
    std::string r = "tensor<" + shape + "xf64>";
    return OpCase{
        name,
        {r, r},
        fmt::format("  %c = torus.complex %a0, %a1 : ({0}, {0}) -> {1}\n"
                    "  %f = torus.fft %c, {2} : ({1}) -> {3}\n"
                    "  %re = torus.real %f : ({3}) -> tensor<{4}xf64>\n"
                    "  %im = torus.imag %f : ({3}) -> tensor<{4}xf64>\n"
                    "  %y = torus.multiply %re, %im : tensor<{4}xf64>",
                    r, c, fft, "tensor<" + spectrum + "xcomplex<f64>>",
                    spectrum),
        "tensor<" + spectrum + "xf64>"};
  };
  checkOp(through("fft_2d", "3x4", "type = FFT, length = [3, 4]", "3x4"));
  checkOp(through("ifft", "2x5", "type = IFFT, length = [5]", "2x5"));
  checkOp({"rfft",
           {"tensor<2x6xf64>"},
           "  %f = torus.fft %a0, type = RFFT, length = [6] : "
           "(tensor<2x6xf64>) -> tensor<2x4xcomplex<f64>>\n"
           "  %re = torus.real %f : (tensor<2x4xcomplex<f64>>) -> "
           "tensor<2x4xf64>\n"
           "  %im = torus.imag %f : (tensor<2x4xcomplex<f64>>) -> "
           "tensor<2x4xf64>\n"
           "  %y = torus.multiply %re, %im : tensor<2x4xf64>",
           "tensor<2x4xf64>"});
  // IRFFT of even and odd lengths (frequency n/2 is single only for even
  // n) and over two axes; x * x makes the cotangent depend on x.
  auto irfft = [](std::string name, std::string in, std::string lengths,
                  std::string out) {
    std::string c = "tensor<" + in + "xcomplex<f64>>";
    std::string r = "tensor<" + in + "xf64>";
    std::string o = "tensor<" + out + "xf64>";
    return OpCase{
        name,
        {r, r},
        fmt::format("  %c = torus.complex %a0, %a1 : ({0}, {0}) -> {1}\n"
                    "  %x = torus.fft %c, type = IRFFT, length = {2} : ({1}) "
                    "-> {3}\n"
                    "  %y = torus.multiply %x, %x : {3}",
                    r, c, lengths, o),
        o};
  };
  checkOp(irfft("irfft_even", "2x4", "[6]", "2x6"));
  checkOp(irfft("irfft_odd", "2x4", "[7]", "2x7"));
  checkOp(irfft("irfft_2d", "3x4", "[3, 6]", "3x6"));
}

TEST(VJPRulesTest, Convolution) {
  checkOp({"conv_nhwc", {"tensor<2x5x5x2xf64>", "tensor<3x3x2x3xf64>"},
           "  %y = torus.convolution %a0, %a1, dim_numbers = "
           "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] "
           "{window_strides = array<i64: 2, 2>, padding = dense<[[1, 1], [1, "
           "1]]> : tensor<2x2xi64>} : (tensor<2x5x5x2xf64>, "
           "tensor<3x3x2x3xf64>) -> tensor<2x3x3x3xf64>",
           "tensor<2x3x3x3xf64>"});
  checkOp({"conv_dilated_nchw", {"tensor<1x2x6x5xf64>", "tensor<3x2x2x2xf64>"},
           "  %y = torus.convolution %a0, %a1, dim_numbers = "
           "[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1] "
           "{rhs_dilation = array<i64: 2, 1>} : (tensor<1x2x6x5xf64>, "
           "tensor<3x2x2x2xf64>) -> tensor<1x3x4x4xf64>",
           "tensor<1x3x4x4xf64>"});
}

TEST(VJPRulesTest, GatherAndScatter) {
  // Embedding lookup: rows 2, 0, 2 of a [4, 3] table.
  checkOp({"gather_rows", {"tensor<4x3xf64>"},
           "  %idx = torus.constant dense<[[2], [0], [2]]> : tensor<3x1xi32>\n"
           "  %y = torus.gather %a0[%idx], offset_dims = [1], "
           "collapsed_slice_dims = [0], start_index_map = [0], "
           "index_vector_dim = 1, slice_sizes = [1, 3] : (tensor<4x3xf64>, "
           "tensor<3x1xi32>) -> tensor<3x3xf64>",
           "tensor<3x3xf64>"});
  checkOp({"scatter_add", {"tensor<4x3xf64>", "tensor<2x3xf64>"},
           "  %idx = torus.constant dense<[[3], [1]]> : tensor<2x1xi32>\n"
           "  %y = torus.scatter sum %a0[%idx], %a1, update_window_dims = [1], "
           "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], "
           "index_vector_dim = 1 : (tensor<4x3xf64>, tensor<2x1xi32>, "
           "tensor<2x3xf64>) -> tensor<4x3xf64>",
           "tensor<4x3xf64>"});
}

} // namespace
