//===- AotObjectCheck.cpp - An AOT object checked against its metadata ----===//

#include "runtime/jit/AotObjectCheck.h"

#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <fmt/format.h>

#include <optional>
#include <vector>

namespace torus::rt {

namespace {

std::string message(llvm::Error error) {
  return llvm::toString(std::move(error));
}

/// `text` split into lines.
std::vector<std::string_view> lines(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    size_t end = text.find('\n');
    out.push_back(text.substr(0, end));
    if (end == std::string_view::npos)
      break;
    text.remove_prefix(end + 1);
  }
  return out;
}

/// The metadata field a signature line's key stands for.
std::string fieldOf(std::string_view key) {
  if (key == "num_partitions")
    return "device_assignment.num_partitions";
  return "program." + std::string(key);
}

} // namespace

absl::Status checkAotObject(std::string_view bytes,
                            const std::string &objectName,
                            const std::string &metadataName,
                            const ProgramArtifact &artifact) {
  if (!artifact.objectHash.empty()) {
    std::string actual = objectHash(bytes);
    if (actual != artifact.objectHash)
      return absl::InvalidArgumentError(fmt::format(
          "{}: the object file does not match its metadata {}: its hash is "
          "{}, 'object_hash' records {} (the object was corrupted or "
          "replaced; recompile with torusc --emit=obj)",
          objectName, metadataName, actual, artifact.objectHash));
  }
  auto object = llvm::object::ObjectFile::createObjectFile(
      llvm::MemoryBufferRef(llvm::StringRef(bytes.data(), bytes.size()),
                            objectName));
  if (!object)
    return absl::InvalidArgumentError(
        fmt::format("{}: not a valid object file: {}", objectName,
                    message(object.takeError())));
  auto *elf = llvm::dyn_cast<llvm::object::ELFObjectFileBase>(object->get());
  if (!elf)
    return absl::InvalidArgumentError(fmt::format(
        "{}: not an ELF object file (torusc --emit=obj writes ELF)",
        objectName));

  const std::string signatureSymbol = signatureSymbolFor(artifact.entrySymbol);
  bool hasEntry = false;
  std::optional<std::string> signature;
  for (const llvm::object::ELFSymbolRef &symbol : elf->symbols()) {
    auto name = symbol.getName();
    if (!name)
      return absl::InvalidArgumentError(
          fmt::format("{}: bad symbol table: {}", objectName,
                      message(name.takeError())));
    if (*name != artifact.entrySymbol && *name != signatureSymbol)
      continue;
    auto section = symbol.getSection();
    if (!section)
      return absl::InvalidArgumentError(
          fmt::format("{}: symbol '{}': {}", objectName, name->str(),
                      message(section.takeError())));
    if (*section == elf->section_end())
      continue; // an undefined reference, not a definition
    if (*name == artifact.entrySymbol) {
      hasEntry = true;
      continue;
    }
    auto contents = (*section)->getContents();
    if (!contents)
      return absl::InvalidArgumentError(
          fmt::format("{}: the section of '{}': {}", objectName,
                      signatureSymbol, message(contents.takeError())));
    auto value = symbol.getValue();
    if (!value)
      return absl::InvalidArgumentError(
          fmt::format("{}: symbol '{}': {}", objectName, signatureSymbol,
                      message(value.takeError())));
    uint64_t offset = *value, size = symbol.getSize();
    if (offset > contents->size() || size > contents->size() - offset ||
        size == 0)
      return absl::InvalidArgumentError(fmt::format(
          "{}: symbol '{}' lies outside its section ({} bytes at {} of {})",
          objectName, signatureSymbol, size, offset, contents->size()));
    std::string_view text(contents->data() + offset, size);
    if (text.back() == '\0')
      text.remove_suffix(1);
    signature = std::string(text);
  }
  if (!hasEntry)
    return absl::InvalidArgumentError(fmt::format(
        "{}: the object file defines no symbol '{}', the 'entry' of {}",
        objectName, artifact.entrySymbol, metadataName));
  if (!signature)
    return absl::InvalidArgumentError(fmt::format(
        "{}: the object file has no program signature '{}' (it was not "
        "written by this version of torusc --emit=obj); recompile it",
        objectName, signatureSymbol));

  const std::string expected =
      programSignature(artifact.spec, artifact.numPartitions);
  if (*signature == expected)
    return absl::OkStatus();
  std::vector<std::string_view> code = lines(*signature),
                                meta = lines(expected);
  for (size_t i = 0; i < std::max(code.size(), meta.size()); ++i) {
    std::string_view c = i < code.size() ? code[i] : "",
                     m = i < meta.size() ? meta[i] : "";
    if (c == m)
      continue;
    std::string_view key = m.substr(0, m.find(' '));
    auto valueOf = [](std::string_view line) {
      size_t space = line.find(' ');
      return space == std::string_view::npos ? std::string_view()
                                             : line.substr(space + 1);
    };
    return absl::InvalidArgumentError(fmt::format(
        "{}: the metadata does not match its object file {}: '{}' is {} "
        "in the metadata but the code was compiled for {}",
        metadataName, objectName, fieldOf(key), valueOf(m), valueOf(c)));
  }
  return absl::InvalidArgumentError(fmt::format(
      "{}: the metadata does not match its object file {}", metadataName,
      objectName));
}

} // namespace torus::rt
