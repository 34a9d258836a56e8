"""Every import arrow in passk points down the wings, and no chain of imports comes back to where it started.

The wings, bottom to top (each package's __init__ says what it owns): passk.limits and passk.grammar; the readers
(passk.formats); the numbers (passk.maths); a run's results (passk.results); how results are written
(passk.writing); the faces (the package's own modules: passk.api, passk.cli, passk.serve, the command, the site
passk.web and the static export passk.export). A module may import its own wing and the wings below; the numbers
import nothing of passk but passk.limits. Every import counts: at the top of a module, inside a function, or under
TYPE_CHECKING.
"""

import ast
import functools

import pytest

from where import ROOT

PACKAGE = ROOT / "passk"
WINGS = ("bottom", "formats", "maths", "results", "writing", "faces")
BOTTOM = {"passk.limits", "passk.grammar"}
FOLDERS = {"formats", "maths", "results", "writing"}   # the faces: the package's own modules, web/ and export/
NUMBERS_MAY_IMPORT = BOTTOM - {"passk.grammar"}


def module_name(path):
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache
def modules():
    return {module_name(path): path for path in PACKAGE.rglob("*.py")}


def wing(module):
    """The wing of a module of passk."""
    if module in BOTTOM:
        return "bottom"
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in FOLDERS else "faces"


def resolve(name):
    """The passk module an imported name lives in: the name itself, or its package when it is an attribute."""
    while name and name not in modules():
        name = name.rpartition(".")[0]
    return name or None


@functools.cache
def imports():
    """{module: {passk module it imports}} over every import statement in passk."""
    arrows = {}
    for module, path in modules().items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join([*package.split(".")[:len(package.split(".")) - node.level + 1], base]).strip(".")
                names = [f"{base}.{alias.name}" for alias in node.names]
            else:
                continue
            found |= {target for target in map(resolve, names) if target and target != module}
        arrows[module] = {target for target in found if target != "passk" or module == "passk.__main__"}
    return arrows


def test_the_wings_are_folders_with_a_docstring_each():
    for folder in FOLDERS:
        init = PACKAGE / folder / "__init__.py"
        assert ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))), folder


def test_every_arrow_points_down_or_stays_in_its_wing():
    upward = sorted((module, target) for module, targets in imports().items() for target in targets
                    if WINGS.index(wing(target)) > WINGS.index(wing(module)))
    assert upward == []


def test_the_numbers_import_nothing_of_passk_but_limits():
    outside = sorted((module, target) for module, targets in imports().items() if wing(module) == "maths"
                     for target in targets if wing(target) != "maths" and target not in NUMBERS_MAY_IMPORT)
    assert outside == []


def test_no_chain_of_imports_comes_back_to_where_it_started():
    graph = imports()
    state, circles = {}, []

    def visit(module, path):
        state[module] = "open"
        for target in sorted(graph.get(module, ())):
            if state.get(target) == "open":
                circles.append(path[path.index(target):] + [target])
            elif target not in state:
                visit(target, path + [target])
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert circles == []


@pytest.mark.parametrize("module, expected", [
    ("passk.maths.estimator", "maths"), ("passk.results.benchmark", "results"), ("passk.writing.charts", "writing"),
    ("passk.formats.detect", "formats"), ("passk.limits", "bottom"), ("passk.web.app", "faces"),
    ("passk.api", "faces"), ("passk", "faces")])
def test_a_module_belongs_to_the_wing_of_its_folder(module, expected):
    assert module in modules()
    assert wing(module) == expected


def test_the_reader_of_imports_sees_every_form_of_import():
    """The arrows the tests check are there: plain, from, relative, inside functions, under TYPE_CHECKING."""
    graph = imports()
    assert "passk.maths.nearest" in graph["passk.maths.estimator"]        # from passk.maths import nearest
    assert "passk.writing.charts" in graph["passk.export"]                # inside a function
    assert "passk.results.benchmark" in graph["passk.results.curves"]
    assert {"passk.api", "passk.formats"} <= graph["passk"]                # under TYPE_CHECKING


def longest_chain():
    """The longest chain of imports in passk (the graph has no circle): what the closing note reports."""
    graph = imports()

    @functools.cache
    def longest(module):
        return (module, *max((longest(target) for target in sorted(graph[module])), key=len, default=()))

    return max((longest(module) for module in sorted(graph)), key=len)


def test_the_longest_chain_starts_at_a_face_and_ends_at_the_bottom():
    chain = longest_chain()
    assert wing(chain[0]) == "faces" and wing(chain[-1]) in {"bottom", "maths"}
    assert [WINGS.index(wing(module)) for module in chain] == sorted(
        (WINGS.index(wing(module)) for module in chain), reverse=True)
