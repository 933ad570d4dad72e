//===- PyRepr.h - Python renderings for TensorFlow's messages ---*- C++ -*-===//
//
// TensorFlow's error texts interpolate Python str()/repr() of numbers,
// dtypes, shapes and numpy arrays. These helpers render host values the
// same way.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_DISTRIBUTE_PYREPR_H
#define TORUS_DISTRIBUTE_PYREPR_H

#include "torus/HostTensor.h"
#include "torus/Types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace torus::distribute::detail {

/// repr() of a Python float: shortest round trip, "5.0", "0.1", "1e-07",
/// "inf", "nan".
std::string pyFloat(double value);
/// TensorFlow's dtype name: "float32", "int64", "bool", ...
std::string tfDtypeName(DType dtype);
/// A TensorShape as Python prints it: "()", "(3,)", "(None, 5)" (-1 is
/// None).
std::string pyShape(const std::vector<int64_t> &dims);
/// numpy's str() of a host tensor's values: "1.0", "[1. 2.]", "[[1 2]\n [3
/// 4]]" (simplified: no line wrapping).
std::string numpyStr(const HostTensor &t);

} // namespace torus::distribute::detail

#endif // TORUS_DISTRIBUTE_PYREPR_H
