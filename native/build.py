"""The cffi builder for native/ (API mode, out of line): compiles every native/src/*.c into
the `native._engine` extension. The cdef is read from native/bg.h, never retyped here.
Not the training tools: those are built by their own scripts in native/tools/."""
import glob
import os
import re
import sys

from cffi import FFI

HERE = os.path.dirname(os.path.abspath(__file__))
HEADER = os.path.join(HERE, "bg.h")
# The installed build warns but never fails on a warning (a newer compiler may add some):
# tests/native/test_c_warnings.py compiles the same sources with these and -Wextra -Werror.
# (-Wno-unused-function: cffi's generated wrapper defines helpers it does not use.)
# -ffp-contract=off: no a*b+c fused into one rounding (clang fuses by default, and on ARM,
# where every CPU has FMA, a rollout's sums then differ in their last bits from x86-64's;
# native/tools/selftest.c's line showed it, tests/native/test_cross_platform.py keeps it so).
COMPILE_ARGS = ["-O3", "-std=c11", "-ffp-contract=off", "-Wall", "-Wno-unused-function",
                "-pthread"]
LINK_ARGS = ["-pthread"]   # threads.h's pthread keys free each thread's cache at its end
# MSVC (what pip uses on Windows): C11 with its atomics (Visual Studio 2022 17.5 or newer),
# /fp:precise (no contraction); threads.h takes Win32 threads there, so no -pthread. The AVX2
# path is chosen in nn.c by compiler and CPU (GCC or clang on x86-64 only), never here.
MSVC_COMPILE_ARGS = ["/O2", "/std:c11", "/experimental:c11atomics", "/fp:precise", "/W3"]
MSVC_LINK_ARGS: list[str] = []


def compiler_family(platform: str = sys.platform, cc: str | None = None) -> str:
    """'msvc' where setuptools compiles with MSVC (Windows, unless CC names another
    compiler), else 'gcc' (GCC or clang, which take the same flags)."""
    cc = os.environ.get("CC", "") if cc is None else cc
    return "msvc" if platform == "win32" and not cc else "gcc"


def build_args(family: str) -> tuple[list[str], list[str]]:
    """(compile flags, link flags) for a compiler family."""
    if family == "msvc":
        return MSVC_COMPILE_ARGS, MSVC_LINK_ARGS
    return COMPILE_ARGS, LINK_ARGS


CDEF_RE = re.compile(r"/\* cffi-cdef begin \*/(.*?)/\* cffi-cdef end \*/", re.S)


def cdef_text(header_path: str = HEADER) -> str:
    """The part of bg.h between the cffi-cdef markers: the single source of the cdef."""
    with open(header_path, encoding="utf-8") as fh:
        match = CDEF_RE.search(fh.read())
    if not match:
        raise RuntimeError(f"{header_path}: cffi-cdef markers not found")
    return match.group(1)


def c_sources() -> list[str]:
    """Library sources, relative to the project root (setuptools wants relative paths)."""
    root = os.path.dirname(HERE)
    return sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(HERE, "src", "*.c")))


ffibuilder = FFI()
ffibuilder.cdef(cdef_text())
ffibuilder.set_source(
    "native._engine",
    '#include "bg.h"',
    sources=c_sources(),
    include_dirs=[os.path.relpath(HERE, os.path.dirname(HERE)),
                  os.path.relpath(os.path.join(HERE, "src"), os.path.dirname(HERE))],
    extra_compile_args=build_args(compiler_family())[0],
    extra_link_args=build_args(compiler_family())[1],
)

if __name__ == "__main__":
    # Developer rebuild in place: `python native/build.py`. Old builds of either suffix are
    # moved aside first, so a stale module can never shadow the new one, and put back if
    # the compile fails, so an error never leaves the program without its machine code.
    os.chdir(os.path.dirname(HERE))
    aside = [(old, old + ".old") for old in glob.glob(os.path.join(HERE, "_engine*.so"))]
    for old, kept in aside:
        os.replace(old, kept)
    try:
        ffibuilder.compile(verbose=False)
    except BaseException:
        for old, kept in aside:
            os.replace(kept, old)
        raise
    for _, kept in aside:
        os.remove(kept)
