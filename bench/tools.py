"""The bench's tools, installed from Debian's packages when missing (ab, wrk,
g++, strip; node and npm for the npm peers, a Java runtime for DynamoDB
Local), and the null server compiled from bench/null_server.cc."""

import os
import shutil
import subprocess
import sys

from common import BUILD_DIR, HERE, log

def apt_install(packages):
    if not packages:
        return
    cmd = ["apt-get"]
    if os.geteuid() != 0:
        if not shutil.which("sudo"):
            sys.exit(f"bench: missing {packages}; install them (apt-get) or "
                     "run as root")
        cmd = ["sudo", "apt-get"]
    log(f"installing {' '.join(packages)} from Debian's packages")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(cmd + ["update", "-q"], check=True, env=env,
                   stdout=subprocess.DEVNULL)
    subprocess.run(cmd + ["install", "-y", "-q", *packages], check=True,
                   env=env, stdout=subprocess.DEVNULL)


def ensure_tools(wanted):
    """`wanted`: the names of the columns this run wants."""
    missing = [pkg for tool, pkg in (("ab", "apache2-utils"), ("wrk", "wrk"),
                                     ("g++", "g++"), ("strip", "binutils"))
               if not shutil.which(tool)]
    npm_peers = {"dynalite", "dynalite-path", "ddb-local", "ddb-local-mem"}
    if wanted & npm_peers and not (shutil.which("node")
                                   and shutil.which("npm")):
        missing += ["nodejs", "npm"]
    if wanted & {"ddb-local", "ddb-local-mem"} and not shutil.which("java"):
        missing.append("openjdk-17-jre-headless")
    apt_install(sorted(set(missing)))


def build_null_server():
    src = os.path.join(HERE, "null_server.cc")
    out = os.path.join(BUILD_DIR, "null_server")
    if (not os.path.exists(out)
            or os.path.getmtime(out) < os.path.getmtime(src)):
        os.makedirs(BUILD_DIR, exist_ok=True)
        log("compiling bench/null_server.cc")
        subprocess.run(["g++", "-O2", "-std=c++20", "-o", out, src],
                       check=True)
    return out


