// The documents view: the stored documents page by page (ListDocuments) with a filter
// box, passage search (Search), and for an admin token upload (with progress and an
// error per file) and deletion (after a confirmation).

import { call, query, upload } from "./api.js";
import { $, el, card, clear, place, errorBox } from "./dom.js";
import { openDocument, openPassage } from "./source.js";

const PAGE_SIZE = 50;
let nextToken = "";
let knowledgeBase = "";
let onChange = () => {};

export function initDocs(changed) {
  onChange = changed;
  $("doc-filter").addEventListener("input", applyFilter);
  $("more-docs").addEventListener("click", () => loadDocuments(false));
  $("search-form").addEventListener("submit", (e) => {
    e.preventDefault();
    search();
  });
  $("upload-form").addEventListener("submit", (e) => {
    e.preventDefault();
    uploadFiles();
  });
}

export function setKnowledgeBase(name) {
  knowledgeBase = name;
  $("upload-kb").placeholder = name || "default";
}

export async function loadDocuments(reset = true) {
  const list = $("docs");
  const status = $("doc-status");
  if (reset) {
    nextToken = "";
    clear(list);
  }
  status.textContent = "Loading documents…";
  try {
    const params = { page_size: PAGE_SIZE, page_token: nextToken, knowledge_base: knowledgeBase };
    const page = await call("GET", "/v1/documents" + query(params));
    for (const doc of page.documents || []) list.append(documentRow(doc));
    nextToken = page.nextPageToken || "";
    $("more-docs").hidden = !nextToken;
    const n = list.children.length;
    status.textContent = n ? `${n} document${n === 1 ? "" : "s"}${nextToken ? " so far" : ""}` : "No documents.";
    applyFilter();
  } catch (error) {
    clear(status).append(errorBox(error));
  }
}

function documentRow(doc) {
  const meta = [doc.id, doc.knowledgeBase, doc.updatedAt, passages(doc.chunkCount)];
  return el(
    "li",
    { class: "doc", dataset: { id: doc.id, find: `${doc.title || ""} ${doc.id}`.toLowerCase() } },
    card("doc-open", (from) => openDocument(doc, from), [["title", doc.title || doc.id], ["where", meta.filter(Boolean).join(" · ")]]),
    el(
      "button",
      { type: "button", class: "danger admin-only", onclick: (e) => remove(doc, e.currentTarget) },
      "Delete",
    ),
  );
}

function passages(n) {
  return `${n || 0} ${Number(n) === 1 ? "passage" : "passages"}`;
}

function applyFilter() {
  const words = $("doc-filter").value.toLowerCase().split(/\s+/).filter(Boolean);
  let shown = 0;
  for (const row of $("docs").children) {
    const keep = words.every((w) => row.dataset.find.includes(w));
    row.hidden = !keep;
    shown += keep ? 1 : 0;
  }
  if (words.length) $("doc-status").textContent = `${shown} of ${$("docs").children.length} documents match`;
}

async function search() {
  const hits = clear($("hits"));
  const text = $("search-query").value.trim();
  if (!text) return;
  hits.append(el("li", { class: "hint" }, "Searching…"));
  try {
    const params = { query: text, k: 8 };
    if (knowledgeBase) params["filters.knowledge_bases"] = knowledgeBase;
    const found = await call("GET", "/v1/search" + query(params));
    clear(hits);
    for (const hit of found.hits || []) {
      const where = [place(hit.section, hit.firstPage, hit.lastPage), hit.knowledgeBase].filter(Boolean);
      const lines = [["title", hit.title || hit.documentId], ["where", where.join(" · ")], ["snippet", snippet(hit.text || "")]];
      hits.append(el("li", {}, card("hit", (from) => openPassage(hit, from), lines)));
    }
    if (!hits.children.length) hits.append(el("li", { class: "hint" }, "No passage matches."));
  } catch (error) {
    clear(hits).append(el("li", {}, errorBox(error)));
  }
}

function snippet(text) {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 220 ? flat.slice(0, 220) + "…" : flat;
}

async function uploadFiles() {
  const files = [...$("upload-files").files];
  const kb = $("upload-kb").value.trim() || knowledgeBase;
  const list = clear($("uploads"));
  let added = 0;
  for (const file of files) {
    const bar = el("progress", { max: "1", value: "0" });
    const state = el("span", { class: "state" }, "waiting");
    const row = el("li", {}, el("span", { class: "title" }, file.name), bar, state);
    list.append(row);
    state.textContent = "uploading";
    try {
      const summary = await upload(file, kb, (done) => (bar.value = done));
      bar.value = 1;
      const outcome = (summary.outcomes || [])[0] || {};
      const how = { INGEST_STATUS_ADDED: "added", INGEST_STATUS_UPDATED: "updated", INGEST_STATUS_UNCHANGED: "unchanged" };
      state.textContent = `${how[outcome.status] || "stored"} as ${outcome.documentId || "?"} · ${passages(outcome.chunks)}`;
      row.classList.add("done");
      added += 1;
    } catch (error) {
      row.classList.add("failed");
      state.replaceWith(errorBox(error, "inline"));
    }
  }
  $("upload-files").value = "";
  if (added) {
    await loadDocuments(true);
    onChange();
  }
}

async function remove(doc, button) {
  const ok = await confirmDelete(
    `Delete “${doc.title || doc.id}” (${doc.id}) and its ${passages(doc.chunkCount)}? This cannot be undone.`,
  );
  if (!ok) return button.focus();
  try {
    const gone = await call("DELETE", `/v1/documents/${encodeURIComponent(doc.id)}`);
    button.closest("li").remove();
    $("doc-status").textContent = `Deleted ${doc.id} (${passages(gone.chunksRemoved)}).`;
    onChange();
  } catch (error) {
    clear($("doc-status")).append(errorBox(error));
  }
}

function confirmDelete(text) {
  const dialog = $("confirm");
  $("confirm-text").textContent = text;
  dialog.returnValue = "cancel";
  dialog.showModal();
  return new Promise((resolve) =>
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true }),
  );
}
