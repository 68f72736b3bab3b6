//===- AmpLowering.cpp - C++ AMP to offload C++ ---------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//   restrict(amp)        ->  SLMC_RESTRICT_AMP      (host and device)
//   restrict(cpu)        ->  SLMC_RESTRICT_CPU      (host only)
//   restrict(amp, cpu)   ->  SLMC_RESTRICT_AMP_CPU
//   tile_static T x;     ->  SLMC_GROUP_LOCAL T x;  (__shared__ on devices)
//
// A tile_static object whose class has a constructor or destructor must not
// have them run (and __shared__ data cannot have them): it becomes a
// reference to raw per-tile storage,
//   tile_static C c;     ->  auto &c = *::slmc::group_local_storage<C, slmc_site<K>>();
//
// Overloads on the restriction (§2.3.2), which the lowered passes cannot
// tell apart (restrict(cpu) and restrict(amp) become host and host-device
// functions, and the CPU fallback runs the amp code on the host): the
// unrestricted or restrict(cpu) overload keeps its name, the others are
// renamed, and each call names the overload the check pass resolved for its
// caller's context,
//   int f() restrict(amp);  ->  int f_slmc_amp() SLMC_RESTRICT_AMP;
//   f() in amp code         ->  f_slmc_amp()
//   f() in restrict(cpu, amp) code  ->  SLMC_AMP_OVERLOAD(f, f_slmc_amp)()
// (the amp name in device passes, the cpu name in the host pass; for an
// unqualified free function SLMC_AMP_OVERLOAD_FN, which in the host pass
// picks the amp overload while the CPU fallback runs a work-item).
//
// Kernels need no rewriting: <amp.h>'s parallel_for_each instantiates the
// one kernel entry of slmc/offload.h for each kernel functor.
//
//===----------------------------------------------------------------------===//
#include "Lowering/Lowering.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace slmc {
namespace {

bool needsRawStorage(ASTContext &Ctx, QualType T) {
  const CXXRecordDecl *RD = Ctx.getBaseElementType(T)->getAsCXXRecordDecl();
  return RD && RD->hasDefinition() &&
         (!RD->hasTrivialDefaultConstructor() || !RD->hasTrivialDestructor());
}

/// Concurrency::array and Concurrency::graphics::texture, which kernels hold
/// by reference (not, say, std::array).
bool isArrayOrTexture(const CXXRecordDecl *RD) {
  if (!RD || !RD->getIdentifier())
    return false;
  auto InConcurrency = [](const DeclContext *DC) {
    const auto *NS = dyn_cast<NamespaceDecl>(DC);
    return NS && NS->getName() == "Concurrency" &&
           NS->getParent()->getRedeclContext()->isTranslationUnit();
  };
  const DeclContext *DC = RD->getDeclContext();
  if (RD->getName() == "array")
    return InConcurrency(DC);
  if (RD->getName() == "texture")
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      return NS->getName() == "graphics" && InConcurrency(NS->getParent());
  return false;
}

const char *restrictMacro(bool Device, bool Host) {
  return Device && Host ? "SLMC_RESTRICT_AMP_CPU"
         : Device       ? "SLMC_RESTRICT_AMP"
                        : "SLMC_RESTRICT_CPU";
}

class AmpLowering : public DialectLowering {
public:
  void lower(const ProgramModel &Model, LoweringContext &L) override {
    llvm::DenseSet<unsigned> Lowered; // by the raw encoding of the start
    for (const RestrictionSite &S : Model.RestrictionSites) {
      if (S.Dialect != DialectKind::Amp)
        continue;
      L.replace(S.Spelling, restrictMacro(S.Parsed.Device, S.Parsed.Host));
      Lowered.insert(S.Spelling.getBegin().getRawEncoding());
    }
    // The spellings in code the AST does not hold (a template body never
    // parsed here) are lowered by their text, so that a later pass that
    // does parse it reads the macro.
    const SourceManager &SM = L.astContext().getSourceManager();
    for (SourceRange R : L.restrictSpellings()) {
      if (!Lowered.insert(R.getBegin().getRawEncoding()).second || !L.isUserFile(R.getBegin()))
        continue;
      llvm::StringRef Text = Lexer::getSourceText(CharSourceRange::getTokenRange(R), SM,
                                                  L.astContext().getLangOpts());
      size_t Open = Text.find('(');
      if (Open == llvm::StringRef::npos)
        continue;
      llvm::SmallVector<llvm::StringRef, 2> Parts;
      Text.drop_front(Open + 1).rtrim(")").split(Parts, ',');
      bool Device = false, Host = false, Other = false;
      for (llvm::StringRef P : Parts) {
        P = P.trim();
        Device |= P == "amp";
        Host |= P == "cpu";
        Other |= P != "amp" && P != "cpu";
      }
      if (!Other && (Device || Host)) // the check reports the others
        L.replace(R, restrictMacro(Device, Host));
    }
    lowerRestrictionOverloads(Model, L);
    ASTContext &Ctx = L.astContext();
    for (const Kernel &K : Model.Kernels)
      if (K.Dialect == DialectKind::Amp && K.Functor)
        if (const auto *LE = dyn_cast<LambdaExpr>(K.Functor->IgnoreImplicit()))
          lowerArrayCaptures(Ctx, LE, L);
    for (const GroupLocalVar &G : Model.GroupLocals) {
      if (G.Dialect != DialectKind::Amp || !G.Var)
        continue;
      if (G.Var->getType()->isDependentType() || !needsRawStorage(Ctx, G.Var->getType())) {
        L.replace(G.Keyword, "SLMC_GROUP_LOCAL");
        continue;
      }
      lowerToRawStorage(Ctx, G, L);
    }
  }

private:
  void lowerRestrictionOverloads(const ProgramModel &Model, LoweringContext &L) {
    llvm::DenseMap<const FunctionDecl *, std::string> Names;
    auto IsCpuOnly = [&](const FunctionDecl *FD) {
      const Restriction *R = Model.restrictionOf(FD);
      return !R || !R->Device;
    };
    for (const auto &Set : Model.RestrictionOverloadSets) {
      const FunctionDecl *Keep = Set.front();
      for (const FunctionDecl *O : Set)
        if (IsCpuOnly(O))
          Keep = O;
      if (Keep->getDeclName().getNameKind() == DeclarationName::CXXOperatorName &&
          lowerOperatorSet(Model, Set, Keep, L))
        continue;
      if (Keep->getDeclName().getNameKind() == DeclarationName::CXXConversionFunctionName &&
          lowerConversionSet(Model, Set, Keep, L))
        continue;
      if (isa<CXXConstructorDecl>(Keep) && lowerConstructorSet(Model, Set, Keep, L))
        continue;
      for (const FunctionDecl *O : Set) {
        if (O == Keep)
          continue;
        if (!O->getDeclName().isIdentifier()) {
          L.reporter().report(O->getLocation(), Diag::err_amp_overload_not_lowered)
              << O
              << (O->getDeclName().getNameKind() == DeclarationName::CXXOperatorName);
          continue;
        }
        const Restriction *R = Model.restrictionOf(O);
        std::string Name = O->getName().str() +
                           (R && R->Host ? "_slmc_amp_cpu" : "_slmc_amp");
        Names[O] = Name;
        for (const FunctionDecl *D : O->redecls())
          L.replace(SourceRange(D->getLocation()), Name);
      }
      if (Set.size() == 2 && IsCpuOnly(Keep) && Names.count(Set[0] == Keep ? Set[1] : Set[0])) {
        const FunctionDecl *Amp = Set[0] == Keep ? Set[1] : Set[0];
        dispatchToAmp(Model, Keep, Amp, Names[Amp], L);
      }
    }
    auto NameOf = [&](const FunctionDecl *FD) {
      // A member of a class template is renamed in its pattern.
      if (const FunctionDecl *P = FD->getTemplateInstantiationPattern())
        FD = P->getCanonicalDecl();
      auto It = Names.find(FD);
      return It != Names.end() ? It->second : FD->getName().str();
    };
    for (const RestrictionOverloadCall &C : Model.RestrictionOverloads) {
      // Ill-formed calls were reported by the checker; operators and
      // constructors above.
      if (C.NameLoc.isInvalid() || (C.CpuContext && C.ForCpu.size() != 1) ||
          (C.AmpContext && C.ForAmp.size() != 1))
        continue;
      std::string Cpu = C.CpuContext ? NameOf(C.ForCpu.front()) : "";
      std::string Amp = C.AmpContext ? NameOf(C.ForAmp.front()) : "";
      std::string Text = !C.AmpContext ? Cpu
                         : !C.CpuContext || Cpu == Amp
                             ? Amp
                         : choosesAtRunTime(C)
                             ? "SLMC_AMP_OVERLOAD_FN(" + Cpu + ", " + Amp + ")"
                             : "SLMC_AMP_OVERLOAD(" + Cpu + ", " + Amp + ")";
      L.replace(SourceRange(C.NameLoc), Text);
    }
  }

  /// The amp overload of a set of one cpu-only overload (`Cpu`) and one
  /// amp-only overload, the only sets whose members a pass can tell apart
  /// by keeping one; null for other sets.
  static const FunctionDecl *ampTwin(const ProgramModel &Model,
                                     const llvm::SmallVector<const FunctionDecl *, 3> &Set,
                                     const FunctionDecl *Cpu) {
    if (Set.size() != 2)
      return nullptr;
    const FunctionDecl *Amp = Set[0] == Cpu ? Set[1] : Set[0];
    const Restriction *RC = Model.restrictionOf(Cpu);
    const Restriction *RA = Model.restrictionOf(Amp);
    if ((RC && RC->Device) || !RA || !RA->Device || RA->Host)
      return nullptr;
    return Amp;
  }

  /// An operator overloaded on its restriction, one cpu overload (defined
  /// here, its parameters named) and one amp overload of the same kind
  /// (both members or both not): operators cannot be renamed at their
  /// calls, so each pass keeps one of them under the operator's name. The
  /// device passes keep the amp one and rename the cpu one; the host pass
  /// keeps the cpu one, renames the amp one, and the cpu one starts by
  /// calling the amp one while a CPU fallback work-item runs:
  ///   V operator+(V a, V b) restrict(amp) { ... }
  ///   -> V SLMC_AMP_OPERATOR(operator+, slmc_amp_operator_5)(V a, V b) ...
  ///   V operator+(V a, V b) { ... }
  ///   -> V SLMC_CPU_OPERATOR(operator+, slmc_cpu_operator_5)(V a, V b)
  ///      { SLMC_AMP_DISPATCH(slmc_amp_operator_5(static_cast<decltype(a)&&>(a), ...)) ... }
  /// False (nothing edited) for other sets, which are then reported.
  bool lowerOperatorSet(const ProgramModel &Model,
                        const llvm::SmallVector<const FunctionDecl *, 3> &Set,
                        const FunctionDecl *Cpu, LoweringContext &L) {
    const FunctionDecl *Amp = ampTwin(Model, Set, Cpu);
    if (!Amp)
      return false;
    OverloadedOperatorKind Op = Cpu->getDeclName().getCXXOverloadedOperator();
    const FunctionDecl *Def = nullptr;
    if (Op == OO_Comma ||
        Op == OO_New || Op == OO_Delete || Op == OO_Array_New ||
        Op == OO_Array_Delete || Op == OO_Coawait ||
        Amp->getDeclName() != Cpu->getDeclName() ||
        isa<CXXMethodDecl>(Cpu) != isa<CXXMethodDecl>(Amp) ||
        !Cpu->hasBody(Def) || !isa_and_nonnull<CompoundStmt>(Def->getBody()) ||
        Def->getTemplatedKind() == FunctionDecl::TK_DependentNonTemplate)
      return false;
    std::string Suffix = "operator_" + std::to_string(unsigned(Op));
    std::optional<std::string> Dispatch = dispatchCall(Def, "slmc_amp_" + Suffix);
    if (!Dispatch || !declaredBefore(Amp, Def))
      return false;
    for (const FunctionDecl *D : Amp->redecls())
      if (!L.isUserFile(D->getLocation()))
        return false;
    for (const FunctionDecl *D : Cpu->redecls())
      if (!L.isUserFile(D->getLocation()))
        return false;
    auto Rename = [&](const FunctionDecl *FD, llvm::StringRef Macro) {
      for (const FunctionDecl *D : FD->redecls()) {
        SourceRange Name = D->getNameInfo().getSourceRange();
        std::string Spelled = "operator" + std::string(getOperatorSpelling(Op));
        if (Op == OO_Call)
          Spelled = "operator()";
        else if (Op == OO_Subscript)
          Spelled = "operator[]";
        L.replace(Name, (Macro + "(" + Spelled + ", slmc_" +
                         (Macro == "SLMC_AMP_OPERATOR" ? "amp_" : "cpu_") + Suffix + ")")
                            .str());
      }
    };
    Rename(Amp, "SLMC_AMP_OPERATOR");
    Rename(Cpu, "SLMC_CPU_OPERATOR");
    L.insertAfterToken(cast<CompoundStmt>(Def->getBody())->getLBracLoc(),
                       " SLMC_AMP_DISPATCH(" + *Dispatch + ")");
    return true;
  }

  /// A conversion function overloaded on its restriction, one cpu and one
  /// amp overload, each defined in its class: as for operators, each pass
  /// keeps one under the conversion's name, and the other becomes a member
  /// function; a type alias declared before each gives the renamed one its
  /// return type (the conversion's type may not be one token):
  ///   operator float() const restrict(amp) { ... }
  ///   -> using slmc_conversion_type_1 = float;
  ///      SLMC_AMP_CONVERSION(slmc_conversion_type_1, slmc_amp_conversion_1)() const ...
  ///   operator float() const { ... }
  ///   -> using slmc_conversion_type_1 = float;
  ///      SLMC_CPU_CONVERSION(slmc_conversion_type_1, slmc_cpu_conversion_1)() const
  ///      { SLMC_AMP_DISPATCH(slmc_amp_conversion_1()) ... }
  /// False (nothing edited) for other sets, which are then reported.
  bool lowerConversionSet(const ProgramModel &Model,
                          const llvm::SmallVector<const FunctionDecl *, 3> &Set,
                          const FunctionDecl *Cpu, LoweringContext &L) {
    const FunctionDecl *Amp = ampTwin(Model, Set, Cpu);
    if (!Amp || Amp->getDeclName() != Cpu->getDeclName())
      return false;
    // One declaration each, a definition in the class, in a user file.
    for (const FunctionDecl *FD : {Amp, Cpu}) {
      if (FD->getPreviousDecl() || FD->getMostRecentDecl() != FD ||
          !FD->doesThisDeclarationHaveABody() || FD->isOutOfLine() ||
          !isa<CompoundStmt>(FD->getBody()) || !L.isUserFile(FD->getLocation()) ||
          FD->getDescribedFunctionTemplate())
        return false;
    }
    // `explicit` belongs to whichever of the two is the conversion in a pass.
    ASTContext &Ctx = Cpu->getASTContext();
    const SourceManager &SM = Ctx.getSourceManager();
    llvm::DenseMap<const FunctionDecl *, SourceLocation> Explicit;
    for (const FunctionDecl *FD : {Amp, Cpu}) {
      if (!cast<CXXConversionDecl>(FD)->getExplicitSpecifier().isSpecified())
        continue;
      // The `explicit` token among the specifiers before the name.
      SourceLocation Begin = FD->getOuterLocStart(), Name = FD->getLocation();
      if (Begin.isMacroID() || Name.isMacroID())
        return false;
      auto [File, Offset] = SM.getDecomposedLoc(Begin);
      llvm::StringRef Buffer = SM.getBufferData(File);
      Lexer Lex(SM.getLocForStartOfFile(File), Ctx.getLangOpts(), Buffer.begin(),
                Buffer.begin() + Offset, Buffer.end());
      Token Tok, Next;
      while (!Lex.LexFromRawLexer(Tok) && SM.isBeforeInTranslationUnit(Tok.getLocation(), Name))
        if (Tok.is(tok::raw_identifier) && Tok.getRawIdentifier() == "explicit") {
          Lex.LexFromRawLexer(Next);
          if (Next.is(tok::l_paren))
            return false; // explicit(bool): not handled
          Explicit[FD] = Tok.getLocation();
          break;
        }
      if (!Explicit.count(FD))
        return false;
    }
    unsigned N = ++Conversions;
    std::string Alias = "slmc_conversion_type_" + std::to_string(N);
    PrintingPolicy Policy = Ctx.getPrintingPolicy();
    Policy.SuppressScope = false;
    Policy.FullyQualifiedName = true;
    std::string Type = cast<CXXConversionDecl>(Cpu)->getConversionType().getAsString(Policy);
    // Once, before the first of the two (a member may not be declared
    // twice); in its replacement when nothing precedes the name (the
    // rewriter cannot insert at the start of a replaced range).
    const FunctionDecl *First =
        SM.isBeforeInTranslationUnit(Amp->getOuterLocStart(), Cpu->getOuterLocStart()) ? Amp
                                                                                      : Cpu;
    std::string AliasDecl = "using " + Alias + " = " + Type + "; ";
    SourceLocation AliasAt = First->getOuterLocStart();
    bool AliasPlaced = false;
    // Prefixed to a replacement that starts where the alias goes.
    auto Prefix = [&](SourceLocation At) {
      if (AliasPlaced || At != AliasAt)
        return std::string();
      AliasPlaced = true;
      return AliasDecl;
    };
    auto Rename = [&](const FunctionDecl *FD, llvm::StringRef Macro, llvm::StringRef Name,
                      llvm::StringRef ExplicitMacro) {
      if (auto It = Explicit.find(FD); It != Explicit.end())
        L.replace(SourceRange(It->second), Prefix(It->second) + ExplicitMacro.str());
      SourceRange NameRange = FD->getNameInfo().getSourceRange();
      L.replace(NameRange,
                Prefix(NameRange.getBegin()) + (Macro + "(" + Alias + ", " + Name + ")").str());
    };
    std::string AmpName = "slmc_amp_conversion_" + std::to_string(N);
    Rename(Amp, "SLMC_AMP_CONVERSION", AmpName, "SLMC_AMP_EXPLICIT");
    Rename(Cpu, "SLMC_CPU_CONVERSION", "slmc_cpu_conversion_" + std::to_string(N),
           "SLMC_CPU_EXPLICIT");
    if (!AliasPlaced)
      L.insertBefore(AliasAt, AliasDecl);
    L.insertAfterToken(cast<CompoundStmt>(Cpu->getBody())->getLBracLoc(),
                       " SLMC_AMP_DISPATCH(" + AmpName + "())");
    return true;
  }
  unsigned Conversions = 0;

  /// Constructors overloaded on their restriction, one cpu and one amp
  /// overload: constructors cannot be renamed, so each pass tells them
  /// apart by a tag parameter in front of the others, which the overload
  /// that pass does not keep under its plain signature takes:
  ///   P(int x) restrict(amp)  ->  P(SLMC_AMP_CONSTRUCTOR_FIRST int x) ...
  ///   P(int x) restrict(cpu)  ->  P(SLMC_CPU_CONSTRUCTOR_FIRST int x) ...
  /// (the host pass tags the amp one with ::slmc::amp_constructor, device
  /// passes the cpu one with ::slmc::cpu_constructor), and each
  /// construction in amp code passes the amp tag in the host pass:
  ///   P p(3) -> P p(SLMC_AMP_CONSTRUCT_FIRST 3);   P p; -> P p{SLMC_AMP_CONSTRUCT};
  /// so the CPU fallback constructs as GPUs do. A construction slmc++
  /// cannot give the tag (one with no tokens for it, or in
  /// restrict(cpu, amp) code, which would have to choose while it runs) is
  /// an error at that construction. False (nothing edited) for other sets.
  bool lowerConstructorSet(const ProgramModel &Model,
                           const llvm::SmallVector<const FunctionDecl *, 3> &Set,
                           const FunctionDecl *Cpu, LoweringContext &L) {
    const FunctionDecl *Amp = ampTwin(Model, Set, Cpu);
    if (!Amp || !isa<CXXConstructorDecl>(Amp) ||
        Cpu->getDescribedFunctionTemplate() || Amp->getDescribedFunctionTemplate())
      return false;
    auto ParamsOpen = [](const FunctionDecl *D) {
      FunctionTypeLoc FTL = D->getFunctionTypeLoc();
      return FTL ? FTL.getLParenLoc() : SourceLocation();
    };
    for (const FunctionDecl *FD : {Amp, Cpu})
      for (const FunctionDecl *D : FD->redecls()) {
        SourceLocation Open = ParamsOpen(D);
        if (Open.isInvalid() || Open.isMacroID() || !L.isUserFile(D->getLocation()))
          return false;
      }
    for (const FunctionDecl *FD : {Amp, Cpu}) {
      std::string Tag = FD == Amp ? "SLMC_AMP_CONSTRUCTOR" : "SLMC_CPU_CONSTRUCTOR";
      for (const FunctionDecl *D : FD->redecls())
        L.insertAfterToken(ParamsOpen(D), " " + Tag + (FD->getNumParams() ? "_FIRST " : " "));
    }
    // Constructions of the set's constructors in amp code (every one the
    // model saw: calls of the cpu one from cpu code need no edit).
    ASTContext &Ctx = Cpu->getASTContext();
    const FunctionDecl *AmpKey = Amp->getCanonicalDecl();
    for (const RestrictionOverloadCall &C : Model.RestrictionOverloads) {
      const auto *CE = dyn_cast_or_null<CXXConstructExpr>(C.Site);
      if (!CE || !C.AmpContext || !llvm::is_contained(C.Overloads, AmpKey))
        continue;
      if (C.CpuContext) {
        L.reporter().report(CE->getBeginLoc(), Diag::err_amp_ctor_overload_site)
            << cast<CXXConstructorDecl>(Amp)->getParent() << 1;
        continue;
      }
      if (C.ForAmp.size() != 1)
        continue; // reported by the checker
      if (!tagConstruction(Ctx, CE, L))
        L.reporter().report(CE->getBeginLoc(), Diag::err_amp_ctor_overload_site)
            << cast<CXXConstructorDecl>(Amp)->getParent() << 0;
    }
    return true;
  }

  /// Passes the amp tag to a construction: into its parentheses or braces,
  /// or as braces after a variable declared without an initializer.
  static bool tagConstruction(ASTContext &Ctx, const CXXConstructExpr *CE, LoweringContext &L) {
    unsigned Written = 0;
    for (const Expr *A : CE->arguments())
      Written += !isa<CXXDefaultArgExpr>(A);
    SourceRange Parens = CE->getParenOrBraceRange();
    if (Parens.isInvalid()) {
      auto Parents = Ctx.getParents(*CE);
      if (const auto *Cast = Parents.empty() ? nullptr : Parents[0].get<CXXFunctionalCastExpr>())
        Parens = SourceRange(Cast->getLParenLoc(), Cast->getRParenLoc());
    }
    if (Parens.isValid()) {
      if (Parens.getBegin().isMacroID() || !L.isUserFile(Parens.getBegin()))
        return false;
      return L.insertAfterToken(Parens.getBegin(),
                                Written ? " SLMC_AMP_CONSTRUCT_FIRST " : " SLMC_AMP_CONSTRUCT ");
    }
    // `P p;`: the variable whose initializer this is, with nothing written.
    auto Parents = Ctx.getParents(*CE);
    const auto *VD = Parents.empty() ? nullptr : Parents[0].get<VarDecl>();
    if (!VD || Written || VD->getInit() != CE || VD->getType()->isArrayType() ||
        VD->getLocation().isMacroID() || !L.isUserFile(VD->getLocation()))
      return false;
    return L.insertAfterToken(VD->getLocation(), "{SLMC_AMP_CONSTRUCT}");
  }

  /// Whether a call in `Def`'s body finds `Amp` by name: a member, or a
  /// function declared before `Def`.
  static bool declaredBefore(const FunctionDecl *Amp, const FunctionDecl *Def) {
    const SourceManager &SM = Def->getASTContext().getSourceManager();
    return isa<CXXMethodDecl>(Def) ||
           SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Amp->getLocation()),
                                        SM.getExpansionLoc(Def->getLocation()));
  }

  /// The call of `Amp` (the amp overload's name in the host pass) that the
  /// cpu overload `Def` makes inside a work-item: its parameters passed on
  /// as they came, a template's parameters as explicit arguments. None
  /// when a parameter has no name or is a pack.
  static std::optional<std::string> dispatchCall(const FunctionDecl *Def,
                                                 llvm::StringRef Amp) {
    std::string Call = Amp.str();
    if (const FunctionTemplateDecl *T = Def->getDescribedFunctionTemplate()) {
      Call += "<";
      bool First = true;
      for (const NamedDecl *P : *T->getTemplateParameters()) {
        if (!P->getIdentifier() || P->isParameterPack())
          return std::nullopt;
        Call += (First ? "" : ", ") + P->getName().str();
        First = false;
      }
      Call += ">";
    }
    std::string Args;
    for (const ParmVarDecl *P : Def->parameters()) {
      if (!P->getIdentifier() || P->isParameterPack())
        return std::nullopt;
      std::string N = P->getName().str();
      Args += (Args.empty() ? "" : ", ") + ("static_cast<decltype(" + N + ") &&>(" + N + ")");
    }
    return Call + "(" + Args + ")";
  }

  /// restrict(cpu, amp) code keeps the cpu overload's name in the host
  /// pass wherever the call cannot choose when it runs (members,
  /// templates, qualified names), so the cpu overload itself calls the amp
  /// one inside a work-item: only restrict(cpu, amp) code can reach it
  /// there. For sets of one cpu and one amp overload whose cpu one is
  /// defined here after the amp one is declared (so the call finds it).
  void dispatchToAmp(const ProgramModel &Model, const FunctionDecl *Cpu,
                     const FunctionDecl *Amp, llvm::StringRef AmpName,
                     LoweringContext &L) {
    const Restriction *RA = Model.restrictionOf(Amp);
    const FunctionDecl *Def = nullptr;
    if (!RA || RA->Host || !Cpu->hasBody(Def) || !isa_and_nonnull<CompoundStmt>(Def->getBody()) ||
        !L.isUserFile(Def->getLocation()) ||
        isa<CXXMethodDecl>(Cpu) != isa<CXXMethodDecl>(Amp))
      return;
    if (!declaredBefore(Amp, Def))
      return;
    if (std::optional<std::string> Call = dispatchCall(Def, AmpName))
      L.insertAfterToken(cast<CompoundStmt>(Def->getBody())->getLBracLoc(),
                         " SLMC_AMP_DISPATCH(" + *Call + ")");
  }

  /// Whether a call from restrict(cpu, amp) code can pick its overload when
  /// it runs: an unqualified call of a free function, not a template, whose
  /// name means only this overload set, so `(c ? f_slmc_amp : f)(...)` is
  /// well-formed. The host pass then calls the amp overload while the CPU
  /// fallback runs a work-item.
  static bool choosesAtRunTime(const RestrictionOverloadCall &C) {
    const auto *CE = dyn_cast<CallExpr>(C.Site);
    const auto *DRE =
        CE ? dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreParenImpCasts()) : nullptr;
    if (!DRE || DRE->hasQualifier() || DRE->hasExplicitTemplateArgs())
      return false;
    const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl());
    if (!FD || isa<CXXMethodDecl>(FD) || FD->getPrimaryTemplate())
      return false;
    unsigned Named = 0;
    for (const NamedDecl *ND : FD->getDeclContext()->lookup(FD->getDeclName())) {
      (void)ND;
      ++Named;
    }
    return Named == C.Overloads.size();
  }

  /// C++ AMP kernels capture `array`s (and textures) by reference; a device cannot follow a
  /// reference to the host stack, so the capture becomes a pointer (by
  /// value) to the array's device-visible twin:
  ///   [&](index<1> i) { a[i] = 0; }
  ///   -> [&, slmc_ref_a = ::concurrency::detail::device_ref(a)](index<1> i)
  ///      { (*slmc_ref_a)[i] = 0; }
  void lowerArrayCaptures(ASTContext &Ctx, const LambdaExpr *LE,
                          LoweringContext &L) {
    const SourceManager &SM = Ctx.getSourceManager();
    for (const LambdaCapture &C : LE->captures()) {
      if (!C.capturesVariable() || C.getCaptureKind() != LCK_ByRef)
        continue;
      const auto *VD = dyn_cast<VarDecl>(C.getCapturedVar());
      const CXXRecordDecl *RD =
          VD ? VD->getType().getNonReferenceType()->getAsCXXRecordDecl() : nullptr;
      if (!isArrayOrTexture(RD))
        continue;
      std::string Ref = "slmc_ref_" + VD->getName().str();
      std::string Init =
          Ref + " = ::concurrency::detail::device_ref(" + VD->getName().str() + ")";
      if (C.isImplicit()) {
        L.insertBefore(LE->getIntroducerRange().getEnd(), ", " + Init);
      } else {
        // `&a`: replace from the ampersand to the name.
        SourceLocation Name = SM.getExpansionLoc(C.getLocation());
        const char *P = SM.getCharacterData(Name);
        unsigned Back = 0;
        while (Back < 16 && P[-int(Back) - 1] != '&')
          ++Back;
        L.replace(SourceRange(Name.getLocWithOffset(-int(Back) - 1), Name), Init);
      }
      struct Uses : RecursiveASTVisitor<Uses> {
        const VarDecl *Var;
        std::vector<const DeclRefExpr *> Found;
        bool VisitDeclRefExpr(DeclRefExpr *DRE) {
          if (DRE->getDecl() == Var)
            Found.push_back(DRE);
          return true;
        }
      } U;
      U.Var = VD;
      U.TraverseStmt(LE->getBody());
      for (const DeclRefExpr *DRE : U.Found)
        L.replace(DRE->getSourceRange(), "(*" + Ref + ")");
    }
  }

  void lowerToRawStorage(ASTContext &Ctx, const GroupLocalVar &G,
                         LoweringContext &L) {
    // Rewrite the whole declaration statement: every declarator of it is a
    // tile_static object of the same type.
    auto Parents = Ctx.getParents(*G.Var);
    const DeclStmt *DS = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
    if (!DS || !Done.insert(DS).second)
      return;
    PrintingPolicy Policy = Ctx.getPrintingPolicy();
    Policy.FullyQualifiedName = true;
    Policy.SuppressScope = false;
    std::string Text;
    for (const Decl *D : DS->decls()) {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD)
        return;
      L.addPrologue("namespace { template <int N> struct slmc_site : ::slmc::site_base {}; }");
      Text += "auto &" + VD->getName().str() + " = *::slmc::group_local_storage<" +
              VD->getType().getAsString(Policy) + ", slmc_site<" +
              std::to_string(L.nextSite()) + ">>(); ";
    }
    Text.pop_back();
    L.replace(DS->getSourceRange(), Text);
  }

  llvm::DenseSet<const DeclStmt *> Done;
};

} // namespace

std::unique_ptr<DialectLowering> createAmpLowering() {
  return std::make_unique<AmpLowering>();
}

} // namespace slmc
