//===- AotObjectCheck.cpp - An AOT object checked against its metadata ----===//

#include "runtime/jit/AotObjectCheck.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/BinaryFormat/ELF.h"
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

/// The bytes an x86-64 relocation of `type` writes at its offset, or
/// nullopt for a type the code Torus compiles never has (the JIT's linker
/// would refuse some and trust the rest).
std::optional<uint64_t> fixupBytes(uint32_t type) {
  using namespace llvm::ELF;
  switch (type) {
  case R_X86_64_NONE:
    return 0;
  case R_X86_64_8:
  case R_X86_64_PC8:
    return 1;
  case R_X86_64_16:
  case R_X86_64_PC16:
    return 2;
  case R_X86_64_32:
  case R_X86_64_32S:
  case R_X86_64_PC32:
  case R_X86_64_PLT32:
  case R_X86_64_GOT32:
  case R_X86_64_GOTPCREL:
  case R_X86_64_GOTPCRELX:
  case R_X86_64_REX_GOTPCRELX:
  case R_X86_64_GOTPC32:
  case R_X86_64_TPOFF32:
  case R_X86_64_TLSGD:
  case R_X86_64_TLSLD:
  case R_X86_64_DTPOFF32:
  case R_X86_64_GOTTPOFF:
  case R_X86_64_SIZE32:
    return 4;
  case R_X86_64_64:
  case R_X86_64_PC64:
  case R_X86_64_GOTOFF64:
  case R_X86_64_GOTPC64:
  case R_X86_64_GOT64:
  case R_X86_64_GOTPCREL64:
  case R_X86_64_GOTPLT64:
  case R_X86_64_PLTOFF64:
  case R_X86_64_DTPOFF64:
  case R_X86_64_TPOFF64:
  case R_X86_64_SIZE64:
    return 8;
  default:
    return std::nullopt;
  }
}

/// Every relocation of `elf` names a symbol of its symbol table and writes
/// inside the section it applies to: the JIT's linker (JITLink) writes
/// where a relocation says without checking. Behind the hash, a check in
/// depth: an object whose metadata was rewritten to match it still cannot
/// make the linker write outside the loaded code this way.
absl::Status checkRelocations(const llvm::object::ELF64LEFile &elf,
                              const std::string &objectName) {
  auto sections = elf.sections();
  if (!sections)
    return absl::InvalidArgumentError(
        fmt::format("{}: bad section table: {}", objectName,
                    message(sections.takeError())));
  const uint64_t count = sections->size();
  for (const auto &rel : *sections) {
    if (rel.sh_type != llvm::ELF::SHT_RELA &&
        rel.sh_type != llvm::ELF::SHT_REL)
      continue;
    auto name = elf.getSectionName(rel);
    std::string relName = name ? name->str() : "?";
    if (!name)
      llvm::consumeError(name.takeError());
    if (rel.sh_info >= count || rel.sh_link >= count)
      return absl::InvalidArgumentError(fmt::format(
          "{}: relocation section '{}' applies to section {} with symbol "
          "table {}, but the object has {} sections",
          objectName, relName, rel.sh_info, rel.sh_link, count));
    const auto &target = (*sections)[rel.sh_info];
    const auto &symtab = (*sections)[rel.sh_link];
    const uint64_t symbols =
        symtab.sh_entsize ? symtab.sh_size / symtab.sh_entsize : 0;
    auto check = [&](uint64_t index, uint64_t offset, uint32_t type,
                     uint32_t symbol) -> absl::Status {
      std::optional<uint64_t> bytes = fixupBytes(type);
      if (!bytes)
        return absl::InvalidArgumentError(fmt::format(
            "{}: relocation {} of '{}' has type {}, which torusc never "
            "writes",
            objectName, index, relName, type));
      if (target.sh_type == llvm::ELF::SHT_NOBITS ||
          offset > target.sh_size || *bytes > target.sh_size - offset)
        return absl::InvalidArgumentError(fmt::format(
            "{}: relocation {} of '{}' writes {} bytes at offset {}, "
            "outside the {} bytes of the section it applies to",
            objectName, index, relName, *bytes, offset, target.sh_size));
      if (symbol >= symbols)
        return absl::InvalidArgumentError(fmt::format(
            "{}: relocation {} of '{}' names symbol {}, but its symbol "
            "table has {}",
            objectName, index, relName, symbol, symbols));
      return absl::OkStatus();
    };
    // Rela and Rel entries alike (torusc writes Rela).
    auto checkEach = [&](auto entries) -> absl::Status {
      if (!entries)
        return absl::InvalidArgumentError(
            fmt::format("{}: relocation section '{}': {}", objectName,
                        relName, message(entries.takeError())));
      for (auto [i, r] : llvm::enumerate(*entries))
        TORUS_RETURN_IF_ERROR(check(i, r.r_offset, r.getType(false),
                                    r.getSymbol(false)));
      return absl::OkStatus();
    };
    TORUS_RETURN_IF_ERROR(rel.sh_type == llvm::ELF::SHT_RELA
                              ? checkEach(elf.relas(rel))
                              : checkEach(elf.rels(rel)));
  }
  return absl::OkStatus();
}

} // namespace

absl::Status checkAotObject(std::string_view bytes,
                            const std::string &objectName,
                            const std::string &metadataName,
                            const ProgramArtifact &artifact) {
  // The hash comes first and is required: the JIT's linker (JITLink)
  // trusts the object's structure (its unwind tables, its relocations), so
  // no byte of it is parsed before it is known to be what torusc wrote.
  if (artifact.objectHash.empty())
    return absl::InvalidArgumentError(fmt::format(
        "{}: no 'object_hash', so its object file {} cannot be verified "
        "before its code is loaded (written by an older torusc?); recompile "
        "with torusc --emit=obj",
        metadataName, objectName));
  std::string actual = objectHash(bytes);
  if (actual != artifact.objectHash)
    return absl::InvalidArgumentError(fmt::format(
        "{}: the object file does not match its metadata {}: its hash is "
        "{}, 'object_hash' records {} (the object was corrupted or "
        "replaced; recompile with torusc --emit=obj)",
        objectName, metadataName, actual, artifact.objectHash));
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
  auto *elf64 = llvm::dyn_cast<llvm::object::ELF64LEObjectFile>(elf);
  if (!elf64 ||
      elf64->getELFFile().getHeader().e_machine != llvm::ELF::EM_X86_64)
    return absl::InvalidArgumentError(fmt::format(
        "{}: not an x86-64 ELF object file (torusc --emit=obj writes one)",
        objectName));
  TORUS_RETURN_IF_ERROR(checkRelocations(elf64->getELFFile(), objectName));

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
