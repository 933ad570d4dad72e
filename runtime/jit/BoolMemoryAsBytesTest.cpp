//===- BoolMemoryAsBytesTest.cpp - i1 loads and stores as bytes -----------===//

#include "runtime/jit/BoolMemoryAsBytes.h"
#include "runtime/jit/JitModule.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace torus::rt {
namespace {

/// void select(const bool *pred, const float *x, float *y, bool *notPred,
///             int64 n): y[i] = pred[i] ? x[i] : -1, notPred[i] = !pred[i]
/// for i < n, with the pred read and written as i1.
llvm::Function *buildSelect(llvm::Module &module) {
  llvm::LLVMContext &context = module.getContext();
  llvm::IRBuilder<> b(context);
  llvm::Type *ptr = b.getPtrTy();
  auto *type = llvm::FunctionType::get(
      b.getVoidTy(), {ptr, ptr, ptr, ptr, b.getInt64Ty()}, false);
  auto *f = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                                   "select", module);
  auto *entry = llvm::BasicBlock::Create(context, "entry", f);
  auto *loop = llvm::BasicBlock::Create(context, "loop", f);
  auto *exit = llvm::BasicBlock::Create(context, "exit", f);
  b.SetInsertPoint(entry);
  b.CreateCondBr(b.CreateICmpSGT(f->getArg(4), b.getInt64(0)), loop, exit);
  b.SetInsertPoint(loop);
  llvm::PHINode *i = b.CreatePHI(b.getInt64Ty(), 2);
  i->addIncoming(b.getInt64(0), entry);
  llvm::Value *p = b.CreateLoad(
      b.getInt1Ty(), b.CreateGEP(b.getInt1Ty(), f->getArg(0), i));
  llvm::Value *x =
      b.CreateLoad(b.getFloatTy(), b.CreateGEP(b.getFloatTy(), f->getArg(1), i));
  b.CreateStore(b.CreateSelect(p, x, llvm::ConstantFP::get(b.getFloatTy(), -1)),
                b.CreateGEP(b.getFloatTy(), f->getArg(2), i));
  b.CreateStore(b.CreateNot(p), b.CreateGEP(b.getInt1Ty(), f->getArg(3), i));
  llvm::Value *next = b.CreateAdd(i, b.getInt64(1));
  i->addIncoming(next, loop);
  b.CreateCondBr(b.CreateICmpSLT(next, f->getArg(4)), loop, exit);
  b.SetInsertPoint(exit);
  b.CreateRetVoid();
  return f;
}

TEST(BoolMemoryAsBytesTest, ReadsAndWritesEveryI1AsAByte) {
  llvm::LLVMContext context;
  llvm::Module module("m", context);
  llvm::Function *f = buildSelect(module);
  llvm::FunctionAnalysisManager fam;
  BoolMemoryAsBytesPass().run(*f, fam);
  int byteLoads = 0, byteStores = 0, compares = 0;
  for (llvm::Instruction &inst : llvm::instructions(*f)) {
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst)) {
      EXPECT_FALSE(load->getType()->isIntegerTy(1));
      byteLoads += load->getType()->isIntegerTy(8);
    }
    if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst)) {
      EXPECT_FALSE(store->getValueOperand()->getType()->isIntegerTy(1));
      byteStores += store->getValueOperand()->getType()->isIntegerTy(8);
    }
    if (auto *cmp = llvm::dyn_cast<llvm::ICmpInst>(&inst))
      compares += cmp->getPredicate() == llvm::ICmpInst::ICMP_NE;
  }
  EXPECT_EQ(byteLoads, 1);
  EXPECT_EQ(byteStores, 1);
  EXPECT_EQ(compares, 1);
}

TEST(BoolMemoryAsBytesTest, OptimizedCodeTakesAnyNonZeroByteAsTrue) {
  // Through the JIT's -O3 pipeline (which runs the pass first), over 100
  // elements: the vectorized loop and its remainder.
  auto context = std::make_unique<llvm::LLVMContext>();
  auto module = std::make_unique<llvm::Module>("m", *context);
  buildSelect(*module);
  JitOptions options;
  options.optLevel = 3;
  auto jit = JitModule::load(std::move(context), std::move(module), options);
  ASSERT_TRUE(jit.ok()) << jit.status();
  auto fn = (*jit)->lookup("select");
  ASSERT_TRUE(fn.ok()) << fn.status();
  using Select = void (*)(const uint8_t *, const float *, float *, uint8_t *,
                          int64_t);
  constexpr int64_t n = 100;
  uint8_t pred[n], notPred[n];
  float x[n], y[n];
  for (int64_t i = 0; i < n; ++i) {
    pred[i] = static_cast<uint8_t>(i % 3); // 0, 1, 2
    x[i] = static_cast<float>(i);
  }
  reinterpret_cast<Select>(*fn)(pred, x, y, notPred, n);
  for (int64_t i = 0; i < n; ++i) {
    EXPECT_EQ(y[i], pred[i] ? x[i] : -1.0f) << "element " << i;
    EXPECT_EQ(notPred[i], pred[i] ? 0 : 1) << "element " << i;
  }
}

} // namespace
} // namespace torus::rt
