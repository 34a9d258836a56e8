"""The tests mirror the code: tests/passk/ (and passk/formats/, and passk/peers/: other tools' tests ported), tests/web/
(passk/web/), the browser and the stack, with the helpers they share in tests/support/; no test module imports another
directory's tests."""

import ast

from where import ROOT

TESTS = ROOT / "tests"
FOLDERS = {"passk", "passk/formats", "passk/peers", "web", "browser", "stack"}


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
