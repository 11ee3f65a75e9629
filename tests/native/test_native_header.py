"""The C side's one header is the single source of the cffi cdef, and the built module matches
it."""
import re

from native import build, lib


def test_cdef_comes_from_the_header():
    text = build.cdef_text()
    assert "bg_abi_version" in text
    assert lib.bg_abi_version() == lib.BG_ABI_VERSION


def test_every_declared_function_is_in_the_compiled_module():
    names = re.findall(r"\b(bg_\w+)\s*\(", build.cdef_text())
    assert names, "the header declares no functions"
    for name in names:
        assert hasattr(lib, name), f"{name} declared in bg.h but missing from native._engine"


def test_every_public_c_function_is_declared_in_the_header():
    declared = set(re.findall(r"\b(bg_\w+)\s*\(", build.cdef_text()))
    import pathlib
    for src in (pathlib.Path(build.HERE) / "src").glob("*.c"):
        for name in re.findall(r"^[A-Za-z_][\w \*]*?\b(bg_\w+)\s*\(", src.read_text(), re.M):
            assert name in declared, (f"{src.name} defines public {name} "
                                      "but bg.h does not declare it")


def test_every_step_code_of_the_header_has_its_name_in_rules():
    # game/ reaches the BG_STEP_* codes only through rules.StepCode: one name each, same value
    from game.model.rules import StepCode
    codes = dict(re.findall(r"#define BG_STEP_(\w+) (-?\d+)", build.cdef_text()))
    codes.pop("FIELDS")                  # the size of a step record, not an answer
    assert {code.name: code.value for code in StepCode} == \
        {name: int(value) for name, value in codes.items()}
