//===- ReduceOp.h - How values are combined ---------------------*- C++ -*-===//
//
// One enum for the core reducers (reduceWindow(), the collectives) and for
// tf.distribute.ReduceOp, so that code using both torus and
// torus::distribute names one type.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_REDUCEOP_H
#define TORUS_REDUCEOP_H

namespace torus {

/// The reduction of reduceWindow() and of the collectives: Sum, Product,
/// Max, Min. Mean is tf.distribute.ReduceOp.MEAN (the same enum serves
/// torus::distribute, so code using both namespaces is not ambiguous); the
/// core operations refuse it (a trace error naming the op: divide a Sum by
/// the count instead).
enum class ReduceOp { Sum, Product, Max, Min, Mean };

} // namespace torus

#endif // TORUS_REDUCEOP_H
