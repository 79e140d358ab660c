#!/usr/bin/env python3
"""A throwaway S3-compatible server for the tests: npm's s3rver.

s3rver (a Node.js implementation of S3's REST API, keeping objects in a
folder) is installed from the npm registry once per build folder, into
BUILD/npm-s3rver, and started on a free port of 127.0.0.1 with a fresh data
folder. It accepts the access key S3RVER (secret S3RVER) and answers any
other key InvalidAccessKeyId; it parses SigV4 but does not check it (pogi's
signer is checked against pogi's own verifier in the unit tests).

    s3 = S3Server().start()
    s3.endpoint            # 'http://127.0.0.1:N'
    s3.create_bucket("b")  # through the AWS CLI, as a user would
    s3.aws("s3", "ls", "s3://b/")   # the AWS CLI pointed at it; CompletedProcess
    s3.stop(); s3.start()  # the same data folder again
    s3.cleanup()
    S3Server(tls=True)     # https://127.0.0.1:N with a self-signed certificate
                           # for 127.0.0.1 (s3.ca_file), made with openssl

    python3 tests/s3_server.py run [--npm-dir DIR] -- COMMAND ARGS...

starts one server, runs COMMAND with POGI_TEST_S3_ENDPOINT set, stops the
server and exits with COMMAND's code (CTest's unit_s3.outbound).
"""
import os
import shutil
import subprocess
import sys
import tempfile

import node_server
from node_server import NodeServer, problem  # noqa: F401  (problem: the tests' skip reason)

S3RVER_VERSION = "3.7.1"
ACCESS_KEY = "S3RVER"
SECRET_KEY = "S3RVER"


def self_signed_certificate(folder):
    """(certificate, key) PEM files for 127.0.0.1 and localhost, made with
    the openssl command; the certificate is its own CA."""
    if not shutil.which("openssl"):
        raise AssertionError("the openssl command is missing (./dev test installs it)")
    cert, key = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-keyout", key,
                    "-out", cert, "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
                    "-addext", "basicConstraints=critical,CA:TRUE"],
                   check=True, capture_output=True, timeout=60)
    return cert, key


class S3Server(NodeServer):
    NAME = "s3rver"

    def __init__(self, npm_dir=None, tls=False):
        super().__init__(node_server.install("s3rver", S3RVER_VERSION, "bin/s3rver.js", npm_dir))
        self.folder = tempfile.mkdtemp(prefix="pogi-s3rver-")
        self.ca_file = None
        self.tls_args = []
        if tls:
            self.tls_dir = tempfile.mkdtemp(prefix="pogi-s3rver-tls-")
            self.ca_file, key = self_signed_certificate(self.tls_dir)
            self.tls_args = ["--cert", self.ca_file, "--key", key]

    @property
    def endpoint(self):
        return f"{'https' if self.ca_file else 'http'}://127.0.0.1:{self.port}"

    def command(self):
        return ["node", self.script, "-d", self.folder, "-a", "127.0.0.1", "-p", str(self.port), "--silent",
                "--no-vhost-buckets", *self.tls_args]

    def cleanup(self):
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
        if self.ca_file:
            shutil.rmtree(self.tls_dir, ignore_errors=True)

    def env(self):
        """The AWS CLI's environment for this server."""
        env = dict(os.environ, AWS_ACCESS_KEY_ID=ACCESS_KEY, AWS_SECRET_ACCESS_KEY=SECRET_KEY,
                   AWS_DEFAULT_REGION="us-east-1", AWS_REGION="us-east-1")
        for k in ("AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3", "AWS_PROFILE"):
            env.pop(k, None)
        return env

    def aws(self, *args, check=True):
        """The AWS CLI (`aws --endpoint-url ENDPOINT ARGS...`); its CompletedProcess."""
        tls = ["--ca-bundle", self.ca_file] if self.ca_file else []
        cp = subprocess.run(["aws", "--endpoint-url", self.endpoint, *tls, *args], capture_output=True, text=True,
                            env=self.env(), timeout=120)
        if check and cp.returncode != 0:
            raise AssertionError(f"aws {' '.join(args)} failed: {cp.stderr}")
        return cp

    def create_bucket(self, name):
        self.aws("s3", "mb", f"s3://{name}")


def main(argv):
    if len(argv) < 2 or argv[1] != "run" or "--" not in argv:
        print(__doc__)
        return 2
    sep = argv.index("--")
    opts = argv[2:sep]
    npm_dir = opts[opts.index("--npm-dir") + 1] if "--npm-dir" in opts else None
    if problem():
        print("s3_server.py: " + problem() + "; running without POGI_TEST_S3_ENDPOINT", file=sys.stderr)
        return subprocess.call(argv[sep + 1:])
    with S3Server(npm_dir) as s3:
        env = dict(os.environ, POGI_TEST_S3_ENDPOINT=s3.endpoint)
        return subprocess.call(argv[sep + 1:], env=env)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
