//===- ProgramSpecIO.cpp - ProgramSpec and AOT metadata as JSON -----------===//
//
// The metadata file through nlohmann::json (Debian's nlohmann-json3-dev,
// header only): parsing, and quoting strings when writing. The writer lays
// the file out itself (one key per line, short values inline), as
// docs/torusc.md shows it. No MLIR or LLVM: a program linked only against
// the runtime, without the JIT, reads these files (tests/aot).
//
//===----------------------------------------------------------------------===//

#include "runtime/ProgramSpecIO.h"

#include "support/JsonDepth.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <sstream>

namespace torus::rt {

namespace {

using Json = nlohmann::json;

//===----------------------------------------------------------------------===//
// JSON text, through nlohmann::json
//===----------------------------------------------------------------------===//

/// `text` as a JSON value; errors are `line:column: invalid JSON: ...`.
absl::StatusOr<Json> parseJson(std::string_view text) {
  // nlohmann::json recurses per level: a hostile file must not exhaust the
  // stack (a metadata file nests four levels).
  if (std::optional<size_t> at = jsonTooDeep(text))
    return absl::InvalidArgumentError(fmt::format(
        "{}: invalid JSON: nested too deeply (more than {} levels)",
        textPosition(text, *at), kMaxJsonDepth));
  try {
    return Json::parse(text);
  } catch (const Json::parse_error &error) {
    // "[json.exception.parse_error.N] parse error at line L, column C: why"
    std::string_view what = error.what();
    size_t at = what.find("at line ");
    int line = 0, column = 0, consumed = 0;
    if (at != std::string_view::npos &&
        std::sscanf(what.data() + at, "at line %d, column %d: %n", &line,
                    &column, &consumed) == 2 &&
        consumed > 0)
      return absl::InvalidArgumentError(
          fmt::format("{}:{}: invalid JSON: {}", line, column,
                      what.substr(at + consumed)));
    return absl::InvalidArgumentError(
        fmt::format("{}: invalid JSON: {}",
                    textPosition(text, error.byte ? error.byte - 1 : 0), what));
  } catch (const Json::exception &error) {
    // Not a syntax error but a value the parser cannot hold, such as the
    // number 1e999 (out_of_range.406): "[json.exception.K.N] why".
    std::string_view what = error.what();
    size_t close = what.find("] ");
    return absl::InvalidArgumentError(fmt::format(
        "invalid JSON: {}",
        close == std::string_view::npos ? what : what.substr(close + 2)));
  }
}

std::string_view kindName(const Json &v) {
  switch (v.type()) {
  case Json::value_t::null:
    return "null";
  case Json::value_t::boolean:
    return "a boolean";
  case Json::value_t::number_integer:
  case Json::value_t::number_unsigned:
    return "an integer";
  case Json::value_t::number_float:
    return "a number";
  case Json::value_t::string:
    return "a string";
  case Json::value_t::array:
    return "an array";
  case Json::value_t::object:
    return "an object";
  default:
    return "?";
  }
}

/// `s` as a JSON string literal, quoted and escaped (bytes that are not
/// UTF-8 become U+FFFD).
std::string quote(std::string_view s) {
  return Json(std::string(s))
      .dump(-1, ' ', false, Json::error_handler_t::replace);
}

template <typename T> std::string intList(const std::vector<T> &values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i)
    out += fmt::format("{}{}", i ? ", " : "", values[i]);
  return out + "]";
}

std::string stringList(const std::vector<std::string> &values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i)
    out += (i ? ", " : "") + quote(values[i]);
  return out + "]";
}

std::string specList(const std::vector<TensorSpec> &specs) {
  std::vector<std::string> texts;
  for (const TensorSpec &s : specs)
    texts.push_back(s.toString());
  return stringList(texts);
}

//===----------------------------------------------------------------------===//
// Reading typed fields, with errors naming the key
//===----------------------------------------------------------------------===//

absl::Status typeError(std::string_view path, std::string_view want,
                       const Json &got) {
  return absl::InvalidArgumentError(fmt::format(
      "'{}' must be {}, not {}", path, want, kindName(got)));
}

/// Member `key` of the object `object` (its path `path`, ending in a dot
/// or empty), or null when it is absent and not `required`.
absl::StatusOr<const Json *> member(const Json &object, std::string_view key,
                                    std::string_view path, bool required) {
  auto it = object.find(std::string(key));
  if (it != object.end())
    return &*it;
  if (required)
    return absl::InvalidArgumentError(
        fmt::format("missing required key '{}{}'", path, key));
  return nullptr;
}

absl::StatusOr<std::string> asString(const Json &v, std::string_view path) {
  if (!v.is_string())
    return typeError(path, "a string", v);
  return v.get<std::string>();
}

/// An integer that fits int64_t (JSON's 1.0 is a number, not an integer).
std::optional<int64_t> integerOf(const Json &v) {
  if (v.is_number_unsigned())
    return v.get<uint64_t>() <= uint64_t(std::numeric_limits<int64_t>::max())
               ? std::optional<int64_t>(v.get<int64_t>())
               : std::nullopt;
  if (v.is_number_integer())
    return v.get<int64_t>();
  return std::nullopt;
}

absl::StatusOr<int64_t> asInt(const Json &v, std::string_view path) {
  std::optional<int64_t> n = integerOf(v);
  if (!n)
    return typeError(path, "an integer", v);
  return *n;
}

absl::StatusOr<double> asNumber(const Json &v, std::string_view path) {
  if (!v.is_number())
    return typeError(path, "a number", v);
  return v.get<double>();
}

absl::StatusOr<std::vector<int64_t>> asIntList(const Json &v,
                                               std::string_view path) {
  if (!v.is_array())
    return typeError(path, "an array of integers", v);
  std::vector<int64_t> out;
  for (const Json &e : v) {
    std::optional<int64_t> n = integerOf(e);
    if (!n)
      return typeError(path, "an array of integers", e);
    out.push_back(*n);
  }
  return out;
}

absl::StatusOr<std::vector<std::string>> asStringList(const Json &v,
                                                      std::string_view path) {
  if (!v.is_array())
    return typeError(path, "an array of strings", v);
  std::vector<std::string> out;
  for (const Json &e : v) {
    if (!e.is_string())
      return typeError(path, "an array of strings", e);
    out.push_back(e.get<std::string>());
  }
  return out;
}

absl::StatusOr<std::vector<TensorSpec>> asSpecList(const Json &v,
                                                   std::string_view path) {
  TORUS_ASSIGN_OR_RETURN(auto texts, asStringList(v, path));
  std::vector<TensorSpec> specs;
  for (size_t i = 0; i < texts.size(); ++i) {
    auto spec = parseTensorSpec(texts[i]);
    if (!spec.ok())
      return absl::InvalidArgumentError(
          fmt::format("'{}[{}]': {}", path, i, std::string(spec.status().message())));
    specs.push_back(*spec);
  }
  return specs;
}

/// Inverse of a `...Name(Enum)` function: tries every value until the name
/// reads "?", so kinds added to ProgramSpec.h are read without a change here.
template <typename Enum>
absl::StatusOr<Enum> parseEnum(std::string_view (*nameOf)(Enum),
                               std::string_view name, std::string_view path) {
  std::vector<std::string> known;
  for (int32_t i = 0; i < 256; ++i) {
    std::string_view candidate = nameOf(static_cast<Enum>(i));
    if (candidate == "?")
      break;
    if (candidate == name)
      return static_cast<Enum>(i);
    known.emplace_back(candidate);
  }
  std::string list;
  for (const std::string &k : known)
    list += (list.empty() ? "" : ", ") + k;
  return absl::InvalidArgumentError(fmt::format(
      "'{}': unknown value '{}' (known: {})", path, name, list));
}

//===----------------------------------------------------------------------===//
// ProgramSpec
//===----------------------------------------------------------------------===//

std::string collectiveToJson(const CollectiveSpec &c) {
  // Structured binding: adding a field to CollectiveSpec stops this from
  // compiling, so that the new field is serialized here (and read below).
  const auto &[kind, reduce, operand, result, replicaGroups, dimension,
                splitDimension, concatDimension, splitCount, sourceTargetPairs,
                location] = c;
  std::string groups = "[";
  for (size_t i = 0; i < replicaGroups.size(); ++i)
    groups += (i ? ", " : "") + intList(replicaGroups[i]);
  groups += "]";
  std::string pairs = "[";
  for (size_t i = 0; i < sourceTargetPairs.size(); ++i)
    pairs += fmt::format("{}[{}, {}]", i ? ", " : "",
                         sourceTargetPairs[i].first,
                         sourceTargetPairs[i].second);
  pairs += "]";
  return fmt::format(
      "{{\"kind\": {}, \"reduce\": {}, \"operand\": {}, \"result\": {}, "
      "\"replica_groups\": {}, \"dimension\": {}, \"split_dimension\": {}, "
      "\"concat_dimension\": {}, \"split_count\": {}, "
      "\"source_target_pairs\": {}, \"location\": {}}}",
      quote(collectiveKindName(kind)), quote(reduceKindName(reduce)),
      quote(operand.toString()), quote(result.toString()), groups, dimension,
      splitDimension, concatDimension, splitCount, pairs, quote(location));
}

absl::StatusOr<CollectiveSpec> collectiveFromJson(const Json &v,
                                                  const std::string &path) {
  if (!v.is_object())
    return typeError(path, "an object", v);
  CollectiveSpec c;
  TORUS_ASSIGN_OR_RETURN(const Json *kind, member(v, "kind", path + ".", true));
  TORUS_ASSIGN_OR_RETURN(std::string kindText, asString(*kind, path + ".kind"));
  TORUS_ASSIGN_OR_RETURN(c.kind, parseEnum<CollectiveKind>(
                                     &collectiveKindName, kindText,
                                     path + ".kind"));
  TORUS_ASSIGN_OR_RETURN(const Json *reduce,
                         member(v, "reduce", path + ".", true));
  TORUS_ASSIGN_OR_RETURN(std::string reduceText,
                         asString(*reduce, path + ".reduce"));
  TORUS_ASSIGN_OR_RETURN(c.reduce, parseEnum<ReduceKind>(&reduceKindName,
                                                         reduceText,
                                                         path + ".reduce"));
  TORUS_ASSIGN_OR_RETURN(const Json *operand,
                         member(v, "operand", path + ".", true));
  TORUS_ASSIGN_OR_RETURN(std::string operandText,
                         asString(*operand, path + ".operand"));
  auto spec = parseTensorSpec(operandText);
  if (!spec.ok())
    return absl::InvalidArgumentError(
        fmt::format("'{}.operand': {}", path, std::string(spec.status().message())));
  c.operand = *spec;
  c.result = c.operand;
  TORUS_ASSIGN_OR_RETURN(const Json *result,
                         member(v, "result", path + ".", false));
  if (result) {
    TORUS_ASSIGN_OR_RETURN(std::string resultText,
                           asString(*result, path + ".result"));
    auto resultSpec = parseTensorSpec(resultText);
    if (!resultSpec.ok())
      return absl::InvalidArgumentError(
          fmt::format("'{}.result': {}", path,
                      std::string(resultSpec.status().message())));
    c.result = *resultSpec;
  }
  for (auto [key, field] :
       {std::pair{"dimension", &c.dimension},
        std::pair{"split_dimension", &c.splitDimension},
        std::pair{"concat_dimension", &c.concatDimension},
        std::pair{"split_count", &c.splitCount}}) {
    TORUS_ASSIGN_OR_RETURN(const Json *value,
                           member(v, key, path + ".", false));
    if (value) {
      TORUS_ASSIGN_OR_RETURN(*field, asInt(*value, path + "." + key));
    }
  }
  TORUS_ASSIGN_OR_RETURN(const Json *pairs,
                         member(v, "source_target_pairs", path + ".", false));
  if (pairs) {
    if (!pairs->is_array())
      return typeError(path + ".source_target_pairs", "an array of pairs",
                       *pairs);
    for (size_t i = 0; i < pairs->size(); ++i) {
      std::string where = fmt::format("{}.source_target_pairs[{}]", path, i);
      TORUS_ASSIGN_OR_RETURN(auto pair, asIntList((*pairs)[i], where));
      if (pair.size() != 2)
        return absl::InvalidArgumentError(fmt::format(
            "'{}' must be a [source, target] pair, got {} numbers", where,
            pair.size()));
      c.sourceTargetPairs.emplace_back(pair[0], pair[1]);
    }
  }
  TORUS_ASSIGN_OR_RETURN(const Json *groups,
                         member(v, "replica_groups", path + ".", false));
  if (groups) {
    if (!groups->is_array())
      return typeError(path + ".replica_groups", "an array of arrays", *groups);
    for (size_t i = 0; i < groups->size(); ++i) {
      TORUS_ASSIGN_OR_RETURN(
          auto group, asIntList((*groups)[i],
                                fmt::format("{}.replica_groups[{}]", path, i)));
      c.replicaGroups.push_back(std::move(group));
    }
  }
  TORUS_ASSIGN_OR_RETURN(const Json *location,
                         member(v, "location", path + ".", false));
  if (location) {
    TORUS_ASSIGN_OR_RETURN(c.location, asString(*location, path + ".location"));
  }
  return c;
}

std::string specToJson(const ProgramSpec &spec, std::string_view indent) {
  // See collectiveToJson: a new ProgramSpec field must be serialized here.
  const auto &[name, numReplicas, inputs, outputs, collectives,
               workspaceBytes] = spec;
  std::string out = "{\n";
  out += fmt::format("{}  \"name\": {},\n", indent, quote(name));
  out += fmt::format("{}  \"num_replicas\": {},\n", indent, numReplicas);
  out += fmt::format("{}  \"inputs\": {},\n", indent, specList(inputs));
  out += fmt::format("{}  \"outputs\": {},\n", indent, specList(outputs));
  if (workspaceBytes > 0)
    out += fmt::format("{}  \"workspace_bytes\": {},\n", indent,
                       workspaceBytes);
  out += fmt::format("{}  \"collectives\": [", indent);
  for (size_t i = 0; i < collectives.size(); ++i)
    out += fmt::format("{}\n{}    {}", i ? "," : "", indent,
                       collectiveToJson(collectives[i]));
  out += collectives.empty() ? "]\n" : fmt::format("\n{}  ]\n", indent);
  out += fmt::format("{}}}", indent);
  return out;
}

absl::StatusOr<ProgramSpec> specFromJson(const Json &v,
                                         const std::string &path) {
  if (!v.is_object())
    return typeError(path, "an object", v);
  ProgramSpec spec;
  std::string prefix = path.empty() ? "" : path + ".";
  TORUS_ASSIGN_OR_RETURN(const Json *name, member(v, "name", prefix, true));
  TORUS_ASSIGN_OR_RETURN(spec.name, asString(*name, prefix + "name"));
  TORUS_ASSIGN_OR_RETURN(const Json *replicas,
                         member(v, "num_replicas", prefix, true));
  TORUS_ASSIGN_OR_RETURN(spec.numReplicas,
                         asInt(*replicas, prefix + "num_replicas"));
  if (spec.numReplicas < 1)
    return absl::InvalidArgumentError(fmt::format(
        "'{}num_replicas' must be at least 1, got {}", prefix,
        spec.numReplicas));
  TORUS_ASSIGN_OR_RETURN(const Json *inputs, member(v, "inputs", prefix, true));
  TORUS_ASSIGN_OR_RETURN(spec.inputs, asSpecList(*inputs, prefix + "inputs"));
  TORUS_ASSIGN_OR_RETURN(const Json *outputs,
                         member(v, "outputs", prefix, true));
  TORUS_ASSIGN_OR_RETURN(spec.outputs,
                         asSpecList(*outputs, prefix + "outputs"));
  TORUS_ASSIGN_OR_RETURN(const Json *workspace,
                         member(v, "workspace_bytes", prefix, false));
  if (workspace) {
    TORUS_ASSIGN_OR_RETURN(spec.workspaceBytes,
                           asInt(*workspace, prefix + "workspace_bytes"));
    if (spec.workspaceBytes < 0)
      return absl::InvalidArgumentError(fmt::format(
          "'{}workspace_bytes' must not be negative, got {}", prefix,
          spec.workspaceBytes));
  }
  TORUS_ASSIGN_OR_RETURN(const Json *collectives,
                         member(v, "collectives", prefix, false));
  if (collectives) {
    if (!collectives->is_array())
      return typeError(prefix + "collectives", "an array", *collectives);
    for (size_t i = 0; i < collectives->size(); ++i) {
      TORUS_ASSIGN_OR_RETURN(
          CollectiveSpec c,
          collectiveFromJson((*collectives)[i],
                             fmt::format("{}collectives[{}]", prefix, i)));
      spec.collectives.push_back(std::move(c));
    }
  }
  return spec;
}

} // namespace

absl::StatusOr<TensorSpec> parseTensorSpec(std::string_view text) {
  size_t open = text.find('[');
  if (open == std::string_view::npos || text.empty() || text.back() != ']')
    return absl::InvalidArgumentError(fmt::format(
        "'{}' is not a tensor type such as f32[2,3]", text));
  auto dtype = parseDType(text.substr(0, open));
  if (!dtype)
    return absl::InvalidArgumentError(fmt::format(
        "'{}': unknown element type '{}'", text, text.substr(0, open)));
  TensorSpec spec;
  spec.dtype = *dtype;
  std::string_view dims = text.substr(open + 1, text.size() - open - 2);
  while (!dims.empty()) {
    size_t comma = dims.find(',');
    std::string_view dim = dims.substr(0, comma);
    int64_t value = 0;
    if (dim.empty())
      return absl::InvalidArgumentError(
          fmt::format("'{}': empty dimension", text));
    for (char c : dim) {
      if (!std::isdigit(static_cast<unsigned char>(c)) ||
          value > (std::numeric_limits<int64_t>::max() - 9) / 10)
        return absl::InvalidArgumentError(
            fmt::format("'{}': bad dimension '{}'", text, dim));
      value = value * 10 + (c - '0');
    }
    spec.shape.push_back(value);
    if (comma == std::string_view::npos)
      break;
    dims.remove_prefix(comma + 1);
    if (dims.empty())
      return absl::InvalidArgumentError(
          fmt::format("'{}': empty dimension", text));
  }
  return spec;
}

std::string objectHash(std::string_view bytes) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  return fmt::format("fnv1a64:{:016x}", hash);
}

std::string programSpecToJson(const ProgramSpec &spec) {
  return specToJson(spec, "") + "\n";
}

absl::StatusOr<ProgramSpec> programSpecFromJson(std::string_view text) {
  TORUS_ASSIGN_OR_RETURN(Json value, parseJson(text));
  return specFromJson(value, "");
}

std::string programArtifactToJson(const ProgramArtifact &a) {
  std::string out = "{\n";
  out += fmt::format("  \"format\": \"torus-aot\",\n  \"version\": {},\n",
                     ProgramArtifact::kFormatVersion);
  out += fmt::format("  \"object\": {},\n", quote(a.objectFile));
  if (!a.objectHash.empty())
    out += fmt::format("  \"object_hash\": {},\n", quote(a.objectHash));
  out += fmt::format("  \"entry\": {},\n", quote(a.entrySymbol));
  out += fmt::format("  \"target\": {{\"triple\": {}, \"cpu\": {}, "
                     "\"features\": {}}},\n",
                     quote(a.targetTriple), quote(a.targetCpu),
                     quote(a.targetFeatures));
  out += fmt::format("  \"input_names\": {},\n", stringList(a.inputNames));
  out += fmt::format("  \"device_assignment\": {{\"topology\": {}, "
                     "\"num_partitions\": {}, \"replica_to_core\": {}}},\n",
                     quote(a.topology), a.numPartitions,
                     intList(a.replicaToCore));
  if (a.hasCounts)
    out += fmt::format("  \"counts\": {{\"bf16_flops\": {}, \"f32_flops\": {}, "
                       "\"hbm_bytes\": {}}},\n",
                       a.bf16Flops, a.f32Flops, a.hbmBytes);
  out += "  \"program\": " + specToJson(a.spec, "  ") + "\n}\n";
  return out;
}

absl::StatusOr<ProgramArtifact> programArtifactFromJson(std::string_view text) {
  TORUS_ASSIGN_OR_RETURN(Json v, parseJson(text));
  if (!v.is_object())
    return typeError("(top level)", "an object", v);
  ProgramArtifact a;
  TORUS_ASSIGN_OR_RETURN(const Json *format, member(v, "format", "", true));
  TORUS_ASSIGN_OR_RETURN(std::string formatText, asString(*format, "format"));
  if (formatText != "torus-aot")
    return absl::InvalidArgumentError(fmt::format(
        "'format' is '{}', expected 'torus-aot'", formatText));
  TORUS_ASSIGN_OR_RETURN(const Json *version, member(v, "version", "", true));
  TORUS_ASSIGN_OR_RETURN(int64_t versionNumber, asInt(*version, "version"));
  if (versionNumber != ProgramArtifact::kFormatVersion)
    return absl::InvalidArgumentError(fmt::format(
        "metadata format version {} is not supported (this runtime reads "
        "version {}); recompile with this version's torusc",
        versionNumber, ProgramArtifact::kFormatVersion));
  TORUS_ASSIGN_OR_RETURN(const Json *object, member(v, "object", "", true));
  TORUS_ASSIGN_OR_RETURN(a.objectFile, asString(*object, "object"));
  TORUS_ASSIGN_OR_RETURN(const Json *hash, member(v, "object_hash", "", false));
  if (hash) {
    TORUS_ASSIGN_OR_RETURN(a.objectHash, asString(*hash, "object_hash"));
  }
  TORUS_ASSIGN_OR_RETURN(const Json *entry, member(v, "entry", "", true));
  TORUS_ASSIGN_OR_RETURN(a.entrySymbol, asString(*entry, "entry"));
  TORUS_ASSIGN_OR_RETURN(const Json *target, member(v, "target", "", false));
  if (target) {
    if (!target->is_object())
      return typeError("target", "an object", *target);
    for (auto [key, field] :
         {std::pair{"triple", &a.targetTriple}, std::pair{"cpu", &a.targetCpu},
          std::pair{"features", &a.targetFeatures}}) {
      TORUS_ASSIGN_OR_RETURN(const Json *value,
                             member(*target, key, "target.", false));
      if (value) {
        TORUS_ASSIGN_OR_RETURN(*field,
                               asString(*value, std::string("target.") + key));
      }
    }
  }
  TORUS_ASSIGN_OR_RETURN(const Json *names, member(v, "input_names", "", false));
  if (names) {
    TORUS_ASSIGN_OR_RETURN(a.inputNames, asStringList(*names, "input_names"));
  }
  TORUS_ASSIGN_OR_RETURN(const Json *assignment,
                         member(v, "device_assignment", "", false));
  if (assignment) {
    if (!assignment->is_object())
      return typeError("device_assignment", "an object", *assignment);
    TORUS_ASSIGN_OR_RETURN(
        const Json *topology,
        member(*assignment, "topology", "device_assignment.", false));
    if (topology) {
      TORUS_ASSIGN_OR_RETURN(a.topology,
                             asString(*topology, "device_assignment.topology"));
    }
    TORUS_ASSIGN_OR_RETURN(
        const Json *partitions,
        member(*assignment, "num_partitions", "device_assignment.", false));
    if (partitions) {
      TORUS_ASSIGN_OR_RETURN(
          a.numPartitions,
          asInt(*partitions, "device_assignment.num_partitions"));
    }
    TORUS_ASSIGN_OR_RETURN(
        const Json *cores,
        member(*assignment, "replica_to_core", "device_assignment.", false));
    if (cores) {
      TORUS_ASSIGN_OR_RETURN(
          a.replicaToCore,
          asIntList(*cores, "device_assignment.replica_to_core"));
    }
  }
  TORUS_ASSIGN_OR_RETURN(const Json *counts, member(v, "counts", "", false));
  if (counts) {
    if (!counts->is_object())
      return typeError("counts", "an object", *counts);
    a.hasCounts = true;
    for (auto [key, field] :
         {std::pair{"bf16_flops", &a.bf16Flops},
          std::pair{"f32_flops", &a.f32Flops},
          std::pair{"hbm_bytes", &a.hbmBytes}}) {
      TORUS_ASSIGN_OR_RETURN(const Json *value,
                             member(*counts, key, "counts.", false));
      if (value) {
        TORUS_ASSIGN_OR_RETURN(*field,
                               asNumber(*value, std::string("counts.") + key));
      }
    }
  }
  TORUS_ASSIGN_OR_RETURN(const Json *program, member(v, "program", "", true));
  TORUS_ASSIGN_OR_RETURN(a.spec, specFromJson(*program, "program"));
  if (!a.inputNames.empty() && a.inputNames.size() != a.spec.inputs.size())
    return absl::InvalidArgumentError(fmt::format(
        "'input_names' has {} names for {} inputs", a.inputNames.size(),
        a.spec.inputs.size()));
  if (a.numPartitions < 1)
    return absl::InvalidArgumentError(fmt::format(
        "'device_assignment.num_partitions' must be at least 1, got {}",
        a.numPartitions));
  if (!a.replicaToCore.empty() &&
      static_cast<int64_t>(a.replicaToCore.size()) !=
          a.spec.numReplicas * a.numPartitions)
    return absl::InvalidArgumentError(fmt::format(
        "'device_assignment.replica_to_core' has {} cores for {} replicas x "
        "{} partitions",
        a.replicaToCore.size(), a.spec.numReplicas, a.numPartitions));
  return a;
}

absl::Status writeProgramArtifact(const std::string &path,
                                  const ProgramArtifact &artifact) {
  std::ofstream out(path, std::ios::trunc);
  if (!out)
    return absl::PermissionDeniedError(
        fmt::format("cannot write '{}': {}", path, std::strerror(errno)));
  out << programArtifactToJson(artifact);
  out.close();
  if (!out)
    return absl::DataLossError(fmt::format("cannot write '{}'", path));
  return absl::OkStatus();
}

absl::StatusOr<ProgramArtifact> readProgramArtifact(const std::string &path) {
  std::ifstream in(path);
  if (!in)
    return absl::NotFoundError(
        fmt::format("cannot read '{}': {}", path, std::strerror(errno)));
  std::ostringstream text;
  text << in.rdbuf();
  auto artifact = programArtifactFromJson(text.str());
  if (!artifact.ok())
    return absl::Status(artifact.status().code(),
                        fmt::format("{}: {}", path, std::string(artifact.status().message())));
  return artifact;
}

std::string resolveObjectPath(const std::string &metadataPath,
                              const ProgramArtifact &artifact) {
  std::filesystem::path object(artifact.objectFile);
  if (object.is_absolute())
    return object.string();
  return (std::filesystem::path(metadataPath).parent_path() / object).string();
}

std::string metadataPathForObject(const std::string &objectPath) {
  std::string_view base = objectPath;
  if (base.size() > 2 && base.substr(base.size() - 2) == ".o")
    base.remove_suffix(2);
  return std::string(base) + ".torus.json";
}

} // namespace torus::rt
