//===- SliceSpec.cpp - Presets and custom mesh strings --------------------===//
//
// Preset shapes follow the Cloud TPU configuration tables (sources in
// docs/tpu-topology.md). Wraparound: v2, v3 and v5e slices are 2-D tori only
// along a dimension that spans the whole pod; v4 and v5p slices built from
// whole 4x4x4 cubes (every dimension a multiple of 4) are 3-D tori, smaller
// ones are meshes.
//
//===----------------------------------------------------------------------===//
#include "runtime/mesh/SliceSpec.h"

#include <charconv>
#include <limits>

#include "fmt/format.h"
#include "runtime/mesh/TpuGeneration.h"

namespace torus::rt {
namespace {

// Splits `text` at every `separator` (empty fields kept).
std::vector<std::string_view> splitOn(std::string_view text, char separator) {
  std::vector<std::string_view> fields;
  size_t start = 0;
  while (true) {
    size_t end = text.find(separator, start);
    fields.push_back(text.substr(start, end == std::string_view::npos
                                            ? std::string_view::npos
                                            : end - start));
    if (end == std::string_view::npos)
      return fields;
    start = end + 1;
  }
}

struct Preset {
  std::string_view name;
  TpuVersion version;
  std::array<int32_t, 3> chips;
};

// Names count TensorCores for v2/v3/v4/v5p and chips for v5e and v6e, as Cloud TPU
// accelerator types do.
constexpr Preset kPresets[] = {
    {"v2-8", TpuVersion::V2, {2, 2, 1}},
    {"v2-32", TpuVersion::V2, {4, 4, 1}},
    {"v2-512", TpuVersion::V2, {16, 16, 1}},
    {"v3-8", TpuVersion::V3, {2, 2, 1}},
    {"v3-32", TpuVersion::V3, {4, 4, 1}},
    {"v3-2048", TpuVersion::V3, {32, 32, 1}},
    {"v4-8", TpuVersion::V4, {2, 2, 1}},
    {"v4-16", TpuVersion::V4, {2, 2, 2}},
    {"v4-32", TpuVersion::V4, {2, 2, 4}},
    {"v4-128", TpuVersion::V4, {4, 4, 4}},
    {"v4-2048", TpuVersion::V4, {8, 8, 16}},
    {"v5e-8", TpuVersion::V5e, {2, 4, 1}},
    {"v5e-32", TpuVersion::V5e, {4, 8, 1}},
    {"v5e-256", TpuVersion::V5e, {16, 16, 1}},
    {"v5p-8", TpuVersion::V5p, {2, 2, 1}},
    {"v5p-128", TpuVersion::V5p, {4, 4, 4}},
    {"v6e-8", TpuVersion::V6e, {2, 4, 1}},
    {"v6e-256", TpuVersion::V6e, {16, 16, 1}},
};

std::array<bool, 3> presetWraparound(const TpuGeneration &generation,
                                     const std::array<int32_t, 3> &chips) {
  std::array<bool, 3> wrap = {false, false, false};
  if (generation.torusRank == 3) {
    bool wholeCubes = chips[0] % 4 == 0 && chips[1] % 4 == 0 &&
                      chips[2] % 4 == 0;
    wrap = {wholeCubes, wholeCubes, wholeCubes};
  } else {
    for (int d = 0; d < 2; ++d)
      wrap[d] = chips[d] == generation.podChips[d] && chips[d] > 1;
  }
  return wrap;
}

std::string presetList() {
  return fmt::format("{}", fmt::join(presetNames(), ", "));
}

constexpr std::string_view kMeshGrammar =
    "expected \"XxYxZxC\" (chips along x, y, z and cores per chip, each a "
    "positive integer), optionally followed by \"/HXxHYxHZ\" (the chips one "
    "host owns) and \":wrap=DIMS\" (DIMS a subset of \"xyz\"), e.g. "
    "\"2x2x1x2\" or \"4x4x1x2/2x2x1:wrap=xy\"";

absl::Status meshError(std::string_view text, std::string_view what) {
  return absl::InvalidArgumentError(
      fmt::format("invalid mesh \"{}\": {}; {}", text, what, kMeshGrammar));
}

// Parses "AxBx..." into exactly `count` positive int32 values.
absl::StatusOr<std::vector<int32_t>>
parseDims(std::string_view text, std::string_view part, size_t count,
          std::string_view what) {
  std::vector<std::string_view> fields = splitOn(part, 'x');
  if (fields.size() != count)
    return meshError(text, fmt::format("{} needs {} fields separated by 'x', "
                                       "got {} in \"{}\"",
                                       what, count, fields.size(), part));
  std::vector<int32_t> dims;
  for (std::string_view field : fields) {
    int64_t value = 0;
    auto [end, ec] =
        std::from_chars(field.data(), field.data() + field.size(), value);
    if (field.empty() || ec == std::errc::invalid_argument ||
        end != field.data() + field.size())
      return meshError(text, fmt::format("\"{}\" in {} is not an integer",
                                         field, what));
    if (ec == std::errc::result_out_of_range ||
        value > std::numeric_limits<int32_t>::max())
      return meshError(text, fmt::format("{} in {} is too large", field, what));
    if (value < 1)
      return meshError(text, fmt::format("{} in {} is not positive", value,
                                         what));
    dims.push_back(static_cast<int32_t>(value));
  }
  return dims;
}

} // namespace

std::vector<std::string_view> presetNames() {
  std::vector<std::string_view> names;
  for (const Preset &preset : kPresets)
    names.push_back(preset.name);
  return names;
}

absl::StatusOr<SliceSpec> presetSliceSpec(std::string_view name) {
  std::string canonical(name);
  // Cloud names v5e slices "v5litepod-N".
  if (canonical.rfind("v5litepod-", 0) == 0)
    canonical = "v5e-" + canonical.substr(10);
  for (const Preset &preset : kPresets) {
    if (preset.name != canonical)
      continue;
    const TpuGeneration &generation = tpuGeneration(preset.version);
    SliceSpec spec;
    spec.name = std::string(preset.name);
    spec.meshShape = {preset.chips[0], preset.chips[1], preset.chips[2],
                      generation.coresPerChip};
    for (int d = 0; d < 3; ++d)
      spec.chipsPerHost[d] =
          std::min(generation.chipsPerHost[d], preset.chips[d]);
    spec.wraparound = presetWraparound(generation, preset.chips);
    spec.generation = &generation;
    return spec;
  }
  return absl::NotFoundError(fmt::format(
      "unknown TPU preset \"{}\"; known presets: {}; or give a custom mesh "
      "such as \"2x2x1x2\"",
      name, presetList()));
}

absl::StatusOr<SliceSpec> parseMeshString(std::string_view text) {
  if (text.empty())
    return meshError(text, "the string is empty");
  std::string_view rest = text;
  std::string_view wrapPart;
  bool hasWrap = false;
  if (size_t colon = rest.find(':'); colon != std::string_view::npos) {
    std::string_view option = rest.substr(colon + 1);
    rest = rest.substr(0, colon);
    if (option.rfind("wrap=", 0) != 0)
      return meshError(text, fmt::format("unknown option \"{}\"", option));
    wrapPart = option.substr(5);
    hasWrap = true;
  }
  std::string_view meshPart = rest;
  std::string_view hostPart;
  bool hasHost = false;
  if (size_t slash = rest.find('/'); slash != std::string_view::npos) {
    meshPart = rest.substr(0, slash);
    hostPart = rest.substr(slash + 1);
    hasHost = true;
  }

  SliceSpec spec;
  spec.name = std::string(text);
  TORUS_ASSIGN_OR_RETURN(std::vector<int32_t> mesh,
                         parseDims(text, meshPart, 4, "the mesh"));
  std::copy(mesh.begin(), mesh.end(), spec.meshShape.begin());
  spec.chipsPerHost = {mesh[0], mesh[1], mesh[2]};
  if (hasHost) {
    TORUS_ASSIGN_OR_RETURN(std::vector<int32_t> host,
                           parseDims(text, hostPart, 3, "the host block"));
    for (int d = 0; d < 3; ++d) {
      if (mesh[d] % host[d] != 0)
        return meshError(
            text, fmt::format("the host block {}x{}x{} does not divide the "
                              "chip mesh {}x{}x{} (dimension {}: {} % {} != 0)",
                              host[0], host[1], host[2], mesh[0], mesh[1],
                              mesh[2], "xyz"[d], mesh[d], host[d]));
      spec.chipsPerHost[d] = host[d];
    }
  }
  if (hasWrap) {
    if (wrapPart.empty())
      return meshError(text, "\":wrap=\" names no dimension");
    for (char c : wrapPart) {
      int d = c == 'x' ? 0 : c == 'y' ? 1 : c == 'z' ? 2 : -1;
      if (d < 0)
        return meshError(text, fmt::format("'{}' in \":wrap={}\" is not one "
                                           "of x, y, z",
                                           c, wrapPart));
      if (spec.wraparound[d])
        return meshError(text, fmt::format("'{}' appears twice in \":wrap={}\"",
                                           c, wrapPart));
      spec.wraparound[d] = true;
    }
  }
  return spec;
}

absl::StatusOr<SliceSpec> parseSliceSpec(std::string_view text) {
  absl::StatusOr<SliceSpec> preset = presetSliceSpec(text);
  if (preset.ok())
    return preset;
  // Something that starts like a mesh gets the mesh parser's diagnosis.
  if (!text.empty() && text[0] >= '0' && text[0] <= '9')
    return parseMeshString(text);
  return absl::InvalidArgumentError(fmt::format(
      "\"{}\" is neither a TPU preset ({}) nor a mesh string: {}", text,
      presetList(), kMeshGrammar));
}

} // namespace torus::rt
