//===- SortLowering.cpp - sort, top_k, select_and_scatter to scf ----------===//
//
// Ops that run a scalar computation (a comparator, select, scatter) on
// pairs of elements in a data-dependent order become scf loops over
// tensor.extract/insert, with the computation's region inlined as scalar
// code: each of its elementwise ops builds itself through ScalarOpInterface
// (f16/bf16 widened to f32 as in ElementwiseLowering.cpp), constants become
// arith constants.
//
// sort and top_k sort each row with a bottom-up merge sort on a vector of
// indices (O(n log n) comparisons, stable: on a tie the left run's element
// goes first), then gather the operands through it. select_and_scatter
// walks each source element's window in row-major order.
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::torus {
namespace {

Value cIndex(OpBuilder &b, Location loc, int64_t v) {
  return b.create<arith::ConstantIndexOp>(loc, v);
}

/// `row` with `dim`'s entry set to `at`.
SmallVector<Value> withIndex(ArrayRef<Value> row, int64_t dim, Value at) {
  SmallVector<Value> idx(row);
  idx[dim] = at;
  return idx;
}

/// `(lhs, rhs) -> i1`: whether the element at index `lhs` of the current
/// row goes before the element at `rhs` (both `index`). `row` holds the
/// indices of the row's other dimensions, with `dim`'s entry null.
using LessFn = function_ref<Value(OpBuilder &, Location, ArrayRef<Value> row,
                                  Value lhs, Value rhs)>;

/// Sorts every row along `dim` of a tensor of `shape` by `less`, stably:
/// returns, as an i64 tensor of `shape`, the index along `dim` of the
/// element that goes to each position. Bottom-up merge sort, ping-ponging
/// between the two halves of one `[2, shape...]` scratch tensor (one
/// loop-carried tensor, so bufferization keeps it in one buffer).
Value sortRows(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
               int64_t dim, LessFn less) {
  int64_t n = shape[dim];
  int64_t rank = shape.size();
  SmallVector<int64_t> outer(shape);
  outer[dim] = 1;
  int64_t rows = 1;
  for (int64_t s : outer)
    rows *= s;
  int64_t passes = 0;
  while ((int64_t(1) << passes) < n)
    ++passes;
  SmallVector<int64_t> scratchShape = {2};
  scratchShape.append(shape.begin(), shape.end());
  auto scratchType = RankedTensorType::get(scratchShape, b.getI64Type());
  Value zero = cIndex(b, loc, 0), one = cIndex(b, loc, 1);
  Value nv = cIndex(b, loc, n);
  auto rowLoop = b.create<scf::ForOp>(
      loc, zero, cIndex(b, loc, rows), one,
      ValueRange{emptyLike(b, loc, scratchType)},
      [&](OpBuilder &b, Location loc, Value r, ValueRange iter) {
        SmallVector<Value> row = delinearize(b, loc, r, outer);
        row[dim] = nullptr;
        // Element k of half h of this row.
        auto at = [&](Value h, Value k) {
          SmallVector<Value> idx = {h};
          idx.append(withIndex(row, dim, k));
          return idx;
        };
        // Half 0 = 0, 1, ..., n-1
        Value init =
            b.create<scf::ForOp>(
                 loc, zero, nv, one, ValueRange{iter[0]},
                 [&](OpBuilder &b, Location loc, Value k, ValueRange p) {
                   Value v = b.create<arith::IndexCastOp>(loc, b.getI64Type(),
                                                          k);
                   b.create<scf::YieldOp>(
                       loc, ValueRange{b.create<tensor::InsertOp>(
                                loc, v, p[0], at(zero, k))});
                 })
                .getResult(0);
        // Pass `pass` merges runs of 2^pass from half (pass & 1) into the
        // other half.
        auto passLoop = b.create<scf::ForOp>(
            loc, zero, cIndex(b, loc, passes), one, ValueRange{init},
            [&](OpBuilder &b, Location loc, Value pass, ValueRange st) {
              Value src = b.create<arith::AndIOp>(loc, pass, one);
              Value dst = b.create<arith::XOrIOp>(loc, src, one);
              Value width = b.create<arith::ShLIOp>(loc, one, pass);
              Value step = b.create<arith::ShLIOp>(loc, width, one);
              auto permAt = [&](OpBuilder &b, Location loc, Value t, Value k) {
                return b.create<arith::IndexCastOp>(
                    loc, b.getIndexType(),
                    b.create<tensor::ExtractOp>(loc, t, at(src, k)));
              };
              auto runLoop = b.create<scf::ForOp>(
                  loc, zero, nv, step, ValueRange{st[0]},
                  [&](OpBuilder &b, Location loc, Value lo, ValueRange t) {
                    Value mid = b.create<arith::MinUIOp>(
                        loc, b.create<arith::AddIOp>(loc, lo, width), nv);
                    Value hi = b.create<arith::MinUIOp>(
                        loc, b.create<arith::AddIOp>(loc, lo, step), nv);
                    auto merge = b.create<scf::ForOp>(
                        loc, lo, hi, one, ValueRange{t[0], lo, mid},
                        [&](OpBuilder &b, Location loc, Value k,
                            ValueRange s) {
                          Value cur = s[0], i = s[1], j = s[2];
                          Value rightLeft = b.create<arith::CmpIOp>(
                              loc, arith::CmpIPredicate::ult, j, hi);
                          Value leftLeft = b.create<arith::CmpIOp>(
                              loc, arith::CmpIPredicate::ult, i, mid);
                          // Take from the right run when the left one is
                          // used up, or when its head is strictly less:
                          // ties keep the left (earlier) element first.
                          auto constant = [&](OpBuilder &b, Location loc,
                                              bool v) {
                            b.create<scf::YieldOp>(
                                loc, ValueRange{b.create<arith::ConstantIntOp>(
                                         loc, v, 1)});
                          };
                          Value takeRight =
                              b.create<scf::IfOp>(
                                   loc, rightLeft,
                                   [&](OpBuilder &b, Location loc) {
                                     auto inner = b.create<scf::IfOp>(
                                         loc, leftLeft,
                                         [&](OpBuilder &b, Location loc) {
                                           Value lt = less(
                                               b, loc, row,
                                               permAt(b, loc, cur, j),
                                               permAt(b, loc, cur, i));
                                           b.create<scf::YieldOp>(loc, lt);
                                         },
                                         [&](OpBuilder &b, Location loc) {
                                           constant(b, loc, true);
                                         });
                                     b.create<scf::YieldOp>(
                                         loc, inner.getResults());
                                   },
                                   [&](OpBuilder &b, Location loc) {
                                     constant(b, loc, false);
                                   })
                                  .getResult(0);
                          Value from =
                              b.create<arith::SelectOp>(loc, takeRight, j, i);
                          Value v =
                              b.create<tensor::ExtractOp>(loc, cur, at(src, from));
                          Value next = b.create<tensor::InsertOp>(
                              loc, v, cur, at(dst, k));
                          Value i1 = b.create<arith::SelectOp>(
                              loc, takeRight, i,
                              b.create<arith::AddIOp>(loc, i, one));
                          Value j1 = b.create<arith::SelectOp>(
                              loc, takeRight,
                              b.create<arith::AddIOp>(loc, j, one), j);
                          b.create<scf::YieldOp>(loc,
                                                 ValueRange{next, i1, j1});
                        });
                    b.create<scf::YieldOp>(loc, merge.getResult(0));
                  });
              b.create<scf::YieldOp>(loc, runLoop.getResults());
            });
        b.create<scf::YieldOp>(loc, passLoop.getResults());
      });
  // The half the last pass wrote.
  SmallVector<int64_t> offsets(rank + 1, 0), sizes = {1}, strides(rank + 1, 1);
  offsets[0] = passes % 2;
  sizes.append(shape.begin(), shape.end());
  return b.create<tensor::ExtractSliceOp>(
      loc, RankedTensorType::get(shape, b.getI64Type()), rowLoop.getResult(0),
      ValueRange{}, ValueRange{}, ValueRange{}, b.getDenseI64ArrayAttr(offsets),
      b.getDenseI64ArrayAttr(sizes), b.getDenseI64ArrayAttr(strides));
}

/// `resultType[idx] = x[idx with dim -> perm[idx]]`: the operand `x`
/// rearranged along `dim` by the index tensor `perm` (of the result's
/// shape).
Value gatherAlong(OpBuilder &b, Location loc, Value x, Value perm,
                  int64_t dim, RankedTensorType resultType) {
  int64_t rank = resultType.getRank();
  auto generic = b.create<linalg::GenericOp>(
      loc, resultType, ValueRange{perm}, emptyLike(b, loc, resultType),
      SmallVector<AffineMap>(2, b.getMultiDimIdentityMap(rank)),
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &b, Location loc, ValueRange args) {
        SmallVector<Value> idx;
        for (int64_t d = 0; d < rank; ++d)
          idx.push_back(d == dim ? Value(b.create<arith::IndexCastOp>(
                                       loc, b.getIndexType(), args[0]))
                                 : Value(b.create<linalg::IndexOp>(loc, d)));
        b.create<linalg::YieldOp>(
            loc, ValueRange{b.create<tensor::ExtractOp>(loc, x, idx)});
      });
  return generic.getResult(0);
}

struct SortLowering : OpConversionPattern<SortOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SortOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ValueRange operands = adaptor.getOperand();
    auto type = cast<RankedTensorType>(operands[0].getType());
    int64_t dim = op.getDimension();
    if (type.getNumElements() == 0 || type.getDimSize(dim) <= 1) {
      rewriter.replaceOp(op, operands);
      return success();
    }
    Region &comparator = op.getComparator();
    Value perm = sortRows(
        rewriter, loc, type.getShape(), dim,
        [&](OpBuilder &b, Location loc, ArrayRef<Value> row, Value lhs,
            Value rhs) {
          SmallVector<Value> args;
          for (Value v : operands) {
            args.push_back(
                b.create<tensor::ExtractOp>(loc, v, withIndex(row, dim, lhs)));
            args.push_back(
                b.create<tensor::ExtractOp>(loc, v, withIndex(row, dim, rhs)));
          }
          return inlineScalarComputation(b, loc, comparator, args).front();
        });
    SmallVector<Value> results;
    for (Value v : operands)
      results.push_back(gatherAlong(rewriter, loc, v, perm, dim,
                                    cast<RankedTensorType>(v.getType())));
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct TopKLowering : OpConversionPattern<TopKOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TopKOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getOperand();
    auto type = cast<RankedTensorType>(x.getType());
    int64_t rank = type.getRank(), dim = rank - 1, k = op.getK();
    auto valuesType = cast<RankedTensorType>(op.getValues().getType());
    auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
    if (valuesType.getNumElements() == 0) {
      rewriter.replaceOp(op, {emptyLike(rewriter, loc, valuesType),
                              emptyLike(rewriter, loc, indicesType)});
      return success();
    }
    // Descending (ascending) in total order; ties keep index order.
    auto dir = op.getLargest() ? ComparisonDirection::GT
                               : ComparisonDirection::LT;
    Value perm = sortRows(
        rewriter, loc, type.getShape(), dim,
        [&](OpBuilder &b, Location loc, ArrayRef<Value> row, Value lhs,
            Value rhs) {
          Value a =
              b.create<tensor::ExtractOp>(loc, x, withIndex(row, dim, lhs));
          Value c =
              b.create<tensor::ExtractOp>(loc, x, withIndex(row, dim, rhs));
          return compareScalar(b, loc, dir, a, c, /*totalOrder=*/true);
        });
    // The first k of each row.
    SmallVector<int64_t> offsets(rank, 0), strides(rank, 1);
    Value first = rewriter.create<tensor::ExtractSliceOp>(
        loc, indicesType.clone(rewriter.getI64Type()), perm, ValueRange{},
        ValueRange{}, ValueRange{}, rewriter.getDenseI64ArrayAttr(offsets),
        rewriter.getDenseI64ArrayAttr(indicesType.getShape()),
        rewriter.getDenseI64ArrayAttr(strides));
    Value values = gatherAlong(rewriter, loc, x, first, dim, valuesType);
    Value indices = buildElementwise(
        rewriter, loc, indicesType, ValueRange{first},
        [&](OpBuilder &b, Location loc, ValueRange i) -> Value {
          return b.create<arith::TruncIOp>(loc, indicesType.getElementType(),
                                           i[0]);
        });
    rewriter.replaceOp(op, {values, indices});
    return success();
  }
};

struct SelectAndScatterLowering : OpConversionPattern<SelectAndScatterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SelectAndScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value operand = adaptor.getOperand(), source = adaptor.getSource();
    auto type = cast<RankedTensorType>(operand.getType());
    auto sourceType = cast<RankedTensorType>(source.getType());
    ArrayRef<int64_t> shape = type.getShape();
    ArrayRef<int64_t> window = op.getWindowDimensions();
    SmallVector<int64_t> strides = op.getStrides();
    auto pads = op.getPaddingPairs();
    int64_t rank = type.getRank();
    int64_t windowSize = 1;
    for (int64_t w : window)
      windowSize *= w;
    Value init = extractScalar(rewriter, loc, adaptor.getInitValue());
    Value result = filled(rewriter, loc, type, init);
    if (sourceType.getNumElements() == 0 || type.getNumElements() == 0) {
      rewriter.replaceOp(op, result);
      return success();
    }
    Region &select = op.getSelect(), &scatter = op.getScatter();
    Value zero = cIndex(rewriter, loc, 0), one = cIndex(rewriter, loc, 1);
    auto loop = rewriter.create<scf::ForOp>(
        loc, zero, cIndex(rewriter, loc, sourceType.getNumElements()), one,
        ValueRange{result},
        [&](OpBuilder &b, Location loc, Value s, ValueRange res) {
          SmallVector<Value> sidx =
              delinearize(b, loc, s, sourceType.getShape());
          Value no = b.create<arith::ConstantIntOp>(loc, 0, 1);
          Value yes = b.create<arith::ConstantIntOp>(loc, 1, 1);
          // The window in row-major order: (selected value, its linear
          // position, whether one was found).
          auto walk = b.create<scf::ForOp>(
              loc, zero, cIndex(b, loc, windowSize), one,
              ValueRange{init, zero, no},
              [&](OpBuilder &b, Location loc, Value w, ValueRange sel) {
                SmallVector<Value> widx = delinearize(b, loc, w, window);
                SmallVector<Value> pos;
                Value valid = yes, linear = zero;
                for (int64_t d = 0; d < rank; ++d) {
                  // p = s * stride + w - low, in the unpadded operand.
                  Value p = b.create<arith::AddIOp>(
                      loc,
                      b.create<arith::MulIOp>(loc, sidx[d],
                                              cIndex(b, loc, strides[d])),
                      widx[d]);
                  Value lo = cIndex(b, loc, pads[d].first);
                  Value inLow = b.create<arith::CmpIOp>(
                      loc, arith::CmpIPredicate::uge, p, lo);
                  Value q = b.create<arith::SubIOp>(loc, p, lo);
                  Value inHigh = b.create<arith::CmpIOp>(
                      loc, arith::CmpIPredicate::ult, p,
                      cIndex(b, loc, pads[d].first + shape[d]));
                  valid = b.create<arith::AndIOp>(
                      loc, valid, b.create<arith::AndIOp>(loc, inLow, inHigh));
                  pos.push_back(q);
                  linear = b.create<arith::AddIOp>(
                      loc, b.create<arith::MulIOp>(loc, linear,
                                                   cIndex(b, loc, shape[d])),
                      q);
                }
                auto visit = b.create<scf::IfOp>(
                    loc, valid,
                    [&](OpBuilder &b, Location loc) {
                      Value x = b.create<tensor::ExtractOp>(loc, operand, pos);
                      // The first element is selected; each next one
                      // replaces it unless select(current, next) holds.
                      Value take =
                          b.create<scf::IfOp>(
                               loc, sel[2],
                               [&](OpBuilder &b, Location loc) {
                                 Value keep = inlineScalarComputation(
                                     b, loc, select, ValueRange{sel[0], x})
                                                  .front();
                                 b.create<scf::YieldOp>(
                                     loc, ValueRange{b.create<arith::XOrIOp>(
                                              loc, keep, yes)});
                               },
                               [&](OpBuilder &b, Location loc) {
                                 b.create<scf::YieldOp>(loc, yes);
                               })
                              .getResult(0);
                      b.create<scf::YieldOp>(
                          loc,
                          ValueRange{
                              b.create<arith::SelectOp>(loc, take, x, sel[0]),
                              b.create<arith::SelectOp>(loc, take, linear,
                                                        sel[1]),
                              yes});
                    },
                    [&](OpBuilder &b, Location loc) {
                      b.create<scf::YieldOp>(loc, sel);
                    });
                b.create<scf::YieldOp>(loc, visit.getResults());
              });
          auto update = b.create<scf::IfOp>(
              loc, walk.getResult(2),
              [&](OpBuilder &b, Location loc) {
                SmallVector<Value> at =
                    delinearize(b, loc, walk.getResult(1), shape);
                Value cur = b.create<tensor::ExtractOp>(loc, res[0], at);
                Value src = b.create<tensor::ExtractOp>(loc, source, sidx);
                Value next = inlineScalarComputation(b, loc, scatter,
                                                     ValueRange{cur, src})
                                 .front();
                b.create<scf::YieldOp>(
                    loc, ValueRange{
                             b.create<tensor::InsertOp>(loc, next, res[0], at)});
              },
              [&](OpBuilder &b, Location loc) {
                b.create<scf::YieldOp>(loc, res[0]);
              });
          b.create<scf::YieldOp>(loc, update.getResults());
        });
    rewriter.replaceOp(op, loop.getResults());
    return success();
  }
};

} // namespace

void populateSortLowering(RewritePatternSet &patterns) {
  patterns.add<SortLowering, TopKLowering, SelectAndScatterLowering>(
      patterns.getContext());
}

} // namespace mlir::torus
