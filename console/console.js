// The pogi console's core: element helpers, the calls to /_pogi/api/
// (DynamoDB operations and Admin calls), messages, values, and the views
// switched by the URL's #fragment. Each view's behaviour is a script of its
// own (tables.js, query.js, live.js, test_controls.js, loaded in that order
// after this one, sharing its globals); the first view is shown once all
// of them have run.
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

// ---------------------------------------------------------------- start

// Deferred scripts all run before DOMContentLoaded.
document.addEventListener("DOMContentLoaded", showView);
