"""Compares pogi's answer to dynalite's, and sorts the differences into
allow-listed (reviewed: today's DynamoDB differs from dynalite's 2020 record,
or dynalite lacks the rule), known (in the baseline of differences pogi still
has) and new.

Classes, from the least to the most different:
  agree           same status, __type and message (both successes agree; a
                  constraint list's entries in any order, see same_message)
  differ-message  same status and __type, another message
  differ-type     same status, another __type
  differ-status   another HTTP status
"""
import fnmatch
import json
import re

CLASSES = ("agree", "differ-message", "differ-type", "differ-status")


_LIST = re.compile(r"^(\d+) validation errors? detected: (.*)$", re.S)


def same_message(a, b):
    """Equal messages, where a constraint list ("2 validation errors detected:
    x; y") counts as a set: the order of its entries is not significant in
    either record of DynamoDB (behaviours.md V2), and dynalite lists them in
    its own table's order."""
    if a == b:
        return True
    ma, mb = _LIST.match(a or ""), _LIST.match(b or "")
    if not ma or not mb or ma.group(1) != mb.group(1):
        return False
    return sorted(ma.group(2).split("; ")) == sorted(mb.group(2).split("; "))


def classify(pogi, dynalite):
    if pogi.status != dynalite.status:
        return "differ-status"
    if pogi.type != dynalite.type:
        return "differ-type"
    if not same_message(pogi.message, dynalite.message):
        return "differ-message"
    return "agree"


class AllowList:
    """tests/differential/allow_list.json: reviewed differences, each with its reason.

    An entry matches a difference when every one of its given fields matches:
      "variant"           a glob on the variant id ("PutItem:*/range:TableName=*")
      "pogi_type", "dynalite_type"        the short __type, exactly
      "pogi_message", "dynalite_message"  a regular expression searched in the message
      "class"             differ-message, differ-type or differ-status
    and "reason" says why it is allowed (required).
    """

    FIELDS = ("variant", "pogi_type", "dynalite_type", "pogi_message", "dynalite_message", "class")

    def __init__(self, path):
        with open(path) as f:
            doc = json.load(f)
        self.entries = doc["entries"]
        for e in self.entries:
            unknown = set(e) - set(self.FIELDS) - {"reason"}
            if not e.get("reason") or unknown or not any(k in e for k in self.FIELDS):
                raise ValueError("allow-list entry needs a reason and known match fields: %r" % (e,))
            for k in ("pogi_message", "dynalite_message"):
                if k in e:
                    re.compile(e[k])
        self.used = [0] * len(self.entries)

    def match(self, variant_id, cls, pogi, dynalite):
        """The first entry that allows this difference, or None."""
        for i, e in enumerate(self.entries):
            if "variant" in e and not fnmatch.fnmatchcase(variant_id, e["variant"]):
                continue
            if "class" in e and e["class"] != cls:
                continue
            if "pogi_type" in e and e["pogi_type"] != pogi.type:
                continue
            if "dynalite_type" in e and e["dynalite_type"] != dynalite.type:
                continue
            if "pogi_message" in e and not re.search(e["pogi_message"], pogi.message or ""):
                continue
            if "dynalite_message" in e and not re.search(e["dynalite_message"], dynalite.message or ""):
                continue
            self.used[i] += 1
            return e
        return None


def load_baseline(path):
    """{variant id: recorded difference} from known_differences.json ({} when absent)."""
    try:
        with open(path) as f:
            return json.load(f)["differences"]
    except FileNotFoundError:
        return {}


def write_baseline(path, known, ran_ids, differences):
    """The baseline updated by this run: the ids this run sent are replaced by
    what it found (a difference, or nothing when they now agree or are
    allow-listed); the ids it did not send are kept."""
    out = {k: v for k, v in known.items() if k not in ran_ids}
    for d in differences:
        out[d["id"]] = {"class": d["class"], "pogi": d["pogi"], "dynalite": d["dynalite"]}
    doc = {"about": "Differences between pogi and dynalite that are neither fixed nor allow-listed yet, "
                    "written by `run.py --write-baseline`. A variant listed here does not fail the test; "
                    "a difference not listed here does. Fixing one shrinks this file.",
           "differences": dict(sorted(out.items()))}
    with open(path, "w") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
        f.write("\n")
