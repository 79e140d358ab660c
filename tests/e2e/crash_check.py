"""The checks the crash loop test (test_crash_loop.py) runs after each restart.

check_after_restart(model, client, streams) resolves the requests that were
in flight at the kill against what pogi holds, then compares everything pogi
derives from the items with a recount from a full scan: index entries (index
scans and queries), DescribeTable's item counts and sizes (table and
indexes), counters, and the stream records (each applied change has exactly
its record, in order; no record without its change).
"""

import time

from crash_model import (COUNTERS, G_VALUES, GSI, ITEMS, LSI, CheckFailed, item_size,
                         lsi_projection)


def _retrying(fn, *args, **kw):
    """Reads only: a pooled connection to the killed pogi may fail once."""
    from botocore.exceptions import ClientError
    for attempt in range(5):
        try:
            return fn(*args, **kw)
        except ClientError:
            raise
        except Exception:
            if attempt == 4:
                raise
            time.sleep(0.05)


def _all_pages(call, key, **kw):
    out = []
    while True:
        r = _retrying(call, **kw)
        out += r[key]
        if "LastEvaluatedKey" not in r:
            return out
        kw["ExclusiveStartKey"] = r["LastEvaluatedKey"]


def _by_table_key(items):
    return {(i["pk"]["S"], i["sk"]["N"]): i for i in items}


def _fail(model, message):
    raise CheckFailed(message)


def resolve_items(model, actual):
    """Checks each key against its acknowledged or in-flight state; applies
    the in-flight changes that turn out to be present. Returns the number of
    in-flight transactions applied and the number whose items cannot tell."""
    tx_applied = tx_unknown = 0
    pending_keys = {}
    for w, p in model.pending.items():
        for table, key, new in p.changes:
            pending_keys[key] = w
    for w, p in sorted(model.pending.items()):
        model.stats["in_flight"] += 1
        outcomes = []
        for table, key, new in p.changes:
            old = model.items.get(key)
            got = actual.get(key)
            if old == new:
                outcomes.append(None)  # the change changes nothing: cannot tell
            elif got == new:
                outcomes.append(True)
            elif got == old:
                outcomes.append(False)
            else:
                _fail(model, "worker %d in flight: %s is %r, neither the acknowledged %r nor the "
                             "in-flight %r" % (w, key, got, old, new))
        known = [o for o in outcomes if o is not None]
        if p.atomic and known and any(known) and not all(known):
            _fail(model, "worker %d: an unacknowledged transaction is partly present: %r"
                         % (w, [(c[1], o) for c, o in zip(p.changes, outcomes)]))
        if p.atomic:
            if not known:
                tx_unknown += bool(p.counter_adds)
            elif known[0]:
                tx_applied += 1
        applied_any = False
        for (table, key, new), o in zip(p.changes, outcomes):
            if o:
                model.apply(table, key, new)
                applied_any = True
        if applied_any:
            model.stats["in_flight_applied"] += 1
    # Every other key: exactly its acknowledged state.
    for key in set(model.items) | set(actual):
        if key in pending_keys:
            continue
        if model.items.get(key) != actual.get(key):
            if key in model.items:
                model.stats["losses"] += 1
            _fail(model, "%s is %r after the restart; acknowledged: %r"
                         % (key, actual.get(key), model.items.get(key)))
    if model.items != actual:
        _fail(model, "items differ from the model after resolving the in-flight writes")
    model.stats["in_flight_tx_applied"] += tx_applied
    model.stats["keys_checked"] += sum(len(model.worker_keys(w)) for w in range(model.workers))
    return tx_applied, tx_unknown


def resolve_counters(model, actual, tx_applied, tx_unknown):
    in_flight = {}
    for p in model.pending.values():
        for name in p.counter_adds:
            in_flight[name] = in_flight.get(name, 0) + 1
    for name in set(actual) | set(model.counters) | set(in_flight):
        acked = model.counters.get(name, 0)
        got = actual.get(name, 0)
        lo, hi = acked, acked + in_flight.get(name, 0)
        if name == "tx-count":
            lo, hi = acked + tx_applied, acked + tx_applied + tx_unknown
        if not lo <= got <= hi:
            if got < acked:
                model.stats["losses"] += acked - got
            _fail(model, "counter %s is %d, expected %d..%d (acknowledged increments %d)"
                         % (name, got, lo, hi, acked))
        model.counters[name] = got


def check_indexes(model, client, items):
    gsi_want = {k: i for k, i in items.items() if "g" in i}
    lsi_want = {k: lsi_projection(i) for k, i in items.items() if "l" in i}
    gsi_scan = _by_table_key(_all_pages(client.scan, "Items", TableName=ITEMS, IndexName=GSI))
    if gsi_scan != gsi_want:
        _fail(model, "GSI entries differ from a recount: extra %s, missing %s, changed %s" % _diff(gsi_scan, gsi_want))
    gsi_query = {}
    for g in G_VALUES:
        gsi_query.update(_by_table_key(_all_pages(
            client.query, "Items", TableName=ITEMS, IndexName=GSI, KeyConditionExpression="g = :g",
            ExpressionAttributeValues={":g": {"S": g}})))
    if gsi_query != gsi_want:
        _fail(model, "GSI queries differ from a recount: extra %s, missing %s, changed %s" % _diff(gsi_query, gsi_want))
    lsi_query = {}
    for pk in sorted({k[0] for k in model.worker_keys_all()}):
        lsi_query.update(_by_table_key(_all_pages(
            client.query, "Items", TableName=ITEMS, IndexName=LSI, KeyConditionExpression="pk = :p",
            ExpressionAttributeValues={":p": {"S": pk}})))
    lsi_scan = _by_table_key(_all_pages(client.scan, "Items", TableName=ITEMS, IndexName=LSI))
    for got, how in ((lsi_query, "queries"), (lsi_scan, "scan")):
        if got != lsi_want:
            _fail(model, "LSI %s differ from a recount: extra %s, missing %s, changed %s" % ((how,) + _diff(got, lsi_want)))
    model.stats["index_entries_checked"] += len(gsi_want) + len(lsi_want)
    return gsi_want, lsi_want


def _diff(got, want):
    return (sorted(set(got) - set(want))[:5], sorted(set(want) - set(got))[:5],
            sorted(k for k in set(got) & set(want) if got[k] != want[k])[:5])


def check_described_counts(model, client, items, counters, gsi_want, lsi_want):
    t = _retrying(client.describe_table, TableName=ITEMS)["Table"]
    want = (len(items), sum(item_size(i) for i in items.values()))
    if (t["ItemCount"], t["TableSizeBytes"]) != want:
        _fail(model, "DescribeTable %s shows %d items, %d bytes; a recount: %d, %d"
                     % (ITEMS, t["ItemCount"], t["TableSizeBytes"], *want))
    for indexes, entries in ((t["GlobalSecondaryIndexes"], gsi_want), (t["LocalSecondaryIndexes"], lsi_want)):
        d = indexes[0]
        want = (len(entries), sum(item_size(i) for i in entries.values()))
        if (d["ItemCount"], d["IndexSizeBytes"]) != want:
            _fail(model, "DescribeTable index %s shows %d entries, %d bytes; a recount: %d, %d"
                         % (d["IndexName"], d["ItemCount"], d["IndexSizeBytes"], *want))
    t = _retrying(client.describe_table, TableName=COUNTERS)["Table"]
    want = (len(counters), sum(item_size(i) for i in counters.values()))
    if (t["ItemCount"], t["TableSizeBytes"]) != want:
        _fail(model, "DescribeTable %s shows %d items, %d bytes; a recount: %d, %d"
                     % (COUNTERS, t["ItemCount"], t["TableSizeBytes"], *want))


def read_new_records(model, client, streams, table):
    """The records of `table`'s stream not read before, in order."""
    arn = _retrying(client.describe_table, TableName=table)["Table"]["LatestStreamArn"]
    shards, start = [], None
    while True:
        kw = {"StreamArn": arn}
        if start:
            kw["ExclusiveStartShardId"] = start
        d = _retrying(streams.describe_stream, **kw)["StreamDescription"]
        shards += d["Shards"]
        start = d.get("LastEvaluatedShardId")
        if not start:
            break
    records = []
    for s in shards:  # oldest first: a child's records follow its parent's
        sid = s["ShardId"]
        if sid in model.positions:
            it = _retrying(streams.get_shard_iterator, StreamArn=arn, ShardId=sid,
                           ShardIteratorType="AFTER_SEQUENCE_NUMBER",
                           SequenceNumber=model.positions[sid])["ShardIterator"]
        else:
            it = _retrying(streams.get_shard_iterator, StreamArn=arn, ShardId=sid,
                           ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
        while it:
            r = _retrying(streams.get_records, ShardIterator=it, Limit=1000)
            records += r["Records"]
            if r["Records"]:
                model.positions[sid] = r["Records"][-1]["dynamodb"]["SequenceNumber"]
            elif "EndingSequenceNumber" not in s["SequenceNumberRange"]:
                break  # the open shard: caught up
            it = r.get("NextShardIterator")
    return records


def check_streams(model, client, streams):
    for r in read_new_records(model, client, streams, ITEMS):
        d = r["dynamodb"]
        key = (d["Keys"]["pk"]["S"], d["Keys"]["sk"]["N"])
        owed = model.owed.get((ITEMS, key))
        if not owed:
            _fail(model, "a stream record of %s (%s) with no change behind it" % (key, r["eventName"]))
        old, new = owed.pop(0)
        event = "INSERT" if old is None else "REMOVE" if new is None else "MODIFY"
        if (r["eventName"], d.get("OldImage"), d.get("NewImage")) != (event, old, new):
            _fail(model, "stream record of %s is %s %r -> %r; the change was %s %r -> %r"
                         % (key, r["eventName"], d.get("OldImage"), d.get("NewImage"), event, old, new))
        model.stats["stream_records_checked"] += 1
    missing = {k: v for k, v in model.owed.items() if v}
    if missing:
        k = sorted(missing)[0]
        _fail(model, "%d applied changes have no stream record, e.g. %s: %r" % (
            sum(len(v) for v in missing.values()), k[1], missing[k][0]))
    for r in read_new_records(model, client, streams, COUNTERS):
        name = r["dynamodb"]["Keys"]["pk"]["S"]
        n = int(r["dynamodb"]["NewImage"]["n"]["N"])
        if n != model.counter_seen.get(name, 0) + 1:
            _fail(model, "stream record of counter %s shows %d after %d" % (name, n, model.counter_seen.get(name, 0)))
        model.counter_seen[name] = n
        model.stats["stream_records_checked"] += 1
    for name, n in model.counters.items():
        if model.counter_seen.get(name, 0) != n:
            _fail(model, "counter %s is %d but its stream records reach %d" % (name, n, model.counter_seen.get(name, 0)))


def check_after_restart(model, client, streams):
    items = _by_table_key(_all_pages(client.scan, "Items", TableName=ITEMS, ConsistentRead=True))
    counter_items = {i["pk"]["S"]: i for i in _all_pages(client.scan, "Items", TableName=COUNTERS,
                                                         ConsistentRead=True)}
    tx_applied, tx_unknown = resolve_items(model, items)
    resolve_counters(model, {k: int(i["n"]["N"]) for k, i in counter_items.items()}, tx_applied, tx_unknown)
    model.pending.clear()
    gsi_want, lsi_want = check_indexes(model, client, items)
    check_described_counts(model, client, items, counter_items, gsi_want, lsi_want)
    check_streams(model, client, streams)
