"""The cffi builder for native/ (API mode, out of line): compiles every native/src/*.c into
the `native._engine` extension. The cdef is read from native/bg.h, never retyped here.
Not the training tools: those are built by their own scripts in native/tools/."""
import glob
import os
import re

from cffi import FFI

HERE = os.path.dirname(os.path.abspath(__file__))
HEADER = os.path.join(HERE, "bg.h")
# The installed build warns but never fails on a warning (a newer compiler may add some):
# tests/native/test_c_warnings.py compiles the same sources with these and -Wextra -Werror.
# (-Wno-unused-function: cffi's generated wrapper defines helpers it does not use.)
COMPILE_ARGS = ["-O3", "-std=c11", "-Wall", "-Wno-unused-function", "-pthread"]
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
    extra_compile_args=COMPILE_ARGS,
    extra_link_args=["-pthread"],   # search.c frees each thread's cache at its end
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
