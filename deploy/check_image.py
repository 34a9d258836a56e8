"""Check the Dockerfile without Docker: what it copies, and that its command serves as an unprivileged user.

    .venv/bin/python deploy/check_image.py          # both steps (the second as root)
    .venv/bin/python deploy/check_image.py --pip    # install requirements.txt as the image does

There is no Docker daemon where passk is developed, so the image is checked in
two steps.

1. Statically. The Dockerfile is parsed: it installs nginx, its USER is not
   root, its ENV names gunicorn and a spool directory, its HEALTHCHECK asks
   /healthz. Every COPY source is in the build context (the checkout less
   .dockerignore, read with Docker's rules), and so is every file its CMD
   needs: scripts/run.sh, deploy/nginx.conf, gunicorn.conf.py, app.py and the
   passk directory (the site's templates and static files are passk/web's); tests, .git and .venv are not.
2. By simulation (root, Debian's python3 and nginx). The build context is
   copied to a temporary app directory that `nobody`, standing in for the
   image's `passk`, may read but not write, with a Python environment that
   user can run (Debian's python3 with .venv's packages, or with --pip
   requirements.txt installed as the Dockerfile does). The CMD runs as
   nobody with only the Dockerfile's ENV (HOST and PORT moved to a free
   loopback port), the HEALTHCHECK command runs as nobody until it passes,
   the owners of every process are read from /proc, and SIGTERM, as
   `docker stop` sends it, must stop everything and remove the run directory.

Exit status 0 when all is well, 1 with the problems listed, 2 when the
simulation cannot run here (it says why).
"""

import argparse
import glob
import http.client
import json
import os
import pwd
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deploy.stack import free_port  # noqa: E402

USER = "nobody"
IMAGE_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"   # python:3.11-slim's
NEEDED_FILES = ["scripts/run.sh", "deploy/nginx.conf", "gunicorn.conf.py", "app.py", "requirements.txt"]
NEEDED_DIRS = ["passk"]
KEPT_OUT = [".git", ".venv", "tests", "bench", "Dockerfile"]


def instructions(path=ROOT / "Dockerfile"):
    """The Dockerfile as [(KEYWORD, arguments)], continuation lines joined, comments dropped."""
    parsed, pending = [], ""
    for line in path.read_text().splitlines():
        if line.lstrip().startswith("#") or not (pending or line.strip()):
            continue   # Docker drops comment lines, even between continued ones
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        keyword, _, arguments = (pending + line).strip().partition(" ")
        parsed.append((keyword.upper(), arguments.strip()))
        pending = ""
    return parsed


def image_env(parsed):
    """The ENV settings, in order."""
    env = {}
    for keyword, arguments in parsed:
        if keyword == "ENV":
            env.update(pair.split("=", 1) for pair in shlex.split(arguments))
    return env


def exec_form(arguments):
    """The JSON command of CMD or HEALTHCHECK ... CMD, without HEALTHCHECK's options."""
    return json.loads(arguments[arguments.index("["):])


def ignore_rules(path=ROOT / ".dockerignore"):
    """.dockerignore as [(re-include?, pattern text, regex)]."""
    rules = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            text = line.lstrip("!").strip().strip("/")
            regex = "".join({"**/": "(.*/)?", "**": ".*", "*": "[^/]*", "?": "[^/]"}.get(part, re.escape(part))
                            for part in re.split(r"(\*\*/|\*\*|\*|\?)", text) if part)
            rules.append((line.startswith("!"), text, re.compile(regex)))
    return rules


def ignored(relative, rules):
    """Docker's rule: the last pattern matching the path or a directory above it decides."""
    parts = relative.split("/")
    prefixes = ["/".join(parts[:end]) for end in range(1, len(parts) + 1)]
    verdict = False
    for include, _, regex in rules:
        if any(regex.fullmatch(prefix) for prefix in prefixes):
            verdict = not include
    return verdict


def build_context(rules=None):
    """The files `docker build .` sends, as paths relative to the checkout."""
    rules = ignore_rules() if rules is None else rules
    reincluded = [text for include, text, _ in rules if include]
    files = set()
    for directory, subdirectories, names in os.walk(ROOT):
        here = os.path.relpath(directory, ROOT)
        here = "" if here == "." else here + "/"
        # Walk into an ignored directory only when a "!" pattern may pick something out of it.
        subdirectories[:] = [name for name in subdirectories if not ignored(here + name, rules)
                             or any(text.startswith(here + name + "/") or text.startswith("*") for text in reincluded)]
        files.update(here + name for name in names if not ignored(here + name, rules))
    return files


def static_problems():
    """What is wrong with the Dockerfile and .dockerignore, as sentences ([] when nothing)."""
    parsed = instructions()
    keywords = [keyword for keyword, _ in parsed]
    context = build_context()
    problems = []
    if not any(keyword == "RUN" and re.search(r"apt-get install\b.*\bnginx\b", arguments)
               for keyword, arguments in parsed):
        problems.append("No RUN installs Debian's nginx, which scripts/run.sh starts.")
    users = [arguments for keyword, arguments in parsed if keyword == "USER"]
    if not users or users[-1].split(":")[0] in ("root", "0") or keywords.index("CMD") < keywords.index("USER"):
        problems.append("The CMD does not run as a non-root USER.")
    env = image_env(parsed)
    for name in ("GUNICORN", "PASSK_SPOOL", "HOST", "PORT"):
        if name not in env:
            problems.append(f"ENV does not set {name}, which scripts/run.sh reads.")
    for keyword, arguments in parsed:
        if keyword == "COPY":
            sources = [word for word in shlex.split(arguments) if not word.startswith("--")][:-1]
            for source in sources:
                prefix = source.rstrip("/").removeprefix("./")
                if prefix not in ("", ".") and not any(name == prefix or name.startswith(prefix + "/")
                                                       for name in context):
                    problems.append(f"COPY {source}: not in the build context.")
    command = exec_form(dict(parsed)["CMD"])
    if command[-1] not in context:
        problems.append(f"The CMD runs {command[-1]}, which is not in the build context.")
    if "/healthz" not in dict(parsed).get("HEALTHCHECK", ""):
        problems.append("The HEALTHCHECK does not ask /healthz.")
    needed = NEEDED_FILES + [str(path.relative_to(ROOT)) for directory in NEEDED_DIRS
                             for path in (ROOT / directory).rglob("*")
                             if path.is_file() and "__pycache__" not in path.parts]
    problems += [f"{name} is needed by the CMD but left out of the build context." for name in needed
                 if name not in context]
    problems += [f"{name} should stay out of the image but is in the build context." for name in KEPT_OUT
                 if any(path == name or path.startswith(name + "/") for path in context)]
    return problems


def simulation_unavailable():
    """Why the CMD cannot be run as an unprivileged user here, or None."""
    if os.geteuid() != 0:
        return "running the image's command as another user needs root"
    if not os.access("/usr/bin/python3", os.X_OK) or subprocess.run(
            ["/usr/bin/python3", "-c", "import ensurepip, venv"], capture_output=True).returncode:
        return "needs Debian's python3 with venv (apt-get install python3-venv)"
    if not (shutil.which("nginx") or os.access("/usr/sbin/nginx", os.X_OK)):
        return "needs nginx (apt-get install nginx)"
    return None


def python_for(user_dir, pip=False):
    """A Python environment in user_dir that an unprivileged user can run, with gunicorn in its bin."""
    subprocess.run(["/usr/bin/python3", "-m", "venv", *([] if pip else ["--without-pip"]), str(user_dir)], check=True)
    if pip:
        subprocess.run([str(user_dir / "bin" / "python"), "-m", "pip", "install", "--quiet", "--no-input",
                        "--requirement", str(ROOT / "requirements.txt")], check=True)
        return
    # .venv's packages (Python 3.11 too), visible through a .pth file.
    site = next((ROOT / ".venv" / "lib").glob("python3.*/site-packages"))
    (next((user_dir / "lib").glob("python3.*/site-packages")) / "passk-venv.pth").write_text(f"{site}\n")
    gunicorn = user_dir / "bin" / "gunicorn"
    gunicorn.write_text(f"#!{user_dir}/bin/python\nimport sys\nfrom gunicorn.app.wsgiapp import run\n"
                        "sys.exit(run())\n")
    gunicorn.chmod(0o755)


def session_processes(session):
    """[(user, command)] of the processes in a session, from /proc."""
    found = []
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            fields = Path(stat).read_text().rsplit(")", 1)[1].split()
            if int(fields[3]) != session:   # fields after the name: state, ppid, pgrp, session
                continue
            proc = Path(stat).parent
            uid = int(next(line for line in (proc / "status").read_text().splitlines()
                           if line.startswith("Uid:")).split()[1])
            command = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
        except (OSError, StopIteration, ValueError):
            continue   # the process ended meanwhile
        found.append((pwd.getpwuid(uid).pw_name, command))
    return found


def simulate(timeout=60, pip=False):
    """Run the CMD as USER with the image's ENV; a report of what happened."""
    parsed = instructions()
    command, healthcheck = exec_form(dict(parsed)["CMD"]), exec_form(dict(parsed)["HEALTHCHECK"])
    account = pwd.getpwnam(USER)
    as_user = {"user": account.pw_uid, "group": account.pw_gid, "extra_groups": []}
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        scratch.chmod(0o755)
        app, python = scratch / "app", scratch / "python"
        for name in sorted(build_context()):
            (app / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, app / name)
        python_for(python, pip)
        port = free_port()
        env = {**image_env(parsed), "HOST": "127.0.0.1", "PORT": str(port),
               "PATH": f"{python}/bin:{IMAGE_PATH}", "HOME": account.pw_dir}
        spool = env["PASSK_SPOOL"]
        before = set(glob.glob(f"{spool}/passk.*"))
        log = tempfile.TemporaryFile()
        server = subprocess.Popen(command, cwd=app, env=env, stdin=subprocess.DEVNULL, stdout=log,
                                  stderr=subprocess.STDOUT, start_new_session=True, **as_user)
        report = {"port": port, "healthcheck": None}
        try:
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline and server.poll() is None:
                report["healthcheck"] = subprocess.run(healthcheck, cwd=app, env=env, capture_output=True,
                                                       timeout=10, **as_user).returncode
                if report["healthcheck"] == 0:
                    break
                time.sleep(0.2)   # the HEALTHCHECK is the condition polled for
            report["page"] = page(port)
            processes = session_processes(server.pid)
            report["processes"] = processes
            report["users"] = {user for user, _ in processes}
            report["run_dir"] = sorted(set(glob.glob(f"{spool}/passk.*")) - before)
            server.send_signal(signal.SIGTERM)   # what `docker stop` sends PID 1
            report["stopped"] = server.wait(timeout)
            report["run_dir_left"] = [path for path in report["run_dir"] if os.path.exists(path)]
        finally:
            if server.poll() is None:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()
            log.seek(0)
            report["log"] = log.read().decode("utf-8", "replace")
            log.close()
    return report


def page(port):
    """(status, shows 11/12?) of the calculator for n=10, c=3, k=5, and the status of its stylesheet."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", "/?n=10&c=3&k=5")
        response = connection.getresponse()
        body = response.read().decode()
        stylesheet = re.search(r'href="(/static/[^"]+\.css[^"]*)"', body)
        connection.request("GET", stylesheet.group(1) if stylesheet else "/static/style.css")
        css = connection.getresponse()
        css.read()
        return response.status, "11/12" in body, css.status
    except (OSError, http.client.HTTPException) as error:
        return str(error), False, None
    finally:
        connection.close()


def simulation_problems(report):
    """What went wrong in simulate()'s report, as sentences ([] when nothing)."""
    problems = []
    if report.get("page") != (200, True, 200):
        problems.append(f"The calculator page and its stylesheet did not come back whole: {report.get('page')}.")
    if report["healthcheck"] != 0:
        problems.append(f"The HEALTHCHECK did not pass (last status {report['healthcheck']}).")
    if report.get("users") != {USER}:
        problems.append(f"Processes ran as {sorted(report.get('users', []))}, not only {USER}.")
    commands = " ".join(command for _, command in report.get("processes", []))
    problems += [f"No {program} process was running." for program in ("nginx", "gunicorn")
                 if program not in commands]
    if report.get("stopped") != 0 or report.get("run_dir_left"):
        problems.append(f"SIGTERM ended it with status {report.get('stopped')}, leaving {report.get('run_dir_left')}.")
    return problems


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pip", action="store_true", help="install requirements.txt with pip, as the image does")
    args = parser.parse_args(argv)
    problems = static_problems()
    print(f"Dockerfile and .dockerignore: {len(build_context())} files in the build context, "
          f"{len(problems)} problems.")
    reason = simulation_unavailable()
    if reason:
        print(f"Cannot run the image's command as {USER}: {reason}.", file=sys.stderr)
        return 1 if problems else 2
    report = simulate(pip=args.pip)
    problems += simulation_problems(report)
    for user, command in sorted(report.get("processes", [])):
        print(f"  {user:<8} {command[:100]}")
    print(f"CMD as {USER} on port {report['port']}: HEALTHCHECK status {report['healthcheck']}; "
          f"page, 11/12 on it, stylesheet: {report.get('page')}; "
          f"SIGTERM: exit status {report.get('stopped')}, run directory removed: {not report.get('run_dir_left')}.")
    for problem in problems:
        print(f"PROBLEM: {problem}")
    if problems:
        print(report["log"][-3000:])
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
