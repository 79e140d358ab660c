// The console's Tables and Items views: the table list, the items grid
// (Query and Scan pages) and the item editor.
"use strict";

// ---------------------------------------------------------------- tables

let tables = {};  // name -> {keys: [{name, type, role}], indexes: [{name, keys}], ttl}

// The type AttributeDefinitions gives the attribute `name`.
function typeOf(defs, name) { return ((defs || []).find(d => d.AttributeName === name) || {}).AttributeType || "S"; }

function keysOf(schema, defs) {
  return (schema || []).map(k => ({ name: k.AttributeName, role: k.KeyType, type: typeOf(defs, k.AttributeName) }));
}

async function describe(name) {
  const d = (await admin("DescribeTable", { TableName: name })).Table;
  const defs = d.AttributeDefinitions;
  const indexes = [...(d.GlobalSecondaryIndexes || []), ...(d.LocalSecondaryIndexes || [])]
    .map(i => ({ name: i.IndexName, keys: keysOf(i.KeySchema, defs) }));
  let ttl = "off";
  try {
    const t = (await ddb("DescribeTimeToLive", { TableName: name })).TimeToLiveDescription || {};
    if (t.TimeToLiveStatus === "ENABLED") ttl = t.AttributeName;
  } catch (e) { /* dropped meanwhile */ }
  return { name, keys: keysOf(d.KeySchema, defs), indexes, ttl, description: d };
}

async function loadTables() {
  const summary = (await admin("Tables")).Tables || [];
  const fresh = {};
  for (const s of summary) fresh[s.TableName] = Object.assign(await describe(s.TableName), { summary: s });
  tables = fresh;
  const body = $("#tables-grid tbody");
  body.replaceChildren();
  for (const t of Object.values(tables)) {
    const s = t.summary, st = s.Stream || {};
    const browse = el("button", { type: "button", text: "Browse", "aria-label": `Browse ${t.name}`, onclick: () => { location.hash = "#items/" + encodeURIComponent(t.name); } });
    const del = el("button", { type: "button", class: "danger", text: "Delete", "aria-label": `Delete ${t.name}`, onclick: guarded(() => deleteTable(t.name)) });
    body.append(el("tr", { "data-table": t.name },
      el("th", { scope: "row" }, el("a", { href: "#items/" + encodeURIComponent(t.name), text: t.name })),
      el("td", { text: s.Status || "" }),
      el("td", { class: "num", text: String(s.ItemCount || 0) }),
      el("td", { class: "num", text: bytes(s.SizeBytes) }),
      el("td", { text: t.keys.map(k => `${k.name} (${k.type}, ${k.role === "HASH" ? "partition" : "sort"})`).join(", ") }),
      el("td", { text: [...(s.Indexes || []).map(i => `${i.IndexName} (${i.Kind === "GLOBAL" ? "GSI" : "LSI"}, ${i.ItemCount || 0})`),
        ...vectorIndexesOf(t).map(v => `${v.IndexName} (vector, ${v.ItemCount || 0})`)].join(", ") || "none" }),
      el("td", { text: st.Enabled ? st.ViewType : "off" }),
      el("td", { text: t.ttl }),
      el("td", {}, browse, " ", del)));
  }
  $("#tables-empty").hidden = summary.length > 0;
  fillTableSelect();
}

async function deleteTable(name) {
  if (!(await confirmAction(`Delete the table ${name} and every item in it?`))) return;
  await ddb("DeleteTable", { TableName: name });
  say(`Table ${name} deleted.`);
  await loadTables();
}

$("#tables-refresh").addEventListener("click", guarded(loadTables));

$("#create-table").addEventListener("submit", guarded(async e => {
  e.preventDefault();
  const f = e.target.elements;
  const defs = new Map();
  const key = (n, t, role) => { defs.set(n, t); return { AttributeName: n, KeyType: role }; };
  const req = { TableName: f.name.value.trim(), BillingMode: f.billing.value, KeySchema: [key(f.pk.value.trim(), f.pkType.value, "HASH")] };
  if (f.sk.value.trim()) req.KeySchema.push(key(f.sk.value.trim(), f.skType.value, "RANGE"));
  if (f.billing.value === "PROVISIONED") req.ProvisionedThroughput = { ReadCapacityUnits: 5, WriteCapacityUnits: 5 };
  if (f.gsi.value.trim()) {
    const g = { IndexName: f.gsi.value.trim(), KeySchema: [key(f.gsiPk.value.trim(), f.gsiPkType.value, "HASH")], Projection: { ProjectionType: "ALL" } };
    if (f.gsiSk.value.trim()) g.KeySchema.push(key(f.gsiSk.value.trim(), f.gsiSkType.value, "RANGE"));
    if (f.billing.value === "PROVISIONED") g.ProvisionedThroughput = { ReadCapacityUnits: 5, WriteCapacityUnits: 5 };
    req.GlobalSecondaryIndexes = [g];
  }
  if (f.stream.value) req.StreamSpecification = { StreamEnabled: true, StreamViewType: f.stream.value };
  req.AttributeDefinitions = [...defs].map(([n, t]) => ({ AttributeName: n, AttributeType: t }));
  await ddb("CreateTable", req);
  if (f.ttl.value.trim()) {
    await ddb("UpdateTimeToLive", { TableName: req.TableName, TimeToLiveSpecification: { Enabled: true, AttributeName: f.ttl.value.trim() } });
  }
  say(`Table ${req.TableName} created.`);
  e.target.reset();
  await loadTables();
}));

function fillTableSelect() {
  fillSelect($("#items-table"), Object.keys(tables));
  fillSelect($("#vectors-table"), Object.keys(tables).filter(n => vectorIndexesOf(tables[n]).length));
}
// Gives `select` an option per name, keeping the choice when it is still one.
function fillSelect(select, names) {
  const keep = select.value;
  select.replaceChildren(...names.map(n => el("option", { value: n, text: n })));
  if (names.includes(keep)) select.value = keep;
}

// ---------------------------------------------------------------- items

// The page being shown: the request that read it, the start key of each
// page so far (for "first page"), the key to read the next page from.
let page = { request: null, op: "", next: null, items: [] };
let itemsRun = 0;  // only the latest read draws the grid

async function openItems(name) {
  if (!Object.keys(tables).length) await loadTables();
  if (name && name in tables) $("#items-table").value = name;
  onTableChosen();
  if ($("#items-table").value) await runItems();
}

function chosenTable() { return tables[$("#items-table").value]; }
function chosenKeys() {
  const t = chosenTable();
  if (!t) return [];
  const index = $("#items-index").value;
  return index ? (t.indexes.find(i => i.name === index) || t).keys : t.keys;
}

function onTableChosen() {
  const t = chosenTable();
  const select = $("#items-index");
  select.replaceChildren(el("option", { value: "", text: "(table)" }), ...(t ? t.indexes : []).map(i => el("option", { value: i.name, text: i.name })));
  onIndexChosen();
}
function onIndexChosen() {
  const keys = chosenKeys();
  const pk = keys.find(k => k.role === "HASH"), sk = keys.find(k => k.role === "RANGE");
  $("#q-pk-name").textContent = pk ? `${pk.name} (${pk.type})` : "";
  $("#q-sk-op").disabled = !sk;
}
$("#items-table").addEventListener("change", onTableChosen);
$("#items-index").addEventListener("change", onIndexChosen);
for (const r of document.querySelectorAll("#items-form input[name=mode]")) {
  r.addEventListener("change", () => { $("#query-fields").hidden = modeIsScan(); });
}
function modeIsScan() { return $("#items-form").elements.mode.value === "scan"; }

function parseJsonField(text, what) {
  if (!text.trim()) return undefined;
  try { return JSON.parse(text); } catch (e) { throw new ApiError("", `${what} is not JSON: ${e.message}`); }
}

// The Query or Scan the form describes (without a start key).
function itemsRequest() {
  const f = $("#items-form").elements;
  const t = chosenTable();
  if (!t) throw new ApiError("", "Choose a table first (create one under Tables).");
  const req = { TableName: t.name };
  if (f.index.value) req.IndexName = f.index.value;
  const names = parseJsonField(f.names.value, "Expression attribute names") || {};
  const values = parseJsonField(f.values.value, "Expression attribute values") || {};
  if (f.filter.value.trim()) req.FilterExpression = f.filter.value.trim();
  let op = "Scan";
  if (!modeIsScan()) {
    op = "Query";
    const keys = chosenKeys();
    const pk = keys.find(k => k.role === "HASH"), sk = keys.find(k => k.role === "RANGE");
    names["#pogi_pk"] = pk.name;
    values[":pogi_pk"] = { [pk.type]: f.pkValue.value };
    let cond = "#pogi_pk = :pogi_pk";
    const skOp = f.skOp.value;
    if (sk && skOp) {
      names["#pogi_sk"] = sk.name;
      values[":pogi_sk"] = { [sk.type]: f.skValue.value };
      if (skOp === "between") {
        values[":pogi_sk2"] = { [sk.type]: f.skValue2.value };
        cond += " AND #pogi_sk BETWEEN :pogi_sk AND :pogi_sk2";
      } else if (skOp === "begins_with") {
        cond += " AND begins_with(#pogi_sk, :pogi_sk)";
      } else {
        cond += ` AND #pogi_sk ${skOp} :pogi_sk`;
      }
    }
    req.KeyConditionExpression = cond;
  }
  if (Object.keys(names).length) req.ExpressionAttributeNames = names;
  if (Object.keys(values).length) req.ExpressionAttributeValues = values;
  return { op, req };
}

async function runItems(startKey) {
  const { op, req } = startKey && page.request ? { op: page.op, req: { ...page.request } } : itemsRequest();
  if (startKey) req.ExclusiveStartKey = startKey;
  const mine = ++itemsRun;
  const resp = await ddb(op, req);
  if (mine !== itemsRun) return;
  delete req.ExclusiveStartKey;
  page = { request: req, op, next: resp.LastEvaluatedKey || null, items: resp.Items || [], first: !startKey };
  $("#items-next").disabled = !page.next;
  $("#items-first").disabled = page.first;
  $("#items-summary").textContent = `${op} of ${req.TableName}${req.IndexName ? " (" + req.IndexName + ")" : ""}: ` +
    `${page.items.length} item${page.items.length === 1 ? "" : "s"} on this page (scanned ${resp.ScannedCount || 0})` +
    (page.next ? ", more on the next page." : ".");
  renderItems();
}

function renderItems() {
  const raw = $("#items-raw").checked;
  $("#items-json").hidden = !raw;
  $("#items-grid").hidden = raw;
  if (raw) {
    $("#items-json").textContent = JSON.stringify(page.items, null, 2);
    return;
  }
  const t = tables[page.request ? page.request.TableName : ""];
  renderGrid($("#items-grid"), page.items, t ? t.keys.map(k => k.name) : [], t ? item => openEditor(t, item) : null);
}

// Fills `table` with `items`: the key columns first, then every attribute
// seen on the page; `open` (optional) gives each row an Open button, `lead`
// (optional) columns before the attributes, each [heading, row number => text].
function renderGrid(table, items, keyNames, open, lead = []) {
  const columns = [...keyNames];
  for (const item of items) for (const k of Object.keys(item)) if (!columns.includes(k)) columns.push(k);
  const head = el("tr");
  if (open) head.append(el("th", { scope: "col" }, el("span", { class: "sr-only", text: "Open" })));
  for (const [name] of lead) head.append(el("th", { scope: "col", text: name }));
  for (const c of columns) head.append(el("th", { scope: "col", text: c }));
  table.tHead.replaceChildren(head);
  const body = table.tBodies[0];
  body.replaceChildren();
  items.forEach((item, i) => {
    const row = el("tr", { "data-row": String(i) });
    if (open) {
      const label = keyNames.map(k => show(item[k])).join(" / ");
      row.append(el("td", {}, el("button", { type: "button", text: "Open", "aria-label": `Open item ${label}`, onclick: () => open(item) })));
    }
    for (const [name, text] of lead) row.append(el("td", { class: "num", "data-lead": name, text: text(i) }));
    for (const c of columns) {
      const v = item[c];
      const type = v ? Object.keys(v)[0] : "";
      row.append(el("td", { class: v === undefined ? "absent" : type === "N" ? "num" : "", "data-attr": c, title: type, text: show(v) }));
    }
    body.append(row);
  });
}

$("#items-form").addEventListener("submit", guarded(async e => { e.preventDefault(); await runItems(); }));
$("#items-next").addEventListener("click", guarded(() => runItems(page.next)));
$("#items-first").addEventListener("click", guarded(() => runItems()));
$("#items-raw").addEventListener("change", renderItems);
$("#items-add").addEventListener("click", () => {
  const t = chosenTable();
  if (!t) return fail("Choose a table first (create one under Tables).");
  const blank = {};
  for (const k of t.keys) blank[k.name] = { [k.type]: "" };
  openEditor(t, null, blank);
});

// ---------------------------------------------------------------- the item editor

let editing = null;  // {table, original}

function openEditor(table, item, template) {
  editing = { table, original: item };
  $("#h-editor").textContent = item ? `Item of ${table.name}` : `New item in ${table.name}`;
  $("#editor-text").value = JSON.stringify(item || template, null, 2);
  $("#editor-error").textContent = "";
  $("#editor-save").disabled = false;
  $("#editor-delete").hidden = !item;
  $("#editor").showModal();
  $("#editor-text").focus();
}

$("#editor-text").addEventListener("input", () => {
  const problem = itemProblem($("#editor-text").value, editing && editing.table);
  $("#editor-error").textContent = problem;
  $("#editor-save").disabled = !!problem;
});

$("#editor-form").addEventListener("submit", async e => {
  e.preventDefault();
  const text = $("#editor-text").value;
  const problem = itemProblem(text, editing.table);
  if (problem) { $("#editor-error").textContent = problem; return; }
  const item = JSON.parse(text);
  try {
    await ddb("PutItem", { TableName: editing.table.name, Item: item });
    // A changed key is a new item: the old one goes, as an edit means.
    const orig = editing.original;
    if (orig && editing.table.keys.some(k => JSON.stringify(orig[k.name]) !== JSON.stringify(item[k.name]))) {
      await ddb("DeleteItem", { TableName: editing.table.name, Key: keyOf(editing.table, orig) });
    }
  } catch (err) {
    $("#editor-error").textContent = String(err);  // DynamoDB's refusal, as it said it
    return;
  }
  $("#editor").close();
  say(`Item saved in ${editing.table.name}.`);
  await guarded(() => page.request ? runItems() : null)();
});

function keyOf(table, item) {
  const key = {};
  for (const k of table.keys) key[k.name] = item[k.name];
  return key;
}

$("#editor-delete").addEventListener("click", async () => {
  const { table, original } = editing;
  if (!(await confirmAction(`Delete this item from ${table.name}?`))) return;
  try {
    await ddb("DeleteItem", { TableName: table.name, Key: keyOf(table, original) });
  } catch (err) {
    $("#editor-error").textContent = String(err);
    return;
  }
  $("#editor").close();
  say(`Item deleted from ${table.name}.`);
  await guarded(runItems)();
});
$("#editor-cancel").addEventListener("click", () => $("#editor").close());
