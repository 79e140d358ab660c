// The console's Live view: the change feed, the request log and the rates,
// polled while the view is open.
"use strict";

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
