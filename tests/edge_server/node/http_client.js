#!/usr/bin/env node
// client.js's calls over the JSON/HTTP API, with Node's built-in fetch and nothing else:
// no .proto, no generated code. tests/edge_server/test_node_http_client.py runs client.js
// and then this against one server (`serve --http-port`) and checks that both saw the
// same answers, errors and limits.
//
//   node http_client.js BASE_URL        (e.g. http://127.0.0.1:8080)
//
// The tokens come from the environment as for client.js. Bodies are the proto3 JSON of
// the .proto's messages (requests in the .proto's field names, replies in lowerCamelCase),
// errors a google.rpc.Status with the HTTP status of its code. Prints one JSON line with
// what it saw, keyed as client.js's; on any failure, why, on stderr, and exits 1.
'use strict';

const QUESTION = 'How often should the CP-200 seal be replaced?';
const SCOPED_READER_KB = 'manuals';
const DEADLINE_SECONDS = '30';
const FILLER = Array.from({ length: 30 }, (_, i) =>
  `Loop ${i + 1} of the XV-9 cooling circuit runs at 2.5 bar – checked at 95 °C, logged as “ok” 🙂.`,
).join(' ');
const NEW_DOCUMENT = {
  id: 'node-client-xv9-valve',
  knowledge_base: 'manuals',
  title: 'XV-9 quench valve',
  doc_type: 'manual',
  authority: 4,
  version: 2,
  updated_at: '2025-06-01',
  metadata: { written_by: 'tests/edge_server/node/http_client.js' },
  text: `${FILLER} Lubricate the XV-9 quench valve stem with graphite paste every 400 operating hours.`,
};
const SEARCH_QUERY = 'XV-9 quench valve stem graphite paste';
const TABLE = {
  table: 'node_gauges',
  file_name: 'gauges.csv',
  schema: [
    'description = "Gauge readings of the XV-9 test rig"',
    '[columns]', 'gauge = "text"', 'reading_kpa = "real"',
    '[dimensions.gauge]', 'synonyms = ["dial"]',
    '[measures.reading_kpa]', 'unit = "kPa"', 'aggregation = "avg"',
  ].join('\n'),
};
const TABLE_DATA = 'gauge,reading_kpa\nG1,101.5\nG2,99.0\nG3,100.25\n';
const HTTP_STATUS = { 3: 400, 5: 404, 7: 403, 8: 429, 16: 401 };

class CheckFailed extends Error {}

function check(condition, message) {
  if (!condition) throw new CheckFailed(message);
}

class HttpError extends Error {
  constructor(method, status, body, headers) {
    super(`${method}: HTTP ${status}: ${JSON.stringify(body)}`);
    Object.assign(this, { method, status, body, headers });
  }
}

// One call: JSON (or a form) in, the reply's JSON out; an error status throws HttpError.
function caller(base, token) {
  return async (method, path, body) => {
    const headers = { 'x-request-timeout': DEADLINE_SECONDS };
    if (token) headers.authorization = `Bearer ${token}`;
    let payload;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const response = await fetch(base + path, { method, headers, body: payload });
    const text = await response.text();
    const json = text ? JSON.parse(text) : {};
    if (!response.ok) throw new HttpError(`${method} ${path}`, response.status, json, response.headers);
    return json;
  };
}

// The details of a Status body, by type: {code, message, ErrorInfo, BadRequest, RetryInfo}.
function richDetails(status) {
  const details = { code: status.code, message: status.message };
  for (const any of status.details || []) details[any['@type'].split('.').pop()] = any;
  return details;
}

// The error a call fails with, checked: the HTTP status of the code, the Status body with
// its ErrorInfo (reason, domain, request id) and the X-Request-Id header.
async function expectError(promise, code, reason, what) {
  try {
    await promise;
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    const rich = richDetails(err.body);
    check(err.status === HTTP_STATUS[code] && rich.code === code,
      `${what}: expected code ${code} (HTTP ${HTTP_STATUS[code]}), got ${rich.code} (HTTP ${err.status}): ${rich.message}`);
    const info = rich.ErrorInfo;
    check(info && info.domain === 'ragcore.v1' && info.reason === reason,
      `${what}: ErrorInfo ${JSON.stringify(info)}, expected reason ${reason}`);
    check(info.metadata.request_id && info.metadata.request_id === err.headers.get('x-request-id'),
      `${what}: ErrorInfo request_id ${info.metadata.request_id}, header ${err.headers.get('x-request-id')}`);
    return { code, details: rich.message, rich, headers: err.headers };
  }
  throw new CheckFailed(`${what}: expected code ${code}, but it succeeded`);
}

// AskStream as Server-Sent Events: [{event, data}] in order.
async function askStream(base, token, request) {
  const response = await fetch(`${base}/v1/ask:stream`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(request),
  });
  check(response.ok && response.headers.get('content-type').startsWith('text/event-stream'),
    `AskStream: HTTP ${response.status} ${response.headers.get('content-type')}`);
  const events = [];
  for (const block of (await response.text()).split('\n\n')) {
    const event = /^event: (.*)$/m.exec(block);
    const data = /^data: (.*)$/m.exec(block);
    if (event && data) events.push({ event: event[1], data: JSON.parse(data[1]) });
  }
  check(!events.some((e) => e.event === 'error'), `AskStream: an error event ${JSON.stringify(events)}`);
  return events;
}

function tableForm(table, data, replace = false) {
  const form = new FormData();
  form.set('table', table.table);
  form.set('schema', table.schema);
  form.set('replace', String(replace));
  form.set('file', new Blob([data]), table.file_name);
  return form;
}

async function listAll(call, query = '') {
  const documents = [];
  let token = '';
  do {
    const page = await call('GET', `/v1/documents?page_size=7&page_token=${encodeURIComponent(token)}${query}`);
    documents.push(...page.documents);
    token = page.nextPageToken;
  } while (token);
  return documents;
}

async function asAdmin(base, call, result) {
  const health = await (await fetch(`${base}/v1/health?service=ragcore.v1.Ragcore`)).json();
  result.health = health.status;
  const info = await call('GET', '/v1/server-info');
  result.server_info = { version: info.version, limits: snake(info.limits), embedder: info.embedder, store: info.store };
  const limits = info.limits;

  const answer = await call('POST', '/v1/ask', { question: QUESTION, filters: { knowledge_bases: ['manuals'] }, max_rounds: 2 });
  result.ask = {
    status: answer.status,
    citations: answer.citations.length,
    cited: answer.citations.map((c) => c.documentId),
    text: answer.text,
  };
  const events = await askStream(base, process.env.RAGCORE_ADMIN_TOKEN, { question: 'Which compressor is louder, AC-75 or AC-110?' });
  const kinds = events.map((e) => e.event);
  check(events.every((e) => e.event in e.data), 'AskStream: an event whose data is not its oneof case');
  result.ask_stream = { events: kinds.length, kinds: [...new Set(kinds)], status: events[events.length - 1].data.result.status };

  const opened = await call('POST', '/v1/ask', { question: 'What does E4027 mean on the HP-400?', new_session: true });
  const sessionId = opened.sessionId;
  const followUp = await call('POST', '/v1/ask', { question: 'And E4031?', session_id: sessionId });
  const streamed = await askStream(base, process.env.RAGCORE_ADMIN_TOKEN, { question: 'And on the HP-500?', session_id: sessionId });
  const repeat = await call('POST', '/v1/ask', { question: 'What does E4027 mean on the HP-400?' });
  const ended = await call('DELETE', `/v1/sessions/${sessionId}`);
  const endedAgain = await call('DELETE', `/v1/sessions/${sessionId}`);
  check(ended.ended === true && endedAgain.ended === false, `EndSession: ${ended.ended}, then ${endedAgain.ended}`);
  result.session = { rewritten: followUp.rewrittenQuestion, streamed: streamed[0].data.perception.question, cached: repeat.cached, ended: ended.ended };

  const summary = await call('POST', '/v1/documents', { requests: [{ document: NEW_DOCUMENT }] });
  result.ingest = { document_id: NEW_DOCUMENT.id, added: summary.added, chunks: summary.chunks };
  const found = await call('GET', `/v1/search?query=${encodeURIComponent(SEARCH_QUERY)}&k=3&filters.knowledge_bases=manuals&filters.min_authority=4`);
  const first = found.hits[0];
  const stored = await call('GET', `/v1/documents/${NEW_DOCUMENT.id}?include_text=true`);
  check(stored.text === NEW_DOCUMENT.text, 'GetDocument include_text: not the text ingested');
  check(Array.from(stored.text).slice(first.start, first.end).join('') === first.text,
    `Search: code points [${first.start}, ${first.end}) of the stored text are not the hit's text`);
  result.search = { first: first.documentId, hits: found.hits.length, start: first.start };
  const everything = await listAll(call);
  result.list_documents = { all: everything.length };
  const deleted = await call('DELETE', `/v1/documents/${NEW_DOCUMENT.id}`);
  check(deleted.chunksRemoved === summary.chunks, `DeleteDocument: ${JSON.stringify(deleted)}`);

  // The table: loaded, listed, a taken name and a bad row refused; then removed again is
  // not possible over either door, so the gRPC run's table is replaced, same contents.
  const loaded = await call('POST', '/v1/tables', tableForm(TABLE, TABLE_DATA, true));
  const tables = await call('GET', '/v1/tables');
  const gauges = tables.tables.find((t) => t.name === TABLE.table);
  check(Number(loaded.rows) === 3 && gauges, `IngestTable: ${JSON.stringify(loaded)}`);
  const taken = await expectError(call('POST', '/v1/tables', tableForm(TABLE, TABLE_DATA)), 3, 'INVALID_TABLE', 'IngestTable under a taken name');
  check(taken.rich.BadRequest.fieldViolations[0].field === 'table', 'IngestTable without replace: not the table field');
  const badRow = await expectError(call('POST', '/v1/tables', tableForm(TABLE, 'gauge,reading_kpa\nG1,101.5\nG2,high\n', true)),
    3, 'INVALID_TABLE', 'IngestTable with a bad row');
  result.tables = {
    rows: Number(gauges.rows),
    unit: gauges.measures[0].unit,
    columns: gauges.columns.map((c) => `${c.name}:${c.type}:${c.dimension}`),
    bad_row: { field: badRow.rich.BadRequest.fieldViolations[0].field, metadata: badRow.rich.ErrorInfo.metadata },
  };

  const errors = {};
  const negativeK = await expectError(call('GET', '/v1/search?query=seal&k=-1'), 3, 'INVALID_FIELD', 'Search with k = -1');
  errors.negative_k = { details: negativeK.details, field: negativeK.rich.BadRequest.fieldViolations[0].field };
  const badDate = await expectError(call('POST', '/v1/ask', { question: QUESTION, filters: { updated_after: '2024-13-01' } }),
    3, 'INVALID_FIELD', 'Ask with a bad date');
  errors.bad_date = { field: badDate.rich.BadRequest.fieldViolations[0].field };
  const tooLong = await expectError(call('POST', '/v1/ask', { question: 'x'.repeat(limits.maxQuestionChars + 1) }),
    3, 'INVALID_FIELD', 'Ask with a question over the limit');
  errors.question_too_long = { field: tooLong.rich.BadRequest.fieldViolations[0].field };
  const good = { id: 'node-good', knowledge_base: 'faq', text: 'A fine note.' };
  const broken = { id: 'node-broken', knowledge_base: 'faq', text: 'A note.', updated_at: '2024-02-30' };
  const badDocument = await expectError(call('POST', '/v1/documents', { requests: [{ document: good }, { document: broken }] }),
    3, 'INVALID_DOCUMENT', 'Ingest with a bad second document');
  errors.bad_document = { field: badDocument.rich.BadRequest.fieldViolations[0].field, metadata: badDocument.rich.ErrorInfo.metadata };
  const form = new FormData();
  form.append('file', new Blob(['A fine note.']), 'node-good.md');
  form.append('file', new Blob(['---\nid: node-broken\nno colon\n---\nA note.']), 'node-broken.md');
  const badFile = await expectError(call('POST', '/v1/documents', form), 3, 'INVALID_DOCUMENT', 'Ingest with a malformed file');
  errors.bad_file = { field: badFile.rich.BadRequest.fieldViolations[0].field, file: badFile.rich.ErrorInfo.metadata.file, details: badFile.details };
  const missing = await expectError(call('GET', '/v1/documents/no-such-document'), 5, 'DOCUMENT_NOT_FOUND', 'GetDocument of an unknown id');
  errors.not_found = { details: missing.details };
  const badToken = await expectError(call('GET', '/v1/documents?page_token=not-a-token'), 3, 'INVALID_FIELD', 'ListDocuments with a made-up page token');
  errors.bad_page_token = { field: badToken.rich.BadRequest.fieldViolations[0].field };
  await expectError(caller(base, '')('GET', '/v1/stats'), 16, 'TOKEN_MISSING', 'GetStats without a token');
  await expectError(caller(base, 'x'.repeat(32))('GET', '/v1/stats'), 16, 'TOKEN_UNKNOWN', 'GetStats with an unknown token');
  const maxBytes = Number(limits.maxMessageBytes);
  const huge = { id: 'node-huge', knowledge_base: 'faq', text: 'word '.repeat(Math.ceil(maxBytes / 5) + 10) };
  const tooLarge = await expectError(call('POST', '/v1/documents', { requests: [{ document: huge }] }), 8, 'MESSAGE_TOO_LARGE', 'Ingest over max_message_bytes');
  errors.too_large = { limit_bytes: tooLarge.rich.ErrorInfo.metadata.limit_bytes };
  let busy = null;
  for (let burst = 0; burst < 5 && !busy; burst += 1) {
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => call('POST', '/v1/ask', { question: QUESTION })));
    const refused = outcomes.find((o) => o.status === 'rejected');
    if (refused) busy = await expectError(Promise.reject(refused.reason), 8, 'SERVER_BUSY', 'a burst of asks');
  }
  check(busy, `a burst of asks over max_in_flight ${limits.maxInFlight}: none was refused`);
  const delay = busy.rich.RetryInfo.retryDelay; // a Duration in JSON: "0.200s"
  check(Number(busy.headers.get('retry-after')) >= 1, `SERVER_BUSY without Retry-After: ${busy.headers.get('retry-after')}`);
  errors.busy = { retry_delay_ms: Number(delay.replace(/s$/, '')) * 1000 };
  result.errors = errors;
}

async function asReader(call, result) {
  const answer = await call('POST', '/v1/ask', { question: QUESTION });
  const denied = await expectError(call('POST', '/v1/documents', { requests: [{ document: NEW_DOCUMENT }] }),
    7, 'ADMIN_REQUIRED', 'Ingest with a reader token');
  await expectError(call('DELETE', '/v1/knowledge-bases/faq'), 7, 'ADMIN_REQUIRED', 'DeleteKnowledgeBase with a reader token');
  const tableDenied = await expectError(call('POST', '/v1/tables', tableForm(TABLE, TABLE_DATA)), 7, 'ADMIN_REQUIRED', 'IngestTable with a reader token');
  result.reader = { ask: answer.status, ingest: denied.code, ingest_table: tableDenied.code };
}

async function asScoped(call, result) {
  const listed = await listAll(call);
  check(listed.every((d) => d.knowledgeBase === SCOPED_READER_KB), 'a scoped reader listed a document outside its scope');
  const outside = await expectError(call('GET', '/v1/search?query=lockout&filters.knowledge_bases=regulations'),
    7, 'OUTSIDE_SCOPE', 'Search of a knowledge base outside the scope');
  result.scoped_reader = { documents: listed.length, outside: outside.code };
}

// The limits as client.js prints them (its proto-loader keeps the .proto's names).
function snake(object) {
  return Object.fromEntries(Object.entries(object).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), String(v)]));
}

async function main() {
  const base = (process.argv[2] || process.env.RAGCORE_HTTP_BASE || '').replace(/\/$/, '');
  if (!base) {
    console.error('usage: node http_client.js BASE_URL (or $RAGCORE_HTTP_BASE), with the tokens set');
    process.exit(2);
  }
  const env = process.env;
  const result = { base };
  try {
    await asAdmin(base, caller(base, env.RAGCORE_ADMIN_TOKEN), result);
    await asReader(caller(base, env.RAGCORE_READER_TOKEN), result);
    await asScoped(caller(base, env.RAGCORE_SCOPED_READER_TOKEN), result);
    console.log(JSON.stringify(result));
  } catch (err) {
    console.error(`node http client FAILED against ${base}: ${err instanceof CheckFailed || err instanceof HttpError ? err.message : err.stack}`);
    process.exit(1);
  }
}

main();
