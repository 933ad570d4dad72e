//===- Values.cpp - Distributed values ------------------------------------===//

#include "torus/distribute/Values.h"

namespace torus::distribute {

std::string PerReplica::toString() const {
  std::string s = isMirrored() ? "Mirrored:{\n" : "PerReplica:{\n";
  for (size_t i = 0; i < values_.size(); ++i) {
    s += "  " + std::to_string(i) + ": " + values_[i].toString();
    s += i + 1 < values_.size() ? ",\n" : "\n";
  }
  return s + "}";
}

} // namespace torus::distribute
