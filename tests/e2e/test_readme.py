"""The README's commands, run as a user would paste them: the fenced blocks of
README.md and the commands of its "Install" table are read from the file
itself and run against a pogi that the README's own `pogi start` line starts,
so an edit of the README that breaks a command fails this test. Also: every
relative link of README.md and docs/*.md names a file, and a heading, that
exists.

Every block and Install command is listed below (BLOCKS, INSTALL), run or
skipped with its reason; one the lists do not know, or an entry that matches
nothing, fails the test.

How the README's text meets the test's machine, and nothing more:
- `pogi` is the binary under test: a folder on PATH holds a symlink to it
  (`build/pogi` in the README's prose is what `./dev` builds; the blocks say
  `pogi`).
- Ports: the README's pogi runs on 7644/7645, which a developer's own pogi
  or another test may hold, so the test's pogi runs on free ones. In shell
  blocks a shell function named `pogi` adds the flags a user on other ports
  would type (`--port`/`--grpc-port` for `pogi start`, `--port` for `pogi
  env`, `--grpc-port` for the admin commands), so every line runs as
  written. The Python and JavaScript snippets name the default address
  `http://127.0.0.1:7644` literally: that text, and only that, is replaced
  with the test's address (any other mention of 7644 fails the test).
- A `pogi start` line is started by the test, which waits for its `Ready.`
  (a line ending in `&` is followed by `wait $!`, so that its shell's exit
  is pogi's); the other lines of the block run after it.
- The shell is one session, as in a terminal: what a block exports
  (`eval "$(pogi env)"`) is there for the next blocks and the snippets. No
  ~/.aws of the machine's user leaks in.
- The Install table's files (the archive, the npm package) are dist/'s, as
  `./dev release` wrote them (`./dev test` runs it before the tests;
  POGI_DIST names another folder), else packed from the binary under test
  by release/pack.py into a temporary folder.
"""

import json
import os
import re
import shlex
import shutil
import select
import signal
import subprocess
import sys
import tempfile
import time
import unittest

from harness import HERE, LOCALHOST, direct_only, free_port, js_sdk, pogi_bin, sqlite_only

ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
README = os.path.join(ROOT, "README.md")
DOCS = os.path.join(ROOT, "docs")
DIST = os.environ.get("POGI_DIST") or os.path.join(ROOT, "dist")
DEFAULT_ADDRESS = "127.0.0.1:7644"
TIMEOUT = 120  # per block: the AWS CLI takes a second a call on a busy machine


class Entry:
    """One README block or Install command the test knows: `key` is a regular
    expression that finds it (re.search, multi-line). skip: why it cannot run here (None: it runs). expect: text its
    output must hold, as the README's comments promise."""

    def __init__(self, key, skip=None, expect=()):
        self.key, self.skip, self.expect = key, skip, tuple(expect)


BUILDS = "builds pogi (./dev test also runs every test, this one included); the test runs the built binary"
NO_DAEMON = ("needs a Docker or Podman daemon; tests/e2e/test_release.py runs the same image, unpacked "
             "with umoci, as its config says, DynamoDB Local's command line included")
ARM64 = ("the arm64 files come from `./dev release --arch arm64`, a second, cross build that CI does not "
         "make (docs/development.md); this machine runs x86-64")
FRAGMENT = "a word of the row's prose (the .tar.gz twin of the command before it), not a command"

# The fenced blocks of README.md, in no particular order (they run in the
# README's order).
BLOCKS = [
    Entry(r"^\./dev test", skip=BUILDS),
    Entry(r'^eval "\$\(pogi env\)"'),                # pogi start ... &, then the environment
    Entry(r"^aws dynamodb get-item", expect=['"1.5"']),  # "n comes back as "1.5""
    Entry(r"^import boto3", expect=["'1.5'", "orders"]),
    Entry(r"@aws-sdk/client-dynamodb", expect=["orders"]),
    Entry(r"^pogi snapshot save", expect=["orders"]),  # the admin CLI, ending with pogi stop
]

# The code spans of the Install table's "copy and paste" column.
ARCHIVE = r"^tar xJf pogi-[0-9.]+-linux-x86_64\.tar\.xz && "
NPM = r"^npm install --save-dev \./pogi-[0-9.]+\.tgz$"
INSTALL = [
    Entry(ARCHIVE),
    Entry(r"^\.tar\.gz$", skip=FRAGMENT),
    Entry(r"^tar xzf$", skip=FRAGMENT),
    Entry(r"^docker load -i pogi-[0-9.]+-oci\.tar && docker run ", skip=NO_DAEMON),
    Entry(r"^docker run .* -port 8000 -inMemory", skip=NO_DAEMON),
    Entry(NPM),
    Entry(r"-linux-arm64\.tar\.xz$", skip=ARM64),
    Entry(r"-oci-arm64\.tar$", skip=ARM64),
    Entry(r"-linux-arm64\.tgz$", skip=ARM64),
    Entry(r"^\./dev start$", skip=BUILDS),
]


# ---- reading the README -----------------------------------------------------

def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def fenced_blocks(text):
    """[(line number, language, body)] of every ``` block."""
    blocks, lines, i = [], text.split("\n"), 0
    while i < len(lines):
        m = re.match(r"^\s*```\s*(\S*)\s*$", lines[i])
        if not m:
            i += 1
            continue
        start, body = i + 1, []
        i += 1
        while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
            body.append(lines[i])
            i += 1
        if i == len(lines):
            raise AssertionError("README.md:%d: a ``` block that never ends" % start)
        blocks.append((start, m.group(1), "\n".join(body) + "\n"))
        i += 1
    return blocks


def install_commands(text):
    """[(line number, code span)] of the Install table's second column."""
    m = re.search(r"(?m)^## Install\n", text)
    if not m:
        raise AssertionError("README.md has no '## Install' section")
    first_line = text.count("\n", 0, m.end()) + 1
    spans = []
    for n, line in enumerate(text[m.end():].split("\n"), first_line):
        if line.startswith("## "):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if len(cells) < 2 or cells[0] == "how" or set(cells[0]) <= set("-"):
            continue
        spans += [(n, s) for s in re.findall(r"`([^`]+)`", cells[1])]
    if not spans:
        raise AssertionError("README.md's Install section has no table of commands")
    return spans


def classify(test, items, entries, what):
    """[(item, entry)]: each item matched by exactly one entry, each entry used."""
    out, used = [], set()
    for item in items:
        text = item[-1]
        hits = [e for e in entries if re.search(e.key, text, re.M)]
        where = "README.md:%d" % item[0]
        if not hits:
            test.fail("%s: a %s this test does not know; add it to test_readme.py's %s, run or skipped "
                      "with a reason:\n%s" % (where, what, "BLOCKS" if what == "block" else "INSTALL", text))
        if len(hits) > 1:
            test.fail("%s: the %s matches %s" % (where, what, [e.key for e in hits]))
        used.add(hits[0].key)
        out.append((item, hits[0]))
    stale = [e.key for e in entries if e.key not in used]
    if stale:
        test.fail("test_readme.py lists %ss the README no longer has: %s" % (what, stale))
    return out


# ---- the user's shell -------------------------------------------------------

class Session:
    """A terminal of the README's user: a working folder, PATH with `pogi`,
    the environment the blocks export, and the pogi processes they start."""

    def __init__(self, test, tmp):
        self.test = test
        self.work = os.path.join(tmp, "work")
        bin_dir = os.path.join(tmp, "bin")
        os.makedirs(self.work)
        os.makedirs(bin_dir)
        os.symlink(os.path.abspath(pogi_bin()), os.path.join(bin_dir, "pogi"))
        self.port = free_port()
        self.grpc_port = free_port()
        while self.grpc_port == self.port:
            self.grpc_port = free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "POGI_"))}
        env.update(PATH=bin_dir + os.pathsep + env.get("PATH", "/usr/bin:/bin"),
                   AWS_CONFIG_FILE=os.path.join(tmp, "no-aws-config"),
                   AWS_SHARED_CREDENTIALS_FILE=os.path.join(tmp, "no-aws-credentials"),
                   AWS_PAGER="")
        self.env = env
        self.servers = []  # (Popen of `bash -c LINE`, its stderr file)
        self.state = os.path.join(tmp, "session.env")
        # The README's `pogi`, on this test's ports (module docstring).
        self.prelude = (
            'pogi() {\n'
            '  case "$1" in\n'
            '    start) command pogi "$@" --port %d --grpc-port %d ;;\n'
            '    env) command pogi "$@" --port %d ;;\n'
            '    help|--help|--version|completion) command pogi "$@" ;;\n'
            '    *) command pogi "$@" --grpc-port %d ;;\n'
            '  esac\n'
            '}\n' % (self.port, self.grpc_port, self.port, self.grpc_port))

    @property
    def endpoint(self):
        return "http://%s:%d" % (LOCALHOST, self.port)

    def run_shell(self, where, script, expect=()):
        """Runs a block's lines: `pogi start` lines as servers (waited for
        until Ready.), the others in the session's shell, stopping at the
        first failure (set -e)."""
        chunk = []
        for line in logical_lines(script):
            if re.match(r"^(pogi|\S+/pogi) start\b", line.strip()):
                self._shell(where, "".join(chunk), expect=())
                chunk = []
                self.start_server(where, line)
            else:
                chunk.append(line)
        return self._shell(where, "".join(chunk), expect)

    def _shell(self, where, script, expect):
        if not script.strip():
            return ""
        full = "set -eo pipefail\n%s%s\nenv -0 > %s\n" % (self.prelude, script, shlex.quote(self.state))
        cp = subprocess.run(["bash", "-c", full], cwd=self.work, env=self.env, capture_output=True,
                            text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
        self.test.assertEqual(cp.returncode, 0, "%s failed (exit %d):\n%s\nstdout:\n%s\nstderr:\n%s%s"
                              % (where, cp.returncode, script, cp.stdout, cp.stderr, self.server_logs()))
        with open(self.state, "rb") as f:
            self.env = dict(v.split("=", 1) for v in f.read().decode().split("\0") if "=" in v)
        self.assert_holds(where, cp.stdout, expect)
        return cp.stdout

    def start_server(self, where, line):
        """Runs a `pogi start` line in bash and waits for its Ready.; a line
        ending in `&` is waited for (`wait $!`) so that bash's exit is pogi's."""
        script = self.prelude + line
        if re.search(r"&\s*(#.*)?$", line.strip()):
            script += "wait $!\n"
        err = tempfile.TemporaryFile(mode="w+")
        proc = subprocess.Popen(["bash", "-c", script], cwd=self.work, env=self.env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=err, start_new_session=True)
        self.servers.append((proc, err))
        first = read_line(proc, 15)
        if first != b"Ready.\n":
            self.test.fail("%s: `%s` printed %r, not Ready.%s" % (where, line.strip(), first, self.server_logs()))

    def run_file(self, where, command, name, code, expect, cwd=None):
        path = os.path.join(cwd or self.work, name)
        with open(path, "w") as f:
            f.write(code)
        try:
            cp = subprocess.run(command + [path], cwd=cwd or self.work, env=self.env, capture_output=True,
                                text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
        finally:
            if cwd:
                os.remove(path)
        self.test.assertEqual(cp.returncode, 0, "%s failed (exit %d):\n%s\nstdout:\n%s\nstderr:\n%s%s"
                              % (where, cp.returncode, code, cp.stdout, cp.stderr, self.server_logs()))
        self.assert_holds(where, cp.stdout, expect)

    def assert_holds(self, where, out, expect):
        for text in expect:
            self.test.assertIn(text, out, "%s: the README promises %s in its output:\n%s" % (where, text, out))

    def at_test_port(self, where, code):
        """The snippet with pogi's default address made the test's (module docstring)."""
        self.test.assertNotIn("7644", code.replace(DEFAULT_ADDRESS, ""),
                              "%s names port 7644 other than as %s: teach test_readme.py" % (where, DEFAULT_ADDRESS))
        return code.replace(DEFAULT_ADDRESS, "%s:%d" % (LOCALHOST, self.port))

    def server_logs(self):
        out = ""
        for proc, err in self.servers:
            err.seek(0)
            out += "\npogi (%s) log:\n%s" % ("running" if proc.poll() is None else "exit %s" % proc.returncode,
                                             err.read()[-4000:])
        return out

    def finish(self):
        """Exit codes of the servers (waiting for those a README line
        stopped), stopping those still running with SIGTERM: None for those."""
        codes = []
        for proc, err in self.servers:
            try:
                codes.append(proc.wait(timeout=10))
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
                codes.append(None)
            proc.stdout.close()
        return codes

    def kill(self):
        for proc, err in self.servers:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            err.close()


def logical_lines(script):
    """The script's lines, a line ending in \\ joined with the next (as bash reads them)."""
    out, cur = [], ""
    for line in script.splitlines(keepends=True):
        cur += line
        if not line.rstrip("\n").endswith("\\"):
            out.append(cur)
            cur = ""
    return out + ([cur] if cur else [])


def read_line(proc, timeout):
    """proc's first stdout line (b"" at EOF or time-out)."""
    deadline, buf = time.monotonic() + timeout, b""
    while b"\n" not in buf and time.monotonic() < deadline:
        if select.select([proc.stdout], [], [], 0.2)[0]:
            chunk = os.read(proc.stdout.fileno(), 256)
            if not chunk:
                break
            buf += chunk
    return buf.split(b"\n", 1)[0] + b"\n" if b"\n" in buf else buf


# ---- the release files the Install table names -------------------------------

_packed = {}


def release_file(test, name):
    """dist/NAME, else NAME as release/pack.py packs it from the binary under test."""
    if os.path.exists(os.path.join(DIST, name)):
        return os.path.join(DIST, name)
    if "out" not in _packed:
        out = tempfile.mkdtemp(prefix="pogi-readme-pack-")
        cp = subprocess.run([sys.executable, os.path.join(ROOT, "release", "pack.py"), "--binary", pogi_bin(),
                             "--out", out], capture_output=True, text=True, timeout=600)
        test.assertEqual(cp.returncode, 0, "release/pack.py failed: %s%s" % (cp.stdout, cp.stderr))
        _packed["out"] = out
    path = os.path.join(_packed["out"], name)
    test.assertTrue(os.path.exists(path), "the README's Install table names %s, which `./dev release` does not "
                    "write (release/pack.py wrote %s)" % (name, sorted(os.listdir(_packed["out"]))))
    return path


def tearDownModule():
    if "out" in _packed:
        shutil.rmtree(_packed.pop("out"), ignore_errors=True)


# ---- the tests ----------------------------------------------------------------

@sqlite_only("runs the README's own `pogi start`, on its default storage: the storage switch changes nothing")
@direct_only("runs the README's own `pogi start`, which has no gateway in front")
class ReadmeTest(unittest.TestCase):

    def setUp(self):
        self.text = read(README)
        self.tmp = tempfile.mkdtemp(prefix="pogi-readme-")
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)

    def blocks(self):
        return classify(self, fenced_blocks(self.text), BLOCKS, "block")

    def install(self, key):
        """The Install table's command of that entry."""
        for (line, span), entry in classify(self, install_commands(self.text), INSTALL, "command"):
            if entry.key == key:
                return line, span
        raise AssertionError(key)

    def test_every_block_and_install_command_is_listed(self):
        self.blocks()
        for (line, span), entry in classify(self, install_commands(self.text), INSTALL, "command"):
            sys.stderr.write("README.md:%d `%s`: %s\n" % (line, span, "skipped: " + entry.skip if entry.skip
                                                           else "runs (test_install_*)"))

    def test_blocks_run_in_order(self):
        """Every block that can run here, in the README's order, in one session."""
        session = Session(self, self.tmp)
        self.addCleanup(session.kill)
        ran = []
        for (line, lang, body), entry in self.blocks():
            where = "README.md:%d (```%s)" % (line, lang)
            if entry.skip:
                sys.stderr.write("%s: skipped: %s\n" % (where, entry.skip))
                continue
            sys.stderr.write("%s: runs\n" % where)
            if lang in ("sh", "bash", "shell", "console"):
                session.run_shell(where, body, entry.expect)
            elif lang == "python":
                session.run_file(where, [sys.executable], "readme_snippet.py", session.at_test_port(where, body),
                                 entry.expect)
            elif lang in ("js", "javascript", "mjs"):
                # ESM resolves the SDK from the script's own folder up: the
                # snippet runs beside the SDK's node_modules, in a file of its own.
                sdk_dir = os.path.dirname(js_sdk(self))
                session.run_file(where, ["node"], "readme_snippet_%d.mjs" % os.getpid(),
                                 session.at_test_port(where, body), entry.expect, cwd=sdk_dir)
            else:
                self.fail("%s: no way to run a ```%s block; list it as skipped in BLOCKS" % (where, lang))
            if lang in ("sh", "bash", "shell", "console") and "pogi env" in body:
                self.assertEqual(session.env.get("AWS_ENDPOINT_URL_DYNAMODB"), session.endpoint,
                                 "%s: after it the shell does not point DynamoDB at pogi" % where)
            ran.append(line)
        self.assertTrue(session.servers, "no README block started pogi")
        logs = session.server_logs()
        for code in session.finish():
            # A README line stopped pogi (`pogi stop`): cleanly. Still
            # running at the end (None): the test stopped it.
            self.assertIn(code, (0, None), "pogi exited %s%s" % (code, logs))
        self.assertGreaterEqual(len(ran), 4, ran)

    def test_install_release_archive(self):
        """The archive's row: unpacked and started exactly as written (on the
        test's ports), it answers ListTables; `pogi stop` stops it."""
        line, cmd = self.install(ARCHIVE)
        self.assertRegex(cmd, r"/pogi start$", "README.md:%d: the test adds its ports after `pogi start`" % line)
        session = Session(self, self.tmp)
        self.addCleanup(session.kill)
        for name in re.findall(r"\S+\.tar\.[gx]z", cmd):
            shutil.copy(release_file(self, name), session.work)
        # A path, not the README's `pogi`: the ports go on the line itself.
        session.start_server("README.md:%d" % line, "%s --port %d --grpc-port %d\n"
                             % (cmd, session.port, session.grpc_port))
        import boto3
        ddb = boto3.client("dynamodb", endpoint_url=session.endpoint, region_name="us-east-1",
                           aws_access_key_id="pogi", aws_secret_access_key="pogi")
        self.assertEqual(ddb.list_tables()["TableNames"], [])
        unpacked = cmd.split("&&")[-1].split()[0]
        cp = subprocess.run([os.path.join(session.work, unpacked), "stop", "--grpc-port", str(session.grpc_port)],
                            capture_output=True, text=True, timeout=30)
        self.assertEqual(cp.returncode, 0, cp.stderr)
        self.assertEqual(session.finish(), [0], session.server_logs())

    def test_install_npm_package(self):
        """The npm row, in a project of the user's: the package lands in
        devDependencies and its `pogi` runs."""
        if not shutil.which("npm") or not shutil.which("node"):
            self.skipTest("node and npm are not installed (./dev test installs them)")
        line, cmd = self.install(NPM)
        session = Session(self, self.tmp)
        for name in re.findall(r"\./(\S+\.tgz)", cmd):
            shutil.copy(release_file(self, name), session.work)
        with open(os.path.join(session.work, "package.json"), "w") as f:
            json.dump({"name": "app", "version": "1.0.0", "private": True}, f)
        # npm's settings, not the command's: nothing fetched (the package
        # needs nothing), no audit, a cache of the test's own.
        session.env.update(npm_config_offline="true", npm_config_audit="false", npm_config_fund="false",
                           npm_config_update_notifier="false", npm_config_cache=os.path.join(self.tmp, "npm-cache"))
        session.run_shell("README.md:%d" % line, cmd + "\n")
        with open(os.path.join(session.work, "package.json")) as f:
            self.assertIn("pogi", json.load(f).get("devDependencies", {}))
        version = re.search(r"pogi-([0-9.]+)\.tgz", cmd).group(1)
        cp = subprocess.run([os.path.join(session.work, "node_modules", ".bin", "pogi"), "--version"],
                            capture_output=True, text=True, timeout=30)
        self.assertEqual(cp.returncode, 0, cp.stderr)
        self.assertTrue(cp.stdout.startswith("pogi %s " % version), cp.stdout)


class LinksTest(unittest.TestCase):
    """Every relative link of README.md and docs/*.md resolves: the file
    exists and, for a #fragment into a Markdown file, so does the heading."""

    def test_relative_links_resolve(self):
        pages = [README] + sorted(os.path.join(DOCS, n) for n in os.listdir(DOCS) if n.endswith(".md"))
        broken = []
        for page in pages:
            for line, target in links(read(page)):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                    continue
                path, _, fragment = target.partition("#")
                full = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
                where = "%s:%d: %s" % (os.path.relpath(page, ROOT), line, target)
                if not os.path.exists(full):
                    broken.append(where + " (no such file)")
                elif fragment and full.endswith(".md") and fragment not in anchors(read(full)):
                    broken.append(where + " (no such heading)")
        self.assertEqual(broken, [], "\n".join(broken))


def links(text):
    """[(line, target)] of the [text](target) links outside code."""
    out, in_fence = [], False
    for n, line in enumerate(text.split("\n"), 1):
        if re.match(r"^\s*```", line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        line = re.sub(r"`[^`]*`", "", line)
        out += [(n, m) for m in re.findall(r"\]\(([^)\s]+)\)", line)]
    return out


def anchors(text):
    """GitHub's anchors of a Markdown file's headings (a repeated one gets -1, -2...)."""
    seen, out, in_fence = {}, set(), False
    for line in text.split("\n"):
        if re.match(r"^\s*```", line):
            in_fence = not in_fence
        m = None if in_fence else re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else "%s-%d" % (slug, n))
    return out


if __name__ == "__main__":
    unittest.main()
