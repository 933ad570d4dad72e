//===- TopologyProto.cpp - TensorFlow's TopologyProto wire format ---------===//
#include "runtime/mesh/TopologyProto.h"

#include "fmt/format.h"

namespace torus::rt {
namespace {

enum WireType : uint32_t {
  Varint = 0,
  Fixed64 = 1,
  LengthDelimited = 2,
  Fixed32 = 5,
};

void putVarint(std::string &out, uint64_t value) {
  while (value >= 0x80) {
    out += static_cast<char>((value & 0x7f) | 0x80);
    value >>= 7;
  }
  out += static_cast<char>(value);
}

// int32 fields encode negative values sign-extended to 64 bits (10 bytes).
void putInt32(std::string &out, int32_t value) {
  putVarint(out, static_cast<uint64_t>(static_cast<int64_t>(value)));
}

void putTag(std::string &out, uint32_t field, WireType type) {
  putVarint(out, (field << 3) | type);
}

void putPacked(std::string &out, uint32_t field,
               const std::vector<int32_t> &values) {
  if (values.empty())
    return;
  std::string payload;
  for (int32_t v : values)
    putInt32(payload, v);
  putTag(out, field, LengthDelimited);
  putVarint(out, payload.size());
  out += payload;
}

class Reader {
public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}

  bool done() const { return pos_ >= bytes_.size(); }
  size_t pos() const { return pos_; }

  absl::StatusOr<uint64_t> varint() {
    uint64_t value = 0;
    size_t start = pos_;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= bytes_.size())
        return error(start, "truncated varint");
      uint8_t byte = static_cast<uint8_t>(bytes_[pos_++]);
      value |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80))
        return value;
    }
    return error(start, "varint longer than 10 bytes");
  }

  absl::StatusOr<std::string_view> bytes(size_t size) {
    if (size > bytes_.size() - pos_)
      return error(pos_, fmt::format("field of {} bytes runs past the end of "
                                     "the {}-byte message",
                                     size, bytes_.size()));
    std::string_view out = bytes_.substr(pos_, size);
    pos_ += size;
    return out;
  }

  absl::Status skip(WireType type) {
    switch (type) {
    case Varint:
      return varint().status();
    case Fixed64:
      return bytes(8).status();
    case Fixed32:
      return bytes(4).status();
    case LengthDelimited: {
      TORUS_ASSIGN_OR_RETURN(uint64_t size, varint());
      return bytes(size).status();
    }
    }
    return error(pos_, fmt::format("unsupported wire type {}",
                                   static_cast<uint32_t>(type)));
  }

  static absl::Status error(size_t at, std::string_view what) {
    return absl::InvalidArgumentError(fmt::format(
        "failed to parse a serialized TopologyProto: {} at byte {}", what, at));
  }

private:
  std::string_view bytes_;
  size_t pos_ = 0;
};

// Reads one repeated int32 field occurrence, packed or not.
absl::Status readRepeated(Reader &reader, WireType type,
                          std::vector<int32_t> &out) {
  if (type == Varint) {
    TORUS_ASSIGN_OR_RETURN(uint64_t v, reader.varint());
    out.push_back(static_cast<int32_t>(v));
    return absl::OkStatus();
  }
  if (type != LengthDelimited)
    return Reader::error(reader.pos(), "repeated int32 field with wire type " +
                                           std::to_string(type));
  TORUS_ASSIGN_OR_RETURN(uint64_t size, reader.varint());
  TORUS_ASSIGN_OR_RETURN(std::string_view payload, reader.bytes(size));
  Reader packed(payload);
  while (!packed.done()) {
    TORUS_ASSIGN_OR_RETURN(uint64_t v, packed.varint());
    out.push_back(static_cast<int32_t>(v));
  }
  return absl::OkStatus();
}

} // namespace

std::string serializeTopologyProto(const TopologyProto &proto) {
  std::string out;
  putPacked(out, 1, proto.meshShape);
  if (proto.numTasks != 0) {
    putTag(out, 2, Varint);
    putInt32(out, proto.numTasks);
  }
  if (proto.numTpuDevicesPerTask != 0) {
    putTag(out, 3, Varint);
    putInt32(out, proto.numTpuDevicesPerTask);
  }
  putPacked(out, 4, proto.deviceCoordinates);
  if (proto.tpuHardwareFeature) {
    putTag(out, 5, LengthDelimited);
    putVarint(out, proto.tpuHardwareFeature->size());
    out += *proto.tpuHardwareFeature;
  }
  return out;
}

absl::StatusOr<TopologyProto> parseTopologyProto(std::string_view bytes) {
  TopologyProto proto;
  Reader reader(bytes);
  while (!reader.done()) {
    size_t tagAt = reader.pos();
    TORUS_ASSIGN_OR_RETURN(uint64_t tag, reader.varint());
    uint64_t field = tag >> 3;
    auto type = static_cast<WireType>(tag & 7);
    if (field == 0)
      return Reader::error(tagAt, "field number 0");
    switch (field) {
    case 1:
      TORUS_RETURN_IF_ERROR(readRepeated(reader, type, proto.meshShape));
      break;
    case 2:
    case 3: {
      if (type != Varint)
        return Reader::error(tagAt, fmt::format("field {} is not a varint",
                                                field));
      TORUS_ASSIGN_OR_RETURN(uint64_t v, reader.varint());
      (field == 2 ? proto.numTasks : proto.numTpuDevicesPerTask) =
          static_cast<int32_t>(v);
      break;
    }
    case 4:
      TORUS_RETURN_IF_ERROR(
          readRepeated(reader, type, proto.deviceCoordinates));
      break;
    case 5: {
      if (type != LengthDelimited)
        return Reader::error(tagAt, "field 5 is not a message");
      TORUS_ASSIGN_OR_RETURN(uint64_t size, reader.varint());
      TORUS_ASSIGN_OR_RETURN(std::string_view payload, reader.bytes(size));
      // Protobuf merges repeated occurrences of a message field; keeping the
      // concatenation is the same merge on the wire.
      if (!proto.tpuHardwareFeature)
        proto.tpuHardwareFeature.emplace();
      *proto.tpuHardwareFeature += payload;
      break;
    }
    default:
      TORUS_RETURN_IF_ERROR(reader.skip(type));
    }
  }
  return proto;
}

} // namespace torus::rt
