"""Check the generated ``constants`` against the loaded libdnnl, at import of the plugin.

oneDNN renumbers its enums between versions and a wrong value computes garbage without an
error, so before anything runs every enumerator that has a ``dnnl_*2str`` in the library
(1,637 of 1,706) is looked up there, the ``dnnl_version_t`` layout and the major.minor version
are read back, and any difference raises :class:`ConstantsMismatch`. About 1.5 ms.
"""
from __future__ import annotations

import ctypes
from ctypes import c_char_p, c_int, c_uint

from . import constants

__all__ = ["ConstantsMismatch", "verify"]

# enum type -> (the library's 2str function, prefix it drops from the C name)
TO_STR = {
    "dnnl_status_t": ("dnnl_status2str", "dnnl_"),
    "dnnl_data_type_t": ("dnnl_dt2str", "dnnl_"),
    "dnnl_fpmath_mode_t": ("dnnl_fpmath_mode2str", "dnnl_fpmath_mode_"),
    "dnnl_engine_kind_t": ("dnnl_engine_kind2str", "dnnl_"),
    "dnnl_format_kind_t": ("dnnl_fmt_kind2str", "dnnl_"),
    "dnnl_sparse_encoding_t": ("dnnl_sparse_encoding2str", "dnnl_"),
    "dnnl_format_tag_t": ("dnnl_fmt_tag2str", "dnnl_"),
    "dnnl_prop_kind_t": ("dnnl_prop_kind2str", "dnnl_"),
    "dnnl_primitive_kind_t": ("dnnl_prim_kind2str", "dnnl_"),
    "dnnl_alg_kind_t": ("dnnl_alg_kind2str", "dnnl_"),
    "dnnl_rnn_flags_t": ("dnnl_rnn_flags2str", "dnnl_"),
    "dnnl_rnn_direction_t": ("dnnl_rnn_direction2str", "dnnl_"),
    "dnnl_scratchpad_mode_t": ("dnnl_scratchpad_mode2str", "dnnl_scratchpad_mode_"),
    "dnnl_cpu_isa_t": ("dnnl_cpu_isa2str", "dnnl_"),
    "dnnl_cpu_isa_hints_t": ("dnnl_cpu_isa_hints2str", "dnnl_"),
}
# Names the library spells otherwise (v3.2's src/common/dnnl_debug*.cpp).
SPELLED = {
    "dnnl_data_type_undef": "undef", "dnnl_format_kind_undef": "undef",
    "dnnl_sparse_encoding_undef": "undef", "dnnl_format_tag_undef": "undef",
    "dnnl_prop_kind_undef": "undef", "dnnl_undefined_primitive": "undef",
    "dnnl_alg_kind_undef": "undef", "dnnl_rnn_flags_undef": "undef",
    "dnnl_rnn_direction_undef": "undef",
    "dnnl_any_engine": "any", "dnnl_format_kind_any": "any", "dnnl_format_tag_any": "any",
    "dnnl_format_kind_sparse": "sparse", "dnnl_format_kind_max": "max",
    # upstream bug: fmt_kind2str recognises only the internal opaque kinds (wino, rnn_packed)
    "dnnl_format_kind_opaque": "unknown fmt_kind",
}
RUNTIMES = {"DNNL_RUNTIME_NONE": "none", "DNNL_RUNTIME_SEQ": "sequential",
            "DNNL_RUNTIME_OMP": "OpenMP", "DNNL_RUNTIME_TBB": "TBB",
            "DNNL_RUNTIME_THREADPOOL": "threadpool", "DNNL_RUNTIME_OCL": "OpenCL",
            # named only by SYCL builds
            "DNNL_RUNTIME_SYCL": ("DPC++", "unknown"), "DNNL_RUNTIME_DPCPP": ("DPC++", "unknown")}


class ConstantsMismatch(RuntimeError):
    """The generated constants disagree with the loaded libdnnl: ``mismatches`` lists
    (name, generated value, what the library says)."""

    def __init__(self, mismatches: list[tuple[str, object, object]],
                 says: str = "the library says") -> None:
        shown = "; ".join(f"{n} = {v!r} but {says} {s!r}" for n, v, s in mismatches[:5])
        more = f" (and {len(mismatches) - 5} more)" if len(mismatches) > 5 else ""
        super().__init__(f"oneDNN constants ({constants.SOURCE}) do not match the loaded "
                         f"library: {shown}{more}")
        self.mismatches = mismatches


def _fn(lib, name: str, arg=c_int):
    # own prototypes: leaves the binding's declarations on `lib` alone
    return ctypes.CFUNCTYPE(c_char_p, arg)((name, lib))


def verify(lib: ctypes.CDLL) -> int:
    """Raise :class:`ConstantsMismatch` unless ``lib`` agrees; return how many were checked."""
    # The binding uses the module attributes, the tables are what gets checked: same values?
    module = vars(constants)
    edited = [(n, module.get(n), v) for table in (constants.ENUMS, constants.MACROS)
              for names in table.values() for n, v in names.items() if module.get(n) != v]
    if edited:
        raise ConstantsMismatch(edited, "its ENUMS/MACROS entry is")
    # first, as another version would otherwise show as hundreds of renumbered enumerators
    bad = _version_mismatches(lib)
    if bad:
        raise ConstantsMismatch(bad)
    checked = 3  # major.minor, hash, cpu_runtime
    # dnnl_sparse_encoding2str exists only in builds with DNNL_EXPERIMENTAL_SPARSE; without it
    # the sparse names are unknown to the library, so they are left out (and only they).
    sparse = hasattr(lib, "dnnl_sparse_encoding2str")
    for enum, (function, prefix) in TO_STR.items():
        names = [(n, v) for n, v in constants.ENUMS[enum].items()
                 if sparse or constants.EXPERIMENTAL.get(n) != "DNNL_EXPERIMENTAL_SPARSE"]
        if not names:
            continue
        try:
            to_str = _fn(lib, function)
        except AttributeError:
            bad.append((function, None, "not exported"))
            continue
        for name, value in names:
            # the library names an alias's value after its target (`dnnl_nchw = dnnl_abcd`)
            named = constants.ALIASES.get(name, name)
            want = SPELLED.get(named) or named.removeprefix(prefix)
            got = to_str(value).decode()
            checked += 1
            if got != want:
                bad.append((name, value, got))
    runtime_str = _fn(lib, "dnnl_runtime2str", c_uint)
    for name, want in RUNTIMES.items():
        value = constants.MACROS["DNNL_RUNTIME"][name]
        got = runtime_str(value).decode()
        checked += 1
        if got not in (want if isinstance(want, tuple) else (want,)):
            bad.append((name, value, got))
    if bad:
        raise ConstantsMismatch(bad)
    return checked


def _version_mismatches(lib: ctypes.CDLL) -> list[tuple[str, object, object]]:
    """Read dnnl_version() through the generated dnnl_version_t layout."""
    fields = constants.STRUCTS["dnnl_version_t"]["fields"]
    version = ctypes.CFUNCTYPE(ctypes.c_void_p)(("dnnl_version", lib))()

    def read(field: str, ctype):
        return ctype.from_address(version + fields[field][1]).value

    got = (read("major", c_int), read("minor", c_int), read("patch", c_int))
    if got[:2] != constants.ONEDNN_VERSION[:2]:
        return [("ONEDNN_VERSION", constants.ONEDNN_VERSION, "%d.%d.%d" % got)]
    # a commit hash and a runtime id the library knows where expected confirm the layout
    commit, runtime = read("hash", c_char_p) or b"", read("cpu_runtime", c_uint)
    bad = []
    if not (len(commit) == 40 and commit.isalnum()):
        bad.append(("dnnl_version_t.hash offset", fields["hash"][1], commit))
    if runtime not in constants.MACROS["DNNL_RUNTIME"].values():
        bad.append(("dnnl_version_t.cpu_runtime offset", fields["cpu_runtime"][1], runtime))
    return bad
