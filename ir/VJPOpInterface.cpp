//===- VJPOpInterface.cpp - Each op's gradient rule -----------------------===//

#include "ir/VJPOpInterface.h"

#include "ir/VJPOpInterface.cpp.inc"
