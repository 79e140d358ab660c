"""The web console in a real browser: Debian's chromium, headless, driven by
chromium-driver through python3-selenium (`./dev test` installs all three; a
missing one fails this test, it never skips). Loads the console, creates a
table, adds and edits an item (a refused write shows DynamoDB's error),
queries it, sees a boto3 write appear live, advances the clock past a TTL
and sees the item go, restores a snapshot, sees an import listed with its
failure, and looks at a narrow window and the dark scheme; lists a table's
vector indexes and searches one, ranked as a reference search computed here
ranks. Screenshots of the main views go to build/test-artifacts/console/; the
item grid is checked against the item boto3 reads back."""

import json
import os
import shutil
import sys
import time
import unittest

try:
    import selenium  # noqa: F401
except ImportError:
    # A python3 with its own boto3 (pyenv, a venv): Debian's python3-selenium,
    # behind this python's own packages.
    sys.path.append("/usr/lib/python3/dist-packages")
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.chrome.service import Service as ChromeService
from selenium.webdriver.support.ui import Select, WebDriverWait

from harness import POGI_BIN, Server
from vector_fixture import reference, signed_call, vector_index

ARTIFACTS = os.path.join(os.path.dirname(os.path.abspath(POGI_BIN)), "test-artifacts", "console")
# Seconds any one thing may take to appear: no promised time, but the
# slowest is the Live view's poll (every second, console/live.js) and a
# loaded machine's browser; 30 s only says "it never came".
WAIT = 30


def find_browser():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    raise AssertionError("Debian's chromium is not installed (apt-get install chromium chromium-driver)")


def find_driver():
    path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    if not os.path.exists(path):
        raise AssertionError("chromium-driver is not installed (apt-get install chromium-driver)")
    return path


class ConsoleBrowserTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        os.makedirs(ARTIFACTS, exist_ok=True)
        cls.server = Server().start()
        cls.ddb = cls.server.client()
        options = webdriver.ChromeOptions()
        options.binary_location = find_browser()
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--window-size=1280,800", "--disable-extensions", "--no-first-run"):
            options.add_argument(arg)
        try:
            cls.driver = webdriver.Chrome(service=ChromeService(find_driver()), options=options)
        except BaseException:
            cls.server.stop()
            cls.server.cleanup()
            raise
        cls.driver.set_page_load_timeout(30)

    @classmethod
    def tearDownClass(cls):
        try:
            cls.driver.quit()
        finally:
            cls.server.stop()
            cls.server.cleanup()

    # ---- helpers ----------------------------------------------------------

    def wait(self, condition, what):
        try:
            return WebDriverWait(self.driver, WAIT, poll_frequency=0.1,
                                 ignored_exceptions=[StaleElementReferenceException]).until(lambda d: condition())
        except Exception:
            self.screenshot("failed")
            alert = self.driver.find_element(By.ID, "alert")
            raise AssertionError("timed out waiting for %s; page alert: %r; status: %r" % (
                what, alert.text, self.driver.find_element(By.ID, "status").text))

    def q(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def qs(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def texts(self, css):
        """The text of every element `css` selects, read at one moment."""
        return self.driver.execute_script(
            "return [...document.querySelectorAll(arguments[0])].map(e => e.textContent);", css)

    def screenshot(self, name):
        path = os.path.join(ARTIFACTS, name + ".png")
        self.driver.save_screenshot(path)
        return path

    def fill(self, css, text):
        field = self.q(css)
        field.clear()
        field.send_keys(text)

    def set_editor(self, item):
        # The textarea takes the JSON at once (typing it key by key is slow),
        # then an input event runs the page's validation as typing would.
        self.driver.execute_script(
            "const t = document.getElementById('editor-text'); t.value = arguments[0];"
            "t.dispatchEvent(new Event('input'));", json.dumps(item) if not isinstance(item, str) else item)

    def go(self, view):
        self.q('nav a[data-view="%s"]' % view).click()
        self.wait(lambda: self.q("#view-" + view).is_displayed(), "the %s view" % view)

    def grid(self, grid="#items-grid"):
        """A grid (the items grid unless named) as a list of {column: cell
        text}, read from the DOM at one moment (the page redraws it as answers
        come)."""
        return self.driver.execute_script("""
            const heads = [...document.querySelectorAll(arguments[0] + ' thead th')].map(th => th.textContent);
            return [...document.querySelectorAll(arguments[0] + ' tbody tr')].map(tr => {
              const row = {};
              [...tr.children].forEach((td, i) => {
                if (td.dataset.attr || td.dataset.lead) row[heads[i]] = td.innerText;
              });
              return row;
            });""", grid)

    def grid_row(self, pk):
        for r in self.grid():
            if r.get("pk") == pk:
                return r
        return None

    def scan(self):
        self.go("items")
        Select(self.q("#items-table")).select_by_value(self.table)
        self.q('#items-form input[value="scan"]').click()
        before = self.q("#items-summary").text
        self.driver.execute_script("document.getElementById('items-summary').textContent = ''")
        self.q("#items-run").click()
        self.wait(lambda: self.q("#items-summary").text.startswith("Scan"), "the scan (was %r)" % before)

    def confirm(self):
        self.wait(lambda: self.q("#confirm").is_displayed(), "the confirmation")
        self.q("#confirm-yes").click()

    # ---- the test ---------------------------------------------------------

    def test_console_end_to_end(self):
        started = time.monotonic()
        d = self.driver
        self.table = "console-e2e"
        d.get(self.page_url())
        self.wait(lambda: self.q("#h-tables").is_displayed(), "the console")
        self.assertEqual(d.title, "pogi console")
        # The view's heading has the focus (keyboard and screen reader users
        # land on what changed).
        self.assertEqual(d.switch_to.active_element.get_attribute("id"), "h-tables")
        # Every control has a label a screen reader announces.
        unlabelled = d.execute_script("""
            return [...document.querySelectorAll('input, select, textarea')]
              .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label'))
              .map(e => e.id || e.name);""")
        self.assertEqual(unlabelled, [])
        # The skip link shows when focused, and the keyboard goes on to the views.
        d.execute_script("document.querySelector('.skip').focus()")
        self.assertGreaterEqual(self.q(".skip").location["x"], 0)
        ActionChains(d).send_keys(Keys.TAB).perform()
        self.assertEqual(d.switch_to.active_element.get_attribute("data-view"), "tables")
        ActionChains(d).send_keys(Keys.TAB).perform()
        self.assertEqual(d.switch_to.active_element.get_attribute("data-view"), "items")

        # ---- create a table with a TTL attribute and a stream
        self.fill('#create-table input[name="name"]', self.table)
        Select(self.q('#create-table select[name="stream"]')).select_by_value("NEW_AND_OLD_IMAGES")
        self.fill('#create-table input[name="ttl"]', "expires")
        self.q('#create-table button[type="submit"]').click()
        row = '#tables-grid tr[data-table="%s"]' % self.table
        self.wait(lambda: self.qs(row), "the new table's row")
        cells = [td.text for td in self.q(row).find_elements(By.CSS_SELECTOR, "td")]
        self.assertIn("ACTIVE", cells)
        self.assertIn("NEW_AND_OLD_IMAGES", cells)
        self.assertIn("expires", cells)
        self.assertEqual(self.ddb.describe_table(TableName=self.table)["Table"]["TableStatus"], "ACTIVE")
        self.screenshot("tables")

        # ---- add an item: validated before sending, DynamoDB's refusal shown
        self.q(row + " a").click()
        self.wait(lambda: self.q("#view-items").is_displayed(), "the items view")
        self.q("#items-add").click()
        self.wait(lambda: self.q("#editor").is_displayed(), "the item editor")
        self.assertEqual(d.switch_to.active_element.get_attribute("id"), "editor-text")
        self.set_editor('{"pk": {"S": "alpha"},')
        self.assertIn("Not JSON", self.q("#editor-error").text)
        self.assertFalse(self.q("#editor-save").is_enabled())
        self.set_editor({"pk": {"S": "alpha"}, "qty": {"N": "three"}})
        self.assertIn("not a number", self.q("#editor-error").text)
        self.set_editor({"pk": {"S": ""}, "color": {"S": "blue"}})  # passes the page, not DynamoDB
        self.q("#editor-save").click()
        self.wait(lambda: "ValidationException" in self.q("#editor-error").text, "DynamoDB's refusal")
        self.assertIn("empty string", self.q("#editor-error").text)
        self.set_editor({"pk": {"S": "alpha"}, "color": {"S": "blue"}, "qty": {"N": "3"}})
        self.q("#editor-save").click()
        self.wait(lambda: not self.q("#editor").is_displayed(), "the editor to close")
        self.wait(lambda: (self.grid_row("alpha") or {}).get("color") == "blue", "alpha in the grid")

        # ---- edit it
        self.q('#items-grid button[aria-label="Open item alpha"]').click()
        self.wait(lambda: self.q("#editor").is_displayed(), "the editor")
        shown = json.loads(self.q("#editor-text").get_attribute("value"))
        self.assertEqual(shown, {"pk": {"S": "alpha"}, "color": {"S": "blue"}, "qty": {"N": "3"}})
        shown["color"] = {"S": "green"}
        shown["tags"] = {"SS": ["a", "b"]}
        self.set_editor(shown)
        self.q("#editor-save").click()
        self.wait(lambda: (self.grid_row("alpha") or {}).get("color") == "green", "the edit in the grid")
        self.assertEqual(self.ddb.get_item(TableName=self.table, Key={"pk": {"S": "alpha"}})["Item"]["color"],
                         {"S": "green"})

        # ---- query it
        self.ddb.put_item(TableName=self.table, Item={"pk": {"S": "other"}, "color": {"S": "grey"}})
        self.q('#items-form input[value="query"]').click()
        self.fill("#q-pk", "alpha")
        self.q("#items-run").click()
        self.wait(lambda: self.q("#items-summary").text.startswith("Query") and len(self.grid()) == 1,
                  "the query's one item")
        # The grid shows what the table holds: every attribute boto3 reads
        # back, in the cells the page drew.
        stored = self.ddb.get_item(TableName=self.table, Key={"pk": {"S": "alpha"}})["Item"]
        row = self.grid()[0]
        self.assertEqual(row["pk"], stored["pk"]["S"])
        self.assertEqual(row["color"], stored["color"]["S"])
        self.assertEqual(row["qty"], stored["qty"]["N"])
        self.assertEqual(row["tags"], "{" + ", ".join(sorted(stored["tags"]["SS"])) + "}")
        cell = self.q('#items-grid td[data-attr="color"]')
        self.assertTrue(cell.is_displayed())
        self.assertTrue(d.execute_script(
            "const r = arguments[0].getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight;", cell))
        self.screenshot("items-query")
        self.q("#items-raw").click()
        self.assertIn('"green"', self.q("#items-json").text)
        self.screenshot("items-json")
        self.q("#items-raw").click()

        # ---- a change made by boto3 appears live
        self.go("live")
        self.ddb.put_item(TableName=self.table, Item={"pk": {"S": "from-boto3"}, "color": {"S": "red"}})
        self.wait(lambda: any("from-boto3" in li.text and "red" in li.text for li in self.qs("#changes li")),
                  "the boto3 write in the change feed")
        first = self.q("#changes li")
        self.assertEqual(first.get_attribute("data-event"), "INSERT")
        # The tail and the rates start when the Live view first asks: a read
        # made from now on shows in both.
        deadline = time.monotonic() + WAIT
        while True:
            self.ddb.get_item(TableName=self.table, Key={"pk": {"S": "alpha"}})
            tail = any("GetItem" in t for t in self.texts("#requests li"))
            rates = "GetItem" in self.texts("#rates td")
            if tail and rates:
                break
            if time.monotonic() > deadline:
                self.screenshot("failed")
                self.fail("no GetItem in the request tail (%s) or the rates (%s)" % (tail, rates))
            time.sleep(0.3)
        self.screenshot("live")

        # ---- advance the clock past a TTL: the item goes
        now = self.server_clock()
        self.ddb.put_item(TableName=self.table, Item={"pk": {"S": "temp"}, "expires": {"N": str(int(now) + 60)}})
        self.scan()
        self.assertIsNotNone(self.grid_row("temp"))
        self.go("test")
        self.wait(lambda: self.q("#clock-now").text != "?", "the clock")
        self.fill("#clock-amount", "2")
        Select(self.q("#clock-unit")).select_by_value("3600")
        self.q("#clock-advance").click()
        self.wait(lambda: "Clock advanced" in self.q("#status").text, "the clock to advance")
        self.assertGreaterEqual(self.server_clock(), now + 7200)
        self.q("#clock-freeze").click()
        self.wait(lambda: self.q("#clock-frozen").is_displayed(), "the frozen badge")
        self.q("#clock-resume").click()
        self.wait(lambda: not self.q("#clock-frozen").is_displayed(), "the clock to run again")
        self.scan()
        self.assertIsNone(self.grid_row("temp"))
        self.assertIsNotNone(self.grid_row("alpha"))
        self.assertNotIn("Item", self.ddb.get_item(TableName=self.table, Key={"pk": {"S": "temp"}}))
        self.go("live")
        self.wait(lambda: any("temp" in li.text and li.get_attribute("data-event") == "REMOVE"
                              for li in self.qs("#changes li")), "the TTL deletion in the change feed")

        # ---- save a snapshot, lose an item, restore the snapshot
        self.go("test")
        self.fill("#snapshot-name", "before-delete")
        self.q("#snapshot-name").send_keys(Keys.ENTER)  # the keyboard submits forms
        self.wait(lambda: self.qs('#snapshots li[data-snapshot="before-delete"]'), "the snapshot in the list")
        # Fault rules: add one, see it listed, clear them all.
        self.fill('#fault-form input[name="operations"]', "BatchGetItem")
        self.fill('#fault-form input[name="tables"]', "no-such-table")
        self.fill('#fault-form input[name="error"]', "ProvisionedThroughputExceededException")
        self.q('#fault-form button[type="submit"]').click()
        self.wait(lambda: any("BatchGetItem" in li.text for li in self.qs("#faults li")), "the fault rule")
        # An import from a bucket that does not exist, listed with its failure.
        imp = self.ddb.import_table(
            S3BucketSource={"S3Bucket": "no-such-bucket"}, InputFormat="DYNAMODB_JSON",
            TableCreationParameters={"TableName": "console-import", "BillingMode": "PAY_PER_REQUEST",
                                     "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                                     "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]})
        arn = imp["ImportTableDescription"]["ImportArn"]

        def import_listed():
            self.q("#jobs-refresh").click()
            return any(li.get_attribute("data-job") == arn and li.get_attribute("data-status") == "FAILED"
                       and "S3NoSuchBucket" in li.text for li in self.qs("#jobs li"))
        self.wait(import_listed, "the failed import in the jobs list")
        self.screenshot("test-controls")
        self.q("#faults-clear").click()
        self.wait(lambda: not self.qs("#faults li"), "the rules to be cleared")
        self.ddb.delete_item(TableName=self.table, Key={"pk": {"S": "alpha"}})
        self.scan()
        self.assertIsNone(self.grid_row("alpha"))
        self.go("test")
        self.wait(lambda: self.qs('#snapshots li[data-snapshot="before-delete"] button'), "the restore button")
        self.q('button[aria-label="Restore snapshot before-delete"]').click()
        self.confirm()
        self.wait(lambda: "restored" in self.q("#status").text, "the restore")
        self.scan()
        self.assertEqual((self.grid_row("alpha") or {}).get("color"), "green")
        self.assertEqual(self.ddb.get_item(TableName=self.table, Key={"pk": {"S": "alpha"}})["Item"]["color"],
                         {"S": "green"})

        # ---- delete an item from its editor (after a confirmation)
        self.q('#items-grid button[aria-label="Open item other"]').click()
        self.wait(lambda: self.q("#editor").is_displayed(), "the editor")
        self.q("#editor-delete").click()
        self.confirm()
        self.wait(lambda: self.grid_row("alpha") and not self.grid_row("other"), "the item to go")
        self.assertNotIn("Item", self.ddb.get_item(TableName=self.table, Key={"pk": {"S": "other"}}))

        # ---- PartiQL
        self.go("partiql")
        self.fill("#partiql-statement", "SELECT * FROM \"%s\" WHERE pk = 'alpha'" % self.table)
        self.q('#partiql-form button[type="submit"]').click()
        self.wait(lambda: any(td.text == "green" for td in self.qs("#partiql-grid td")), "the statement's result")
        self.screenshot("partiql")

        # ---- a narrow window: nothing wider than it but the scrolling grids
        self.go("tables")
        d.set_window_size(420, 800)
        time.sleep(0.2)
        overflow = d.execute_script("return document.documentElement.scrollWidth - innerWidth")
        self.assertLessEqual(overflow, 1)
        self.screenshot("tables-narrow")
        d.set_window_size(1280, 800)

        # ---- the dark scheme follows the browser's preference
        light = d.execute_script("return getComputedStyle(document.body).backgroundColor")
        d.execute_cdp_cmd("Emulation.setEmulatedMedia",
                          {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        dark = d.execute_script("return getComputedStyle(document.body).backgroundColor")
        self.assertNotEqual(light, dark)
        self.screenshot("tables-dark")
        d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})

        # ---- a table deleted with confirmation
        self.q('button[aria-label="Delete %s"]' % self.table).click()
        self.confirm()
        self.wait(lambda: not self.qs('#tables-grid tr[data-table="%s"]' % self.table), "the table to go")
        self.assertNotIn(self.table, self.ddb.list_tables()["TableNames"])

        for name in ("tables", "items-query", "live", "test-controls"):
            self.assertGreater(os.path.getsize(os.path.join(ARTIFACTS, name + ".png")), 5000, name)
        print("\nconsole end to end: %.1f s" % (time.monotonic() - started), file=sys.stderr)

    def test_credentials_asked_with_check_signatures(self):
        # The console is no way around --check-signatures: the page asks for
        # the credentials and shows nothing until they are right.
        args = ["--check-signatures", "--access-key-id", "AKBROWSER", "--secret-access-key", "browser-secret"]
        with Server(extra_args=args) as server:
            import boto3
            ddb = boto3.client("dynamodb", endpoint_url=server.endpoint, region_name="us-east-1",
                               aws_access_key_id="AKBROWSER", aws_secret_access_key="browser-secret")
            ddb.create_table(TableName="signed-table", BillingMode="PAY_PER_REQUEST",
                             AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                             KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
            self.driver.get(server.endpoint + "/_pogi/")
            self.wait(lambda: self.q("#login").is_displayed(), "the credentials dialog")
            self.assertFalse(self.qs('#tables-grid tr[data-table="signed-table"]'))
            self.fill("#login-key", "AKBROWSER")
            self.fill("#login-secret", "a guess")
            self.q("#login-ok").click()
            self.wait(lambda: self.q("#login").is_displayed() and "secret" in self.q("#login-error").text,
                      "the refusal of a wrong secret")
            self.assertFalse(self.qs('#tables-grid tr[data-table="signed-table"]'))
            self.screenshot("credentials")
            self.fill("#login-secret", "browser-secret")
            self.q("#login-ok").click()
            self.wait(lambda: self.qs('#tables-grid tr[data-table="signed-table"]'), "the tables once signed in")
            self.assertFalse(self.q("#login").is_displayed())

    def test_vector_search(self):
        # botocore has no VectorIndexes nor SearchVectors: the table is made
        # with a signed request of its own; the items are ordinary writes.
        d = self.driver
        table = "console-vectors"
        status, body = signed_call(self.server, "CreateTable", {
            "TableName": table, "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                     {"AttributeName": "tenant", "AttributeType": "S"},
                                     {"AttributeName": "color", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "VectorIndexes": [vector_index("by-cosine", "emb", 3, "COSINE"),
                              vector_index("by-tenant", "emb", 3, "EUCLIDEAN",
                                           schema=[("tenant", "HASH"), ("color", "INLINE_FILTER")])]})
        self.assertEqual(status, 200, body)
        vectors = {"k1": [1, 0, 0], "k2": [0.9, 0.1, 0.05], "k3": [0.2, 0.9, 0.1], "k4": [-0.5, 0.25, 0.75],
                   "k5": [0.6, 0.6, 0.1], "k6": [0.1, 0.2, -1], "k7": [0.8, 0.3, 0.4]}
        tenant = {k: "t%d" % (i % 2) for i, k in enumerate(vectors)}
        color = {k: ("red", "blue", "red")[i % 3] for i, k in enumerate(vectors)}
        for k, vec in vectors.items():
            self.ddb.put_item(TableName=table, Item={
                "pk": {"S": k}, "emb": {"L": [{"N": str(x)} for x in vec]}, "title": {"S": "title " + k},
                "tenant": {"S": tenant[k]}, "color": {"S": color[k]}})

        d.get(self.page_url())
        self.go("vectors")
        self.wait(lambda: self.qs('#vectors-table option[value="%s"]' % table), "the table in the list")
        Select(self.q("#vectors-table")).select_by_value(table)
        # Each index as DescribeTable describes it.
        indexes = {r["Index"]: r for r in self.index_rows()}
        self.assertEqual(indexes["by-cosine"], {
            "Index": "by-cosine", "Vector attribute": "emb", "Dimensions": "3", "Distance": "COSINE",
            "Search schema": "none", "Status": "ACTIVE", "Backfilling": "no", "Items": "7"})
        self.assertEqual(indexes["by-tenant"]["Search schema"], "tenant (HASH), color (INLINE_FILTER)")
        self.assertEqual(indexes["by-tenant"]["Distance"], "EUCLIDEAN")

        # ---- a pasted vector: the top 4 under COSINE
        query = [0.7, 0.2, 0.3]
        Select(self.q("#vectors-index")).select_by_value("by-cosine")
        self.fill("#vectors-topk", "4")
        self.fill("#vectors-vector", json.dumps(query))
        self.search()
        self.assertRanked(reference("COSINE", query, vectors, 4))
        row = self.grid("#vectors-grid")[0]
        self.assertEqual(sorted(row), ["Rank", "Score", "color", "pk", "tenant", "title"])
        self.assertEqual(row["title"], "title " + row["pk"])
        self.screenshot("vectors")

        # ---- an item's own vector, in tenant t0's partition, red only, projected
        Select(self.q("#vectors-index")).select_by_value("by-tenant")
        self.q('#vectors-form input[value="item"]').click()
        self.assertFalse(self.q("#vectors-vector").is_displayed())
        self.fill("#vectors-key", json.dumps({"pk": {"S": "k3"}}))
        self.fill("#vectors-topk", "10")
        self.fill('#vectors-schema input[data-attr="tenant"]', "t0")
        self.fill('#vectors-schema input[data-attr="color"]', "red")
        self.fill("#vectors-projection", "pk, color")
        self.search()
        stored = self.ddb.get_item(TableName=table, Key={"pk": {"S": "k3"}})["Item"]["emb"]["L"]
        red_t0 = {k: v for k, v in vectors.items() if tenant[k] == "t0" and color[k] == "red"}
        self.assertGreaterEqual(len(red_t0), 2)
        self.assertRanked(reference("EUCLIDEAN", [float(n["N"]) for n in stored], red_t0, 10))
        self.assertEqual(sorted(self.grid("#vectors-grid")[0]), ["Rank", "Score", "color", "pk"])
        self.assertIn("emb of pk=k3", self.q("#vectors-summary").text)
        self.screenshot("vectors-item")

        # ---- DynamoDB's refusal, as it said it: a vector of 2 numbers for 3 dimensions
        self.q('#vectors-form input[value="paste"]').click()
        self.fill("#vectors-vector", "[0.5, 0.5]")
        self.q("#vectors-run").click()
        self.wait(lambda: self.q("#alert").is_displayed(), "the refusal")
        _, body = signed_call(self.server, "SearchVectors", {
            "TableName": table, "IndexName": "by-tenant", "SearchVector": [{"N": "0.5"}, {"N": "0.5"}], "TopK": 10,
            "SearchConditionExpression": "tenant = :t", "ExpressionAttributeValues": {":t": {"S": "t0"}}})
        self.assertEqual(body["message"], "Input search vector dimension 2 does not match vector index dimension 3")
        self.assertEqual(self.q("#alert").text, "ValidationException: " + body["message"])
        self.assertEqual(self.grid("#vectors-grid"), [])
        self.screenshot("vectors-refused")
        # The page's own check: not a list of numbers, never sent.
        self.fill("#vectors-vector", '["a"]')
        self.q("#vectors-run").click()
        self.wait(lambda: "JSON array of numbers" in self.q("#alert").text, "the page's refusal")

        # A narrow window: nothing wider than it but the scrolling grids.
        d.set_window_size(420, 800)
        time.sleep(0.2)
        self.assertLessEqual(d.execute_script("return document.documentElement.scrollWidth - innerWidth"), 1)
        self.screenshot("vectors-narrow")
        d.set_window_size(1280, 800)

    def index_rows(self):
        return self.driver.execute_script("""
            const heads = [...document.querySelectorAll('#vector-indexes thead th')].map(th => th.textContent);
            return [...document.querySelectorAll('#vector-indexes tbody tr')].map(tr => {
              const row = {};
              [...tr.children].forEach((cell, i) => { row[heads[i]] = cell.textContent; });
              return row;
            });""")

    def search(self):
        self.driver.execute_script("document.getElementById('vectors-summary').textContent = ''")
        self.q("#vectors-run").click()
        self.wait(lambda: self.q("#vectors-summary").text.startswith("SearchVectors"), "the search's results")
        self.assertFalse(self.q("#alert").is_displayed())

    def assertRanked(self, expected):
        """The results grid ranks as `expected` ([(pk, score)], best first) does."""
        rows = self.grid("#vectors-grid")
        self.assertEqual([(r["Rank"], r["pk"]) for r in rows], [(str(i + 1), k) for i, (k, _) in enumerate(expected)])
        for r, (_, score) in zip(rows, expected):
            self.assertAlmostEqual(float(r["Score"]), score, delta=1e-9)

    def page_url(self):
        return self.server.endpoint + "/_pogi/"

    def server_clock(self):
        conn = self.server.connection()
        try:
            conn.request("POST", "/_pogi/api/admin/GetClock", body="{}", headers={"Content-Type": "application/json"})
            return json.loads(conn.getresponse().read())["Now"]
        finally:
            conn.close()


if __name__ == "__main__":
    unittest.main()
