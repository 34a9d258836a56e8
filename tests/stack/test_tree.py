"""The tests mirror the code: tests/passk/<wing>/ for each wing of passk (formats, maths, results, writing; the faces
passk.api, passk.cli and the command in tests/passk/ itself, and passk/peers/: other tools' tests ported), tests/web/
(passk/web/), the browser and the stack, with the helpers they share in tests/support/; no test module imports another
directory's tests."""

import ast

from where import ROOT

TESTS = ROOT / "tests"
WINGS = ("formats", "maths", "results", "writing")   # passk's folders below its faces (tests/stack/test_imports.py)
FOLDERS = {"passk", "passk/peers", *(f"passk/{wing}" for wing in WINGS), "web", "browser", "stack"}


def test_every_test_module_lives_in_the_folder_of_what_it_tests():
    folders = {path.parent.relative_to(TESTS).as_posix() for path in TESTS.rglob("test_*.py")}
    assert folders == FOLDERS


def test_no_test_module_imports_tests_of_another_folder():
    modules = {path.stem: path.parent for path in TESTS.rglob("test_*.py")}
    for path in TESTS.rglob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith("tests"), (path, node.module)
                if node.module in modules:
                    assert modules[node.module] == path.parent, (path, node.module)


def test_each_wing_of_passk_has_its_tests_and_each_test_there_imports_its_wing():
    assert {path.name for path in (ROOT / "passk").iterdir() if (path / "__init__.py").exists()} == {
        *WINGS, "web", "export"}
    for wing in WINGS:
        for path in (TESTS / "passk" / wing).glob("test_*.py"):
            imported = {node.module for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                        if isinstance(node, ast.ImportFrom) and node.module} | {
                alias.name for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                if isinstance(node, ast.Import) for alias in node.names}
            said = path.read_text(encoding="utf-8")
            assert any(name == f"passk.{wing}" or name.startswith(f"passk.{wing}.") for name in imported) or \
                f"passk/{wing}/" in said, path   # a test through the faces lives in tests/passk/ itself


def test_the_top_of_passk_holds_the_faces_and_the_bottom_only():
    assert sorted(path.name for path in (ROOT / "passk").glob("*.py")) == [
        "__init__.py", "__main__.py", "api.py", "cli.py", "grammar.py", "limits.py", "moved.py", "serve.py"]
