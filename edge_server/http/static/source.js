// The source viewer: a cited passage shown highlighted (<mark>) in its document's text,
// scrolled into view; for table evidence, the SQL and the rows the figures came from.

import { call } from "./api.js";
import { $, el, clear, place, errorBox } from "./dom.js";

const dialog = () => $("source");
let opener = null;

export function initSource() {
  $("source-close").addEventListener("click", () => dialog().close());
  dialog().addEventListener("close", () => opener && opener.focus());
  // A click on the backdrop (outside the box) closes it too: for touch.
  dialog().addEventListener("click", (e) => e.target === dialog() && dialog().close());
}

function open(title, where, from) {
  opener = from || null;
  $("source-title").textContent = title;
  $("source-where").textContent = where;
  clear($("source-body")).append(el("p", { class: "hint" }, "Loading…"));
  if (!dialog().open) dialog().showModal();
  $("source-close").focus();
}

// A passage (a Citation or a SearchHit: documentId, title, section, pages, text), and
// the answer's statements that cite it, picked out within it where found word for word.
export async function openPassage(p, from, statements = []) {
  if (p.table) return openTable(p, from);
  const where = [place(p.section, p.firstPage, p.lastPage), p.knowledgeBase, p.updatedAt];
  open(p.title || p.documentId, where.filter(Boolean).join(" · "), from);
  await showDocument(p.documentId, p.text, statements);
}

// A whole document from the list, nothing highlighted.
export async function openDocument(doc, from) {
  const where = [doc.id, doc.knowledgeBase, doc.updatedAt].filter(Boolean).join(" · ");
  open(doc.title || doc.id, where, from);
  await showDocument(doc.id, "");
}

async function showDocument(id, passage, statements = []) {
  const body = $("source-body");
  let doc;
  try {
    doc = await call("GET", `/v1/documents/${encodeURIComponent(id)}?include_text=true`);
  } catch (error) {
    clear(body).append(errorBox(error));
    if (passage) body.append(el("p", { class: "label" }, "The cited passage"), alone(passage, statements));
    return;
  }
  const text = doc.text || "";
  const span = passage ? locate(text, passage) : null;
  clear(body);
  if (passage && !span) {
    body.append(
      el("p", { class: "hint" }, "The passage is not in the stored text word for word; here it is, then the document."),
      alone(passage, statements),
    );
  }
  const pre = el("div", { class: "doc-text" });
  if (span) {
    const mark = el("mark", { id: "passage", tabindex: "-1" }, quoting(text.slice(span[0], span[1]), statements));
    pre.append(text.slice(0, span[0]), mark, text.slice(span[1]));
    body.append(pre);
    (mark.querySelector(".quoted") || mark).scrollIntoView({ block: "center" });
  } else {
    pre.append(text || "(This document has no stored text.)");
    body.append(pre);
    body.scrollTop = 0;
  }
}

function openTable(c, from) {
  open(c.title || "Table " + c.table, `table ${c.table} · ${(c.rows || []).length} rows`, from);
  const body = clear($("source-body"));
  body.append(
    el("p", { class: "label" }, "The figures"),
    el("blockquote", {}, el("mark", {}, c.text || "")),
    el("p", { class: "label" }, "Computed by this query"),
    el("pre", { class: "sql" }, el("code", {}, c.query || "(no query given)")),
    el("p", { class: "label" }, `From these rows of ${c.table} (row ids)`),
    el("p", { class: "rows" }, (c.rows || []).join(", ") || "none"),
  );
  body.scrollTop = 0;
}

// The passage on its own, when the document's text cannot show it.
function alone(passage, statements) {
  return el("blockquote", { class: "doc-text" }, el("mark", { id: "passage" }, quoting(passage, statements)));
}

// The passage's text with the statements found in it in <strong class="quoted">.
function quoting(passage, statements) {
  const spans = statements
    .map((statement) => locate(passage, statement) || locate(passage, statement.replace(/[.!?]$/, "")))
    .filter(Boolean)
    .sort((a, b) => a[0] - b[0]);
  const parts = [];
  let at = 0;
  for (const [start, end] of spans) {
    if (start < at) continue; // overlaps the one before
    parts.push(passage.slice(at, start), el("strong", { class: "quoted" }, passage.slice(start, end)));
    at = end;
  }
  parts.push(passage.slice(at));
  return parts;
}

// [start, end) of the passage in the text: exactly, else with runs of white space taken
// as one, else from its first and last words (a chunk's text may be laid out anew).
export function locate(text, passage) {
  const exact = text.indexOf(passage);
  if (exact >= 0) return [exact, exact + passage.length];
  const [flat, at] = squeeze(text);
  const wanted = squeeze(passage.trim())[0];
  if (!wanted) return null;
  let i = flat.indexOf(wanted);
  if (i >= 0) return [at[i], at[i + wanted.length - 1] + 1];
  const head = wanted.slice(0, 60);
  const tail = wanted.slice(-60);
  i = flat.indexOf(head);
  const j = i >= 0 ? flat.indexOf(tail, i) : -1;
  if (i >= 0 && j >= 0 && j - i < wanted.length * 2) return [at[i], at[j + tail.length - 1] + 1];
  return null;
}

// The text with white space runs made one space, and each kept character's offset.
function squeeze(text) {
  let flat = "";
  const at = [];
  let space = true;
  for (let k = 0; k < text.length; k++) {
    const c = text[k];
    if (/\s/.test(c)) {
      if (space) continue;
      space = true;
      flat += " ";
    } else {
      space = false;
      flat += c;
    }
    at.push(k);
  }
  return [flat, at];
}
