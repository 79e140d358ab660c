"""The client-side model behind the crash loop test (test_crash_loop.py).

A mixed write load runs against pogi from several threads while pogi is
killed with kill -9. Each thread owns its keys, so the model knows each key's
state exactly up to the one request a thread had in flight when pogi died:
that request may or may not have been applied. After the restart the model
reads what pogi holds, checks that every key is in its acknowledged state or
in the state the in-flight request would have left (a transaction: all its
keys one way or all the other), takes that as the new truth, and then checks
everything derived from the items against a recount: index entries, the
counts and sizes DescribeTable shows, counters, and the stream records.
"""

import random
import threading

ITEMS = "crash-items"  # pk S, sk N; GSI by-g (g, sk), LSI by-l (pk, l); stream NEW_AND_OLD_IMAGES
COUNTERS = "crash-counters"  # pk S; stream NEW_IMAGE
GSI, LSI = "by-g", "by-l"
G_VALUES = ["g%d" % i for i in range(5)]
PARTITIONS_PER_WORKER, SORTS_PER_PARTITION = 3, 12
SHARED_COUNTERS = ["shared-%d" % i for i in range(3)]
TX_COUNTER = "tx-count"  # one more by every committed transaction
BIG = str(10 ** 12)


class CheckFailed(AssertionError):
    pass


# ---- DynamoDB sizes, as pogi counts them (service/value/item.cc) -----------

def _significant_digits(n):
    digits = n.lstrip("-").replace(".", "").lstrip("0").rstrip("0")
    return len(digits) or 1


def value_size(v):
    (t, x), = v.items()
    if t == "S":
        return len(x.encode())
    if t == "N":
        return (_significant_digits(x) + 1) // 2 + 1
    raise ValueError("type %s not used by the crash loop" % t)


def item_size(item):
    return sum(len(name.encode()) + value_size(v) for name, v in item.items())


def create_tables(client):
    client.create_table(
        TableName=ITEMS, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "sk", "AttributeType": "N"},
                              {"AttributeName": "g", "AttributeType": "S"},
                              {"AttributeName": "l", "AttributeType": "N"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                   {"AttributeName": "sk", "KeyType": "RANGE"}],
        GlobalSecondaryIndexes=[{"IndexName": GSI,
                                 "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"},
                                               {"AttributeName": "sk", "KeyType": "RANGE"}],
                                 "Projection": {"ProjectionType": "ALL"}}],
        LocalSecondaryIndexes=[{"IndexName": LSI,
                                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                              {"AttributeName": "l", "KeyType": "RANGE"}],
                                "Projection": {"ProjectionType": "INCLUDE",
                                               "NonKeyAttributes": ["v"]}}],
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})
    client.create_table(
        TableName=COUNTERS, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})


def item_key(pk, sk):
    return (pk, sk)


def lsi_projection(item):
    return {k: item[k] for k in ("pk", "sk", "l", "v") if k in item}


class Pending:
    """The one request a worker had in flight when pogi died.

    changes: [(table, key, new state or None)]; atomic: a transaction (all or
    nothing) rather than independent writes.
    """

    def __init__(self, changes, atomic, counter_adds=()):
        self.changes = changes
        self.atomic = atomic
        self.counter_adds = list(counter_adds)  # shared counters it adds 1 to


class Model:
    def __init__(self, workers):
        self.workers = workers
        self.items = {}  # (pk, sk) -> item (DynamoDB JSON dict); absent keys are missing
        self.counters = {}  # counter name -> acknowledged value
        self.pending = {}  # worker -> Pending
        self.lock = threading.Lock()  # shared counters only
        # Stream records each acknowledged (or resolved) change still owes:
        # (table, key) -> [(old, new)] in commit order.
        self.owed = {}
        self.positions = {}  # shard id -> last sequence number read
        self.counter_seen = {}  # counter -> the last n its stream records showed
        self.stats = {"ops_acked": 0, "items_acked": 0, "in_flight": 0, "in_flight_applied": 0, "in_flight_tx_applied": 0,
                      "keys_checked": 0, "index_entries_checked": 0, "stream_records_checked": 0,
                      "counter_increments_acked": 0, "conditional_failures_expected": 0,
                      "losses": 0}

    # ---- the model of one applied change ---------------------------------

    def apply(self, table, key, new):
        store = self.items if table == ITEMS else None
        if table == ITEMS:
            old = store.get(key)
            if new is None:
                store.pop(key, None)
            else:
                store[key] = new
            if old != new and not (old is None and new is None):
                self.owed.setdefault((ITEMS, key), []).append((old, new))

    def count(self, stat, n=1):
        with self.lock:
            self.stats[stat] += n

    def worker_keys_all(self):
        return [k for w in range(self.workers) for k in self.worker_keys(w)]

    def worker_keys(self, w):
        return [("w%d-p%d" % (w, p), str(s)) for p in range(PARTITIONS_PER_WORKER)
                for s in range(SORTS_PER_PARTITION)]


class Worker(threading.Thread):
    """Writes until pogi stops answering; leaves its in-flight request in model.pending."""

    def __init__(self, model, w, client, stop, seed):
        super().__init__(daemon=True)
        self.model, self.w, self.c, self.stop = model, w, client, stop
        self.rng = random.Random(seed)
        self.n = 0
        self.error = None

    def run(self):
        from botocore.exceptions import ClientError
        try:
            while True:
                op = self.rng.choices(
                    [self.put, self.update, self.delete, self.batch, self.transact,
                     self.private_counter, self.shared_counter],
                    weights=[3, 3, 2, 2, 2, 2, 2])[0]
                self.n += 1
                try:
                    op()
                except ClientError as e:
                    raise CheckFailed("worker %d: unexpected %s" % (self.w, e.response.get("Error")))
                except Exception:
                    if not self.stop.is_set():
                        raise
                    return  # pogi was killed with this request in flight
                self.model.pending.pop(self.w, None)
                self.model.count("ops_acked", 1)
        except BaseException as e:  # reported by the test
            self.error = e

    # ---- items -----------------------------------------------------------

    def version(self):
        return {"S": "%d.%d" % (self.w, self.n)}

    def new_item(self, key):
        item = {"pk": {"S": key[0]}, "sk": {"N": key[1]}, "v": self.version(),
                "filler": {"S": "x" * self.rng.randrange(0, 300)}}
        if self.rng.random() < 0.7:
            item["g"] = {"S": self.rng.choice(G_VALUES)}
        if self.rng.random() < 0.7:
            item["l"] = {"N": str(self.rng.randrange(0, 50))}
        return item

    def key_of(self, key):
        return {"pk": {"S": key[0]}, "sk": {"N": key[1]}}

    def pick(self, k=1):
        return self.rng.sample(self.model.worker_keys(self.w), k)

    def begin(self, changes, atomic=False, counter_adds=()):
        self.model.pending[self.w] = Pending(changes, atomic, counter_adds)

    def acked(self, changes):
        for table, key, new in changes:
            self.model.apply(table, key, new)
        self.model.count("items_acked", len(changes))

    def put(self):
        key, = self.pick()
        item = self.new_item(key)
        changes = [(ITEMS, key, item)]
        self.begin(changes)
        self.c.put_item(TableName=ITEMS, Item=item)
        self.acked(changes)

    def update_plan(self, key):
        """(UpdateItem arguments, the item after it) for `key`."""
        old = self.model.items.get(key)
        new = dict(old) if old else self.key_of(key)
        sets, removes, values = ["v = :v", "filler = :filler"], [], {}
        values[":v"] = self.version()
        values[":filler"] = {"S": "y" * self.rng.randrange(0, 300)}
        new["v"], new["filler"] = values[":v"], values[":filler"]
        for attr in ("g", "l"):
            r = self.rng.random()
            if r < 0.4:
                value = ({"S": self.rng.choice(G_VALUES)} if attr == "g"
                         else {"N": str(self.rng.randrange(0, 50))})
                sets.append("%s = :%s" % (attr, attr))
                values[":" + attr] = value
                new[attr] = value
            elif r < 0.6:
                removes.append(attr)
                new.pop(attr, None)
        expr = "SET " + ", ".join(sets) + (" REMOVE " + ", ".join(removes) if removes else "")
        return {"Key": self.key_of(key), "UpdateExpression": expr,
                "ExpressionAttributeValues": values}, new

    def update(self):
        key, = self.pick()
        args, new = self.update_plan(key)
        changes = [(ITEMS, key, new)]
        self.begin(changes)
        self.c.update_item(TableName=ITEMS, **args)
        self.acked(changes)

    def delete(self):
        """A conditional delete: the model says whether the item is there."""
        from botocore.exceptions import ClientError
        key, = self.pick()
        present = key in self.model.items
        changes = [(ITEMS, key, None)]
        self.begin(changes)
        try:
            self.c.delete_item(TableName=ITEMS, Key=self.key_of(key),
                               ConditionExpression="attribute_exists(pk)")
        except ClientError as e:
            if present or e.response["Error"]["Code"] != "ConditionalCheckFailedException":
                raise
            self.model.count("conditional_failures_expected", 1)
            return
        if not present:
            raise CheckFailed("worker %d: deleting absent %s met its condition" % (self.w, key))
        self.acked(changes)

    def batch(self):
        keys = self.pick(self.rng.randrange(2, 11))
        changes, requests = [], []
        for key in keys:
            if self.rng.random() < 0.3:
                changes.append((ITEMS, key, None))
                requests.append({"DeleteRequest": {"Key": self.key_of(key)}})
            else:
                item = self.new_item(key)
                changes.append((ITEMS, key, item))
                requests.append({"PutRequest": {"Item": item}})
        self.begin(changes)
        r = self.c.batch_write_item(RequestItems={ITEMS: requests})
        if r.get("UnprocessedItems"):
            raise CheckFailed("pogi left items unprocessed: %r" % r["UnprocessedItems"])
        self.acked(changes)

    def transact(self):
        """2-4 item writes and the transaction counter; sometimes a condition
        check the model knows fails, which must leave nothing behind."""
        from botocore.exceptions import ClientError
        keys = self.pick(self.rng.randrange(3, 6))
        check_key, keys = keys[0], keys[1:]
        changes, actions = [], []
        for key in keys:
            r = self.rng.random()
            if r < 0.4:
                item = self.new_item(key)
                changes.append((ITEMS, key, item))
                actions.append({"Put": {"TableName": ITEMS, "Item": item}})
            elif r < 0.8:
                args, new = self.update_plan(key)
                changes.append((ITEMS, key, new))
                actions.append({"Update": dict(TableName=ITEMS, **args)})
            else:
                changes.append((ITEMS, key, None))
                actions.append({"Delete": {"TableName": ITEMS, "Key": self.key_of(key)}})
        actions.append({"Update": {"TableName": COUNTERS, "Key": {"pk": {"S": TX_COUNTER}},
                                   "UpdateExpression": "ADD n :one",
                                   "ExpressionAttributeValues": {":one": {"N": "1"}}}})
        exists = check_key in self.model.items
        fail = self.rng.random() < 0.15
        want = exists != fail
        actions.append({"ConditionCheck": {
            "TableName": ITEMS, "Key": self.key_of(check_key),
            "ConditionExpression": "attribute_exists(pk)" if want else "attribute_not_exists(pk)"}})
        self.begin(changes, atomic=True, counter_adds=[TX_COUNTER])
        try:
            self.c.transact_write_items(TransactItems=actions)
        except ClientError as e:
            if not fail or e.response["Error"]["Code"] != "TransactionCanceledException":
                raise
            self.model.count("conditional_failures_expected", 1)
            return
        if fail:
            raise CheckFailed("worker %d: a transaction whose condition fails committed" % self.w)
        self.acked(changes)
        self.add_counter(TX_COUNTER)

    # ---- counters --------------------------------------------------------

    def add_counter(self, name):
        with self.model.lock:
            self.model.counters[name] = self.model.counters.get(name, 0) + 1
        self.model.count("counter_increments_acked", 1)

    def private_counter(self):
        """ADD with a condition the model decides: n below a random cap."""
        from botocore.exceptions import ClientError
        name = "w%d-c%d" % (self.w, self.rng.randrange(3))
        current = self.model.counters.get(name, 0)
        cap = self.rng.randrange(0, current + 4)
        passes = current == 0 or current < cap  # 0: no item yet, attribute_not_exists(n) holds
        self.begin([], atomic=False, counter_adds=[name] if passes else [])
        try:
            self.c.update_item(TableName=COUNTERS, Key={"pk": {"S": name}},
                               UpdateExpression="ADD n :one",
                               ConditionExpression="attribute_not_exists(n) OR n < :cap",
                               ExpressionAttributeValues={":one": {"N": "1"}, ":cap": {"N": str(cap)}})
        except ClientError as e:
            if passes or e.response["Error"]["Code"] != "ConditionalCheckFailedException":
                raise
            self.model.count("conditional_failures_expected", 1)
            return
        if not passes:
            raise CheckFailed("worker %d: %s=%d passed n < %d" % (self.w, name, current, cap))
        self.add_counter(name)

    def shared_counter(self):
        name = self.rng.choice(SHARED_COUNTERS)
        self.begin([], atomic=False, counter_adds=[name])
        self.c.update_item(TableName=COUNTERS, Key={"pk": {"S": name}},
                           UpdateExpression="ADD n :one SET last_writer = :w",
                           ConditionExpression="attribute_not_exists(n) OR n < :big",
                           ExpressionAttributeValues={":one": {"N": "1"}, ":big": {"N": BIG},
                                                      ":w": {"N": str(self.w)}})
        self.add_counter(name)
