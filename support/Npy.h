//===- Npy.h - NumPy .npy files as HostTensors ------------------*- C++ -*-===//
//
// Reads and writes NumPy's `.npy` format (versions 1.0, 2.0 and 3.0), the
// format `numpy.save` writes, so that inputs and outputs of `torus-run` can be
// made and checked with NumPy:
//
//   TORUS_ASSIGN_OR_RETURN(torus::HostTensor x, torus::readNpy("x.npy"));
//   TORUS_RETURN_IF_ERROR(torus::writeNpy("y.npy", y));
//
// Supported element types (the `descr` field): `<f4` f32, `<f8` f64, `<f2`
// f16, `<i4` i32, `<i8` i64 and `|b1` bool (i1); data little-endian and in C
// (row-major) order. Anything else (big-endian data, Fortran order, unsigned
// or complex types, object arrays, a truncated file) is an InvalidArgument
// error naming the file and the problem. bf16 has no .npy type and cannot be
// written.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_SUPPORT_NPY_H
#define TORUS_SUPPORT_NPY_H

#include "torus/HostTensor.h"
#include "torus/Status.h"

#include <string>
#include <string_view>

namespace torus {

/// Parses the bytes of a .npy file; `name` is used in error messages.
absl::StatusOr<HostTensor> parseNpy(std::string_view bytes,
                                    std::string_view name = "<npy>");

/// Reads a .npy file. NotFound when it cannot be opened.
absl::StatusOr<HostTensor> readNpy(const std::string &path);

/// The bytes of a version 1.0 .npy file holding `tensor` (C order,
/// little-endian, header padded to 64 bytes as NumPy does).
absl::StatusOr<std::string> serializeNpy(const HostTensor &tensor);

/// Writes `tensor` to `path` as a .npy file.
absl::Status writeNpy(const std::string &path, const HostTensor &tensor);

/// The `descr` NumPy uses for `dtype` (`<f4`, `|b1`, ...), or "" if none.
std::string_view npyDescr(DType dtype);

} // namespace torus

#endif // TORUS_SUPPORT_NPY_H
