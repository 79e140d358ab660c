"""What the global table tests share: the one-key table they make, and
waiting for replication to bring an item's `v` to a region."""

import time

KEY = [{"AttributeName": "pk", "KeyType": "HASH"}]
ATTRS = [{"AttributeName": "pk", "AttributeType": "S"}]


def wait_item(ddb, name, key, want, timeout=10):
    """Polls GetItem until the item's `v` is `want` (None: the item is gone),
    at most `timeout` seconds; returns the item last read (None: none). The
    default is 50 times the default replication lag (200 ms,
    docs/operations.md)."""
    deadline = time.time() + timeout
    while True:
        item = ddb.get_item(TableName=name, Key={"pk": {"S": key}}, ConsistentRead=True).get("Item")
        got = item["v"]["S"] if item else None
        if got == want or time.time() > deadline:
            return item
        time.sleep(0.05)


def wait_value(ddb, name, key, want, timeout=10):
    """wait_item's item's `v` (None: no item)."""
    item = wait_item(ddb, name, key, want, timeout)
    return item["v"]["S"] if item else None
