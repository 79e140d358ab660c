"""pogi's gRPC services from Python, for the end-to-end tests.

Compiles proto/ with protoc --python_out into a temporary folder at import
time and builds a stub for each service from its descriptors, so no grpc
Python plugin is needed. grpcio, protobuf and protoc are REQUIRED: a missing
one raises here and fails the test run (`./dev test` installs Debian's
python3-grpcio and python3-protobuf).
"""

import atexit
import glob
import importlib
import os
import shutil
import subprocess
import sys
import tempfile

try:
    import grpc  # noqa: F401  (a missing module must fail the run, not skip it)
except ImportError:
    # A python3 with a newer boto3 but no grpcio (pyenv, a venv): Debian's
    # python3-grpcio and python3-protobuf, behind this python's own packages.
    sys.path.append("/usr/lib/python3/dist-packages")
    import grpc  # noqa: F401
import google.protobuf  # noqa: F401
from google.protobuf import descriptor_pb2

HERE = os.path.dirname(os.path.abspath(__file__))
PROTO_ROOT = os.path.normpath(os.path.join(HERE, "..", "..", "proto"))

_GEN = tempfile.mkdtemp(prefix="pogi-e2e-pb-")
atexit.register(shutil.rmtree, _GEN, True)
if not shutil.which("protoc"):
    raise RuntimeError("protoc not found: install protobuf-compiler")
_cp = subprocess.run(["protoc", "-I", PROTO_ROOT, "--python_out", _GEN]
                     + glob.glob(os.path.join(PROTO_ROOT, "pogi", "v1", "*.proto")),
                     capture_output=True, text=True)
if _cp.returncode != 0:
    raise RuntimeError("protoc failed: %s" % _cp.stderr)
sys.path.insert(0, _GEN)
dynamodb_pb2 = importlib.import_module("pogi.v1.dynamodb_pb2")
admin_pb2 = importlib.import_module("pogi.v1.admin_pb2")
pb = dynamodb_pb2
apb = admin_pb2


def service_methods(module, service):
    """[(name, input class, output class, client_streaming, server_streaming)]."""
    fdp = descriptor_pb2.FileDescriptorProto.FromString(module.DESCRIPTOR.serialized_pb)
    classes = {}
    for m in (dynamodb_pb2, admin_pb2):
        for name in m.DESCRIPTOR.message_types_by_name:
            classes["." + m.DESCRIPTOR.package + "." + name] = getattr(m, name)
    out = []
    for s in fdp.service:
        if s.name != service:
            continue
        for meth in s.method:
            out.append((meth.name, classes[meth.input_type], classes[meth.output_type],
                        meth.client_streaming, meth.server_streaming))
    return out


class Stub:
    """stub.Op(request, timeout=...) for every method of a pogi service."""

    def __init__(self, channel, module, service):
        self.methods = {}
        for name, req, resp, cs, ss in service_methods(module, service):
            path = "/%s.%s/%s" % (module.DESCRIPTOR.package, service, name)
            kind = {(False, False): channel.unary_unary, (False, True): channel.unary_stream,
                    (True, False): channel.stream_unary, (True, True): channel.stream_stream}[(cs, ss)]
            fn = kind(path, request_serializer=lambda m: m.SerializeToString(),
                      response_deserializer=resp.FromString)
            self.methods[name] = (req, resp)
            setattr(self, name, fn)


def channel(port, host="127.0.0.1"):
    return grpc.insecure_channel("%s:%d" % (host, port))


def dynamodb(ch):
    return Stub(ch, dynamodb_pb2, "DynamoDB")


def admin(ch):
    return Stub(ch, admin_pb2, "Admin")
