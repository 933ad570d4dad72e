//===- GradientTape.h - tf.GradientTape over variables ----------*- C++ -*-===//
//
// tf.GradientTape for replica functions is torus::GradientTape (Autodiff.h):
// its sources may be Variables (their value in the step being traced), and a
// non-scalar target is summed (TensorFlow's implicit all-ones output
// gradient). Errors (such as a second gradient() on a non-persistent tape)
// are recorded in the trace and returned by Strategy::run().
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_DISTRIBUTE_GRADIENTTAPE_H
#define TORUS_DISTRIBUTE_GRADIENTTAPE_H

#include "torus/Autodiff.h"
#include "torus/distribute/Variable.h"

namespace torus::distribute {

/// The same class as torus::GradientTape, so that `using namespace torus;`
/// and `using namespace torus::distribute;` together are not ambiguous.
using torus::GradientTape;

} // namespace torus::distribute

#endif // TORUS_DISTRIBUTE_GRADIENTTAPE_H
