//===- BoolMemoryAsBytes.cpp - i1 loads and stores as bytes ---------------===//

#include "runtime/jit/BoolMemoryAsBytes.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

namespace torus::rt {

namespace {

bool isBool(llvm::Type *type) { return type->isIntegerTy(1); }

} // namespace

llvm::PreservedAnalyses
BoolMemoryAsBytesPass::run(llvm::Function &function,
                           llvm::FunctionAnalysisManager &) {
  llvm::SmallVector<llvm::Instruction *> bools;
  for (llvm::Instruction &inst : llvm::instructions(function)) {
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst);
        load && load->isSimple() && isBool(load->getType()))
      bools.push_back(load);
    if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst);
        store && store->isSimple() &&
        isBool(store->getValueOperand()->getType()))
      bools.push_back(store);
  }
  if (bools.empty())
    return llvm::PreservedAnalyses::all();
  llvm::Type *byte = llvm::Type::getInt8Ty(function.getContext());
  for (llvm::Instruction *inst : bools) {
    llvm::IRBuilder<> b(inst);
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(inst)) {
      llvm::LoadInst *wide = b.CreateAlignedLoad(
          byte, load->getPointerOperand(), load->getAlign());
      wide->copyMetadata(*load);
      llvm::Value *value =
          b.CreateICmpNE(wide, llvm::ConstantInt::get(byte, 0));
      load->replaceAllUsesWith(value);
      value->takeName(load);
    } else {
      auto *store = llvm::cast<llvm::StoreInst>(inst);
      llvm::StoreInst *wide = b.CreateAlignedStore(
          b.CreateZExt(store->getValueOperand(), byte),
          store->getPointerOperand(), store->getAlign());
      wide->copyMetadata(*store);
    }
    inst->eraseFromParent();
  }
  llvm::PreservedAnalyses kept;
  kept.preserveSet<llvm::CFGAnalyses>();
  return kept;
}

} // namespace torus::rt
