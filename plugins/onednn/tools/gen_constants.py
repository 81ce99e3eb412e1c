#!/usr/bin/env python3
"""Generate ``sporeling/onednn/constants.py`` from oneDNN's public C headers.

Developer tool, run once per oneDNN version; its output is committed, so nothing needs a
compiler at install or run time. oneDNN renumbers its enums between major versions, so the
values must come from the headers of the exact version we load, evaluated by a C compiler
(aliases, expressions and ``#ifdef``s included), never typed by hand.

    python plugins/onednn/tools/gen_constants.py [--repo GIT_DIR] [--tag v3.2] [--out PATH]

``--repo`` is a (bare) clone of https://github.com/oneapi-src/oneDNN; ``gcc`` must be on PATH.
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = "/work/.mirror/oneapi-src+oneDNN/repo"
TAG = "v3.2"
OUT = Path(__file__).resolve().parents[1] / "src/sporeling/onednn/constants.py"
INC = "include/oneapi/dnnl/"
HEADERS = ("dnnl_common_types.h", "dnnl_types.h")  # what we take enums, macros, structs from
# Experimental parts are behind #ifdefs; we take them too and record which macro gates them.
# Each configuration is compiled separately so a value that depends on one is caught.
SPARSE, PROFILING = "DNNL_EXPERIMENTAL_SPARSE", "DNNL_EXPERIMENTAL_PROFILING"
CONFIGS = ((), (SPARSE,), (PROFILING,), (SPARSE, PROFILING))  # the last one gives the order
# Build settings of dnnl_config.h: the PyPI wheel's (CPU, OpenMP, no GPU).
CMAKE = {"DNNL_CPU_THREADING_RUNTIME": "OMP", "DNNL_CPU_RUNTIME": "OMP", "DNNL_GPU_RUNTIME": "NONE"}


def git(repo: str, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", repo, *args], check=True, capture_output=True,
                          text=True).stdout


def configure(template: str, values: dict[str, str]) -> str:
    """CMake's configure_file, as far as dnnl_config.h.in needs it."""
    def cmakedefine(m: re.Match) -> str:
        kind, name, rest = m.groups()
        if kind == "01":
            return f"#define {name} {int(name in values)}"
        return f"#define {name}{rest}" if name in values else f"/* #undef {name} */"
    text = re.sub(r"^#cmakedefine(01)? (\w+)(.*)$", cmakedefine, template, flags=re.M)
    return re.sub(r"\$\{(\w+)\}", lambda m: values[m.group(1)], text)


def preprocess(inc: Path, defines: tuple[str, ...]) -> dict[str, str]:
    """gcc -E -dD of the headers: {header basename: its preprocessed text incl. #defines}.
    Letting the preprocessor drop comments and resolve #ifdefs beats parsing them ourselves."""
    out = subprocess.run(["gcc", "-E", "-dD", "-I", str(inc), *(f"-D{d}" for d in defines),
                          "-x", "c", "-"], input='#include "oneapi/dnnl/dnnl_types.h"\n',
                         check=True, stdout=subprocess.PIPE, text=True).stdout
    texts: dict[str, list[str]] = {}
    current = ""
    for line in out.splitlines():
        if m := re.match(r'# \d+ "(.*)"', line):  # line marker: which file follows
            current = Path(m.group(1)).name
        else:
            texts.setdefault(current, []).append(line)
    return {name: "\n".join(lines) for name, lines in texts.items()}


def declarations(texts: dict[str, str]):
    """Enums {type: [names]}, enum aliases {name: the enumerator it is declared equal to},
    integer macros {group: [names]}, structs {type: [(ctype, field)]}."""
    enums, aliases, macros, structs = {}, {}, {}, {}
    for header in HEADERS:
        text = texts[header]
        for body, name in re.findall(r"typedef\s+enum\s*\{(.*?)\}\s*(\w+)\s*;", text, re.S):
            items = [re.match(r"\s*(\w+)\s*(?:=\s*(.*?))?\s*$", item, re.S).groups()
                     for item in body.split(",") if item.strip()]
            enums[name] = [n for n, _ in items]
            # `dnnl_nchw = dnnl_abcd`: the library names such a value after the target
            aliases.update({n: e for n, e in items if e in enums[name]})
        for body, name in re.findall(r"typedef\s+struct\s*\{(.*?)\}\s*(\w+)\s*;", text, re.S):
            structs[name] = re.findall(r"\s*([\w\s*]*?[\w*])\s*\b(\w+)\s*;", body)
        # Object-like macros with a value (function-like ones have "(" right after the name).
        for name in re.findall(r"^#define (DNNL_\w+) +\S", text, re.M):
            group = next((p for p in ("DNNL_ARG", "DNNL_JIT_PROFILE") if name.startswith(p + "_")),
                         "DNNL_OTHER")
            macros.setdefault(group, []).append(name)
    # The runtime ids of dnnl_version_t.cpu_runtime / dnnl_runtime2str live in dnnl_config.h.
    macros["DNNL_RUNTIME"] = re.findall(r"^#define (DNNL_RUNTIME_[A-Z]+) ", texts["dnnl_config.h"],
                                        re.M)
    for name, target in aliases.items():  # resolve chains to the enumerator with a value
        while target in aliases:
            target = aliases[target]
        aliases[name] = target
    return enums, aliases, macros, structs


C_PRELUDE = r"""
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "oneapi/dnnl/dnnl_types.h"
static void pi(const char *n, long long v) { printf("%s %lld\n", n, v); }
static void pu(const char *n, unsigned long long v) { printf("%s %llu\n", n, v); }
static void pp(const char *n, const void *v) { pu(n, (uintptr_t)v); }
static void pf(const char *n, float v) {
    uint32_t u; memcpy(&u, &v, 4); printf("%s_BITS %u\n", n, u); }
#define P(n, x) _Generic((x), void *: pp, float: pf, unsigned: pu, unsigned long: pu, \
    unsigned long long: pu, default: pi)(n, x)
int main(void) {
"""


def evaluate(inc: Path, defines: tuple[str, ...], enums, _, macros, structs) -> dict[str, int]:
    """Compile and run a C program printing every value, sizeof and offsetof."""
    lines = [C_PRELUDE]
    for enum, names in enums.items():  # ctypes passes enums as c_int: make sure that is right
        lines.append(f'_Static_assert(sizeof({enum}) == sizeof(int), "{enum} is not an int");')
        lines += [f'P("{n}", {n});' for n in names]
    lines += [f'P("{n}", {n});' for names in macros.values() for n in names]
    for struct, fields in structs.items():
        lines.append(f'P("sizeof {struct}", sizeof({struct}));')
        lines += [f'P("offsetof {struct} {f}", offsetof({struct}, {f}));' for _, f in fields]
    lines.append("return 0; }")
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "probe.c").write_text("\n".join(lines))
        subprocess.run(["gcc", "-std=c11", "-Wall", "-Werror", "-I", str(inc),
                        *(f"-D{d}" for d in defines), "-o", f"{tmp}/probe", f"{tmp}/probe.c"],
                       check=True)
        out = subprocess.run([f"{tmp}/probe"], check=True, stdout=subprocess.PIPE, text=True).stdout
    return {k: int(v) for k, v in (line.rsplit(" ", 1) for line in out.splitlines())}


def generate(repo: str, tag: str) -> str:
    commit = git(repo, "rev-parse", f"{tag}^{{commit}}").strip()
    version = re.search(r'set\(PROJECT_VERSION "(\d+)\.(\d+)\.(\d+)"\)',
                        git(repo, "show", f"{commit}:CMakeLists.txt")).groups()
    with tempfile.TemporaryDirectory() as tmp:
        inc = Path(tmp) / "include"
        (inc / "oneapi/dnnl").mkdir(parents=True)
        for header in HEADERS:
            (inc / "oneapi/dnnl" / header).write_text(git(repo, "show", f"{commit}:{INC}{header}"))
        # (dnnl_version.h is not included by these headers: the version comes from CMake)
        template = git(repo, "show", f"{commit}:{INC}dnnl_config.h.in")
        (inc / "oneapi/dnnl/dnnl_config.h").write_text(configure(template, CMAKE))
        found = []  # per configuration: (defines, enums, aliases, macros, structs, values)
        for defines in CONFIGS:
            decls = declarations(preprocess(inc, defines))
            found.append((defines, *decls, evaluate(inc, defines, *decls)))
    value, gate = {}, {}
    for defines, *_, values in found:
        for name, v in values.items():
            if value.setdefault(name, v) != v:
                sys.exit(f"{name} is {v} with {defines} but {value[name]} without: refusing")
            gate.setdefault(name, "+".join(defines))
    _, enums, aliases, macros, structs, _ = found[-1]
    for names in macros.values():  # float macros come back as their bits
        names[:] = [n if n in value else n + "_BITS" for n in names]
    return render(tag, commit, version, enums, aliases, macros, structs, value,
                  {n: g for n, g in gate.items() if g})


def render(tag, commit, version, enums, aliases, macros, structs, value, gate) -> str:
    out = [f'''# GENERATED FILE, do not edit. oneDNN {tag} (commit {commit}) public C headers
# {INC}{{{", ".join(HEADERS)}, dnnl_config.h.in}} evaluated by a C compiler, by
#     python plugins/onednn/tools/gen_constants.py --tag {tag}
# Struct layouts are those of the 64-bit Linux ABI the generator ran on.
"""oneDNN {tag} C constants under their C names: enumerators, integer macros, struct layouts.

``ENUMS`` (per C enum type) and ``MACROS`` (per prefix) map each name to its value;
``EXPERIMENTAL`` names the ``#ifdef`` that guards a name (the library may be built without it).
``check_constants.verify`` compares these with the loaded library.
"""

ONEDNN_VERSION = ({", ".join(version)})
SOURCE = "oneDNN {tag} {commit}"
''']
    def block(title, groups):
        out.append(f"\n# ---- {title}\n")
        for group, names in groups.items():
            out.append(f"\n# {group}\n" + "".join(
                f"{n} = {value[n]:#010x}\n" if n.endswith("_BITS") else f"{n} = {value[n]}\n"
                for n in names))
    block("enumerators", enums)
    block("macros: pointers as integers (DNNL_MEMORY_NONE = 0 is NULL), float macros as\n"
          "# their IEEE-754 bits (*_BITS: a NaN payload does not survive a Python float)", macros)

    def table(name, groups):
        out.append(f"\n{name} = {{\n" + "".join(
            f'    "{g}": {{\n' + "".join(f'        "{n}": {n},\n' for n in names) + "    },\n"
            for g, names in groups.items()) + "}\n")
    table("ENUMS", enums)
    table("MACROS", macros)
    out.append("\n# enumerators declared equal to another (chains resolved)\nALIASES = {\n"
               + "".join(f'    "{n}": "{t}",\n' for n, t in aliases.items()) + "}\n")
    out.append("\nEXPERIMENTAL = {\n" + "".join(f'    "{n}": "{g}",\n' for n, g in gate.items())
               + "}\n")
    out.append("\n# sizeof and (C type, offset) of each field, in declaration order\nSTRUCTS = {\n")
    for struct, fields in structs.items():
        out.append(f'    "{struct}": {{\n        "sizeof": {value[f"sizeof {struct}"]},\n'
                   '        "fields": {\n' + "".join(
                       f'            "{f}": ("{" ".join(t.split())}", '
                       f'{value[f"offsetof {struct} {f}"]}),\n' for t, f in fields)
                   + "        },\n    },\n")
    out.append("}\n")
    return "".join(out)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", default=REPO, help="oneDNN git dir (default %(default)s)")
    parser.add_argument("--tag", default=TAG, help="tag or commit (default %(default)s)")
    parser.add_argument("--out", type=Path, default=OUT, help="'-' for stdout")
    args = parser.parse_args(argv)
    text = generate(args.repo, args.tag)
    if str(args.out) == "-":
        sys.stdout.write(text)
    else:
        args.out.write_text(text)
        print(f"wrote {args.out} ({text.count(chr(10))} lines)")


if __name__ == "__main__":
    main()
