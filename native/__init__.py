"""The C side ("the machine code") as Python sees it: the compiled cffi module and its ffi.
Import `lib` and `ffi` from here; nothing else in the project loads the extension."""
from typing import Any

# A cffi object (a C array, a struct pointer, ffi.NULL): cffi ships no type stubs, so Any.
CData = Any
try:
    from native._engine import ffi, lib  # noqa: F401 - the package's API: imported to pass on
except ImportError as exc:  # pragma: no cover - only when the package was not built
    raise ImportError(
        "the compiled evaluator native._engine is missing; install the package with "
        "`pip install .` (or `pip install -e .`) so that cffi builds it"
    ) from exc

if lib.bg_abi_version() != lib.BG_ABI_VERSION:  # pragma: no cover
    raise ImportError("native._engine is stale: rebuild it with `pip install -e .`")
