// The pogi console's behaviour: views, the calls to /_pogi/api/ (DynamoDB
// operations and Admin calls), the grid, the item editor and the live polls.
"use strict";

const $ = (sel, root = document) => root.querySelector(sel);
const el = (tag, props = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const kid of kids) e.append(kid);
  return e;
};

// ---------------------------------------------------------------- the API

class ApiError extends Error {
  constructor(type, message, status) {
    super(message || type);
    this.type = type;
    this.status = status;
  }
  toString() { return this.type ? `${this.type}: ${this.message}` : this.message; }
}

const AUTH_ERRORS = ["MissingAuthenticationTokenException", "UnrecognizedClientException", "InvalidSignatureException"];
let credentials = JSON.parse(sessionStorage.getItem("pogi-credentials") || "null");
let loginWaiters = null;

async function api(path, body) {
  for (;;) {
    const headers = {};
    if (credentials) {
      headers["X-Pogi-Access-Key-Id"] = credentials.key;
      headers["X-Pogi-Secret-Access-Key"] = credentials.secret;
    }
    const init = { method: body === undefined ? "GET" : "POST", headers };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = typeof body === "string" ? body : JSON.stringify(body);
    }
    const res = await fetch("/_pogi/api/" + path, init);
    const text = await res.text();
    let data = {};
    try { data = text ? JSON.parse(text) : {}; } catch (e) { throw new ApiError("", text, res.status); }
    if (res.ok) return data;
    const type = String(data.__type || "").split("#").pop();
    if (AUTH_ERRORS.includes(type)) {
      await askCredentials(credentials ? data.message : "");
      continue;
    }
    throw new ApiError(type, data.message || data.Message || "", res.status);
  }
}
const ddb = (op, req = {}) => api("dynamodb/" + op, req);
const admin = (call, req = {}) => api("admin/" + call, req);

function askCredentials(error) {
  const dialog = $("#login");
  $("#login-error").textContent = error || "";
  if (!loginWaiters) {
    loginWaiters = [];
    dialog.showModal();
  }
  return new Promise(resolve => loginWaiters.push(resolve));
}

$("#login-form").addEventListener("submit", () => {
  credentials = { key: $("#login-key").value, secret: $("#login-secret").value };
  sessionStorage.setItem("pogi-credentials", JSON.stringify(credentials));
  const waiters = loginWaiters || [];
  loginWaiters = null;
  waiters.forEach(w => w());
});
$("#login").addEventListener("cancel", e => e.preventDefault());

// ---------------------------------------------------------------- messages

function say(text) { $("#status").textContent = text; }
function fail(err) {
  const box = $("#alert");
  box.textContent = String(err);
  box.hidden = false;
}
function clearAlert() { $("#alert").hidden = true; }
// Runs an action from the page, saying what failed.
function guarded(fn) {
  return async (...args) => {
    clearAlert();
    try { await fn(...args); } catch (e) { fail(e); }
  };
}

function confirmAction(text) {
  const dialog = $("#confirm");
  $("#confirm-text").textContent = text;
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise(resolve => dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true }));
}

// ---------------------------------------------------------------- values

function bytes(n) {
  n = Number(n || 0);
  if (n < 1024) return n + " B";
  if (n < 1048576) return (n / 1024).toFixed(1) + " KB";
  return (n / 1048576).toFixed(1) + " MB";
}
function isoTime(seconds) { return new Date(Number(seconds) * 1000).toISOString().replace(".000Z", "Z"); }

// A DynamoDB value as a grid shows it.
function show(v) {
  if (v === undefined) return "";
  const [type, x] = Object.entries(v)[0] || [];
  switch (type) {
    case "S": case "N": case "B": return String(x);
    case "BOOL": return x ? "true" : "false";
    case "NULL": return "null";
    case "SS": case "NS": case "BS": return "{" + x.join(", ") + "}";
    default: return JSON.stringify(v[type]);
  }
}

const TYPES = ["S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS"];
// Why `v` is not a DynamoDB attribute value, or "".
function valueProblem(v, path) {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return `${path}: expected an object like {"S": "text"}`;
  const keys = Object.keys(v);
  if (keys.length !== 1 || !TYPES.includes(keys[0])) return `${path}: one of ${TYPES.join(", ")} expected as the only key`;
  const t = keys[0], x = v[t];
  if ((t === "S" || t === "N" || t === "B") && typeof x !== "string") return `${path}.${t}: a string expected`;
  if (t === "N" && !/^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(x)) return `${path}.N: "${x}" is not a number`;
  if (t === "BOOL" && typeof x !== "boolean") return `${path}.BOOL: true or false expected`;
  if (t === "NULL" && x !== true) return `${path}.NULL: true expected`;
  if ((t === "SS" || t === "NS" || t === "BS") && !(Array.isArray(x) && x.every(s => typeof s === "string"))) return `${path}.${t}: a list of strings expected`;
  if (t === "L") {
    if (!Array.isArray(x)) return `${path}.L: a list expected`;
    for (let i = 0; i < x.length; i++) { const p = valueProblem(x[i], `${path}[${i}]`); if (p) return p; }
  }
  if (t === "M") {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return `${path}.M: an object expected`;
    for (const [k, sub] of Object.entries(x)) { const p = valueProblem(sub, `${path}.${k}`); if (p) return p; }
  }
  return "";
}
// Why `text` is not an item of `table` in DynamoDB JSON, or "".
function itemProblem(text, table) {
  let item;
  try { item = JSON.parse(text); } catch (e) { return "Not JSON: " + e.message; }
  if (item === null || typeof item !== "object" || Array.isArray(item)) return "An item is a JSON object of attributes";
  for (const [k, v] of Object.entries(item)) { const p = valueProblem(v, k); if (p) return p; }
  for (const k of table ? table.keys : []) {
    if (!(k.name in item)) return `The key attribute ${k.name} is missing`;
    if (!(k.type in item[k.name])) return `The key attribute ${k.name} must be of type ${k.type}`;
  }
  return "";
}

// ---------------------------------------------------------------- views

const VIEWS = ["tables", "items", "partiql", "vectors", "live", "test"];
let currentView = "";

function showView() {
  const [view, arg] = (location.hash.slice(1) || "tables").split("/");
  const name = VIEWS.includes(view) ? view : "tables";
  for (const s of document.querySelectorAll("[data-view-section]")) s.hidden = s.dataset.viewSection !== name;
  for (const a of document.querySelectorAll("nav a")) {
    if (a.dataset.view === name) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
  }
  const changed = currentView !== name;
  currentView = name;
  if (changed) $(`#h-${name}`).focus();
  clearAlert();
  const load = { tables: loadTables, items: () => openItems(arg && decodeURIComponent(arg)), partiql: () => {},
    vectors: () => openVectors(arg && decodeURIComponent(arg)), live: refreshLive, test: loadTest }[name];
  guarded(load)();
}
window.addEventListener("hashchange", showView);

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

// ---------------------------------------------------------------- PartiQL

let partiql = { req: null, next: null };

async function runPartiql(nextToken) {
  const req = nextToken ? { ...partiql.req, NextToken: nextToken } : { Statement: $("#partiql-statement").value };
  if (!nextToken) {
    const params = parseJsonField($("#partiql-form").elements.params.value, "Parameters");
    if (params) req.Parameters = params;
  }
  const resp = await ddb("ExecuteStatement", req);
  delete req.NextToken;
  partiql = { req, next: resp.NextToken || null };
  $("#partiql-next").disabled = !partiql.next;
  const items = resp.Items || [];
  $("#partiql-summary").textContent = `${items.length} item${items.length === 1 ? "" : "s"}` + (partiql.next ? ", more on the next page." : ".");
  renderGrid($("#partiql-grid"), items, [], null);
}
$("#partiql-form").addEventListener("submit", guarded(async e => { e.preventDefault(); await runPartiql(); }));
$("#partiql-next").addEventListener("click", guarded(() => runPartiql(partiql.next)));

// ---------------------------------------------------------------- vector search

function vectorIndexesOf(table) { return (table && table.description.VectorIndexes) || []; }
function vectorTable() { return tables[$("#vectors-table").value]; }
function chosenVectorIndex() { return vectorIndexesOf(vectorTable()).find(v => v.IndexName === $("#vectors-index").value); }

async function openVectors(name) {
  await loadTables();  // afresh: an index's status changes while it backfills
  if (name && vectorIndexesOf(tables[name]).length) $("#vectors-table").value = name;
  onVectorTableChosen();
}

function onVectorTableChosen() {
  const indexes = vectorIndexesOf(vectorTable());
  $("#vector-indexes tbody").replaceChildren(...indexes.map(v => el("tr", { "data-index": v.IndexName },
    el("th", { scope: "row", text: v.IndexName }),
    el("td", { text: (v.VectorAttribute || {}).AttributeName || "" }),
    el("td", { class: "num", text: String(v.Dimensions || 0) }),
    el("td", { text: v.DistanceFunction || "" }),
    el("td", { text: (v.SearchSchema || []).map(s => `${s.AttributeName} (${s.SearchSchemaElementType})`).join(", ") || "none" }),
    el("td", { text: v.IndexStatus || "" }),
    el("td", { text: v.Backfilling ? "yes" : "no" }),
    el("td", { class: "num", text: String(v.ItemCount || 0) }))));
  $("#vectors-empty").hidden = $("#vectors-table").options.length > 0;
  fillSelect($("#vectors-index"), indexes.map(v => v.IndexName));
  onVectorIndexChosen();
}

// A field for each SearchSchema attribute of the index: the partition value
// (HASH; DynamoDB requires it) and equality filters (INLINE_FILTER; blank: none).
function onVectorIndexChosen() {
  const t = vectorTable(), v = chosenVectorIndex();
  $("#vectors-schema").replaceChildren(...(v ? v.SearchSchema || [] : []).map(s => {
    const type = typeOf(t.description.AttributeDefinitions, s.AttributeName);
    const hash = s.SearchSchemaElementType === "HASH";
    return el("label", {}, `${hash ? "Partition" : "Filter"}: ${s.AttributeName} (${type}) =`,
      el("input", { "data-attr": s.AttributeName, "data-type": type, autocomplete: "off", placeholder: hash ? "required" : "(any)" }));
  }));
}
$("#vectors-table").addEventListener("change", onVectorTableChosen);
$("#vectors-index").addEventListener("change", onVectorIndexChosen);
for (const r of document.querySelectorAll("#vectors-form input[name=source]")) {
  r.addEventListener("change", () => {
    const pasted = $("#vectors-form").elements.source.value === "paste";
    $("#vectors-vector").closest("label").hidden = !pasted;
    $("#vectors-key").closest("label").hidden = pasted;
  });
}

// The query vector as SearchVector takes it, and what it is: the pasted
// numbers, or the vector attribute of the item whose key is given.
async function queryVector(t, v) {
  const f = $("#vectors-form").elements;
  if (f.source.value === "paste") {
    const vector = parseJsonField(f.vector.value, "The vector");
    if (!Array.isArray(vector) || !vector.every(x => typeof x === "number")) {
      throw new ApiError("", "The vector is a JSON array of numbers, like [0.12, -0.5, 0.33].");
    }
    return [vector.map(x => ({ N: String(x) })), "the pasted vector"];
  }
  const problem = itemProblem(f.key.value, t);
  if (problem) throw new ApiError("", "The item key: " + problem);
  const key = keyOf(t, JSON.parse(f.key.value));
  const item = (await ddb("GetItem", { TableName: t.name, Key: key })).Item;
  if (!item) throw new ApiError("", `${t.name} has no item with the key ${describeKeys(key)}.`);
  const attr = v.VectorAttribute.AttributeName;
  if (!item[attr] || !item[attr].L) throw new ApiError("", `The item ${describeKeys(key)} has no vector: ${attr} is not a list.`);
  return [item[attr].L, `${attr} of ${describeKeys(key)}`];
}

async function runVectors() {
  $("#vectors-summary").textContent = "";
  renderGrid($("#vectors-grid"), [], [], null);  // no answer shown but this one
  const t = vectorTable(), v = chosenVectorIndex();
  if (!t || !v) throw new ApiError("", "Choose a table with a vector index first.");
  const f = $("#vectors-form").elements;
  const [vector, whence] = await queryVector(t, v);
  const req = { TableName: t.name, IndexName: v.IndexName, SearchVector: vector, TopK: Number(f.topK.value) };
  const names = {}, values = {}, conditions = [];
  for (const input of $("#vectors-schema").querySelectorAll("input")) {
    if (!input.value) continue;
    const n = conditions.length;
    names[`#pogi_s${n}`] = input.dataset.attr;
    values[`:pogi_s${n}`] = { [input.dataset.type]: input.value };
    conditions.push(`#pogi_s${n} = :pogi_s${n}`);
  }
  if (conditions.length) {
    Object.assign(req, { SearchConditionExpression: conditions.join(" AND "), ExpressionAttributeNames: names, ExpressionAttributeValues: values });
  }
  if (f.projection.value.trim()) req.ProjectionExpression = f.projection.value.trim();
  const results = (await ddb("SearchVectors", req)).SearchResults || [];
  $("#vectors-summary").textContent = `SearchVectors on ${t.name} (${v.IndexName}, ${v.DistanceFunction}) with ${whence}: ` +
    `${results.length} result${results.length === 1 ? "" : "s"}, best first.`;
  renderGrid($("#vectors-grid"), results.map(r => r.Item || {}), t.keys.map(k => k.name), null,
    [["Rank", i => String(i + 1)], ["Score", i => String(results[i].Score)]]);
}
$("#vectors-form").addEventListener("submit", guarded(async e => { e.preventDefault(); await runVectors(); }));

// ---------------------------------------------------------------- live

let changesAfter = 0, requestsAfter = 0, unseen = 0;
let lastMetrics = null;

function describeKeys(keys) { return Object.entries(keys || {}).map(([k, v]) => `${k}=${show(v)}`).join(", "); }
function describeItem(item) { return Object.entries(item || {}).map(([k, v]) => `${k}: ${show(v)}`).join("; "); }

function prepend(list, li, max) {
  list.prepend(li);
  while (list.children.length > max) list.lastChild.remove();
}

async function pollChanges() {
  const resp = await api("changes?after=" + changesAfter);
  changesAfter = resp.Next || 0;
  const list = $("#changes");
  for (const ev of resp.Events || []) {
    const name = ev.EventName || "";
    const li = el("li", { "data-table": ev.TableName || "", "data-event": name },
      el("span", { class: `ev ev-${name}`, text: name + (ev.Ttl ? " (TTL)" : "") }),
      el("span", { text: `${isoTime(ev.Time || 0)} ${ev.TableName} ${describeKeys(ev.Keys)}` }),
      el("div", { class: "muted", text: describeItem(ev.NewItem || ev.OldItem) }));
    prepend(list, li, 200);
    if (currentView !== "live") unseen++;
  }
  const badge = $("#live-badge");
  badge.hidden = unseen === 0;
  badge.textContent = String(unseen);
}

async function pollRequests() {
  const resp = await api("requests?after=" + requestsAfter);
  requestsAfter = resp.Next || 0;
  for (const r of resp.Requests || []) {
    const text = `${isoTime(r.Time)} ${r.Door} ${r.Operation || "(none)"} ${r.TableName || ""} ${r.Status}` +
      `${r.ErrorType ? " " + r.ErrorType : ""} ${(r.LatencyUs / 1000).toFixed(2)} ms`;
    prepend($("#requests"), el("li", { text }), 200);
  }
}

async function pollRates() {
  const m = await admin("GetMetrics");
  const now = performance.now();
  const prev = new Map();
  if (lastMetrics) for (const s of lastMetrics.series) prev.set(s.Operation + "\u0000" + (s.TableName || ""), s.Calls || 0);
  const seconds = lastMetrics ? (now - lastMetrics.at) / 1000 : 0;
  const body = $("#rates tbody");
  body.replaceChildren();
  for (const s of (m.Metrics || []).filter(s => s.Operation)) {
    const before = prev.get(s.Operation + "\u0000" + (s.TableName || ""));
    const rate = seconds > 0 && before !== undefined ? ((s.Calls - before) / seconds).toFixed(1) : "";
    const errors = Object.values(s.Errors || {}).reduce((a, b) => a + Number(b), 0);
    body.append(el("tr", {}, el("td", { text: s.Operation }), el("td", { text: s.TableName || "" }),
      el("td", { class: "num", text: String(s.Calls || 0) }), el("td", { class: "num", text: rate }),
      el("td", { class: "num", text: String(errors) }),
      el("td", { class: "num", text: s.Calls ? (s.LatencySumUs / s.Calls / 1000).toFixed(2) : "" })));
  }
  lastMetrics = { at: now, series: m.Metrics || [] };
}

async function refreshLive() {
  unseen = 0;
  await Promise.all([pollChanges(), pollRequests(), pollRates()]);
}
$("#changes-clear").addEventListener("click", () => $("#changes").replaceChildren());

// Polls (never a held connection: pogi's HTTP threads serve DynamoDB too).
// Changes always, for the badge; the rest only while the Live view shows.
let polling = false;
setInterval(async () => {
  if (polling || document.hidden) return;
  polling = true;
  try {
    await pollChanges();
    if (currentView === "live") await Promise.all([pollRequests(), pollRates()]);
    await showClock();
  } catch (e) { /* the next poll tries again */ }
  polling = false;
}, 1000);

// ---------------------------------------------------------------- test controls

async function showClock() {
  const c = await admin("GetClock");
  $("#clock-now").textContent = isoTime(c.Now || 0);
  $("#clock-frozen").hidden = !c.Frozen;
  $("#clock-line").textContent = `Clock ${isoTime(c.Now || 0)}${c.Frozen ? " (frozen)" : ""}`;
}

async function loadTest() {
  await Promise.all([showClock(), loadSnapshots(), loadFaults(), loadJobs()]);
}

$("#clock-form").addEventListener("submit", guarded(async e => {
  e.preventDefault();
  const seconds = Number($("#clock-amount").value) * Number($("#clock-unit").value);
  await admin("AdvanceClock", { Seconds: seconds });
  say(`Clock advanced by ${seconds} s; what became due (TTL deletions) has run.`);
  await showClock();
}));
$("#clock-freeze").addEventListener("click", guarded(async () => { await admin("FreezeClock"); await showClock(); }));
$("#clock-resume").addEventListener("click", guarded(async () => { await admin("ResumeClock"); await showClock(); }));

async function loadSnapshots() {
  const list = $("#snapshots");
  list.replaceChildren();
  for (const s of (await admin("ListSnapshots")).Snapshots || []) {
    list.append(el("li", { "data-snapshot": s.Name },
      el("span", { text: `${s.Name} (${bytes(s.SizeBytes)}, ${isoTime(s.CreatedAt || 0)})` }),
      el("button", { type: "button", text: "Restore", "aria-label": `Restore snapshot ${s.Name}`, onclick: guarded(() => restoreSnapshot(s.Name)) }),
      el("button", { type: "button", class: "danger", text: "Delete", "aria-label": `Delete snapshot ${s.Name}`, onclick: guarded(async () => {
        if (!(await confirmAction(`Delete the snapshot ${s.Name}?`))) return;
        await admin("DeleteSnapshot", { Name: s.Name });
        await loadSnapshots();
      }) })));
  }
}

async function restoreSnapshot(name) {
  if (!(await confirmAction(`Restore the snapshot ${name}? Every table goes back to how it was then.`))) return;
  await admin("RestoreSnapshot", { Name: name });
  say(`Snapshot ${name} restored.`);
  await loadTables();
}

$("#snapshot-form").addEventListener("submit", guarded(async e => {
  e.preventDefault();
  const name = $("#snapshot-name").value.trim();
  await admin("CreateSnapshot", { Name: name });
  say(`Snapshot ${name} saved.`);
  e.target.reset();
  await loadSnapshots();
}));

$("#reset").addEventListener("click", guarded(async () => {
  if (!(await confirmAction("Drop every table?"))) return;
  const r = await admin("Reset");
  say(`Dropped ${(r.Dropped || []).length} table(s).`);
  await loadTables();
}));

const list = text => text.split(",").map(s => s.trim()).filter(Boolean);

async function loadFaults() {
  const ul = $("#faults");
  ul.replaceChildren();
  for (const r of (await admin("ListFaults")).Rules || []) {
    const what = `${r.Id}: ${(r.Operations || []).join(",") || "every operation"} on ${(r.Tables || []).join(",") || "every table"}` +
      `${r.Error ? " -> " + r.Error : ""}${r.LatencyMs ? ` +${r.LatencyMs} ms` : ""} (fired ${r.Fired || 0})`;
    ul.append(el("li", {}, el("span", { text: what }),
      el("button", { type: "button", text: "Clear", "aria-label": `Clear fault rule ${r.Id}`, onclick: guarded(async () => { await admin("ClearFaults", { Id: r.Id }); await loadFaults(); }) })));
  }
}

$("#fault-form").addEventListener("submit", guarded(async e => {
  e.preventDefault();
  const f = e.target.elements;
  const rule = { Operations: list(f.operations.value), Tables: list(f.tables.value), Error: f.error.value.trim(),
    LatencyMs: Number(f.latency.value || 0), Probability: Number(f.probability.value || 1), Count: Number(f.count.value || 0) };
  await admin("AddFault", { Rule: rule });
  say("Fault rule added.");
  await loadFaults();
}));
$("#faults-clear").addEventListener("click", guarded(async () => { await admin("ClearFaults", {}); await loadFaults(); }));

// Exports and imports (Admin ListJobs): state and progress; an import in
// progress can be cancelled (Admin CancelJob; DynamoDB has no operation for it).
async function loadJobs() {
  const ul = $("#jobs");
  ul.replaceChildren();
  const jobs = (await admin("ListJobs")).Jobs || [];
  $("#jobs-empty").hidden = jobs.length > 0;
  for (const j of jobs.slice().reverse()) {
    const what = `${j.Kind} ${j.Status} ${j.TableName || ""}: ${Number(j.ItemsWritten || 0)} items` +
      `${Number(j.Errors || 0) ? `, ${Number(j.Errors)} errors` : ""}, ${j.Format || ""} ${j.S3Location || ""}, ` +
      `started ${isoTime(j.StartTime || 0)}${j.FailureCode ? ` (${j.FailureCode}: ${j.FailureMessage || ""})` : ""}`;
    const li = el("li", { "data-job": j.Arn, "data-status": j.Status }, el("span", { text: what }));
    if (j.Kind !== "export" && (j.Status === "IN_PROGRESS" || j.Status === "CANCELLING")) {
      li.append(el("button", { type: "button", text: "Cancel", "aria-label": `Cancel ${j.Kind} ${j.Arn}`,
        onclick: guarded(async () => { await admin("CancelJob", { Arn: j.Arn }); await loadJobs(); }) }));
    }
    ul.append(li);
  }
}
$("#jobs-refresh").addEventListener("click", guarded(loadJobs));

// ---------------------------------------------------------------- start

showView();
