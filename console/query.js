// The console's PartiQL and Vectors views: statements with their pages,
// and nearest-neighbour searches of a table's vector indexes.
"use strict";

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
