// One turn of the conversation: the question, the stages as they stream in (AskEvent),
// then the answer with its status, its open issues and its numbered citations.

import { el, card, clear, words, ms, place, errorBox } from "./dom.js";

const STAGE_NAMES = {
  perception: "Reading the question",
  plan: "Planning",
  retrieval: "Retrieving",
  draft: "Drafting",
  validation: "Validating",
  retry: "Retrying",
};

export class Turn {
  constructor(question, openCitation) {
    this.openCitation = openCitation;
    this.stageList = el("ol", { class: "stages" });
    this.stageSummary = el("summary", {}, "Working…");
    this.stages = el("details", { class: "stage-box", open: true }, this.stageSummary, this.stageList);
    this.rewritten = el("p", { class: "rewritten", hidden: true });
    this.body = el("div", { class: "answer-slot" });
    this.count = 0;
    this.node = el(
      "li",
      { class: "turn", "aria-busy": "true" },
      el("p", { class: "asked" }, el("span", { class: "who-label" }, "You asked"), question),
      this.rewritten,
      this.stages,
      this.body,
    );
  }

  // An AskEvent of the stream: a stage line, or the final answer.
  event(name, event) {
    if (name === "result") {
      this.answer(event.result || {});
      return;
    }
    const data = event[name] || {};
    if (name === "perception" && data.question) this.showRewrite(data.question);
    this.count += 1;
    const round = Number(event.round) > 1 ? ` (round ${event.round})` : "";
    this.stageList.append(
      el(
        "li",
        { class: "stage " + name },
        el("span", { class: "stage-name" }, (STAGE_NAMES[name] || name) + round),
        el("span", { class: "stage-what" }, stageText(name, data)),
        el("span", { class: "stage-ms" }, "at " + ms(event.elapsedMs)),
      ),
    );
    this.stageSummary.textContent = `Working… ${STAGE_NAMES[name] || name}`;
  }

  showRewrite(question) {
    const asked = this.node.querySelector(".asked").lastChild.textContent;
    if (question.trim() === asked.trim()) return;
    clear(this.rewritten).append(el("span", { class: "who-label" }, "Read as"), question);
    this.rewritten.hidden = false;
  }

  answer(answer) {
    this.answered = true;
    this.node.setAttribute("aria-busy", "false");
    if (answer.rewrittenQuestion) this.showRewrite(answer.rewrittenQuestion);
    const t = answer.timings || {};
    this.stageSummary.textContent =
      `${this.count} ${this.count === 1 ? "stage" : "stages"} · ${ms(t.totalMs)}` + (answer.cached ? " · from the answer cache" : "");
    this.stages.open = false;
    this.stages.append(timingsLine(t));
    clear(this.body).append(answerBlock(answer, this.openCitation));
  }

  fail(error) {
    this.node.setAttribute("aria-busy", "false");
    this.stageSummary.textContent = this.count ? `${this.count} stages, then stopped` : "Not asked";
    this.stages.open = this.count > 0;
    if (!this.count) this.stages.hidden = true;
    clear(this.body).append(errorBox(error));
  }
}

function stageText(name, d) {
  switch (name) {
    case "perception": {
      const parts = [words(d.action, "ACTION_"), words(d.route, "ROUTE_") + " route"];
      const names = (d.entities || []).map((e) => e.text).filter(Boolean);
      if (names.length) parts.push(names.join(", "));
      if (d.sides && d.sides.length) parts.push("comparing " + d.sides.join(" and "));
      if (d.timeStart || d.timeEnd) parts.push(`${d.timeStart || "…"} to ${d.timeEnd || "…"}`);
      return parts.filter(Boolean).join(" · ");
    }
    case "plan": {
      const tasks = d.tasks || [];
      const queries = tasks.map((t) => "“" + t.query + "”").join(", ");
      return `${tasks.length} ${tasks.length === 1 ? "search" : "searches"}` + (queries ? ": " + queries : "");
    }
    case "retrieval": {
      const docs = (d.documentIds || []).length;
      return `${d.evidence || 0} passages from ${docs} ${docs === 1 ? "document" : "documents"}`;
    }
    case "draft":
      return d.abstained ? "nothing to answer from" : "answer written";
    case "validation": {
      if (d.passed) return "all checks passed";
      const failed = (d.checks || []).filter((c) => !c.passed).map((c) => words(c.check, "CHECK_"));
      return "failed: " + (failed.join(", ") || "checks");
    }
    case "retry":
      return (d.issues || []).map((i) => i.message).filter(Boolean)[0] || "trying again";
    default:
      return "";
  }
}

function timingsLine(t) {
  const parts = [
    ["read", t.perceptionMs],
    ["plan", t.planMs],
    ["retrieve", t.retrievalMs],
    ["write", t.generationMs],
    ["validate", t.validationMs],
  ].map(([label, value]) => `${label} ${ms(value)}`);
  return el("p", { class: "timings" }, parts.join(" · ") + ` · total ${ms(t.totalMs)}`);
}

// The issues validation left open, each once: "“statement” — message".
export function openIssues(report) {
  const seen = new Set();
  const out = [];
  for (const check of (report && report.checks) || []) {
    for (const issue of check.issues || []) {
      const text = issue.message || words(issue.kind, "ISSUE_KIND_");
      const key = text + "|" + (issue.statement || "");
      if (!text || seen.has(key)) continue;
      seen.add(key);
      out.push(issue);
    }
  }
  return out;
}

const STATUS = {
  ANSWER_STATUS_OK: ["ok", "Answer", "every statement is backed by the sources below."],
  ANSWER_STATUS_UNCERTAIN: ["uncertain", "Uncertain answer", "check the open issues before relying on it."],
  ANSWER_STATUS_NO_ANSWER: ["no-answer", "No answer", "the documents do not answer this question."],
};

function answerBlock(answer, openCitation) {
  const [kind, label, hint] = STATUS[answer.status] || ["uncertain", "Answer (status unknown)", ""];
  const citations = answer.citations || [];
  const byNumber = new Map(citations.map((c) => [Number(c.number), c]));
  const issues = openIssues(answer.report);
  const block = el(
    "div",
    { class: "answer " + kind, dataset: { status: kind } },
    el("p", { class: "status" }, el("strong", {}, label), hint && !(kind === "no-answer" && answer.text) ? " — " + hint : ""),
  );
  if (answer.text) block.append(el("p", { class: "text" }, withCitations(answer.text, byNumber, openCitation)));
  if (issues.length && kind !== "ok") {
    block.append(
      el("p", { class: "issues-head" }, kind === "no-answer" ? "Why:" : "Open issues:"),
      el("ul", { class: "issues" }, issues.map((i) => el("li", {}, i.statement ? `“${i.statement}” — ${i.message}` : i.message))),
    );
  }
  if (citations.length) {
    block.append(
      el("p", { class: "sources-head" }, "Sources"),
      el("ol", { class: "citations" },
        citations.map((c) => {
          const open = (from) => openCitation(c, from, citing(answer.text, c.number));
          const lines = [["num", `[${c.number}]`], ["title", c.title || c.documentId], ["where", citationPlace(c)]];
          return el("li", {}, card("citation", open, lines));
        }),
      ),
    );
  }
  return block;
}

export function citationPlace(c) {
  if (c.table) return `table ${c.table} · ${(c.rows || []).length} rows`;
  return [place(c.section, c.firstPage, c.lastPage), c.knowledgeBase, c.updatedAt].filter(Boolean).join(" · ");
}

// The sentences of the answer's statements that cite [n], without their citation marks.
// A statement runs from the marks before it to its own and may hold several sentences
// cited once ("Error E4027 means … Check the accumulator … [1]."): each is picked out.
function citing(text, number) {
  return text
    .split(/(?<=\[\d+\][.!?]?)\s+/)
    .filter((statement) => statement.includes(`[${number}]`))
    .flatMap((statement) => statement.split(/(?<=[.!?])\s+/))
    .map((sentence) => sentence.replace(/\s*\[\d+\]/g, "").trim())
    .filter(Boolean);
}

// The answer text with each "[n]" a button that opens citation n.
function withCitations(text, byNumber, openCitation) {
  const parts = [];
  let last = 0;
  for (const match of text.matchAll(/\[(\d+)\]/g)) {
    const citation = byNumber.get(Number(match[1]));
    if (!citation) continue;
    parts.push(text.slice(last, match.index));
    parts.push(
      el(
        "button",
        {
          type: "button",
          class: "cite",
          "aria-label": `Source ${match[1]}: ${citation.title || citation.documentId}`,
          onclick: (e) => openCitation(citation, e.currentTarget, citing(text, citation.number)),
        },
        match[0],
      ),
    );
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return parts;
}
