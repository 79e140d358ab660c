"""AWS Signature Version 4 for DynamoDB JSON requests (stdlib only).

The bench signs one request per operation and replays it with ab and wrk, as
the published recipe does. Signing covers the body, so a replayed request is
valid only with the exact body it was signed with.

    headers = sign_request(host="127.0.0.1:8000", target="PutItem", body=b"{...}")
    # -> {"Content-Type", "X-Amz-Target", "X-Amz-Date", "Authorization"}

Run as a script to print the headers for a body read from stdin:

    echo '{"TableName":"t"}' | python3 sigv4.py 127.0.0.1:8000 DescribeTable
"""

import datetime
import hashlib
import hmac
import sys

CONTENT_TYPE = "application/x-amz-json-1.0"
TARGET_PREFIX = "DynamoDB_20120810."
ACCESS_KEY = "pogi"
SECRET_KEY = "pogi"
REGION = "us-east-1"
SERVICE = "dynamodb"


def _hmac(key, msg):
    return hmac.new(key, msg.encode("utf-8"), hashlib.sha256).digest()


def signing_key(secret, date, region, service):
    """The derived key: HMAC chain over date, region, service, "aws4_request"."""
    k = _hmac(("AWS4" + secret).encode("utf-8"), date)
    k = _hmac(k, region)
    k = _hmac(k, service)
    return _hmac(k, "aws4_request")


def sign(method, host, path, headers, body, *, access_key=ACCESS_KEY,
         secret_key=SECRET_KEY, region=REGION, service=SERVICE, now=None):
    """Returns a copy of `headers` with X-Amz-Date and Authorization added.

    `headers` must not contain Host (it is signed from `host`, which must be
    exactly what the client sends, port included). Every given header is
    signed. `body` is bytes. `path` has no query string.
    """
    now = now or datetime.datetime.now(datetime.timezone.utc)
    amz_date = now.strftime("%Y%m%dT%H%M%SZ")
    date = amz_date[:8]
    out = dict(headers)
    out["X-Amz-Date"] = amz_date
    signed = {k.lower(): " ".join(str(v).split()) for k, v in out.items()}
    signed["host"] = host
    names = sorted(signed)
    canonical_headers = "".join(f"{n}:{signed[n]}\n" for n in names)
    signed_headers = ";".join(names)
    payload_hash = hashlib.sha256(body).hexdigest()
    canonical_request = "\n".join(
        [method, path, "", canonical_headers, signed_headers, payload_hash])
    scope = f"{date}/{region}/{service}/aws4_request"
    string_to_sign = "\n".join([
        "AWS4-HMAC-SHA256", amz_date, scope,
        hashlib.sha256(canonical_request.encode("utf-8")).hexdigest()])
    signature = hmac.new(signing_key(secret_key, date, region, service),
                         string_to_sign.encode("utf-8"),
                         hashlib.sha256).hexdigest()
    out["Authorization"] = (
        f"AWS4-HMAC-SHA256 Credential={access_key}/{scope}, "
        f"SignedHeaders={signed_headers}, Signature={signature}")
    return out


def sign_request(host, target, body, **kw):
    """Signs a DynamoDB POST / with action `target` (e.g. "PutItem")."""
    headers = {"Content-Type": CONTENT_TYPE,
               "X-Amz-Target": TARGET_PREFIX + target}
    return sign("POST", host, "/", headers, body, **kw)


def _self_test():
    # A fixed vector, cross-checked against botocore's SigV4Auth when written.
    now = datetime.datetime(2024, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc)
    body = b'{"TableName":"bench","Item":{"pk":{"S":"k"}}}'
    h = sign_request("127.0.0.1:8000", "PutItem", body, now=now)
    assert h["Authorization"] == (
        "AWS4-HMAC-SHA256 Credential=pogi/20240102/us-east-1/dynamodb/"
        "aws4_request, SignedHeaders=content-type;host;x-amz-date;"
        "x-amz-target, Signature=9cf448d4901ea47ca08a3f1a60cb497616aefdb7441"
        "4ab9c274df3e6eeba019b"), h
    return True


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "--self-test":
        print("ok" if _self_test() else "failed")
        sys.exit(0)
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    data = sys.stdin.buffer.read()
    for k, v in sign_request(sys.argv[1], sys.argv[2], data).items():
        print(f"{k}: {v}")
