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
// f16, `<i4` i32, `<i8` i64, `|b1` bool (i1) and `<V2` bf16; data
// little-endian and in C (row-major) order. NumPy has no bf16: the ml_dtypes
// package (what JAX uses) saves `ml_dtypes.bfloat16` arrays as the 2-byte
// void `<V2`, so a 2-byte void is read as bf16 and bf16 is written as `<V2`
// (in Python, `np.load(f).view(ml_dtypes.bfloat16)`). The 8-bit floats
// likewise: ml_dtypes saves `float8_e4m3fn` as `<V1` (read back with
// `np.load(f).view(ml_dtypes.float8_e4m3fn)`) and `float8_e5m2` as `<f1`,
// which Torus reads and writes as f8e4m3fn and f8e5m2. Anything else
// (big-endian data, Fortran order, unsigned or complex types, object arrays,
// a truncated file) is an InvalidArgument error naming the file and the
// problem; parseNpyArray reads any fixed-width type undecoded.
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

/// A .npy array of any fixed-width scalar type, its data left as bytes: for
/// callers that look at types HostTensor has no DType for (`<u2`, `|i1`,
/// ...), such as the StableHLO corpus test comparing expected values.
struct NpyArray {
  /// As written in the header: `<u2`, `|b1`, `<V2`, ...
  std::string descr;
  /// The type letter (`f`, `i`, `u`, `b`, `c`, `V`, ...; `?` reads as `b`)
  /// and the width of an element in bytes.
  char kind = 0;
  int width = 0;
  Shape shape;
  /// Little-endian, C order: width * elements bytes.
  std::string data;
};

/// Parses the bytes of a .npy file of any fixed-width scalar type. The same
/// errors as parseNpy for the file's structure; big-endian data, object and
/// structured arrays are errors.
absl::StatusOr<NpyArray> parseNpyArray(std::string_view bytes,
                                       std::string_view name = "<npy>");

/// Reads a .npy file as an NpyArray. NotFound when it cannot be opened.
absl::StatusOr<NpyArray> readNpyArray(const std::string &path);

/// The bytes of a version 1.0 .npy file holding `tensor` (C order,
/// little-endian, header padded to 64 bytes as NumPy does).
absl::StatusOr<std::string> serializeNpy(const HostTensor &tensor);

/// Writes `tensor` to `path` as a .npy file.
absl::Status writeNpy(const std::string &path, const HostTensor &tensor);

/// The `descr` NumPy uses for `dtype` (`<f4`, `|b1`, ...), or "" if none.
std::string_view npyDescr(DType dtype);

/// `array` as an argument of type `dtype`: an integer array of the same
/// width and the other signedness is read bit for bit (NumPy code often
/// holds uint32 data in int32 arrays), as a bit-preserving convert would.
/// Anything else is returned unchanged, for the caller's type check.
HostTensor asIntegerArgument(HostTensor array, DType dtype);

} // namespace torus

#endif // TORUS_SUPPORT_NPY_H
