// The technician's page: ask (streamed stages, answer, sources), a conversation with
// follow-ups, a knowledge-base filter, and the documents view. No framework, no build.

import { askStream, call, setToken, token } from "./api.js";
import { Turn } from "./answer.js";
import { $, el, clear, errorBox } from "./dom.js";
import { initDocs, loadDocuments, setKnowledgeBase } from "./docs.js";
import { initSource, openPassage } from "./source.js";

const state = { sessionId: "", busy: false, maxQuestion: 0, knowledgeBase: "" };

function notice(error) {
  const box = $("notice");
  if (!error) {
    box.hidden = true;
    clear(box);
    return;
  }
  clear(box).append(errorBox(error));
  box.hidden = false;
}

// Who the token is (GET /v1/server-info): its role shows or hides the admin controls.
async function identify() {
  try {
    const info = await call("GET", "/v1/server-info");
    const admin = info.role === "ROLE_ADMIN";
    document.body.classList.toggle("admin", admin);
    $("upload-form").hidden = !admin;
    const scope = (info.scope || []).length ? " · " + info.scope.join(", ") : "";
    $("who").textContent = (admin ? "Admin" : "Reader") + scope;
    signedIn(true);
    state.maxQuestion = (info.limits && info.limits.maxQuestionChars) || 0;
    notice(null);
    return true;
  } catch (error) {
    document.body.classList.remove("admin");
    $("upload-form").hidden = true;
    $("who").textContent = "";
    signedIn(false);
    if (error.httpStatus === 401 && !token()) {
      // Nothing entered yet: ask for a token, no alarm.
      clear($("notice")).append(el("p", { class: "hint" }, "Enter your access token above to start."));
      $("notice").hidden = false;
      $("token").focus();
    } else notice(error);
    return false;
  }
}

// Signed in: who the token is, and a button to change it; else the token field.
function signedIn(yes) {
  $("token-form").hidden = yes;
  $("signed").hidden = !yes;
}

async function loadKnowledgeBases() {
  const select = $("kb-filter");
  try {
    const found = await call("GET", "/v1/knowledge-bases");
    const keep = select.value;
    clear(select).append(el("option", { value: "" }, "All knowledge bases"));
    for (const kb of found.knowledgeBases || []) {
      select.append(el("option", { value: kb.name }, `${kb.name} (${kb.documents || 0})`));
    }
    select.value = [...select.options].some((o) => o.value === keep) ? keep : "";
  } catch {
    // identify() has said why (a refused token, no server); the filter stays "All".
  }
}

async function refresh() {
  const known = await identify();
  if (known) await Promise.all([loadKnowledgeBases(), loadDocuments(true)]);
  return known;
}

function showView(name) {
  document.body.dataset.view = name;
  $("tab-ask").setAttribute("aria-pressed", String(name === "ask"));
  $("tab-docs").setAttribute("aria-pressed", String(name === "docs"));
}

function countQuestion() {
  const n = $("question").value.length;
  const max = state.maxQuestion;
  const out = $("question-count");
  out.classList.toggle("over", Boolean(max) && n > max);
  out.textContent = max && n > max * 0.8 ? `${n} of at most ${max} characters` : "";
}

async function ask() {
  const box = $("question");
  const question = box.value.trim();
  if (!question || state.busy) return;
  state.busy = true;
  $("ask-button").disabled = $("new-conversation").disabled = true; // not while a turn runs
  $("ask-button").textContent = "Asking…";
  $("thread-empty").hidden = true;
  const turn = new Turn(question, openPassage);
  $("thread").append(turn.node);
  turn.node.scrollIntoView({ block: "nearest" });
  const request = { question, includeTrace: false };
  if (state.sessionId) request.sessionId = state.sessionId;
  else request.newSession = true;
  if (state.knowledgeBase) request.filters = { knowledgeBases: [state.knowledgeBase] };
  try {
    await askStream(request, (name, event) => {
      turn.event(name, event);
      if (name === "result" && event.result && event.result.sessionId) state.sessionId = event.result.sessionId;
    });
    if (!turn.answered) throw new Error("The answer did not arrive: the server closed the stream early. Ask again.");
    box.value = "";
    countQuestion();
  } catch (error) {
    turn.fail(error);
  } finally {
    state.busy = false;
    $("ask-button").disabled = false;
    $("new-conversation").disabled = !state.sessionId && !$("thread").children.length;
    $("ask-button").textContent = "Ask";
    turn.node.scrollIntoView({ block: "nearest" });
    turn.body.scrollIntoView({ block: "nearest" });
    box.focus({ preventScroll: true });
  }
}

// "New conversation": the server forgets the session (EndSession), the thread is cleared.
async function newConversation() {
  const id = state.sessionId;
  state.sessionId = "";
  clear($("thread"));
  $("thread-empty").hidden = false;
  $("new-conversation").disabled = true;
  $("question").focus();
  if (!id) return;
  try {
    await call("DELETE", `/v1/sessions/${encodeURIComponent(id)}`);
  } catch (error) {
    if (error.httpStatus !== 404) notice(error);
  }
}

function init() {
  initSource();
  initDocs(loadKnowledgeBases);
  showView("ask");
  $("tab-ask").addEventListener("click", () => showView("ask"));
  $("tab-docs").addEventListener("click", () => showView("docs"));
  $("token").value = token();
  $("token-form").addEventListener("submit", (e) => {
    e.preventDefault();
    setToken($("token").value.trim());
    refresh().then((known) => known && $("question").focus()); // accepted: ready to ask
  });
  $("change-token").addEventListener("click", () => {
    signedIn(false);
    $("token").select();
    $("token").focus();
  });
  $("kb-filter").addEventListener("change", (e) => {
    state.knowledgeBase = e.target.value;
    setKnowledgeBase(state.knowledgeBase);
    loadDocuments(true);
  });
  $("ask-form").addEventListener("submit", (e) => {
    e.preventDefault();
    ask();
  });
  // Enter asks; Shift+Enter starts a new line.
  $("question").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      ask();
    }
  });
  $("question").addEventListener("input", countQuestion);
  $("new-conversation").addEventListener("click", newConversation);
  $("question").focus();
  refresh();
}

init();
