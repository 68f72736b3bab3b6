#!/usr/bin/env python3
# Part of the slmc project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs slmc's diagnostics tests through the other doors.

  slmc_diags.py verify  --door=tidy|clangd [paths] FILE|DIR...
      Replays each `%slmcxx -fsyntax-only ... -Xclang -verify[=P] %s` RUN
      line of the files through clang-tidy (the slmc-* checks) or
      slmc-clangd --check (with the compile_commands.json and .clangd
      settings of a project built with slmc++), and checks the diagnostics against the file's
      expected-* comments as clang's -verify does.

  slmc_diags.py cdb DIR FILE COMPILER [ARGS...]
      Writes DIR/compile_commands.json with the one command
      `COMPILER ARGS... -c FILE`, run in FILE's directory.

  slmc_diags.py compare [paths] [--examples=DIR] FILE|DIR...
      Runs slmc++ -fsyntax-only and slmc-clangd --check on each file with
      -verify RUN lines (with their flags) and on each example (no flags),
      and requires the same diagnostics: same place (line and column),
      severity, text (clangd capitalizes the first letter), notes and
      fix-its. (Tests of clang's own errors inside headers are not
      compared: clangd shows those at the #include line, once per include.)

Directories are searched for .cpp files (not in Inputs/); in `verify`, files without a
matching RUN line are skipped. Uses the standard library only.
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

DIAG = re.compile(r"^(.*?):(\d+):(\d+): (error|warning|note|remark): (.*)$")
FIXIT = re.compile(r'^fix-it:"(.*)":\{(\d+):(\d+)-(\d+):(\d+)\}:"(.*)"$')
DIRECTIVE = re.compile(
    r"([A-Za-z0-9_-]+)-(error|warning|note|remark)(-re)?"
    r"(@[^\s{]*)?(?:\s+(\d+)(\+|-\d+)?)?\s*\{\{(.*?)\}\}")
SNIPPET = re.compile(r"^\s*\d*\s*\|")
NAME_SUFFIX = re.compile(r" \[[^\[\]]+\]$")


def norm_message(text):
    """The text without what a door adds around it."""
    text = NAME_SUFFIX.sub("", text)  # clang-tidy's [check], clangd's [code]
    if text.endswith(" (fix available)"):  # clangd
        text = text[: -len(" (fix available)")]
    return text[:1].lower() + text[1:]  # clangd capitalizes


def parse_output(text):
    """Diagnostics of compiler-format output: each a dict with notes and
    fix-its attached to the diagnostic they follow."""
    diags = []
    for line in text.splitlines():
        if SNIPPET.match(line):  # clang's source excerpts
            continue
        m = DIAG.match(line)
        if m:
            d = {"file": os.path.realpath(m.group(1)), "line": int(m.group(2)),
                 "col": int(m.group(3)), "kind": m.group(4),
                 "message": norm_message(m.group(5)), "notes": [], "fixits": []}
            if d["kind"] == "note" and d["message"].startswith("expanded from macro"):
                continue  # clang prints these with the excerpt; tidy as notes
            if d["kind"] == "note" and diags:
                diags[-1]["notes"].append(d)
            else:
                diags.append(d)
            continue
        m = FIXIT.match(line)
        if m and diags:
            target = diags[-1]["notes"][-1] if diags[-1]["notes"] else diags[-1]
            target["fixits"].append(
                (os.path.realpath(m.group(1)),) + tuple(int(x) for x in m.groups()[1:5])
                + (m.group(6),))
    return diags


def as_clangd_shows(diags, compiler):
    """clangd turns a note that carries fix-its into fixes of its
    diagnostic and shows no such note, and it prints every fix after the
    notes. So the compiler's notes with fix-its are dropped, and on both
    sides each diagnostic holds the fix-its of its notes."""
    out = []
    for d in diags:
        fixits, notes = list(d["fixits"]), []
        for n in d["notes"]:
            fixits += n["fixits"]
            if not (compiler and n["fixits"]):
                notes.append(dict(n, fixits=[]))
        out.append(dict(d, fixits=sorted(fixits), notes=notes))
    return out


def flatten(diags):
    for d in diags:
        yield d
        for n in d["notes"]:
            yield n


# ---- -verify ---------------------------------------------------------------

def expectations(path, prefixes):
    """expected-* directives of `path` for the -verify prefixes, as clang
    reads them; None for <prefix>-no-diagnostics."""
    found, none = [], False
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for no, line in enumerate(lines, 1):
        for p in prefixes:
            if re.search(r"\b%s-no-diagnostics\b" % re.escape(p), line):
                none = True
        for m in DIRECTIVE.finditer(line):
            prefix, kind, regex, at, count, more, text = m.groups()
            if prefix not in prefixes:
                continue
            target = no
            if at:
                at = at[1:]
                if at == "*:*":
                    target = None  # any file, any line (clang's @*:*)
                elif at.startswith(("+", "-")):
                    target = no + int(at)
                elif at.isdigit():
                    target = int(at)
                else:
                    raise SystemExit("%s:%d: unsupported location @%s" % (path, no, at))
            lo = hi = int(count) if count else 1
            if more == "+":
                hi = None
            elif more:
                hi = int(more[1:])
            found.append({"kind": kind, "line": target, "text": text,
                          "regex": bool(regex), "min": lo, "max": hi, "at": no})
    return found, none


def text_matches(e, message):
    if e["regex"]:
        pattern = "".join(re.escape(part) if i % 2 == 0 else part
                          for i, part in enumerate(re.split(r"\{\{(.*?)\}\}", e["text"])))
        return re.search(pattern, message) is not None
    return e["text"] in message or norm_message(e["text"]) in message


def verify(path, prefixes, diags, ignored=()):
    """clang -verify's rule: every expected diagnostic seen (as many times as
    said, on its line, containing its text) and nothing else (but the kinds
    -verify-ignore-unexpected names)."""
    expected, none = expectations(path, prefixes)
    problems = []
    if none and expected:
        problems.append("expected-no-diagnostics with expected-* directives")
    seen = [d for d in flatten(diags)]
    used = [False] * len(seen)
    for e in expected:
        n = 0
        for i, d in enumerate(seen):
            if used[i] or d["kind"] != e["kind"]:
                continue
            if e["line"] is not None and (d["file"] != path or d["line"] != e["line"]):
                continue
            if not text_matches(e, d["message"]):
                continue
            if e["max"] is not None and n == e["max"]:
                break
            used[i] = True
            n += 1
        if n < e["min"] and e["line"] is None:
            # clang-tidy reports identical diagnostics at one place in a
            # header once: one seen there stands for the rest.
            for i, d in enumerate(seen):
                if (used[i] and d["kind"] == e["kind"] and d["file"] != path
                        and text_matches(e, d["message"])):
                    n = e["min"]
                    break
        if n < e["min"]:
            problems.append("%s expected but not seen: line %s: %s"
                            % (e["kind"], "*" if e["line"] is None else e["line"], e["text"]))
    for i, d in enumerate(seen):
        if not used[i] and d["kind"] not in ignored:
            where = "" if d["file"] == path else d["file"] + " "
            problems.append("%s seen but not expected: %sline %d: %s"
                            % (d["kind"], where, d["line"], d["message"]))
    return problems


def verify_runs(path):
    """(flags, prefixes, ignored kinds) of each slmc++ -fsyntax-only -verify
    RUN line."""
    runs = []
    commands, pending = [], ""
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.search(r"RUN:\s*(.*)$", line)
            if not m:
                continue
            # A RUN line ending in a backslash goes on on the next one, as in lit.
            text = pending + m.group(1).rstrip()
            if text.endswith("\\"):
                pending = text[:-1] + " "
                continue
            pending = ""
            commands.append(text)
    for command in commands:
        if "|" in command:
            continue
        words = shlex.split(command)
        if words[:2] != ["%slmcxx", "-fsyntax-only"]:
            continue
        flags, prefixes, ignored, i = [], None, (), 2
        while i < len(words):
            w = words[i]
            if (w == "-Xclang" and i + 1 < len(words)
                    and words[i + 1].startswith("-verify-ignore-unexpected")):
                v = words[i + 1]
                ignored = (tuple(v.split("=", 1)[1].split(",")) if "=" in v
                           else ("error", "warning", "note", "remark"))
                i += 2
                continue
            if w == "-Xclang" and i + 1 < len(words) and words[i + 1].startswith("-verify"):
                v = words[i + 1]
                prefixes = v.split("=", 1)[1].split(",") if "=" in v else ["expected"]
                i += 2
                continue
            if w != "%s":
                # %S is lit's name for the test's directory.
                flags.append(w.replace("%S", os.path.dirname(os.path.abspath(path))))
            i += 1
        if prefixes:
            runs.append((flags, prefixes, ignored))
    return runs


# ---- the doors -------------------------------------------------------------

# Warnings slmc++ leaves off unless -pedantic or their -W name is given.
PEDANTIC_GROUPS = ["slmc-group-local-memory-in-helper"]


def split_slmc_flags(flags):
    """slmc++-only options (-> door settings) and compiler flags."""
    limit, rest = None, []
    for f in flags:
        if f.startswith("--group-memory-limit="):
            limit = f.split("=", 1)[1]
        else:
            rest.append(f)
    return limit, rest


def run(cmd, cwd=None, env=None):
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    return p.returncode, p.stdout


def run_slmcxx(args, path, flags):
    # (clang prints parseable fix-its only with its source excerpts)
    return run([args.slmcxx, "-fsyntax-only", "-fno-color-diagnostics",
                "-fdiagnostics-parseable-fixits"]
               + flags + [path])


def run_tidy(args, path, flags):
    limit, rest = split_slmc_flags(flags)
    # Pedantic warnings are checks of their own, named to turn them on, as
    # -pedantic or their -W name does for slmc++.
    checks = "-*,slmc-*"
    for group in PEDANTIC_GROUPS:
        if "-pedantic" not in rest and "-W" + group not in rest:
            checks += ",-" + group
    cmd = [args.clang_tidy, "--load=" + args.tidy_module, "--checks=" + checks,
           "--quiet"]
    if limit:
        cmd.append("--config={CheckOptions: {slmc-rules.GroupMemoryLimit: %s}}" % limit)
    return run(cmd + [path, "--"] + rest)


# What docs/editors.md has a project's .clangd say: clang's driver does not
# know slmc++'s own options (slmc-clangd reads them from the database).
CLANGD_CONFIG = """CompileFlags:
  Remove: [--group-memory-limit=*, --emit=*, --offload-targets=*, --spirv-version=*, --cuda-arch=*]
"""


def run_clangd(args, path, flags):
    with tempfile.TemporaryDirectory() as tmp:
        # The command a CMake project built with slmc++ would record, and a
        # user configuration of clangd's own (so the developer's does not
        # count) with the lines above.
        cdb = os.path.join(tmp, "build")
        write_cdb(cdb, path, args.slmcxx, flags)
        os.makedirs(os.path.join(tmp, "clangd"))
        with open(os.path.join(tmp, "clangd", "config.yaml"), "w") as f:
            f.write(CLANGD_CONFIG)
        env = dict(os.environ, XDG_CONFIG_HOME=tmp)
        return run([args.slmc_clangd, "--check=" + path,
                    "--compile-commands-dir=" + cdb], env=env)


def sources(paths):
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, files in os.walk(p):
                dirs[:] = sorted(d for d in dirs if d != "Inputs")  # as lit does
                for f in sorted(files):
                    path = os.path.join(root, f)
                    if f.endswith(".cpp"):
                        yield os.path.realpath(path)
        else:
            yield os.path.realpath(p)


def write_cdb(directory, path, compiler, args):
    os.makedirs(directory, exist_ok=True)
    path = os.path.realpath(path)
    with open(os.path.join(directory, "compile_commands.json"), "w") as f:
        json.dump([{"directory": os.path.dirname(path), "file": path,
                    "arguments": [compiler] + args + ["-c", path]}], f)


def main():
    if sys.argv[1:2] == ["cdb"] and len(sys.argv) >= 5:
        write_cdb(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=["verify", "compare"])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--door", choices=["tidy", "clangd"])
    ap.add_argument("--slmcxx")
    ap.add_argument("--slmc-clangd")
    ap.add_argument("--clang-tidy")
    ap.add_argument("--tidy-module")
    ap.add_argument("--examples", action="append", default=[])
    args = ap.parse_args()

    failed = checked = 0
    examples = set(sources(args.examples))
    for path in sorted(examples) + list(sources(args.paths)):
        runs = verify_runs(path)
        if args.mode == "verify":
            door = run_tidy if args.door == "tidy" else run_clangd
            for flags, prefixes, ignored in runs:
                checked += 1
                rc, out = door(args, path, flags)
                problems = verify(path, prefixes, parse_output(out), ignored)
                if rc not in (0, 1):
                    problems.append("%s failed (exit %d)" % (args.door, rc))
                label = "%s %s -verify=%s" % (path, " ".join(flags), ",".join(prefixes))
                print(("FAIL " if problems else "ok   ") + label)
                for p in problems:
                    print("    " + p)
                    if p.endswith(")"):
                        print(out)
                failed += bool(problems)
        else:
            if path in examples:
                runs = runs or [([], ["expected"], ())]
            # clang's own errors inside headers (expected@*:*): clangd shows
            # them at the #include line, once per include.
            with open(path, encoding="utf-8") as f:
                if "@*:*" in f.read():
                    runs = []
            for flags in [f for f, _, _ in runs]:
                checked += 1
                _, want = run_slmcxx(args, path, flags)
                rc, got = run_clangd(args, path, flags)
                want_d = as_clangd_shows(parse_output(want), compiler=True)
                got_d = as_clangd_shows(parse_output(got), compiler=False)
                label = "%s %s" % (path, " ".join(flags))
                if rc not in (0, 1) or want_d != got_d:
                    failed += 1
                    print("FAIL " + label)
                    print("  slmc++ -fsyntax-only:\n    " + "\n    ".join(want.splitlines()))
                    print("  slmc-clangd --check:\n    " + "\n    ".join(got.splitlines()))
                else:
                    n = sum(1 for _ in flatten(want_d))
                    print("ok   %s (%d diagnostics and notes)" % (label, n))
    print("%d of %d runs failed" % (failed, checked))
    if not checked:
        print("no runs found")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
