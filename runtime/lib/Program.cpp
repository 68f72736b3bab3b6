//===- Program.cpp - Loading program files (slmc_program_*) ---------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A program file is the offload container of one kernel source, written by
// `slmc++ --emit=program` and loaded at run time by dialects whose host code
// names kernels by string (C for Metal). Loading:
//
//  1. copies the bytes (8-byte aligned, as OffloadBinary images need) and
//     parses the container with the same bounds-checked reader as embedded
//     images;
//  2. reads the kernel list ("slmc.kernels") and checks that every image
//     carries the same one;
//  3. checks the host shared object's ELF headers against the bytes present
//     (so that a truncated or foreign object is refused before the dynamic
//     loader sees it), writes it to an anonymous in-memory file (memfd; a
//     private temporary file where memfd is unavailable) and dlopens it
//     under a name no other loaded object has; its undefined references to
//     libslmrt bind to the copy already loaded, matched by soname;
//  4. registers one module and one kernel per signature in the runtime's
//     registry: each kernel's handle is the address of its record here.
//
//===----------------------------------------------------------------------===//
#include "FatBinary.h"
#include "Program.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

namespace {

using namespace slmc::rt;

constexpr const char *kKernelsKey = "slmc.kernels";
constexpr const char *kCpuEntryPrefix = "slmc_cm_cpu_";
constexpr const char *kGroupEntryPrefix = "slmc_cm_group_"; // optional
// Generous limits that no real program reaches; they keep a corrupt list
// from asking for absurd amounts of memory.
constexpr size_t kMaxKernels = 1 << 16;
constexpr size_t kMaxArgs = 1024;
constexpr uint32_t kMaxValueBytes = 1 << 16;

#if defined(__x86_64__)
constexpr uint16_t kHostMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr uint16_t kHostMachine = EM_AARCH64;
#elif defined(__riscv) && __riscv_xlen == 64
constexpr uint16_t kHostMachine = EM_RISCV;
#else
#error "slmc: unknown host machine for program files"
#endif

struct KernelEntry {
  std::string Name;      // as the host asks for it ("twice<float>")
  std::string Symbol;    // its entry points' name, a C identifier
  std::string Signature; // "symbol(kind,...)"
  slmc_cpu_kernel_fn Cpu = nullptr;
  slmc_cpu_group_fn Group = nullptr; // null in programs built before it
  char Token = 0; // its address is the kernel's handle
};

std::string quoted(const std::string &S) {
  std::string Out = "'";
  for (char C : S.substr(0, 80))
    Out += (C >= 0x20 && C < 0x7F) ? C : '?';
  if (S.size() > 80)
    Out += "...";
  return Out + "'";
}

bool isIdentStart(char C) {
  return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') || C == '_';
}
bool isIdentChar(char C) { return isIdentStart(C) || (C >= '0' && C <= '9'); }

/// A kernel name without spaces and without the suffixes of integer
/// literals (16U, 8ull).
std::string looseKernelName(const std::string &Name) {
  std::string Out;
  for (size_t I = 0; I < Name.size(); ++I) {
    char C = Name[I];
    if (C == ' ' || C == '\t')
      continue;
    bool AfterDigit = !Out.empty() && Out.back() >= '0' && Out.back() <= '9';
    bool InNumber = AfterDigit;
    for (size_t J = Out.size(); InNumber && J-- > 0;) {
      if (!isIdentChar(Out[J]))
        break;
      if (isIdentStart(Out[J]))
        InNumber = false; // the digit ends an identifier, as in k2
    }
    if (InNumber && (C == 'u' || C == 'U' || C == 'l' || C == 'L'))
      continue;
    Out += C;
  }
  return Out;
}

/// Checks one argument kind: "surface", "svm" (an 8-byte SVM address) or
/// "value<bytes>".
bool validKind(const std::string &K) {
  if (K == "surface" || K == "svm")
    return true;
  if (K.compare(0, 5, "value") != 0 || K.size() == 5 || K.size() > 10)
    return false;
  uint32_t Bytes = 0;
  for (size_t I = 5; I < K.size(); ++I) {
    if (K[I] < '0' || K[I] > '9')
      return false;
    Bytes = Bytes * 10 + uint32_t(K[I] - '0');
  }
  return K[5] != '0' && Bytes >= 1 && Bytes <= kMaxValueBytes;
}

/// Parses "a(k,k);b();t1(k)=t<int>;..." into entries; empty items (a
/// trailing ';') are skipped. Symbols must be unique C identifiers; an
/// entry point whose kernel the host names otherwise (an instance of a
/// kernel template) carries that name after '='.
bool parseKernelList(const std::string &List,
                     std::vector<std::unique_ptr<KernelEntry>> &Out,
                     std::string &Why) {
  size_t Pos = 0;
  while (Pos <= List.size()) {
    size_t End = List.find(';', Pos);
    if (End == std::string::npos)
      End = List.size();
    std::string Item = List.substr(Pos, End - Pos);
    Pos = End + 1;
    if (Item.empty())
      continue;
    size_t Open = Item.find('(');
    size_t Close = Open == std::string::npos ? Open : Item.find(')', Open);
    if (Open == 0 || Close == std::string::npos ||
        (Close + 1 != Item.size() &&
         (Item[Close + 1] != '=' || Close + 2 == Item.size()))) {
      Why = "malformed kernel signature " + quoted(Item);
      return false;
    }
    std::string Symbol = Item.substr(0, Open);
    std::string Name =
        Close + 1 == Item.size() ? Symbol : Item.substr(Close + 2);
    bool SymbolOk = isIdentStart(Symbol[0]);
    for (char C : Symbol)
      SymbolOk = SymbolOk && isIdentChar(C);
    if (!SymbolOk) {
      Why = "kernel name " + quoted(Symbol) + " is not an identifier";
      return false;
    }
    std::string Args = Item.substr(Open + 1, Close - Open - 1);
    size_t NumArgs = 0;
    if (!Args.empty()) {
      size_t A = 0;
      while (A <= Args.size()) {
        size_t Comma = Args.find(',', A);
        if (Comma == std::string::npos)
          Comma = Args.size();
        std::string Kind = Args.substr(A, Comma - A);
        if (!validKind(Kind)) {
          Why = "kernel '" + Name + "': argument " + std::to_string(NumArgs) +
                " has unknown kind " + quoted(Kind) +
                " (expected surface, svm or value<bytes>)";
          return false;
        }
        if (++NumArgs > kMaxArgs) {
          Why = "kernel '" + Name + "' has too many arguments";
          return false;
        }
        A = Comma + 1;
      }
    }
    for (const auto &K : Out)
      if (K->Name == Name || K->Symbol == Symbol) {
        Why = "kernel " + quoted(K->Name == Name ? Name : Symbol) +
              " is listed twice";
        return false;
      }
    if (Out.size() == kMaxKernels) {
      Why = "too many kernels";
      return false;
    }
    auto K = std::make_unique<KernelEntry>();
    K->Name = std::move(Name);
    K->Signature = Item.substr(0, Close + 1);
    K->Symbol = std::move(Symbol);
    Out.push_back(std::move(K));
  }
  return true;
}

/// Checks what the dynamic loader reads of a shared object before it maps
/// it: the ELF header, the program headers and the file ranges of the
/// loadable and dynamic segments, all inside the `Size` bytes present.
bool checkSharedObject(const unsigned char *P, size_t Size, std::string &Why) {
  Elf64_Ehdr H;
  if (Size < sizeof(H)) {
    Why = "host object: truncated ELF header";
    return false;
  }
  std::memcpy(&H, P, sizeof(H));
  if (std::memcmp(H.e_ident, ELFMAG, SELFMAG) != 0) {
    Why = "host object: not an ELF file";
    return false;
  }
  if (H.e_ident[EI_CLASS] != ELFCLASS64 || H.e_ident[EI_DATA] != ELFDATA2LSB ||
      H.e_machine != kHostMachine) {
    Why = "host object: built for another machine (ELF machine " +
          std::to_string(H.e_machine) + ")";
    return false;
  }
  if (H.e_type != ET_DYN) {
    Why = "host object: not a shared object (ELF type " +
          std::to_string(H.e_type) + ")";
    return false;
  }
  if (H.e_phentsize != sizeof(Elf64_Phdr) || H.e_phnum == 0 ||
      H.e_phnum == PN_XNUM || H.e_phoff > Size ||
      uint64_t(H.e_phnum) * sizeof(Elf64_Phdr) > Size - H.e_phoff) {
    Why = "host object: program headers out of bounds";
    return false;
  }
  bool HasLoad = false, HasDynamic = false;
  for (uint16_t I = 0; I < H.e_phnum; ++I) {
    Elf64_Phdr Ph;
    std::memcpy(&Ph, P + H.e_phoff + I * sizeof(Elf64_Phdr), sizeof(Ph));
    if (Ph.p_type != PT_LOAD && Ph.p_type != PT_DYNAMIC)
      continue;
    if (Ph.p_offset > Size || Ph.p_filesz > Size - Ph.p_offset ||
        (Ph.p_type == PT_LOAD && Ph.p_filesz > Ph.p_memsz)) {
      Why = "host object: segment " + std::to_string(I) +
            " lies outside the file (truncated?)";
      return false;
    }
    HasLoad |= Ph.p_type == PT_LOAD;
    HasDynamic |= Ph.p_type == PT_DYNAMIC;
  }
  if (!HasLoad || !HasDynamic) {
    Why = "host object: no loadable or dynamic segment";
    return false;
  }
  return true;
}

bool writeAll(int Fd, const unsigned char *P, size_t N) {
  while (N) {
    ssize_t W = ::write(Fd, P, N);
    if (W < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    P += W;
    N -= size_t(W);
  }
  return true;
}

/// A host object loaded from memory.
struct LoadedObject {
  void *Handle = nullptr;
  int Fd = -1;      // the memfd, open while the object may stay loaded
  std::string Path; // the name the dynamic loader knows it by
};

/// Loads the shared object from memory: an anonymous memfd where the kernel
/// has one (nothing touches the file system), else a private temporary file
/// removed as soon as it is loaded.
///
/// The dynamic loader recognises objects by name before anything else, so
/// every name must stay unique while its object is loaded: a memfd's name
/// (/proc/self/fd/N) is kept unique by keeping the descriptor open (see
/// unloadSharedObject); a temporary file's name carries the process id and
/// a counter.
bool loadSharedObject(const unsigned char *P, size_t Size, LoadedObject &Out,
                      std::string &Why) {
  int Fd = -1;
  std::string Path;
  bool Temporary = false;
#if defined(MFD_CLOEXEC)
  Fd = memfd_create("slmc-program", MFD_CLOEXEC);
  if (Fd >= 0) {
    if (!writeAll(Fd, P, Size)) {
      Why = std::string("cannot write the host object: ") + std::strerror(errno);
      ::close(Fd);
      return false;
    }
    Path = "/proc/self/fd/" + std::to_string(Fd);
    if (::access(Path.c_str(), R_OK) != 0) { // no /proc: use a file instead
      ::close(Fd);
      Fd = -1;
    }
  }
#endif
  if (Fd < 0) {
    static std::atomic<unsigned long> Counter{0};
    const char *Dir = std::getenv("TMPDIR");
    Path = std::string(Dir && *Dir ? Dir : "/tmp") + "/slmc-program-" +
           std::to_string(::getpid()) + "-" + std::to_string(++Counter) + "-XXXXXX";
    std::vector<char> Name(Path.begin(), Path.end());
    Name.push_back('\0');
    Fd = ::mkstemp(Name.data()); // created with mode 0600
    if (Fd < 0) {
      Why = std::string("cannot create a file for the host object: ") +
            std::strerror(errno);
      return false;
    }
    Path = Name.data();
    Temporary = true;
    if (!writeAll(Fd, P, Size)) {
      Why = std::string("cannot write the host object: ") + std::strerror(errno);
      ::close(Fd);
      ::unlink(Path.c_str());
      return false;
    }
  }
  ::dlerror();
  void *Handle = ::dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!Handle) {
    const char *E = ::dlerror();
    Why = std::string("cannot load the host object: ") + (E ? E : "unknown error");
  }
  if (Temporary) {
    ::unlink(Path.c_str());
    ::close(Fd); // the mapping keeps the contents alive
    Fd = -1;
  } else if (!Handle) {
    ::close(Fd);
    Fd = -1;
  }
  Out.Handle = Handle;
  Out.Fd = Fd;
  Out.Path = Path;
  return Handle != nullptr;
}

/// Unloads a host object. An object the loader keeps (one with unique
/// symbols, which are never unloaded) keeps its memfd too, so that no later
/// object gets its name.
void unloadSharedObject(LoadedObject &O) {
  if (O.Handle)
    ::dlclose(O.Handle);
  if (O.Fd >= 0) {
    void *Still = ::dlopen(O.Path.c_str(), RTLD_LAZY | RTLD_NOLOAD);
    if (Still)
      ::dlclose(Still); // still loaded: the descriptor stays open
    else
      ::close(O.Fd);
  }
  O = LoadedObject();
}

} // namespace

struct slmc_program {
  std::unique_ptr<uint64_t[]> Storage; // the copied bytes, 8-byte aligned
  size_t Size = 0;
  FatBinary Images; // points into Storage
  LoadedObject Library;
  void **Module = nullptr;
  std::vector<std::unique_ptr<KernelEntry>> Kernels;

  ~slmc_program() {
    if (Module)
      unregisterProgramModule(Module);
    unloadSharedObject(Library);
  }

  /// The kernel the host names `Name`: its exact name, or else the one
  /// name that differs from it only in spaces and integer literal suffixes
  /// (CM_KERNEL_FUNCTION(k<16U, 16U>) for the instance k<16, 16>).
  const KernelEntry *find(const char *Name) const {
    for (const auto &K : Kernels)
      if (K->Name == Name)
        return K.get();
    std::string Key = looseKernelName(Name);
    const KernelEntry *Found = nullptr;
    for (const auto &K : Kernels)
      if (looseKernelName(K->Name) == Key) {
        if (Found)
          return nullptr; // ambiguous: ask for the exact name
        Found = K.get();
      }
    return Found;
  }
};

namespace {

slmc_status invalid(const std::string &Why) {
  return recordError(SLMC_ERROR_INVALID_IMAGE, "slmc_program_load: " + Why);
}

/// Steps 1 to 3 on a program whose bytes are already copied.
slmc_status loadProgram(slmc_program &P) {
  std::string Why;
  if (!parseFatBinary(P.Storage.get(), P.Size, P.Images, Why))
    return invalid(Why);
  if (P.Images.Images.empty())
    return invalid("the program file holds no device images");
  // Before anything reads the strings or the bytes: host objects are mapped
  // as code, and drivers trust the images they are given.
  if (!verifyChecksums(P.Images, Why))
    return invalid(Why);

  const std::string *List = nullptr;
  for (size_t I = 0; I < P.Images.Images.size(); ++I) {
    const DeviceImage &Img = P.Images.Images[I];
    auto It = Img.Strings.find(kKernelsKey);
    if (It == Img.Strings.end())
      return invalid("image " + std::to_string(I) + " (" +
                     std::string(Img.triple()) + ") has no '" + kKernelsKey +
                     "' entry (not a program file?)");
    if (!List)
      List = &It->second;
    else if (*List != It->second)
      return invalid("image " + std::to_string(I) + " (" +
                     std::string(Img.triple()) +
                     ") lists other kernels than image 0");
  }
  if (!parseKernelList(*List, P.Kernels, Why))
    return invalid(Why);

  if (const DeviceImage *Obj = P.Images.find(ImageKind::Object)) {
    if (!checkSharedObject(Obj->Data, Obj->Size, Why))
      return invalid(Why);
    if (!loadSharedObject(Obj->Data, Obj->Size, P.Library, Why))
      return invalid(Why);
    for (auto &K : P.Kernels) {
      std::string Symbol = kCpuEntryPrefix + K->Symbol;
      K->Cpu = reinterpret_cast<slmc_cpu_kernel_fn>(
          ::dlsym(P.Library.Handle, Symbol.c_str()));
      if (!K->Cpu)
        return invalid("host object: no CPU entry '" + Symbol +
                       "' for kernel '" + K->Name + "'");
      std::string Group = kGroupEntryPrefix + K->Symbol;
      K->Group = reinterpret_cast<slmc_cpu_group_fn>(
          ::dlsym(P.Library.Handle, Group.c_str()));
    }
  }

  P.Module = registerProgramModule(P.Images);
  for (const auto &K : P.Kernels)
    registerProgramKernel(P.Module, &K->Token, K->Symbol);
  return SLMC_SUCCESS;
}

} // namespace

extern "C" slmc_status slmc_program_load(const void *Data, size_t Size,
                                         slmc_program **Out) {
  if (!Out)
    return recordError(SLMC_ERROR_INVALID_VALUE,
                       "slmc_program_load: null result pointer");
  *Out = nullptr;
  if (!Data || Size == 0)
    return recordError(SLMC_ERROR_INVALID_VALUE,
                       "slmc_program_load: no data");
  std::unique_ptr<slmc_program> P(new (std::nothrow) slmc_program);
  if (!P)
    return recordError(SLMC_ERROR_OUT_OF_MEMORY, "slmc_program_load: out of memory");
  try {
    P->Storage.reset(new uint64_t[(Size + 7) / 8]);
    P->Size = Size;
    std::memcpy(P->Storage.get(), Data, Size);
    if (slmc_status S = loadProgram(*P))
      return S; // P's destructor undoes whatever was done
  } catch (const std::bad_alloc &) {
    return recordError(SLMC_ERROR_OUT_OF_MEMORY,
                       "slmc_program_load: out of memory for a " +
                           std::to_string(Size) + "-byte program");
  }
  *Out = P.release();
  return SLMC_SUCCESS;
}

extern "C" slmc_status slmc_program_kernel(slmc_program *P, const char *Name,
                                           const void **Handle,
                                           slmc_cpu_kernel_fn *Cpu,
                                           const char **Signature) {
  if (!P || !Name)
    return recordError(SLMC_ERROR_INVALID_VALUE,
                       "slmc_program_kernel: null program or name");
  const KernelEntry *K = P->find(Name);
  if (!K) {
    std::string Known;
    for (const auto &E : P->Kernels)
      Known += (Known.empty() ? "" : ", ") + E->Name;
    return recordError(SLMC_ERROR_KERNEL_NOT_FOUND,
                       "slmc_program_kernel: the program has no kernel " +
                           quoted(Name) + " (it has: " +
                           (Known.empty() ? "none" : Known) + ")");
  }
  if (Handle)
    *Handle = &K->Token;
  if (Cpu)
    *Cpu = K->Cpu;
  if (Signature)
    *Signature = K->Signature.c_str();
  return SLMC_SUCCESS;
}

extern "C" slmc_status slmc_program_kernel_group(slmc_program *P, const char *Name,
                                                 slmc_cpu_group_fn *Group) {
  if (!P || !Name || !Group)
    return recordError(SLMC_ERROR_INVALID_VALUE,
                       "slmc_program_kernel_group: null program, name or result");
  const KernelEntry *K = P->find(Name);
  if (!K)
    return recordError(SLMC_ERROR_KERNEL_NOT_FOUND,
                       "slmc_program_kernel_group: the program has no kernel " + quoted(Name));
  *Group = K->Group;
  return SLMC_SUCCESS;
}

extern "C" slmc_status slmc_program_kernel_count(const slmc_program *P,
                                                 uint32_t *Count) {
  if (!P || !Count)
    return recordError(SLMC_ERROR_INVALID_VALUE,
                       "slmc_program_kernel_count: null pointer");
  *Count = uint32_t(P->Kernels.size());
  return SLMC_SUCCESS;
}

extern "C" slmc_status slmc_program_kernel_name(const slmc_program *P,
                                                uint32_t Index,
                                                const char **Name) {
  if (!P || !Name)
    return recordError(SLMC_ERROR_INVALID_VALUE,
                       "slmc_program_kernel_name: null pointer");
  if (Index >= P->Kernels.size())
    return recordError(SLMC_ERROR_INVALID_VALUE,
                       "slmc_program_kernel_name: index " +
                           std::to_string(Index) + " out of range (" +
                           std::to_string(P->Kernels.size()) + " kernels)");
  *Name = P->Kernels[Index]->Name.c_str();
  return SLMC_SUCCESS;
}

extern "C" slmc_status slmc_program_release(slmc_program *P) {
  delete P;
  return SLMC_SUCCESS;
}
