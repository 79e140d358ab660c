"""A throwaway dynalite: the reference the differential test compares pogi with.

dynalite (npm `dynalite@4`) is a Node.js DynamoDB whose validations and
messages were written by recording Amazon DynamoDB's answers, around 2020.
It is installed from the npm registry once per build folder, into
BUILD/npm-dynalite (as tests/s3_server.py installs s3rver), and started on a
free port of 127.0.0.1, in memory, with tables ACTIVE at once (pogi's are).

    d = DynaliteServer().start()
    d.port                 # 127.0.0.1:d.port speaks DynamoDB's JSON protocol
    d.stop()

problem() says why no dynalite can run here (node or npm missing); a failed
npm install (no network) raises RuntimeError with npm's own words.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # tests/: node_server.py, ports.py
import node_server  # noqa: E402
from node_server import NodeServer, problem  # noqa: E402,F401  (problem: why no dynalite can run)

DYNALITE_VERSION = "4"


class DynaliteServer(NodeServer):
    NAME = "dynalite"

    def __init__(self, npm_dir=None):
        super().__init__(node_server.install("dynalite", DYNALITE_VERSION, "cli.js", npm_dir))

    def command(self):
        # --*TableMs 0: no CREATING/DELETING/UPDATING pause, as in pogi.
        return ["node", self.script, "--host", "127.0.0.1", "--port", str(self.port), "--createTableMs", "0",
                "--deleteTableMs", "0", "--updateTableMs", "0"]
