#!/usr/bin/env python3
# Part of the slmc project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""An editor session with slmc-clangd, over LSP on stdio.

A project built with slmc++ (its compile_commands.json names slmc++ as the
compiler) has a C++ AMP file that breaks the rules. The test opens it, reads
the diagnostics clangd publishes (messages, severities, ranges, notes as
related information), asks for the quick fix of the initializer rule and
applies it in a didChange that also breaks another rule, reads the new
diagnostics, checks that hover and completion work in the dialect file, that
a Cilk Plus file with array notation in it and in its header shows only its
rule error (and the pre-pass's error after an edit breaks a section), that
every unmodified example gets exactly the diagnostics slmc++ -fsyntax-only
gives it (none, for an example that builds), and that the server shuts down
cleanly.

  lsp_session_test.py --clangd=PATH --slmcxx=PATH --examples=DIR
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lsp  # noqa: E402
import slmc_diags  # noqa: E402

SEVERITY = {"error": 1, "warning": 2, "note": 3, "remark": 4}

KERNEL = """\
#include <amp.h>
using namespace concurrency;

void host() {
  tile_static int misplaced;
}

void kernel(array_view<int, 1> av) {
  parallel_for_each(av.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) {
    tile_static int x = 42;
    tile_static int s[64];
    s[t.local[0]] = av[t.global] + x;
    if (t.local[0] < 32)
      t.barrier.wait();
    av[t.global] = s[63 - t.local[0]];
  });
}
"""

# Cilk Plus with array notation in the file and in a project header: read
# rewritten, as slmc++ reads them, so only the seeded rule error shows.
CILK_HEADER = """\
__attribute__((target(gfx))) static inline void scale_all(float *v, int n, float f) {
  v[0:n] *= f;
}
static inline float total(const float *v, int n) { return __sec_reduce_add(v[0:n]); }
"""

CILK = """\
#include <gfx/gfx_intrin.h>
#include "sections.h"

__declspec(target(gfx_kernel)) void kernel(float *out, int n) {
  _Cilk_for _Thread_group (int g = 0; g < n; g += 16) {
    __thread_group_local float t[16];
    t[:] = out[g:16] * 2.0f;
    _gfx_gpgpu_thread_barrier();
    out[g:16] = t[:] + __sec_reduce_add(t[0:16]);
  }
  __thread_group_local float misplaced[4];
}

float host(float *a, int n) {
  a[0:n] = 1.0f;
  scale_all(a, n, 2.0f);
  return total(a, n);
}
"""

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)
    return cond


def pos(text, needle, line_hint=None, offset=0):
    """LSP position (0-based line, UTF-16 column; the file is ASCII) of the
    first `needle` (on the line containing `line_hint`, if given)."""
    for no, line in enumerate(text.splitlines()):
        if line_hint and line_hint not in line:
            continue
        col = line.find(needle)
        if col >= 0:
            return {"line": no, "character": col + offset}
    raise AssertionError("%r not in the text" % needle)


def rng(text, needle, line_hint=None):
    start = pos(text, needle, line_hint)
    return {"start": start,
            "end": {"line": start["line"], "character": start["character"] + len(needle)}}


def find(diags, fragment):
    return [d for d in diags if fragment in d["message"]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--clangd", required=True)
    ap.add_argument("--slmcxx", required=True)
    ap.add_argument("--examples", required=True)
    args = ap.parse_args()
    args.clangd, args.slmcxx, args.examples = (
        os.path.abspath(p) for p in (args.clangd, args.slmcxx, args.examples))

    project = tempfile.mkdtemp(prefix="slmc-lsp-")
    try:
        kernel = os.path.join(project, "kernel.cpp")
        with open(kernel, "w") as f:
            f.write(KERNEL)
        cilk = os.path.join(project, "cilk.cpp")
        with open(cilk, "w") as f:
            f.write(CILK)
        with open(os.path.join(project, "sections.h"), "w") as f:
            f.write(CILK_HEADER)
        examples = []
        for root, _, files in os.walk(args.examples):
            examples += [os.path.join(root, f) for f in files if f.endswith(".cpp")]
        commands = [{"directory": project, "file": src,
                     "arguments": [args.slmcxx, "-O2", "-c", src, "-o", "x.o"]}
                    for src in (kernel, cilk)]
        for e in examples:
            commands.append({"directory": project, "file": e,
                             "arguments": [args.slmcxx, "-O2", "-c", e, "-o", "x.o"]})
        with open(os.path.join(project, "compile_commands.json"), "w") as f:
            json.dump(commands, f)

        server = lsp.Client([args.clangd, "--log=error", "--background-index=false",
                             "--compile-commands-dir=" + project], cwd=project)
        init = server.request("initialize", {
            "processId": os.getpid(), "rootUri": lsp.uri(project),
            "capabilities": {"textDocument": {
                "publishDiagnostics": {"relatedInformation": True},
                "codeAction": {"codeActionLiteralSupport": {
                    "codeActionKind": {"valueSet": ["quickfix"]}}},
                "completion": {"completionItem": {"snippetSupport": False}},
                "hover": {"contentFormat": ["plaintext"]}}}})
        check("codeActionProvider" in init["capabilities"], "server offers code actions")
        server.notify("initialized", {})

        # -- the broken file -------------------------------------------------
        u = lsp.uri(kernel)
        server.notify("textDocument/didOpen", {"textDocument": {
            "uri": u, "languageId": "cpp", "version": 1, "text": KERNEL}})
        diags = server.diagnostics(kernel, version=1)
        for d in diags:
            print("     v1: %s %s %s" % (d["range"]["start"], d.get("severity"), d["message"]))
        check(len(diags) == 3, "three diagnostics, no false errors (got %d)" % len(diags))

        d = find(diags, "'misplaced' is only allowed in a function restricted to 'amp'")
        check(d and d[0]["severity"] == 1 and d[0]["range"] == rng(KERNEL, "misplaced"),
              "tile_static outside amp: an error on the variable's name")
        d = find(diags, "'x' cannot have an initializer")
        init_diag = d[0] if d else None
        check(d and d[0]["severity"] == 1
              and d[0]["range"] == rng(KERNEL, "x", "tile_static int x"),
              "initializer rule: an error on the variable's name")
        d = find(diags, "Tile barrier is under thread-dependent control flow")
        check(d and d[0]["severity"] == 2
              and d[0]["range"]["start"] == pos(KERNEL, "t.barrier.wait()"),
              "divergent barrier: a warning at the barrier")
        related = d[0].get("relatedInformation", []) if d else []
        check(len(related) == 1
              and related[0]["message"] == "This condition depends on the thread's index"
              and related[0]["location"]["uri"] == u
              and related[0]["location"]["range"]["start"] == pos(KERNEL, "t.local[0] < 32"),
              "the note points at the thread-dependent condition")

        # -- the quick fix ---------------------------------------------------
        fix_edit = None
        if init_diag:
            actions = server.request("textDocument/codeAction", {
                "textDocument": {"uri": u}, "range": init_diag["range"],
                "context": {"diagnostics": [init_diag]}})
            fixes = [a for a in actions or [] if a.get("kind") == "quickfix"]
            edits = fixes[0]["edit"]["changes"].get(u, []) if fixes else []
            want = {"range": rng(KERNEL, " = 42"), "newText": ""}
            check(len(edits) == 1 and edits[0] == want,
                  "code action removes the initializer (%s)"
                  % (fixes[0]["title"] if fixes else "none"))
            fix_edit = edits[0] if edits else None

        # -- didChange: apply the fix, break another rule -----------------------
        v2 = KERNEL.replace("tile_static int x = 42;", "tile_static int x;")
        v2 = v2.replace("    tile_static int s[64];\n",
                        "    tile_static int s[64];\n    tile_static int *p;\n")
        change = [{"text": v2}]
        if fix_edit:  # incremental: the fix as the editor applies it, then the rest
            change = [{"range": fix_edit["range"], "text": fix_edit["newText"]},
                      {"text": v2}]
        server.notify("textDocument/didChange", {
            "textDocument": {"uri": u, "version": 2}, "contentChanges": change})
        diags = server.diagnostics(kernel, version=2)
        for d in diags:
            print("     v2: %s %s %s" % (d["range"]["start"], d.get("severity"), d["message"]))
        check(not find(diags, "cannot have an initializer"), "the fixed error is gone")
        d = find(diags, "'p' cannot have pointer type 'int *'")
        check(d and d[0]["range"] == rng(v2, "p", "tile_static int *p"),
              "the new error is reported live, at its place")
        check(len(diags) == 3, "still no false errors (got %d)" % len(diags))

        # -- hover and completion in the dialect file --------------------------
        hover = server.request("textDocument/hover", {
            "textDocument": {"uri": u}, "position": pos(v2, "s[t.local", None)})
        text = json.dumps(hover or {})
        check("int[64]" in text, "hover on a tile_static array shows its type")
        hover = server.request("textDocument/hover", {
            "textDocument": {"uri": u}, "position": pos(v2, "tiled_index<64> t")})
        check("tiled_index" in json.dumps(hover or {}), "hover on a dialect type")
        completion = server.request("textDocument/completion", {
            "textDocument": {"uri": u},
            "position": pos(v2, "local[0]] = av", None)})
        items = completion.get("items", []) if isinstance(completion, dict) else completion or []
        labels = {i.get("filterText") or i["label"].strip() for i in items}
        check({"local", "global", "barrier"} <= labels,
              "completion after 't.' lists the tiled_index members")

        # -- Cilk Plus array notation, in the file and in a header ------------
        u = lsp.uri(cilk)
        server.notify("textDocument/didOpen", {"textDocument": {
            "uri": u, "languageId": "cpp", "version": 1, "text": CILK}})
        diags = server.diagnostics(cilk, version=1)
        for d in diags:
            print("     cilk v1: %s %s %s" % (d["range"]["start"], d.get("severity"), d["message"]))
        check(len(diags) == 1, "array notation: no false errors (got %d)" % len(diags))
        d = find(diags, "'misplaced' must be declared immediately inside a '_Thread_group' nest")
        check(d and d[0]["severity"] == 1
              and d[0]["range"]["start"] == pos(CILK, "__thread_group_local float misplaced"),
              "array notation: the rule error at its line and column")
        hover = server.request("textDocument/hover", {
            "textDocument": {"uri": u}, "position": pos(CILK, "misplaced")})
        check("float[4]" in json.dumps(hover or {}),
              "array notation: hover after rewritten lines finds the variable")
        # An edit: a new statement with a section the pre-pass rejects, above
        # the rule error, which moves down a line.
        v2 = CILK.replace("  a[0:n] = 1.0f;\n", "  a[0:n] = 1.0f;\n  a[1:] = 0.0f;\n")
        server.notify("textDocument/didChange", {
            "textDocument": {"uri": u, "version": 2}, "contentChanges": [{"text": v2}]})
        diags = server.diagnostics(cilk, version=2)
        for d in diags:
            print("     cilk v2: %s %s %s" % (d["range"]["start"], d.get("severity"), d["message"]))
        d = find(diags, "Array section needs both a lower bound and a length")
        check(len(diags) == 1 and d and d[0]["severity"] == 1
              and d[0]["range"]["start"] == pos(v2, "[1:]", "a[1:]"),
              "array notation: the pre-pass's error, alone, at its section")
        v3 = CILK.replace("  a[0:n] = 1.0f;\n", "  a[0:n] = 1.0f;\n  a[1:n - 1] = 0.0f;\n")
        server.notify("textDocument/didChange", {
            "textDocument": {"uri": u, "version": 3}, "contentChanges": [{"text": v3}]})
        diags = server.diagnostics(cilk, version=3)
        check(len(diags) == 1 and find(diags, "'misplaced'")
              and diags[0]["range"]["start"] == pos(v3, "__thread_group_local float misplaced"),
              "array notation: fixed, the rule error again, at its place")

        # -- unmodified examples: what slmc++ -fsyntax-only says (nothing,
        # for an example that builds), no false errors ----------------------
        for e in examples:
            with open(e) as f:
                text = f.read()
            server.notify("textDocument/didOpen", {"textDocument": {
                "uri": lsp.uri(e), "languageId": "cpp", "version": 1, "text": text}})
            got = sorted((d["range"]["start"]["line"] + 1, d["severity"],
                          slmc_diags.norm_message(d["message"]))
                         for d in server.diagnostics(e, version=1))
            out = subprocess.run([args.slmcxx, "-fsyntax-only", "-O2", e],
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 universal_newlines=True).stdout
            want = sorted((d["line"], SEVERITY[d["kind"]], d["message"])
                          for d in slmc_diags.parse_output(out))
            check(got == want, "%s: the diagnostics of slmc++ -fsyntax-only (%d)"
                  % (os.path.relpath(e, args.examples), len(want)))
            if got != want:
                print("     slmc-clangd: %s\n     slmc++:      %s" % (got, want))

        rc = server.close()
        check(rc == 0, "clean shutdown (exit code %s)" % rc)
    finally:
        shutil.rmtree(project, ignore_errors=True)

    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
