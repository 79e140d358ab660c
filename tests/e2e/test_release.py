"""What users download, checked as they would use it: the files
`./dev release` wrote into dist/ (`./dev test` runs it before the tests;
POGI_DIST names another folder):

- the release archive: reproducible (packed again by release/pack.py from
  the same binary, the same bytes as dist/'s; this also proves dist/ was
  packed from the binary under test), its
  SHA-256 file, its contents; the .tar.xz holds the same tar as the .tar.gz; the binary in it runs in a bare root folder
  (chroot, nothing else in it) and answers a ListTables; --version;
- the OCI image: reproducible (the same digest twice), its config (entry
  point, environment, the /data volume), unpacked with umoci and run with
  chroot as its config says, answering the AWS CLI; DynamoDB Local's
  command line `-inMemory -sharedDb -port P` and its image command
  `-jar DynamoDBLocal.jar ...` work;
- the npm package: installed offline into a fresh folder, its API starts
  pogi, @aws-sdk/client-dynamodb writes and reads, stop() leaves no process.

The chroot checks need root (CI runs as root); umoci, skopeo and the AWS
SDK for JavaScript come from `./dev test`'s packages (skipped with a reason
when missing, which `./dev test` never lets happen in CI)."""

import gzip
import json
import lzma
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
import unittest
import urllib.request

from harness import LOCALHOST, free_port, js_sdk, pogi_bin, sqlite_only

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
PACK = os.path.join(ROOT, "release", "pack.py")
DIST = os.environ.get("POGI_DIST") or os.path.join(ROOT, "dist")


def pack(out):
    cp = subprocess.run([sys.executable, PACK, "--binary", pogi_bin(), "--out", out],
                        capture_output=True, text=True, timeout=300)
    if cp.returncode != 0:
        raise AssertionError("pack failed: %s%s" % (cp.stdout, cp.stderr))
    return cp.stdout


def files_in(folder):
    return sorted(os.listdir(folder))


def wait_ready(proc, timeout=10):
    """Reads proc's stdout until "Ready."; returns the lines before it."""
    lines = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        if line.rstrip("\n") == "Ready.":
            return lines
        lines.append(line.rstrip("\n"))
    proc.kill()
    _, err = proc.communicate()
    raise AssertionError("not ready: stdout %r stderr %r" % (lines, err))


def list_tables(port):
    import boto3
    client = boto3.client("dynamodb", endpoint_url="http://%s:%d" % (LOCALHOST, port), region_name="us-east-1",
                          aws_access_key_id="x", aws_secret_access_key="x")
    return client.list_tables()["TableNames"]


def stop(proc):
    """Stops proc as `docker stop` would (SIGTERM); its exit code and stderr."""
    proc.terminate()
    try:
        _, err = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
    return proc.returncode, err


@sqlite_only("packs the binary and runs the archive, the image and the npm package on their own "
             "default storage (a data folder): the storage switch changes nothing here")
class ReleaseTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="pogi-release-")
        # out1: what `./dev release` wrote; out2: the same binary packed
        # again, whose file names say which of dist/'s files are this
        # binary's (dist/ may also hold the arm64 files).
        cls.out1 = DIST
        cls.out2 = os.path.join(cls.tmp, "again")
        cls.report = pack(cls.out2)
        names = files_in(cls.out2)
        missing = [n for n in names if not os.path.exists(os.path.join(DIST, n))]
        if missing:
            raise AssertionError("%s lacks %s: `./dev release` writes them (`./dev test` runs it first)"
                                 % (DIST, ", ".join(missing)))
        cls.names = names
        cls.archive = next(n for n in names if n.endswith(".tar.gz"))
        cls.xz_archive = next(n for n in names if n.endswith(".tar.xz"))
        cls.image = next(n for n in names if n.endswith("-oci.tar"))
        cls.npm = next((n for n in names if n.endswith(".tgz")), None)
        sys.stderr.write("release/pack.py:\n" + cls.report)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def read(self, out, name):
        with open(os.path.join(out, name), "rb") as f:
            return f.read()

    def test_packed_twice_the_same_bytes(self):
        for name in self.names:
            self.assertEqual(self.read(self.out1, name), self.read(self.out2, name),
                             "%s differs from a second pack of %s: `./dev release` packed another binary, "
                             "or the packing is not reproducible" % (name, pogi_bin()))

    def test_archive_contents_and_checksum(self):
        self.assertRegex(self.archive, r"^pogi-\d+\.\d+\.\d+-linux-x86_64\.tar\.gz$")
        cp = subprocess.run(["sha256sum", "-c", self.archive + ".sha256"], cwd=self.out1,
                            capture_output=True, text=True)
        self.assertEqual(cp.returncode, 0, cp.stdout + cp.stderr)
        top = self.archive[:-len(".tar.gz")]
        with tarfile.open(os.path.join(self.out1, self.archive)) as tar:
            members = {m.name: m for m in tar.getmembers()}
        self.assertEqual(sorted(members), sorted([
            top, top + "/pogi", top + "/LICENSE", top + "/README.md", top + "/completions",
            top + "/completions/pogi.bash", top + "/completions/_pogi", top + "/completions/pogi.fish"]))
        self.assertEqual(members[top + "/pogi"].mode, 0o755)
        self.assertEqual({m.uid for m in members.values()}, {0})
        self.assertEqual(len({m.mtime for m in members.values()}), 1)
        # Stripped: smaller than the build's binary, which keeps its symbols.
        self.assertLess(members[top + "/pogi"].size, os.path.getsize(pogi_bin()))

    def test_xz_archive_holds_the_same_tar(self):
        self.assertEqual(self.xz_archive, self.archive[:-len(".gz")] + ".xz")
        cp = subprocess.run(["sha256sum", "-c", self.xz_archive + ".sha256"], cwd=self.out1,
                            capture_output=True, text=True)
        self.assertEqual(cp.returncode, 0, cp.stdout + cp.stderr)
        xz, gz = self.read(self.out1, self.xz_archive), self.read(self.out1, self.archive)
        self.assertEqual(lzma.decompress(xz), gzip.decompress(gz))
        self.assertLess(len(xz), len(gz))
        # As users unpack it: the system's tar (through xz).
        into = os.path.join(self.tmp, "xz")
        os.makedirs(into)
        cp = subprocess.run(["tar", "xJf", os.path.join(self.out1, self.xz_archive), "-C", into],
                            capture_output=True, text=True)
        self.assertEqual(cp.returncode, 0, cp.stderr)
        top = self.xz_archive[:-len(".tar.xz")]
        cp = subprocess.run([os.path.join(into, top, "pogi"), "--version"], capture_output=True, text=True)
        self.assertEqual(cp.returncode, 0, cp.stderr)
        self.assertTrue(cp.stdout.startswith("pogi "), cp.stdout)

    def test_version_names_the_commit_and_date(self):
        cp = subprocess.run([pogi_bin(), "--version"], capture_output=True, text=True)
        self.assertEqual(cp.returncode, 0)
        self.assertRegex(cp.stdout.strip(),
                         r"^pogi \d+\.\d+\.\d+ \(commit ([0-9a-f]{12}(-dirty)?|unknown), "
                         r"built (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ|unknown)\)$")

    def extract(self, name, into):
        os.makedirs(into)
        with tarfile.open(os.path.join(self.out1, name)) as tar:
            tar.extractall(into)
        return into

    @unittest.skipUnless(os.geteuid() == 0, "chroot needs root")
    def test_binary_runs_alone_in_an_empty_root(self):
        root = self.extract(self.archive, os.path.join(self.tmp, "bare"))
        top = self.archive[:-len(".tar.gz")]
        # Nothing but the archive's files: no /lib, no /etc, no /dev, no /proc.
        self.assertEqual(os.listdir(root), [top])
        port, grpc_port = free_port(), free_port()
        proc = subprocess.Popen(["chroot", root, "/%s/pogi" % top, "start", "--in-memory", "--port", str(port),
                                 "--grpc-port", str(grpc_port)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            wait_ready(proc)
            self.assertEqual(list_tables(port), [])
        finally:
            code, err = stop(proc)
        self.assertEqual(code, 0, err)

    def oci_layout(self):
        layout = os.path.join(self.tmp, "layout")
        if not os.path.isdir(layout):
            self.extract(self.image, layout)
        return layout

    def test_image_layout_and_config(self):
        layout = self.oci_layout()
        with open(os.path.join(layout, "index.json")) as f:
            index = json.load(f)
        manifest_digest = index["manifests"][0]["digest"]
        self.assertEqual(index["manifests"][0]["annotations"]["io.containerd.image.name"].split(":")[0],
                         "docker.io/library/pogi")

        def blob(digest):
            with open(os.path.join(layout, "blobs", *digest.split(":")), "rb") as f:
                return json.loads(f.read())
        manifest = blob(manifest_digest)
        config = blob(manifest["config"]["digest"])
        self.assertEqual(config["config"]["Entrypoint"], ["/pogi"])
        self.assertEqual(config["config"]["Cmd"], ["start"])
        self.assertIn("POGI_CONTAINER=1", config["config"]["Env"])
        self.assertIn("POGI_DATA_DIR=/data", config["config"]["Env"])
        self.assertEqual(list(config["config"]["Volumes"]), ["/data"])
        self.assertEqual((config["os"], config["architecture"]), ("linux", "amd64"))
        self.assertEqual(len(manifest["layers"]), 1)
        # docker load reads manifest.json beside the OCI layout.
        with open(os.path.join(layout, "manifest.json")) as f:
            self.assertEqual(json.load(f)[0]["RepoTags"][0].split(":")[0], "pogi")
        if shutil.which("skopeo"):
            cp = subprocess.run(["skopeo", "inspect", "--config", "oci-archive:" + os.path.join(self.out1, self.image)],
                                capture_output=True, text=True)
            self.assertEqual(cp.returncode, 0, cp.stderr)
            self.assertEqual(json.loads(cp.stdout)["config"]["Entrypoint"], ["/pogi"])

    def unpacked_rootfs(self):
        if not shutil.which("umoci"):
            self.skipTest("umoci is not installed (./dev test installs it)")
        bundle = os.path.join(self.tmp, "bundle")
        if not os.path.isdir(bundle):
            version = self.image[len("pogi-"):-len("-oci.tar")]
            cp = subprocess.run(["umoci", "unpack", "--image", self.oci_layout() + ":" + version, bundle],
                                capture_output=True, text=True)
            self.assertEqual(cp.returncode, 0, cp.stderr)
        with open(os.path.join(bundle, "config.json")) as f:
            runtime = json.load(f)
        return os.path.join(bundle, "rootfs"), runtime

    def run_image(self, rootfs, runtime, args):
        """Runs the unpacked image as its runtime config says (environment,
        working folder), with `args` in place of its command."""
        env = dict(e.split("=", 1) for e in runtime["process"]["env"])
        entry = runtime["process"]["args"][0]
        return subprocess.Popen(["chroot", rootfs, entry] + args, env=env, cwd=rootfs,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    @unittest.skipUnless(os.geteuid() == 0, "chroot needs root")
    def test_image_runs_and_answers_the_aws_cli(self):
        rootfs, runtime = self.unpacked_rootfs()
        self.assertEqual(runtime["process"]["args"], ["/pogi", "start"])
        self.assertEqual(sorted(os.listdir(rootfs)), ["data", "pogi", "tmp"])
        port, grpc_port = free_port(), free_port()
        proc = self.run_image(rootfs, runtime, ["start", "--port", str(port), "--grpc-port", str(grpc_port)])
        try:
            wait_ready(proc)
            # The readiness contract: GET / answers 200 once Ready. is out.
            with urllib.request.urlopen("http://%s:%d/" % (LOCALHOST, port), timeout=10) as r:
                self.assertEqual(r.status, 200)
            env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
            env.update(AWS_ACCESS_KEY_ID="x", AWS_SECRET_ACCESS_KEY="x", AWS_DEFAULT_REGION="us-east-1",
                       AWS_CONFIG_FILE="/nonexistent", AWS_SHARED_CREDENTIALS_FILE="/nonexistent")
            for args in (["create-table", "--table-name", "img", "--attribute-definitions",
                          "AttributeName=pk,AttributeType=S", "--key-schema", "AttributeName=pk,KeyType=HASH",
                          "--billing-mode", "PAY_PER_REQUEST"], ["list-tables"]):
                cp = subprocess.run(["aws", "dynamodb"] + args + ["--endpoint-url", "http://%s:%d" % (LOCALHOST, port),
                                                                   "--output", "json"],
                                    capture_output=True, text=True, env=env, timeout=60)
                self.assertEqual(cp.returncode, 0, cp.stderr)
            self.assertEqual(json.loads(cp.stdout)["TableNames"], ["img"])
        finally:
            code, stderr = stop(proc)
        self.assertEqual(code, 0, stderr)
        # Every interface inside the container, and no warning about it there.
        self.assertIn("http://0.0.0.0:%d" % port, stderr)
        self.assertNotIn("without --check-signatures", stderr)
        # The data went to the /data volume.
        self.assertIn("pogi.db", os.listdir(os.path.join(rootfs, "data")))

    @unittest.skipUnless(os.geteuid() == 0, "chroot needs root")
    def test_image_takes_dynamodb_locals_command_line(self):
        rootfs, runtime = self.unpacked_rootfs()
        for command in (["-inMemory", "-sharedDb"], ["-jar", "DynamoDBLocal.jar", "-sharedDb", "-inMemory"]):
            port = free_port()
            proc = self.run_image(rootfs, runtime, command + ["-port", str(port), "--grpc-port", "0"])
            try:
                banner = wait_ready(proc)
                self.assertEqual(banner[0], "Initializing DynamoDB Local with the following configuration:")
                self.assertIn("Port:\t%d" % port, banner)
                self.assertIn("InMemory:\ttrue", banner)
                self.assertIn("SharedDb:\ttrue", banner)
                self.assertEqual(list_tables(port), [])
            finally:
                code, err = stop(proc)
            self.assertEqual(code, 0, err)

    def test_npm_package_installs_offline_and_starts_pogi(self):
        self.assertIsNotNone(self.npm, "no npm package was packed")
        sdk = js_sdk(self)
        fresh = os.path.join(self.tmp, "fresh-project")
        os.makedirs(fresh)
        with open(os.path.join(fresh, "package.json"), "w") as f:
            json.dump({"name": "fresh-project", "version": "1.0.0", "private": True}, f)
        # --offline: npm may not fetch anything; the tarball needs nothing.
        cp = subprocess.run(["npm", "install", "--offline", "--no-audit", "--no-fund",
                             os.path.join(self.out1, self.npm)], cwd=fresh, capture_output=True, text=True,
                            timeout=120, env=dict(os.environ, npm_config_cache=os.path.join(self.tmp, "npm-cache")))
        self.assertEqual(cp.returncode, 0, cp.stdout + cp.stderr)
        shim = os.path.join(fresh, "node_modules", ".bin", "pogi")
        cp = subprocess.run([shim, "--version"], capture_output=True, text=True)
        self.assertEqual(cp.returncode, 0, cp.stderr)
        self.assertTrue(cp.stdout.startswith("pogi "))
        shutil.copy(os.path.join(HERE, "npm", "pogi_package.test.js"), fresh)
        # A session of its own: on a time-out the whole group goes, the pogi
        # that node started included.
        proc = subprocess.Popen(["node", "--test", "pogi_package.test.js"], cwd=fresh, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=dict(os.environ, NODE_PATH=sdk),
                                start_new_session=True)
        try:
            out, err = proc.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
        self.assertEqual(proc.returncode, 0, out + err)
        self.assertIn("# pass 2", out)


ARM64_BIN = os.environ.get("POGI_ARM64_BIN")


@unittest.skipUnless(ARM64_BIN, "no arm64 build: `./dev release --arch arm64` cross-compiles one and runs "
                                "these checks on it (a second full build does not fit CI's time)")
@unittest.skipUnless(shutil.which("qemu-aarch64-static"), "qemu-aarch64-static is not installed")
class Arm64ReleaseTest(unittest.TestCase):
    """The arm64 archive, image and npm package, their binary run under
    qemu-user. In the bare root the emulator is the only other file: the
    binary needs no library of any architecture."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="pogi-release-arm64-")
        cls.out = os.path.join(cls.tmp, "out")
        cp = subprocess.run([sys.executable, PACK, "--binary", ARM64_BIN, "--out", cls.out],
                            capture_output=True, text=True, timeout=600)
        if cp.returncode != 0:
            raise AssertionError("pack failed: %s%s" % (cp.stdout, cp.stderr))
        sys.stderr.write("release/pack.py (arm64):\n" + cp.stdout)
        cls.names = files_in(cls.out)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_files_are_named_for_arm64(self):
        version = [n for n in self.names if n.endswith(".tar.xz")][0].split("-")[1]
        expected = ["pogi-%s-linux-arm64.tar.%s%s" % (version, z, s) for z in ("gz", "xz") for s in ("", ".sha256")]
        expected.append("pogi-%s-oci-arm64.tar" % version)
        if shutil.which("npm"):
            expected.append("pogi-%s-linux-arm64.tgz" % version)
        self.assertEqual(self.names, sorted(expected))
        for name in self.names:
            if name.endswith(".sha256"):
                cp = subprocess.run(["sha256sum", "-c", name], cwd=self.out, capture_output=True, text=True)
                self.assertEqual(cp.returncode, 0, cp.stdout + cp.stderr)

    def test_image_says_arm64(self):
        image = next(n for n in self.names if "-oci-" in n)
        with tarfile.open(os.path.join(self.out, image)) as tar:
            index = json.load(tar.extractfile("index.json"))
            platform = index["manifests"][0]["platform"]
            manifest = json.load(tar.extractfile("blobs/sha256/" + index["manifests"][0]["digest"][7:]))
            config = json.load(tar.extractfile("blobs/sha256/" + manifest["config"]["digest"][7:]))
        self.assertEqual(platform, {"architecture": "arm64", "os": "linux"})
        self.assertEqual((config["os"], config["architecture"]), ("linux", "arm64"))

    @unittest.skipUnless(os.geteuid() == 0, "chroot needs root")
    def test_binary_runs_alone_in_an_empty_root_under_qemu(self):
        xz = next(n for n in self.names if n.endswith(".tar.xz"))
        root = os.path.join(self.tmp, "bare")
        os.makedirs(root)
        cp = subprocess.run(["tar", "xJf", os.path.join(self.out, xz), "-C", root], capture_output=True, text=True)
        self.assertEqual(cp.returncode, 0, cp.stderr)
        top = xz[:-len(".tar.xz")]
        with open(os.path.join(root, top, "pogi"), "rb") as f:
            self.assertEqual(int.from_bytes(f.read(20)[18:20], "little"), 183)  # EM_AARCH64
        shutil.copy(shutil.which("qemu-aarch64-static"), os.path.join(root, "qemu"))
        self.assertEqual(sorted(os.listdir(root)), sorted([top, "qemu"]))
        cp = subprocess.run(["chroot", root, "/qemu", "/%s/pogi" % top, "--version"], capture_output=True, text=True)
        self.assertEqual(cp.returncode, 0, cp.stderr)
        self.assertTrue(cp.stdout.startswith("pogi "), cp.stdout)
        port, grpc_port = free_port(), free_port()
        proc = subprocess.Popen(["chroot", root, "/qemu", "/%s/pogi" % top, "start", "--in-memory", "--port",
                                 str(port), "--grpc-port", str(grpc_port)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            wait_ready(proc, timeout=60)  # emulated: slower than native
            import boto3
            client = boto3.client("dynamodb", endpoint_url="http://%s:%d" % (LOCALHOST, port),
                                  region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="x")
            client.create_table(TableName="arm", KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                                AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                                BillingMode="PAY_PER_REQUEST")
            client.put_item(TableName="arm", Item={"pk": {"S": "a"}, "n": {"N": "1.50"}})
            item = client.get_item(TableName="arm", Key={"pk": {"S": "a"}}, ConsistentRead=True)["Item"]
            self.assertEqual(item, {"pk": {"S": "a"}, "n": {"N": "1.5"}})
            self.assertEqual(client.list_tables()["TableNames"], ["arm"])
        finally:
            code, err = stop(proc)
        self.assertEqual(code, 0, err)


if __name__ == "__main__":
    unittest.main()
