// Building the page from server data without innerHTML: every string from the server
// becomes a text node, so nothing it says can turn into markup or script.

// el("p", {class: "x", onclick: f}, "text", child, ...): an element; null children are skipped.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value == null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

// A button that opens something, its lines spans: card("hit", open, [["title", t], ...]).
export function card(cls, open, lines) {
  return el(
    "button",
    { type: "button", class: cls, onclick: (e) => open(e.currentTarget) },
    lines.map(([c, text]) => el("span", { class: c }, text)),
  );
}

export function append(node, children) {
  for (const child of children.flat()) {
    if (child == null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function clear(node) {
  node.replaceChildren();
  return node;
}

export const $ = (id) => document.getElementById(id);

// "ANSWER_STATUS_NO_ANSWER" → "no answer": an enum value by name, in words.
export function words(value, prefix) {
  if (!value) return "";
  return String(value).replace(prefix, "").toLowerCase().replaceAll("_", " ");
}

export function ms(value) {
  const n = Number(value) || 0;
  return n >= 1000 ? (n / 1000).toFixed(2) + " s" : Math.round(n) + " ms";
}

// "section · pp. 4–5": where a passage is, from the section path and its pages.
export function place(section, firstPage, lastPage) {
  const parts = [];
  if (section) parts.push(section);
  const first = Number(firstPage) || 0;
  const last = Number(lastPage) || first;
  if (first) parts.push(last > first ? `pp. ${first}–${last}` : `p. ${first}`);
  return parts.join(" · ");
}

// The lines of an error, as a block for the page.
export function errorBox(error, extraClass = "") {
  const lines = error && error.lines ? error.lines : [String(error && error.message) || "Failed."];
  return el(
    "div",
    { class: ("error " + extraClass).trim(), role: "alert" },
    el("strong", {}, lines[0]),
    lines.slice(1).map((line) => el("p", {}, line)),
  );
}
