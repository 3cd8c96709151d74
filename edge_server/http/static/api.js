// The JSON/HTTP API of ragcore.v1, as the page calls it: bodies are the proto3 JSON
// mapping of proto/ragcore/v1/ragcore.proto (lowerCamelCase fields, enums by name,
// 64-bit integers as strings, default values left out). Errors are google.rpc.Status
// JSON; every failure becomes an ApiError whose text says what went wrong and what to do.

const TOKEN_KEY = "ragcore.token"; // sessionStorage only: gone when the tab closes

export function token() {
  return sessionStorage.getItem(TOKEN_KEY) || "";
}

export function setToken(value) {
  if (value) sessionStorage.setItem(TOKEN_KEY, value);
  else sessionStorage.removeItem(TOKEN_KEY);
}

export function headers(extra = {}) {
  const h = { Accept: "application/json", ...extra };
  const t = token();
  if (t) h.Authorization = "Bearer " + t;
  return h;
}

// What an HTTP status means to the person at the terminal.
const STATUS_WORDS = {
  400: "The request was not accepted",
  401: "The access token is missing or not accepted",
  403: "This access token may not do that",
  404: "Not found",
  408: "The server took too long",
  409: "It changed meanwhile",
  413: "Too large",
  429: "The server is busy",
  499: "Cancelled",
  500: "The server failed",
  501: "Not available on this server",
  503: "The server is not available",
  504: "The server took too long",
};

export class ApiError extends Error {
  constructor(httpStatus, status) {
    const headline = STATUS_WORDS[httpStatus] || `Request failed (HTTP ${httpStatus})`;
    super(status.message || headline);
    this.httpStatus = httpStatus;
    this.headline = headline;
    this.details = status.details || [];
  }

  // The reason code (google.rpc.ErrorInfo) and the field violations (BadRequest).
  get reason() {
    const info = this.details.find((d) => (d["@type"] || "").endsWith("ErrorInfo"));
    return info ? info.reason || "" : "";
  }

  get violations() {
    const bad = this.details.find((d) => (d["@type"] || "").endsWith("BadRequest"));
    return bad ? bad.fieldViolations || [] : [];
  }

  get retryAfter() {
    const retry = this.details.find((d) => (d["@type"] || "").endsWith("RetryInfo"));
    return retry ? retry.retryDelay || "" : "";
  }

  // Lines to show: the headline, the server's message, each field's problem.
  get lines() {
    const lines = [this.headline + "."];
    if (this.message && this.message !== this.headline) lines.push(sentence(this.message));
    for (const v of this.violations) {
      const line = (v.field ? v.field + ": " : "") + (v.description || "");
      if (line && !this.message.includes(v.description || line)) lines.push(sentence(line));
    }
    if (this.httpStatus === 401) lines.push("Enter a valid access token above.");
    if (this.retryAfter) lines.push("Try again in " + this.retryAfter + ".");
    return lines;
  }
}

// "the token is unknown" → "The token is unknown.": a server message as a sentence.
function sentence(text) {
  const t = text.trim();
  return t.charAt(0).toUpperCase() + t.slice(1) + (/[.!?]$/.test(t) ? "" : ".");
}

export function networkError(cause) {
  const error = new ApiError(0, { message: "" });
  error.headline = "Cannot reach the server";
  error.message = "Check that ragcore serve is running with --http-port, then try again.";
  error.cause = cause;
  return error;
}

// The ApiError a failed response carries (its body a google.rpc.Status, or anything else).
export async function errorOf(response) {
  let status = {};
  try {
    status = await response.json();
  } catch {
    status = {};
  }
  return new ApiError(response.status, status && typeof status === "object" ? status : {});
}

export async function call(method, path, body) {
  const init = { method, headers: headers() };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (cause) {
    throw networkError(cause);
  }
  if (!response.ok) throw await errorOf(response);
  return response.status === 204 ? {} : response.json();
}

export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== "" && v != null) q.set(k, String(v));
  const s = q.toString();
  return s ? "?" + s : "";
}

// POST /v1/ask:stream: calls onEvent(name, data) for each Server-Sent Event as it comes
// (EventSource can neither POST nor send a token, so the body is read here). An `error`
// event carries a google.rpc.Status and ends the stream with an ApiError.
export async function askStream(request, onEvent, signal) {
  let response;
  try {
    response = await fetch("/v1/ask:stream", {
      method: "POST",
      headers: headers({ "Content-Type": "application/json", Accept: "text/event-stream" }),
      body: JSON.stringify(request),
      signal,
    });
  } catch (cause) {
    if (cause.name === "AbortError") throw cause;
    throw networkError(cause);
  }
  if (!response.ok) throw await errorOf(response);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buffer += value.replace(/\r\n?/g, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      dispatch(block, onEvent);
    }
    if (done) break;
  }
  if (buffer.trim()) dispatch(buffer, onEvent);
}

function dispatch(block, onEvent) {
  let name = "message";
  const data = [];
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) continue; // a comment (keep-alive)
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") name = value;
    else if (field === "data") data.push(value);
  }
  if (!data.length) return;
  const payload = JSON.parse(data.join("\n"));
  if (name === "error") throw new ApiError(httpStatusOf(payload.code), payload);
  onEvent(name, payload);
}

// google.rpc.Code → the HTTP status it maps to (the error event of a stream has no status).
const CODE_TO_HTTP = {
  1: 499, 2: 500, 3: 400, 4: 504, 5: 404, 6: 409, 7: 403, 8: 429,
  9: 400, 10: 409, 11: 400, 12: 501, 13: 500, 14: 503, 15: 500, 16: 401,
};

function httpStatusOf(code) {
  return CODE_TO_HTTP[code] || 500;
}

// POST /v1/documents with one file, reporting upload progress (fetch cannot, XHR can).
export function upload(file, knowledgeBase, onProgress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/v1/documents");
    for (const [k, v] of Object.entries(headers())) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onerror = () => reject(networkError(null));
    xhr.onload = () => {
      let body = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = {};
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body);
      else reject(new ApiError(xhr.status, body && typeof body === "object" ? body : {}));
    };
    const form = new FormData();
    if (knowledgeBase) form.append("knowledge_base", knowledgeBase);
    form.append("file", file, file.name);
    xhr.send(form);
  });
}
