// The console's Test view: the clock, snapshots, the reset, injected
// faults, and export and import jobs.
"use strict";

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
