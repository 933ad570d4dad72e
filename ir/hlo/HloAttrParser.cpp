//===- HloAttrParser.cpp - Parsing HLO attribute values -------------------===//

#include "ir/hlo/HloAttrParser.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <numeric>

namespace mlir::torus::hlo {

llvm::SmallVector<int64_t> iotaList(llvm::ArrayRef<int64_t> dims,
                                    llvm::ArrayRef<int64_t> perm) {
  int64_t total = 1;
  for (int64_t d : dims)
    total *= d;
  llvm::SmallVector<int64_t> out(total);
  if (perm.empty()) {
    std::iota(out.begin(), out.end(), 0);
    return out;
  }
  // Element at transposed index t is the source element whose index along
  // dims[perm[k]] is t[k].
  size_t rank = dims.size();
  llvm::SmallVector<int64_t> tdims(rank), strides(rank, 1), index(rank, 0);
  for (size_t k = 0; k < rank; ++k)
    tdims[k] = dims[perm[k]];
  for (size_t k = rank - 1; k > 0; --k)
    strides[k - 1] = strides[k] * dims[k];
  for (int64_t i = 0; i < total; ++i) {
    int64_t source = 0;
    for (size_t k = 0; k < rank; ++k)
      source += index[k] * strides[perm[k]];
    out[i] = source;
    for (size_t k = rank; k-- > 0;) {
      if (++index[k] < tdims[k])
        break;
      index[k] = 0;
    }
  }
  return out;
}

std::string Sharding::toString() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  switch (kind) {
  case Kind::Replicated:
    os << "{replicated}";
    break;
  case Kind::Manual:
    os << "{manual}";
    break;
  case Kind::Maximal:
    os << "{maximal device=" << device << "}";
    break;
  case Kind::Tiled:
    os << "{devices=[";
    llvm::interleave(tileShape, os, ",");
    os << "]";
    llvm::interleave(devices, os, ",");
    if (lastTileDimReplicate)
      os << " last_tile_dim_replicate";
    if (!lastTileDims.empty()) {
      os << " last_tile_dims={";
      llvm::interleave(lastTileDims, os, ", ");
      os << "}";
    }
    os << "}";
    break;
  case Kind::Tuple:
    os << "{";
    llvm::interleave(
        elements, os, [&](const Sharding &e) { os << e.toString(); }, ", ");
    os << "}";
    break;
  }
  return text;
}

LogicalResult AttrParser::expected(Cursor &c, llvm::StringRef what) {
  errorAt(c) << "expected " << what << " in the value of '" << attr_.name
             << "'";
  return failure();
}

LogicalResult AttrParser::finish(Cursor &c) {
  if (c.atEnd())
    return success();
  errorAt(c) << "unexpected text '"
             << llvm::StringRef(c.pos, c.end - c.pos).take_front(20)
             << "' in the value of '" << attr_.name << "'";
  return failure();
}

LogicalResult AttrParser::integerAt(Cursor &c, int64_t &value) {
  const char *at = c.loc().getPointer();
  bool overflow = false;
  auto v = c.integer(overflow);
  if (!v)
    return expected(c, "an integer");
  if (overflow) {
    error(at) << "integer out of range in the value of '" << attr_.name << "'";
    return failure();
  }
  value = *v;
  return success();
}

LogicalResult AttrParser::integer(int64_t &value) {
  Cursor c = cursor();
  if (failed(integerAt(c, value)))
    return failure();
  return finish(c);
}

LogicalResult AttrParser::boolean(bool &value) {
  Cursor c = cursor();
  llvm::StringRef w = c.word();
  if (w == "true")
    value = true;
  else if (w == "false")
    value = false;
  else {
    c = cursor();
    return expected(c, "true or false");
  }
  return finish(c);
}

LogicalResult AttrParser::word(llvm::StringRef &value) {
  Cursor c = cursor();
  value = c.word();
  if (value.empty())
    return expected(c, "a name");
  return finish(c);
}

LogicalResult AttrParser::intListAt(Cursor &c,
                                    llvm::SmallVectorImpl<int64_t> &values,
                                    char open, char close) {
  if (!c.consume(open))
    return expected(c, std::string("'") + open + "'");
  if (c.consume(close))
    return success();
  while (true) {
    int64_t v;
    if (failed(integerAt(c, v)))
      return failure();
    values.push_back(v);
    if (c.consume(close))
      return success();
    if (!c.consume(','))
      return expected(c, std::string("',' or '") + close + "'");
  }
}

LogicalResult AttrParser::intList(llvm::SmallVectorImpl<int64_t> &values) {
  Cursor c = cursor();
  if (failed(intListAt(c, values, '{', '}')))
    return failure();
  return finish(c);
}

LogicalResult
AttrParser::intLists(std::vector<llvm::SmallVector<int64_t>> &rows) {
  Cursor c = cursor();
  if (!c.consume('{'))
    return expected(c, "'{'");
  if (!c.consume('}')) {
    while (true) {
      rows.emplace_back();
      if (failed(intListAt(c, rows.back(), '{', '}')))
        return failure();
      if (c.consume('}'))
        break;
      if (!c.consume(','))
        return expected(c, "',' or '}'");
    }
  }
  return finish(c);
}

// `mesh['x'=2,'y'=4] {'x'}`: the devices of a mesh (ids in row-major order
// over its axes), one group per combination of the other axes' indices,
// each group the devices along the named axes (in the order named).
LogicalResult
AttrParser::meshReplicaGroups(Cursor &c,
                              std::vector<llvm::SmallVector<int64_t>> &groups) {
  if (!c.consume('['))
    return expected(c, "'[' after 'mesh'");
  llvm::SmallVector<std::string> names;
  llvm::SmallVector<int64_t> sizes;
  int64_t total = 1;
  while (!c.consume(']')) {
    if (!names.empty() && !c.consume(','))
      return expected(c, "',' or ']' in the mesh");
    std::string name;
    if (c.peek() == '\'') {
      ++c.pos;
      while (c.pos < c.end && *c.pos != '\'')
        name.push_back(*c.pos++);
      if (!c.consume('\''))
        return expected(c, "a closing quote");
    } else {
      name = c.word().str();
    }
    if (name.empty() || !c.consume('='))
      return expected(c, "an axis 'name'=size");
    int64_t size;
    if (failed(integerAt(c, size)))
      return failure();
    if (size < 1 || size > (1 << 16) || total * size > (1 << 16))
      return expected(c, "an axis size between 1 and 65536 devices");
    total *= size;
    names.push_back(name);
    sizes.push_back(size);
  }
  if (!c.consume('{'))
    return expected(c, "'{' naming the mesh axes of a group");
  llvm::SmallVector<int64_t> chosen;
  while (!c.consume('}')) {
    if (!chosen.empty() && !c.consume(','))
      return expected(c, "',' or '}' in the axes");
    std::string name;
    if (c.consume('\'')) {
      while (c.pos < c.end && *c.pos != '\'')
        name.push_back(*c.pos++);
      if (!c.consume('\''))
        return expected(c, "a closing quote");
    } else {
      name = c.word().str();
    }
    auto it = llvm::find(names, name);
    if (it == names.end() || llvm::is_contained(chosen, it - names.begin()))
      return expected(c, "an axis of the mesh, once");
    chosen.push_back(it - names.begin());
  }
  if (failed(finish(c)))
    return failure();
  // Row-major strides of the mesh.
  int64_t rank = sizes.size();
  llvm::SmallVector<int64_t> strides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * sizes[d + 1];
  llvm::SmallVector<int64_t> others;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(chosen, d))
      others.push_back(d);
  auto forEach = [&](llvm::ArrayRef<int64_t> axes, auto fn) {
    llvm::SmallVector<int64_t> index(axes.size(), 0);
    while (true) {
      int64_t offset = 0;
      for (size_t k = 0; k < axes.size(); ++k)
        offset += index[k] * strides[axes[k]];
      fn(offset);
      int64_t k = static_cast<int64_t>(axes.size()) - 1;
      for (; k >= 0; --k) {
        if (++index[k] < sizes[axes[k]])
          break;
        index[k] = 0;
      }
      if (k < 0)
        return;
    }
  };
  forEach(others, [&](int64_t base) {
    groups.emplace_back();
    forEach(chosen, [&](int64_t offset) { groups.back().push_back(base + offset); });
  });
  return success();
}

LogicalResult
AttrParser::replicaGroups(std::vector<llvm::SmallVector<int64_t>> &groups) {
  Cursor c = cursor();
  if (c.consumeKeyword("mesh"))
    return meshReplicaGroups(c, groups);
  if (c.peek() != '[')
    return intLists(groups);
  // [G,S]<=[dims] or [G,S]<=[dims]T(perm)
  llvm::SmallVector<int64_t> shape, dims, perm;
  const char *at = c.loc().getPointer();
  if (failed(intListAt(c, shape, '[', ']')))
    return failure();
  if (shape.size() != 2 || shape[0] < 0 || shape[1] < 0 ||
      shape[0] > (int64_t(1) << 20) || shape[1] > (int64_t(1) << 20)) {
    error(at) << "iota replica groups need a [groups,size] shape in '"
              << attr_.name << "'";
    return failure();
  }
  if (!c.consume("<="))
    return expected(c, "'<='");
  const char *dimsAt = c.loc().getPointer();
  if (failed(intListAt(c, dims, '[', ']')))
    return failure();
  if (c.consume('T') && failed(intListAt(c, perm, '(', ')')))
    return failure();
  if (failed(finish(c)))
    return failure();
  int64_t total = 1;
  for (int64_t d : dims) {
    if (d < 0 || d > (int64_t(1) << 20) || total > (int64_t(1) << 20)) {
      error(dimsAt) << "iota dimensions out of range in '" << attr_.name << "'";
      return failure();
    }
    total *= d;
  }
  if (shape[0] < 0 || shape[1] < 0 || shape[0] * shape[1] != total) {
    error(at) << "iota replica groups [" << shape[0] << "," << shape[1]
              << "] do not hold the " << total << " ids of <=[...]";
    return failure();
  }
  if (!perm.empty()) {
    llvm::SmallVector<int64_t> sorted(perm);
    llvm::sort(sorted);
    bool valid = sorted.size() == dims.size();
    for (size_t i = 0; valid && i < sorted.size(); ++i)
      valid = sorted[i] == static_cast<int64_t>(i);
    if (!valid) {
      error(dimsAt) << "T(...) must be a permutation of the iota dimensions";
      return failure();
    }
  }
  llvm::SmallVector<int64_t> ids = iotaList(dims, perm);
  for (int64_t g = 0; g < shape[0]; ++g)
    groups.emplace_back(ids.begin() + g * shape[1],
                        ids.begin() + (g + 1) * shape[1]);
  return success();
}

LogicalResult AttrParser::slice(llvm::SmallVectorImpl<int64_t> &start,
                                llvm::SmallVectorImpl<int64_t> &limit,
                                llvm::SmallVectorImpl<int64_t> &stride) {
  Cursor c = cursor();
  if (!c.consume('{'))
    return expected(c, "'{'");
  if (!c.consume('}')) {
    while (true) {
      int64_t s, l, st = 1;
      if (!c.consume('['))
        return expected(c, "'['");
      if (failed(integerAt(c, s)))
        return failure();
      if (!c.consume(':'))
        return expected(c, "':'");
      if (failed(integerAt(c, l)))
        return failure();
      if (c.consume(':') && failed(integerAt(c, st)))
        return failure();
      if (!c.consume(']'))
        return expected(c, "']'");
      start.push_back(s);
      limit.push_back(l);
      stride.push_back(st);
      if (c.consume('}'))
        break;
      if (!c.consume(','))
        return expected(c, "',' or '}'");
    }
  }
  return finish(c);
}

LogicalResult AttrParser::padding(llvm::SmallVectorImpl<int64_t> &low,
                                  llvm::SmallVectorImpl<int64_t> &high,
                                  llvm::SmallVectorImpl<int64_t> &interior) {
  Cursor c = cursor();
  while (true) {
    int64_t lo, hi, in = 0;
    if (failed(integerAt(c, lo)))
      return failure();
    if (!c.consume('_'))
      return expected(c, "'_'");
    if (failed(integerAt(c, hi)))
      return failure();
    if (c.consume('_') && failed(integerAt(c, in)))
      return failure();
    low.push_back(lo);
    high.push_back(hi);
    interior.push_back(in);
    if (!c.consume('x'))
      break;
  }
  return finish(c);
}

LogicalResult AttrParser::xList(Cursor &c,
                                llvm::SmallVectorImpl<int64_t> &values) {
  while (true) {
    int64_t v;
    if (failed(integerAt(c, v)))
      return failure();
    values.push_back(v);
    if (c.pos >= c.end || *c.pos != 'x')
      return success();
    ++c.pos;
  }
}

LogicalResult AttrParser::window(llvm::SmallVectorImpl<WindowDim> &dims) {
  Cursor c = cursor();
  if (!c.consume('{'))
    return expected(c, "'{'");
  llvm::SmallVector<int64_t> size, stride, lhs, rhs, reversal;
  llvm::SmallVector<std::pair<int64_t, int64_t>> pad;
  bool sawSize = false;
  while (!c.consume('}')) {
    const char *keyAt = c.loc().getPointer();
    llvm::StringRef key = c.word();
    if (key.empty())
      return expected(c, "a window field or '}'");
    if (!c.consume('='))
      return expected(c, "'='");
    llvm::SmallVector<int64_t> values;
    if (key == "pad") {
      while (true) {
        int64_t lo, hi;
        if (failed(integerAt(c, lo)))
          return failure();
        if (!c.consume('_'))
          return expected(c, "'_'");
        if (failed(integerAt(c, hi)))
          return failure();
        pad.push_back({lo, hi});
        if (c.pos >= c.end || *c.pos != 'x')
          break;
        ++c.pos;
      }
      continue;
    }
    if (failed(xList(c, values)))
      return failure();
    if (key == "size") {
      size = values;
      sawSize = true;
    } else if (key == "stride") {
      stride = values;
    } else if (key == "lhs_dilate") {
      lhs = values;
    } else if (key == "rhs_dilate") {
      rhs = values;
    } else if (key == "rhs_reversal") {
      reversal = values;
    } else {
      error(keyAt) << "unsupported window field '" << key << "'";
      return failure();
    }
  }
  if (failed(finish(c)))
    return failure();
  if (!sawSize) {
    error(attr_.value.begin()) << "window has no size";
    return failure();
  }
  size_t rank = size.size();
  auto check = [&](size_t n, llvm::StringRef what) -> LogicalResult {
    if (n == 0 || n == rank)
      return success();
    error(attr_.value.begin()) << "window " << what << " has " << n
                               << " dimensions, size has " << rank;
    return failure();
  };
  if (failed(check(stride.size(), "stride")) ||
      failed(check(pad.size(), "pad")) ||
      failed(check(lhs.size(), "lhs_dilate")) ||
      failed(check(rhs.size(), "rhs_dilate")) ||
      failed(check(reversal.size(), "rhs_reversal")))
    return failure();
  for (size_t i = 0; i < rank; ++i) {
    WindowDim d;
    d.size = size[i];
    if (!stride.empty())
      d.stride = stride[i];
    if (!pad.empty()) {
      d.padLow = pad[i].first;
      d.padHigh = pad[i].second;
    }
    if (!lhs.empty())
      d.lhsDilate = lhs[i];
    if (!rhs.empty())
      d.rhsDilate = rhs[i];
    if (!reversal.empty())
      d.reversal = reversal[i] != 0;
    dims.push_back(d);
  }
  return success();
}

LogicalResult AttrParser::dimLabels(DimLabels &labels) {
  llvm::StringRef text = attr_.value.trim();
  size_t underscore = text.find('_');
  size_t arrow = text.find("->");
  if (underscore == llvm::StringRef::npos || arrow == llvm::StringRef::npos ||
      arrow < underscore) {
    error(attr_.value.begin())
        << "expected dim_labels like b01f_01io->b01f, found '" << text << "'";
    return failure();
  }
  auto parsePart =
      [&](llvm::StringRef part, char a, char b, int64_t &posA, int64_t &posB,
          llvm::SmallVectorImpl<int64_t> &spatial) -> LogicalResult {
    llvm::SmallVector<int64_t> at(part.size(), -1);
    for (size_t i = 0; i < part.size(); ++i) {
      char ch = part[i];
      int64_t *slot = ch == a ? &posA : ch == b ? &posB : nullptr;
      if (slot) {
        if (*slot >= 0) {
          error(part.data() + i)
              << "'" << ch << "' appears twice in '" << part << "'";
          return failure();
        }
        *slot = i;
      } else if (llvm::isDigit(ch) &&
                 static_cast<size_t>(ch - '0') < part.size()) {
        if (at[ch - '0'] >= 0) {
          error(part.data() + i) << "spatial dimension " << ch
                                 << " appears twice in '" << part << "'";
          return failure();
        }
        at[ch - '0'] = i;
      } else {
        error(part.data() + i)
            << "unexpected '" << ch << "' in dim_labels '" << part << "'";
        return failure();
      }
    }
    if (posA < 0 || posB < 0) {
      error(part.data()) << "dim_labels '" << part << "' needs '" << a
                         << "' and '" << b << "'";
      return failure();
    }
    size_t numSpatial = part.size() - 2;
    for (size_t k = 0; k < numSpatial; ++k) {
      if (at[k] < 0) {
        error(part.data()) << "dim_labels '" << part
                           << "' must number its spatial dimensions 0 to "
                           << numSpatial - 1;
        return failure();
      }
      spatial.push_back(at[k]);
    }
    return success();
  };
  return failure(
      failed(parsePart(text.substr(0, underscore), 'b', 'f', labels.inputBatch,
                       labels.inputFeature, labels.inputSpatial)) ||
      failed(parsePart(text.substr(underscore + 1, arrow - underscore - 1), 'i',
                       'o', labels.kernelInput, labels.kernelOutput,
                       labels.kernelSpatial)) ||
      failed(parsePart(text.substr(arrow + 2), 'b', 'f', labels.outputBatch,
                       labels.outputFeature, labels.outputSpatial)));
}

LogicalResult AttrParser::computation(llvm::StringRef &name) {
  Cursor c = cursor();
  name = c.name();
  if (name.empty())
    return expected(c, "a computation name");
  return finish(c);
}

LogicalResult
AttrParser::computations(llvm::SmallVectorImpl<llvm::StringRef> &names) {
  Cursor c = cursor();
  if (!c.consume('{'))
    return expected(c, "'{'");
  if (!c.consume('}')) {
    while (true) {
      llvm::StringRef n = c.name();
      if (n.empty())
        return expected(c, "a computation name");
      names.push_back(n);
      if (c.consume('}'))
        break;
      if (!c.consume(','))
        return expected(c, "',' or '}'");
    }
  }
  return finish(c);
}

LogicalResult AttrParser::quoted(Cursor &c, std::string &value) {
  if (!c.consume('"'))
    return expected(c, "a string");
  while (c.pos < c.end && *c.pos != '"') {
    char ch = *c.pos++;
    if (ch == '\\' && c.pos < c.end) {
      char e = *c.pos++;
      ch = e == 'n' ? '\n' : e == 't' ? '\t' : e;
    }
    value.push_back(ch);
  }
  if (c.pos >= c.end)
    return expected(c, "'\"' to end the string");
  ++c.pos;
  return success();
}

LogicalResult AttrParser::string(std::string &value) {
  Cursor c = cursor();
  if (failed(quoted(c, value)))
    return failure();
  return finish(c);
}

LogicalResult AttrParser::metadata(Metadata &metadata) {
  Cursor c = cursor();
  if (!c.consume('{'))
    return expected(c, "'{'");
  while (!c.consume('}')) {
    llvm::StringRef key = c.word();
    if (key.empty())
      return expected(c, "a metadata field or '}'");
    if (!c.consume('='))
      return expected(c, "'='");
    if (c.peek() == '"') {
      std::string value;
      if (failed(quoted(c, value)))
        return failure();
      if (key == "op_name")
        metadata.opName = value;
      else if (key == "source_file")
        metadata.sourceFile = value;
    } else if (c.peek() == '{') {
      bool unbalanced = false;
      ++c.pos;
      int depth = 1;
      while (c.pos < c.end && depth > 0) {
        if (*c.pos == '{')
          ++depth;
        else if (*c.pos == '}')
          --depth;
        ++c.pos;
      }
      if (depth > 0 || unbalanced)
        return expected(c, "'}'");
    } else {
      const char *at = c.loc().getPointer();
      llvm::StringRef token = c.numberToken();
      if (token.empty())
        return expected(c, "a value");
      int64_t *field = key == "source_line"      ? &metadata.sourceLine
                       : key == "source_column"  ? &metadata.sourceColumn
                       : key == "stack_frame_id" ? &metadata.stackFrameId
                                                 : nullptr;
      if (field && (token.getAsInteger(10, *field) || *field < 0)) {
        error(at) << key << " must be a non-negative integer";
        return failure();
      }
      if (key == "stack_frame_id")
        metadata.stackFrameIdAt = at;
    }
  }
  return finish(c);
}

LogicalResult AttrParser::singleSharding(Cursor &c, Sharding &s) {
  const char *at = c.loc().getPointer();
  llvm::StringRef kind = c.word();
  if (kind == "replicated") {
    s.kind = Sharding::Kind::Replicated;
  } else if (kind == "manual") {
    s.kind = Sharding::Kind::Manual;
  } else if (kind == "maximal") {
    s.kind = Sharding::Kind::Maximal;
    if (!c.consumeKeyword("device") || !c.consume('='))
      return expected(c, "'device='");
    if (failed(integerAt(c, s.device)))
      return failure();
    if (s.device < 0) {
      error(at) << "negative device in sharding";
      return failure();
    }
  } else if (kind == "devices") {
    s.kind = Sharding::Kind::Tiled;
    if (!c.consume('='))
      return expected(c, "'='");
    const char *shapeAt = c.loc().getPointer();
    if (failed(intListAt(c, s.tileShape, '[', ']')))
      return failure();
    int64_t total = 1;
    for (int64_t d : s.tileShape) {
      if (d <= 0 || d > (int64_t(1) << 20) || total > (int64_t(1) << 20)) {
        error(shapeAt) << "tile assignment dimensions out of range";
        return failure();
      }
      total *= d;
    }
    if (c.consume("<=")) {
      llvm::SmallVector<int64_t> dims, perm;
      const char *dimsAt = c.loc().getPointer();
      if (failed(intListAt(c, dims, '[', ']')))
        return failure();
      if (c.consume('T') && failed(intListAt(c, perm, '(', ')')))
        return failure();
      int64_t n = 1;
      for (int64_t d : dims) {
        if (d <= 0 || d > (int64_t(1) << 20) || n > (int64_t(1) << 20)) {
          error(dimsAt) << "iota dimensions out of range";
          return failure();
        }
        n *= d;
      }
      llvm::SmallVector<int64_t> sorted(perm);
      llvm::sort(sorted);
      bool valid = perm.empty() || sorted.size() == dims.size();
      for (size_t i = 0; valid && i < sorted.size(); ++i)
        valid = sorted[i] == static_cast<int64_t>(i);
      if (!valid) {
        error(dimsAt) << "T(...) must be a permutation of the iota "
                         "dimensions";
        return failure();
      }
      if (n != total) {
        error(dimsAt) << "the iota device list has " << n
                      << " devices, the tile assignment " << total;
        return failure();
      }
      s.devices = iotaList(dims, perm);
    } else {
      while (true) {
        int64_t d;
        if (failed(integerAt(c, d)))
          return failure();
        if (d < 0) {
          error(at) << "negative device in sharding";
          return failure();
        }
        s.devices.push_back(d);
        if (!c.consume(','))
          break;
      }
      if (static_cast<int64_t>(s.devices.size()) != total) {
        error(shapeAt) << "the tile assignment has " << total << " tiles but "
                       << s.devices.size() << " devices are listed";
        return failure();
      }
    }
  } else {
    error(at) << "unsupported sharding '" << kind << "'";
    return failure();
  }
  // Modifiers.
  while (c.peek() != '}' && !c.atEnd()) {
    const char *modAt = c.loc().getPointer();
    llvm::StringRef mod = c.word();
    if (mod == "last_tile_dim_replicate" && s.kind == Sharding::Kind::Tiled) {
      s.lastTileDimReplicate = true;
    } else if (mod == "last_tile_dims" && s.kind == Sharding::Kind::Tiled) {
      if (!c.consume('=') || !c.consume('{'))
        return expected(c, "'={'");
      while (!c.consume('}')) {
        llvm::StringRef t = c.word();
        if (t != "manual" && t != "replicated") {
          error(modAt) << "unsupported last_tile_dims entry '" << t << "'";
          return failure();
        }
        s.lastTileDims.push_back(t.str());
        c.consume(',');
      }
    } else if (mod == "metadata") {
      // Sharding metadata names where the sharding came from; dropped.
      if (!c.consume('=') || !c.consume('{'))
        return expected(c, "'={'");
      int depth = 1;
      while (c.pos < c.end && depth > 0) {
        if (*c.pos == '{')
          ++depth;
        else if (*c.pos == '}')
          --depth;
        ++c.pos;
      }
    } else {
      error(modAt) << "unsupported sharding attribute '"
                   << (mod.empty() ? llvm::StringRef(modAt, 1) : mod) << "'";
      return failure();
    }
  }
  size_t extra = s.lastTileDims.size() + (s.lastTileDimReplicate ? 1 : 0);
  if (s.kind == Sharding::Kind::Tiled && extra >= s.tileShape.size() + 1) {
    error(at) << "sharding has more subgroup dimensions than tile dimensions";
    return failure();
  }
  return success();
}

LogicalResult AttrParser::shardingAt(Cursor &c, Sharding &s, int depth) {
  if (depth > 16)
    return expected(c, "a less deeply nested sharding");
  if (!c.consume('{'))
    return expected(c, "'{'");
  if (c.peek() == '{' || c.peek() == '}') {
    s.kind = Sharding::Kind::Tuple;
    if (c.consume('}'))
      return success();
    while (true) {
      s.elements.emplace_back();
      if (failed(shardingAt(c, s.elements.back(), depth + 1)))
        return failure();
      if (c.consume('}'))
        return success();
      if (!c.consume(','))
        return expected(c, "',' or '}'");
    }
  }
  if (failed(singleSharding(c, s)))
    return failure();
  if (!c.consume('}'))
    return expected(c, "'}'");
  return success();
}

LogicalResult AttrParser::sharding(Sharding &sharding) {
  Cursor c = cursor();
  if (failed(shardingAt(c, sharding, 0)))
    return failure();
  return finish(c);
}

} // namespace mlir::torus::hlo
