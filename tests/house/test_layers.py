"""The layer order of docs/ARCHITECTURE.md, held: every import in the repository (read from the
source with ast, the ones inside functions too) points down the order or stays in its own
layer, never up, and no modules import each other round in a cycle. Not a style check."""
import ast
import pathlib
import re

from repo import REPO

PACKAGES = ("spectrum", "native", "roms", "game", "bench", "tests", "docs")

# Bottom first. "x.*" is the package x and everything in it, "x" that one module only; a
# module is placed by the longest pattern that names it. Imports within a layer are allowed.
LAYERS = [
    ("the 48K and the C engine", ["spectrum.*", "native.*"]),
    ("our ROM", ["roms.*"]),
    ("game's errors, interfaces and version", ["game", "game.errors", "game.interfaces"]),
    ("the backgammon model", ["game.model.*"]),
    ("the analysis: judging plays, cubes and dice", ["game.analysis.*"]),
    ("the match files: .mat and .sgf in and out", ["game.matchfiles.*"]),
    ("the player's files", ["game.files.*"]),
    ("the board on the screen", ["game.board.*"]),
    ("the BASIC layer on the machine", ["game.zx.*"]),
    ("the words", ["game.words", "game.commands", "game.chances"]),
    ("the pages", ["game.pages.*"]),
    ("the scenes", ["game.scenes.*"]),
    ("the match loop", ["game.program"]),
    ("the console script", ["game.main"]),
    ("tools run from a clone", ["bench.*", "tests.*", "docs.*", "native.tools.*"]),
]


def module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict:
    found = {}
    for top in PACKAGES:
        for path in (REPO / top).rglob("*.py"):
            if ".venv" not in path.parts and "build" not in path.parts:
                found[module_name(path)] = path
    return found


MODULES = all_modules()


def layer_of(module: str) -> int | None:
    best, best_len = None, -1
    for index, (_name, patterns) in enumerate(LAYERS):
        for pattern in patterns:
            package = pattern.removesuffix(".*")
            named = module == package or (pattern.endswith(".*")
                                          and module.startswith(package + "."))
            if named and len(package) > best_len:
                best, best_len = index, len(package)
    return best


def resolve(name: str, importer: str):
    """The module of ours an import names, or None (the standard library, a third party)."""
    if name in MODULES:
        return name
    top = name.split(".")[0]
    if top in PACKAGES:
        while name and name not in MODULES:        # native._engine: the package native
            name = name.rpartition(".")[0]
        return name or None
    # a bare name: a script's sibling, or a helper reached through sys.path (tests/, bench/)
    home = importer.rpartition(".")[0]
    for folder in (home, "tests", "bench", "native.tools"):
        candidate = f"{folder}.{name}" if folder else name
        if candidate in MODULES:
            return candidate
    return None


def imports_of(module: str) -> set:
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                     for alias in node.names]
        for name in names:
            target = resolve(name, module)
            if target is not None and target != module:
                found.add(target)
    return found


GRAPH = {module: imports_of(module) for module in MODULES}


def test_every_module_has_a_place_in_the_layer_order():
    assert sorted(m for m in MODULES if layer_of(m) is None) == []


def test_no_import_points_up_the_layer_order():
    upward = []
    for module, targets in sorted(GRAPH.items()):
        for target in sorted(targets):
            if layer_of(target) > layer_of(module):
                upward.append(f"{module} ({LAYERS[layer_of(module)][0]}) imports {target} "
                              f"({LAYERS[layer_of(target)][0]})")
    assert upward == []


def cycles(graph: dict) -> list:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index, low, on_stack, stack, groups, counter = {}, {}, set(), [], [], [0]
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))
            elif child not in index:
                index[child] = low[child] = counter[0]
                counter[0] += 1
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph.get(child, ())))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return groups


def test_no_modules_import_each_other_round_in_a_cycle():
    assert cycles(GRAPH) == []


# spectrum/ modules that are no part of the machine: the one way every error line quotes what it
# was given, and the one way every file is written, shared by the tape code and the game's files
# and match files (they sit lowest so all reach them)
NOT_THE_MACHINE = {"spectrum.quoting", "spectrum.safe_write"}


def test_the_model_imports_nothing_of_the_48k():
    # the model is backgammon alone: the USR block's layout over the machine's memory is the
    # BASIC layer's (game/zx/usr_layout.py)
    model = {m: sorted(t for t in GRAPH[m]
                       if t.split(".")[0] == "spectrum" and t not in NOT_THE_MACHINE)
             for m in MODULES if m.startswith("game.model")}
    assert {m: t for m, t in model.items() if t} == {}


def test_the_cycle_finder_finds_a_cycle_and_passes_a_chain():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_an_import_is_read_from_the_source_lazy_and_relative_ones_too():
    assert "game.board.screen" in GRAPH["game.zx.basic"]          # from game.board import screen
    assert "spectrum.z80_bus" in GRAPH["spectrum.z80_decode"]     # from . import z80_bus
    assert "game.files.settings" in GRAPH["game.board.palette"]   # inside a function


def test_the_architecture_map_draws_the_layers_in_this_order():
    # docs/ARCHITECTURE.md's drawing, top line first: each line's path, read as a module,
    # must sit no higher in LAYERS than the line above it
    text = (REPO / "docs" / "ARCHITECTURE.md").read_text()
    drawing = re.search(r"## The layers\s*```\n(.*?)```", text, re.S).group(1)
    drawn = []
    for line in drawing.splitlines():
        if line[:1].isspace():
            continue                                   # a line's words carried on
        path = line.split()[0].rstrip(",")
        assert (REPO / path).exists(), f"the drawing names {path}, which is not there"
        module = path.rstrip("/").removesuffix(".py").replace("/", ".")
        assert layer_of(module) is not None, f"{path} has no place in LAYERS"
        drawn.append((layer_of(module), path))
    assert len(drawn) > 10
    assert [path for _layer, path in sorted(drawn, key=lambda d: -d[0])] == \
        [path for _layer, path in drawn]
