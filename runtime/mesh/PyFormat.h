//===- PyFormat.h - Render values the way TensorFlow's messages do -*- C++ -*-===//
//
// TensorFlow builds its error texts with Python's str() of numpy arrays,
// tuples and lists. The mesh unit reproduces those texts verbatim, so it needs
// the same renderings: `[2 2 1 2]` for an int32 array (numpy pads every entry
// to the widest one and wraps at 75 columns), `(3,)` for a shape tuple,
// `[1, 2, 2, 1]` for a list and `'worker'` for repr() of a string.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_MESH_PYFORMAT_H
#define TORUS_RUNTIME_MESH_PYFORMAT_H

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace torus::rt {

/// str() of a 1-D numpy integer array with numpy's default print options:
/// entries right-aligned to a common width, lines wrapped at 75 characters,
/// and arrays of more than 1000 entries summarised as `[a b c ... x y z]`.
std::string formatNumpyArray(std::span<const int64_t> values);

/// str() of a Python tuple of ints, e.g. a numpy shape: `()`, `(3,)`,
/// `(2, 1, 4)`.
std::string formatPyTuple(std::span<const int64_t> values);

/// str() of a Python list of ints: `[]`, `[1, 2, 2, 1]`.
std::string formatPyList(std::span<const int64_t> values);

/// repr() of a Python str: `'worker'` (double quotes when the text holds a
/// single quote and no double quote, as Python does).
std::string formatPyRepr(std::string_view text);

} // namespace torus::rt

#endif // TORUS_RUNTIME_MESH_PYFORMAT_H
