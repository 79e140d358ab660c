"""What the vector index tests share: DynamoDB calls botocore has no shapes
for (botocore 1.43.11 lacks VectorIndexes and SearchVectors), sent as
SigV4-signed requests through botocore's own signer; vector index
definitions; the brute-force reference search, in double precision over the
32-bit floats the index keeps. The JavaScript SDK v3, which has the
commands, is run from node by harness.run_js.
"""

import http.client
import json
import math
import struct

from harness import LOCALHOST, TARGET_PREFIX


def signed_call(server, op, payload, key="pogi-test", secret="pogi-test", region="us-east-1"):
    """One DynamoDB call signed with Signature Version 4; returns (status, parsed body)."""
    from botocore.auth import SigV4Auth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials

    body = json.dumps(payload)
    req = AWSRequest(method="POST", url=server.endpoint + "/", data=body,
                     headers={"Content-Type": "application/x-amz-json-1.0",
                              "X-Amz-Target": TARGET_PREFIX + op})
    SigV4Auth(Credentials(key, secret), "dynamodb", region).add_auth(req)
    conn = http.client.HTTPConnection(LOCALHOST, server.port, timeout=60)
    try:
        conn.request("POST", "/", body=body, headers=dict(req.headers.items()))
        resp = conn.getresponse()
        data = resp.read()
        return resp.status, json.loads(data) if data else None
    finally:
        conn.close()


def vector_index(name, attribute, dimensions, function, projection=None, schema=()):
    """A VectorIndex; schema: (attribute, "HASH" | "INLINE_FILTER") pairs."""
    v = {"IndexName": name, "VectorAttribute": {"AttributeName": attribute}, "Dimensions": dimensions,
         "DistanceFunction": function, "Projection": projection or {"ProjectionType": "ALL"}}
    if schema:
        v["SearchSchema"] = [{"AttributeName": a, "SearchSchemaElementType": t} for a, t in schema]
    return v


def f32(x):
    """x rounded to the nearest 32-bit float, as the index keeps it."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def as_list(vector):
    """A vector as DynamoDB holds it in an item: a list of numbers."""
    return {"L": [{"N": repr(float(x))} for x in vector]}


def as_search_vector(vector):
    return [{"N": repr(float(x))} for x in vector]


F32_MAX = 3.4028234663852886e38


def score(function, query, stored):
    """DynamoDB's Score, in double precision over the 32-bit floats."""
    q = [f32(x) for x in query]
    s = [f32(x) for x in stored]
    if function == "EUCLIDEAN":
        v = math.sqrt(sum((a - b) ** 2 for a, b in zip(q, s)))
    elif function == "DOT_PRODUCT":
        v = sum(a * b for a, b in zip(q, s))
    else:
        qq = sum(a * a for a in q)
        ss = sum(b * b for b in s)
        v = 1.0 if qq == 0 or ss == 0 else min(2.0, max(0.0, 1 - sum(a * b for a, b in zip(q, s)) / math.sqrt(qq * ss)))
    return max(-F32_MAX, min(F32_MAX, v))


def reference(function, query, candidates, k):
    """The exact top k of candidates ({key: vector}): [(key, score)], best first,
    equal scores in key order (pogi's documented tie-break)."""
    scored = [(key, score(function, query, vec)) for key, vec in candidates.items()]
    sign = -1 if function == "DOT_PRODUCT" else 1
    scored.sort(key=lambda ks: (sign * ks[1], ks[0]))
    return scored[:k]
