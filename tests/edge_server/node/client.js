#!/usr/bin/env node
// A Node.js client of the ragcore edge service that knows only the .proto files: no
// generated code, nothing from the Python side. tests/edge_server/test_node_client.py
// runs it against a live server over a fresh copy of the sample knowledge base.
//
//   node client.js TARGET
//
// TARGET is host:port (or $RAGCORE_TARGET). The tokens come from the environment, as the
// server's tokens file gives them out:
//   RAGCORE_ADMIN_TOKEN          an admin token of every knowledge base
//   RAGCORE_READER_TOKEN         a reader token of every knowledge base
//   RAGCORE_SCOPED_READER_TOKEN  a reader token limited to "manuals"
//   RAGCORE_SCOPED_ADMIN_TOKEN   an admin token limited to "faq"
// The server runs with max_in_flight 1 (so a burst of asks meets SERVER_BUSY) and a small
// max_message_bytes (RAGCORE_MAX_MESSAGE_BYTES, so a large document meets
// MESSAGE_TOO_LARGE).
//
// It calls every rpc of ragcore.v1 (and health), checks the scoped tokens never see a
// document, title or count from outside their knowledge bases, and reads the rich error
// details (google.rpc.Status in the grpc-status-details-bin trailer, decoded with
// protobufjs from proto/google/rpc). On success it prints one JSON line with what it
// saw; on any failure it prints why to stderr and exits with status 1.
'use strict';

const path = require('node:path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const protobuf = require('protobufjs');

const PROTO_ROOT = path.join(__dirname, '..', '..', '..', 'proto');
const PROTOS = ['ragcore/v1/ragcore.proto', 'grpc/health/v1/health.proto'];
const STATUS_PROTOS = ['google/rpc/status.proto', 'google/rpc/error_details.proto'];
const DEADLINE_MS = 30000; // every call gets one; an Ask on a small machine takes seconds

const QUESTION = 'How often should the CP-200 seal be replaced?';
const REGULATION_QUESTION = 'How often must lockout devices be inspected?';
const SCOPED_READER_KB = 'manuals';
const SCOPED_ADMIN_KB = 'faq';
// A document nothing in the sample knowledge base resembles, long enough for several
// chunks, with characters beyond UTF-16's single units (emoji) before the searched chunk.
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
  metadata: { written_by: 'tests/edge_server/node/client.js' },
  text: `${FILLER} Lubricate the XV-9 quench valve stem with graphite paste every 400 operating hours.`,
};
const SEARCH_QUERY = 'XV-9 quench valve stem graphite paste';
const SCRATCH_KB = 'node-scratch';
// A table no sample question asks about, loaded in two messages.
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
const TABLE_PIECES = ['gauge,reading_kpa\nG1,101.5\nG', '2,99.0\nG3,100.25\n'];

// -- plumbing -------------------------------------------------------------------------
class CheckFailed extends Error {}

function check(condition, message) {
  if (!condition) throw new CheckFailed(message);
}

function loadServices() {
  const definition = protoLoader.loadSync(PROTOS, {
    includeDirs: [PROTO_ROOT],
    keepCase: true,
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
  });
  const loaded = grpc.loadPackageDefinition(definition);
  return { Ragcore: loaded.ragcore.v1.Ragcore, Health: loaded.grpc.health.v1.Health };
}

// google.rpc.Status and its details, from the vendored .protos (google/protobuf/any and
// duration come with protobufjs).
function loadStatusTypes() {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => path.join(PROTO_ROOT, target);
  root.loadSync(STATUS_PROTOS, { keepCase: true });
  return root;
}
const STATUS_TYPES = loadStatusTypes();
const Status = STATUS_TYPES.lookupType('google.rpc.Status');

// The details of a failed call: {ErrorInfo, BadRequest, RetryInfo} (those sent).
function richDetails(err) {
  const values = err.metadata ? err.metadata.get('grpc-status-details-bin') : [];
  if (!values.length) return null;
  const status = Status.decode(values[0]);
  const details = { code: status.code, message: status.message };
  for (const any of status.details) {
    const name = any.type_url.split('/').pop(); // "type.googleapis.com/google.rpc.ErrorInfo"
    const type = STATUS_TYPES.lookupType(name);
    details[type.name] = type.toObject(type.decode(any.value), { longs: Number, defaults: true });
  }
  return details;
}

const callOptions = () => ({ deadline: Date.now() + DEADLINE_MS });

function withToken(token) {
  const metadata = new grpc.Metadata();
  if (token) metadata.set('authorization', `Bearer ${token}`);
  return metadata;
}

// Settles a promise from a grpc callback; a grpc error (err.code, err.details) also
// records which call it came from.
const settle = (method, resolve, reject) => (err, reply) =>
  err ? reject(Object.assign(err, { method })) : resolve(reply);

// A unary call as a promise.
function unary(client, method, request, metadata) {
  return new Promise((resolve, reject) => {
    client[method](request, metadata, callOptions(), settle(method, resolve, reject));
  });
}

// The client-streaming Ingest: one IngestRequest per document, then the summary.
function ingest(client, documents, metadata) {
  return ingestRequests(client, documents.map((document) => ({ document })), metadata);
}

// Ingest of files: one IngestRequest per DocumentFile (the server reads the documents).
function ingestFiles(client, files, metadata) {
  return ingestRequests(client, files.map((file) => ({ file })), metadata);
}

function ingestRequests(client, requests, metadata) {
  return new Promise((resolve, reject) => {
    const call = client.Ingest(metadata, callOptions(), settle('Ingest', resolve, reject));
    for (const request of requests) call.write(request);
    call.end();
  });
}

// The client-streaming IngestTable: the header (table, schema, file_name) with the first
// piece of the file, then the other pieces, then the summary.
function ingestTable(client, header, pieces, metadata) {
  return new Promise((resolve, reject) => {
    const call = client.IngestTable(metadata, callOptions(), settle('IngestTable', resolve, reject));
    pieces.forEach((piece, i) => call.write(i === 0 ? { ...header, data: Buffer.from(piece) } : { data: Buffer.from(piece) }));
    call.end();
  });
}

// The server-streaming AskStream: every event, in order.
function askStream(client, request, metadata) {
  return new Promise((resolve, reject) => {
    const events = [];
    const call = client.AskStream(request, metadata, callOptions());
    call.on('data', (event) => events.push(event));
    call.on('error', (err) => reject(Object.assign(err, { method: 'AskStream' })));
    call.on('end', () => resolve(events));
  });
}

// The error a call fails with (its rich details read and checked); a CheckFailed if it
// succeeds or fails with another code, or if its details are missing or disagree.
async function expectError(promise, code, reason, what) {
  try {
    await promise;
  } catch (err) {
    check(err.code === code, `${what}: expected status ${grpc.status[code]} (${code}), ` +
      `got ${grpc.status[err.code]} (${err.code}): ${err.details}`);
    const details = richDetails(err);
    check(details, `${what}: the status carries no google.rpc.Status details`);
    check(details.code === code && details.message === err.details,
      `${what}: google.rpc.Status says ${details.code} ${JSON.stringify(details.message)}`);
    const info = details.ErrorInfo;
    check(info && info.domain === 'ragcore.v1' && info.reason === reason,
      `${what}: ErrorInfo ${JSON.stringify(info)}, expected reason ${reason}`);
    check(info.metadata.request_id, `${what}: ErrorInfo has no request_id`);
    return { code: err.code, details: err.details, rich: details };
  }
  throw new CheckFailed(`${what}: expected status ${grpc.status[code]} (${code}), but it succeeded`);
}

// Every document of the store the token may see, page by page.
async function listAll(ragcore, metadata, request = {}) {
  const documents = [];
  let pageToken = '';
  let pages = 0;
  do {
    const page = await unary(ragcore, 'ListDocuments', { ...request, page_size: 7, page_token: pageToken }, metadata);
    check(page.documents.length <= 7, `ListDocuments: ${page.documents.length} documents on a page of 7`);
    documents.push(...page.documents);
    pageToken = page.next_page_token;
    pages += 1;
    check(pages < 100, 'ListDocuments: more than 100 pages; the page token does not advance');
  } while (pageToken);
  const ids = documents.map((d) => d.id);
  check(new Set(ids).size === ids.length, 'ListDocuments: a document came on two pages');
  return documents;
}

// The citations are numbered 1..n in the order the text first uses them.
function checkCitationOrder(answer, what) {
  const used = [];
  for (const match of answer.text.matchAll(/\[(\d+)\]/g)) {
    const n = Number(match[1]);
    if (!used.includes(n)) used.push(n);
  }
  const numbers = answer.citations.map((c) => c.number);
  const expected = numbers.map((_, i) => i + 1);
  check(JSON.stringify(used) === JSON.stringify(expected) && JSON.stringify(numbers) === JSON.stringify(expected),
    `${what}: citations ${JSON.stringify(numbers)}, first used in the order ${JSON.stringify(used)}; ` +
    'expected 1..n in order of first use');
}

// Every document id, knowledge base and title anywhere in a reply, by walking it.
function namesIn(value, found = { ids: new Set(), kbs: new Set(), titles: new Set() }) {
  if (Array.isArray(value)) {
    value.forEach((v) => namesIn(v, found));
  } else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (['document_id', 'superseded_by', 'supersedes'].includes(key)) {
        [].concat(v).filter(Boolean).forEach((x) => found.ids.add(x));
      } else if (key === 'document_ids') {
        v.forEach((x) => found.ids.add(x));
      } else if (key === 'knowledge_base' || key === 'knowledge_bases' || key === 'scope') {
        // names only (ListKnowledgeBasesResponse lists objects, Stats counts them)
        [].concat(v).filter((x) => typeof x === 'string' && x).forEach((x) => found.kbs.add(x));
      } else if (key === 'title' && v) {
        found.titles.add(v);
      } else if (key === 'id' && typeof v === 'string' && 'chunk_count' in value) {
        found.ids.add(v); // a StoredDocument's own id
      }
      namesIn(v, found);
    }
  }
  return found;
}

// -- the checks: an unscoped admin ---------------------------------------------------
async function asAdmin(ragcore, health, admin, result) {
  const status = await unary(health, 'Check', { service: 'ragcore.v1.Ragcore' }, new grpc.Metadata());
  check(status.status === 'SERVING', `health of ragcore.v1.Ragcore is ${status.status}, not SERVING`);
  result.health = status.status;

  const info = await unary(ragcore, 'GetServerInfo', {}, admin);
  check(info.role === 'ROLE_ADMIN' && info.scope.length === 0, `GetServerInfo: role ${info.role} scope ${info.scope}`);
  check(Number(info.limits.max_question_chars) > 0 && Number(info.limits.max_k) > 0, 'GetServerInfo: no limits');
  result.server_info = { version: info.version, limits: info.limits, embedder: info.embedder, store: info.store };
  const limits = info.limits;

  const answer = await unary(ragcore, 'Ask', { question: QUESTION, filters: { knowledge_bases: ['manuals'] }, max_rounds: 2 }, admin);
  check(answer.status === 'ANSWER_STATUS_OK',
    `Ask ${JSON.stringify(QUESTION)}: status ${answer.status}, not ANSWER_STATUS_OK: ${answer.text}`);
  check(answer.citations.length >= 1, `Ask ${JSON.stringify(QUESTION)}: no citations`);
  check(answer.citations.every((c) => c.knowledge_base === 'manuals'), 'Ask with filters: a citation outside manuals');
  check(answer.rounds >= 1 && answer.rounds <= 2, `Ask with max_rounds 2: ${answer.rounds} rounds`);
  check(answer.perception.route.startsWith('ROUTE_') && answer.perception.action.startsWith('ACTION_'),
    `Ask: perception route ${answer.perception.route}, action ${answer.perception.action}`);
  check(answer.report.checks.map((c) => c.check).join() === 'CHECK_TRACEABILITY,CHECK_TIMELINESS,CHECK_CONSISTENCY',
    `Ask: checks ${answer.report.checks.map((c) => c.check)}`);
  checkCitationOrder(answer, 'Ask');
  result.ask = {
    status: answer.status,
    citations: answer.citations.length,
    cited: answer.citations.map((c) => c.document_id),
    text: answer.text,
  };

  const events = await askStream(ragcore, { question: 'Which compressor is louder, AC-75 or AC-110?' }, admin);
  const kinds = events.map((e) => e.event);
  check(kinds[0] === 'perception' && kinds[kinds.length - 1] === 'result', `AskStream: events ${kinds}`);
  for (const kind of ['plan', 'retrieval', 'draft', 'validation']) check(kinds.includes(kind), `AskStream: no ${kind} event`);
  const plan = events.find((e) => e.event === 'plan').plan;
  check(plan.tasks.every((t) => t.mode.startsWith('SEARCH_MODE_')), `AskStream: task modes ${plan.tasks.map((t) => t.mode)}`);
  checkCitationOrder(events[events.length - 1].result, 'AskStream');
  result.ask_stream = { events: kinds.length, kinds: [...new Set(kinds)], status: events[events.length - 1].result.status };

  // A conversation: the server makes the session id, a follow-up comes back rewritten (in
  // the answer and in AskStream's perception event), a repeat comes from the cache, and
  // EndSession ends it.
  const opened = await unary(ragcore, 'Ask', { question: 'What does E4027 mean on the HP-400?', new_session: true }, admin);
  const sessionId = opened.session_id;
  check(sessionId.length > 0 && opened.rewritten_question === '', `Ask new_session: ${JSON.stringify(sessionId)}`);
  const followUp = await unary(ragcore, 'Ask', { question: 'And E4031?', session_id: sessionId }, admin);
  check(followUp.rewritten_question === 'What does E4031 mean on the HP-400?' && followUp.session_id === sessionId,
    `Ask follow-up: rewritten ${JSON.stringify(followUp.rewritten_question)}`);
  const streamed = await askStream(ragcore, { question: 'And on the HP-500?', session_id: sessionId }, admin);
  check(streamed[0].perception.question === 'What does E4031 mean on the HP-500?',
    `AskStream follow-up: perception question ${JSON.stringify(streamed[0].perception.question)}`);
  const repeat = await unary(ragcore, 'Ask', { question: 'What does E4027 mean on the HP-400?' }, admin);
  check(repeat.cached === true, 'Ask repeated: not answered from the cache');
  const ended = await unary(ragcore, 'EndSession', { session_id: sessionId }, admin);
  const endedAgain = await unary(ragcore, 'EndSession', { session_id: sessionId }, admin);
  check(ended.ended === true && endedAgain.ended === false, `EndSession: ${ended.ended}, then ${endedAgain.ended}`);
  result.session = { rewritten: followUp.rewritten_question, streamed: streamed[0].perception.question, cached: repeat.cached, ended: ended.ended };

  // Ingest, then read it back every way.
  const before = new Date(Date.now() - 2000).toISOString().replace(/\.\d+Z$/, 'Z');
  const summary = await ingest(ragcore, [NEW_DOCUMENT], admin);
  check(summary.added === 1 && summary.outcomes[0].status === 'INGEST_STATUS_ADDED',
    `Ingest: expected one INGEST_STATUS_ADDED, got ${JSON.stringify(summary)}`);
  result.ingest = { document_id: NEW_DOCUMENT.id, added: summary.added, chunks: summary.chunks };

  const found = await unary(ragcore, 'Search', { query: SEARCH_QUERY, k: 3, filters: { knowledge_bases: ['manuals'], min_authority: 4 } }, admin);
  const first = found.hits.length ? found.hits[0] : null;
  check(first && first.document_id === NEW_DOCUMENT.id,
    `Search ${JSON.stringify(SEARCH_QUERY)}: first hit is ${first && first.document_id}, not ${NEW_DOCUMENT.id}`);
  // The offsets count code points: slicing the text's code points gives the hit's text
  // (a UTF-16 slice would not: the emoji before it are two UTF-16 units each).
  const sliced = Array.from(NEW_DOCUMENT.text).slice(first.start, first.end).join('');
  check(sliced === first.text, `Search: code points [${first.start}, ${first.end}) are not the hit's text`);
  check(NEW_DOCUMENT.text.slice(first.start, first.end) !== first.text,
    'Search: the document has no text beyond UTF-16 before the hit; the offsets went unchecked');
  result.search = { first: first.document_id, hits: found.hits.length, start: first.start };

  const stored = await unary(ragcore, 'GetDocument', { document_id: NEW_DOCUMENT.id }, admin);
  check(stored.title === NEW_DOCUMENT.title && stored.authority === 4 && stored.version === 2 &&
    stored.metadata.written_by === NEW_DOCUMENT.metadata.written_by && stored.chunk_count === summary.chunks &&
    /^[0-9a-f]{64}$/.test(stored.checksum) && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(stored.ingested_at),
  `GetDocument: ${JSON.stringify(stored)}`);
  check(stored.text === '', 'GetDocument: the text came without include_text');
  const withText = await unary(ragcore, 'GetDocument', { document_id: NEW_DOCUMENT.id, include_text: true }, admin);
  check(withText.text === NEW_DOCUMENT.text && Array.from(withText.text).slice(first.start, first.end).join('') === first.text,
    'GetDocument include_text: not the text ingested, or the hit is not at its offsets in it');
  result.get_document = { id: stored.id, chunk_count: stored.chunk_count, ingested_at: stored.ingested_at, text_chars: Array.from(withText.text).length };

  const everything = await listAll(ragcore, admin);
  const stats = await unary(ragcore, 'GetStats', {}, admin);
  check(everything.length === stats.documents, `ListDocuments: ${everything.length} documents, GetStats says ${stats.documents}`);
  const recent = await listAll(ragcore, admin, { updated_since: before });
  check(recent.map((d) => d.id).includes(NEW_DOCUMENT.id) && recent.length < everything.length,
    `ListDocuments updated_since ${before}: ${recent.map((d) => d.id)}`);
  result.list_documents = { all: everything.length, since: recent.length };

  // A knowledge base that appears with its first document and disappears with its deletion.
  // Sent as a Markdown file: its front matter names the id and the knowledge base.
  const scratch = `---\nid: node-scratch-1\nknowledge_base: ${SCRATCH_KB}\n---\nScratch note for the Node client.\n`;
  await ingestFiles(ragcore, [{ file_name: 'node-scratch-1.md', data: Buffer.from(scratch, 'utf8') }], admin);
  const withScratch = await unary(ragcore, 'ListKnowledgeBases', {}, admin);
  check(withScratch.knowledge_bases.some((kb) => kb.name === SCRATCH_KB), 'ListKnowledgeBases: no scratch knowledge base');
  const droppedKb = await unary(ragcore, 'DeleteKnowledgeBase', { name: SCRATCH_KB }, admin);
  check(droppedKb.documents_removed === 1, `DeleteKnowledgeBase: ${JSON.stringify(droppedKb)}`);
  const kbs = await unary(ragcore, 'ListKnowledgeBases', {}, admin);
  check(!kbs.knowledge_bases.some((kb) => kb.name === SCRATCH_KB), 'ListKnowledgeBases: the deleted knowledge base is still listed');
  result.knowledge_bases = kbs.knowledge_bases.map((kb) => kb.name);

  const deleted = await unary(ragcore, 'DeleteDocument', { document_id: NEW_DOCUMENT.id }, admin);
  check(deleted.chunks_removed === summary.chunks, `DeleteDocument: ${JSON.stringify(deleted)}`);
  result.stats = { documents: stats.documents, chunks: stats.chunks, vectors: stats.vectors };

  // A table: loaded, listed, and a bad row refused naming the file, row and column.
  const loaded = await ingestTable(ragcore, TABLE, TABLE_PIECES, admin);
  check(loaded.table === TABLE.table && Number(loaded.rows) === 3 && /^[0-9a-f]{64}$/.test(loaded.checksum),
    `IngestTable: ${JSON.stringify(loaded)}`);
  const tables = await unary(ragcore, 'ListTables', {}, admin);
  const gauges = tables.tables.find((t) => t.name === TABLE.table);
  check(gauges && gauges.measures[0].aggregation === 'AGGREGATION_AVG', `ListTables: ${JSON.stringify(tables)}`);
  const taken = await expectError(ingestTable(ragcore, TABLE, TABLE_PIECES, admin),
    grpc.status.INVALID_ARGUMENT, 'INVALID_TABLE', 'IngestTable under a taken name without replace');
  check(taken.rich.BadRequest.field_violations[0].field === 'table',
    `IngestTable without replace: ${JSON.stringify(taken.rich.BadRequest)}`);
  const badRow = await expectError(
    ingestTable(ragcore, { ...TABLE, replace: true }, ['gauge,reading_kpa\nG1,101.5\nG2,high\n'], admin),
    grpc.status.INVALID_ARGUMENT, 'INVALID_TABLE', 'IngestTable with a bad row');
  const still = await unary(ragcore, 'ListTables', {}, admin);
  check(still.tables.find((t) => t.name === TABLE.table).checksum === loaded.checksum,
    'IngestTable: a refused load changed the table');
  result.tables = {
    rows: Number(gauges.rows),
    unit: gauges.measures[0].unit,
    columns: gauges.columns.map((c) => `${c.name}:${c.type}:${c.dimension}`),
    bad_row: { field: badRow.rich.BadRequest.field_violations[0].field, metadata: badRow.rich.ErrorInfo.metadata },
  };

  // Rich errors.
  const errors = {};
  const negativeK = await expectError(unary(ragcore, 'Search', { query: 'seal', k: -1 }, admin),
    grpc.status.INVALID_ARGUMENT, 'INVALID_FIELD', 'Search with k = -1');
  const violation = negativeK.rich.BadRequest.field_violations[0];
  check(violation.field === 'k' && negativeK.details.includes(`k must be between 1 and ${limits.max_k}, got -1`),
    `Search with k = -1: ${JSON.stringify(negativeK)}`);
  errors.negative_k = { details: negativeK.details, field: violation.field };

  const badDate = await expectError(unary(ragcore, 'Ask', { question: QUESTION, filters: { updated_after: '2024-13-01' } }, admin),
    grpc.status.INVALID_ARGUMENT, 'INVALID_FIELD', 'Ask with a bad date');
  errors.bad_date = { field: badDate.rich.BadRequest.field_violations[0].field };

  const tooLong = await expectError(unary(ragcore, 'Ask', { question: 'x'.repeat(Number(limits.max_question_chars) + 1) }, admin),
    grpc.status.INVALID_ARGUMENT, 'INVALID_FIELD', 'Ask with a question over the limit');
  errors.question_too_long = { field: tooLong.rich.BadRequest.field_violations[0].field };

  const good = { id: 'node-good', knowledge_base: 'faq', text: 'A fine note.' };
  const broken = { id: 'node-broken', knowledge_base: 'faq', text: 'A note.', updated_at: '2024-02-30' };
  const badDocument = await expectError(ingest(ragcore, [good, broken], admin),
    grpc.status.INVALID_ARGUMENT, 'INVALID_DOCUMENT', 'Ingest with a bad second document');
  errors.bad_document = {
    field: badDocument.rich.BadRequest.field_violations[0].field,
    metadata: badDocument.rich.ErrorInfo.metadata,
  };
  const brokenFile = { file_name: 'node-broken.md', data: Buffer.from('---\nid: node-broken\nno colon\n---\nA note.', 'utf8') };
  const badFile = await expectError(ingestRequests(ragcore, [{ document: good }, { file: brokenFile }], admin),
    grpc.status.INVALID_ARGUMENT, 'INVALID_DOCUMENT', 'Ingest with a malformed file');
  errors.bad_file = {
    field: badFile.rich.BadRequest.field_violations[0].field,
    file: badFile.rich.ErrorInfo.metadata.file,
    details: badFile.details,
  };

  const missing = await expectError(unary(ragcore, 'GetDocument', { document_id: 'no-such-document' }, admin),
    grpc.status.NOT_FOUND, 'DOCUMENT_NOT_FOUND', 'GetDocument of an unknown id');
  errors.not_found = { details: missing.details };

  const badToken = await expectError(unary(ragcore, 'ListDocuments', { page_token: 'not-a-token' }, admin),
    grpc.status.INVALID_ARGUMENT, 'INVALID_FIELD', 'ListDocuments with a made-up page token');
  errors.bad_page_token = { field: badToken.rich.BadRequest.field_violations[0].field };

  await expectError(unary(ragcore, 'GetStats', {}, new grpc.Metadata()),
    grpc.status.UNAUTHENTICATED, 'TOKEN_MISSING', 'GetStats without a token');
  await expectError(unary(ragcore, 'GetStats', {}, withToken('x'.repeat(32))),
    grpc.status.UNAUTHENTICATED, 'TOKEN_UNKNOWN', 'GetStats with an unknown token');

  const maxBytes = Number(limits.max_message_bytes);
  const huge = { id: 'node-huge', knowledge_base: 'faq', text: 'word '.repeat(Math.ceil(maxBytes / 5) + 10) };
  const tooLarge = await expectError(ingest(ragcore, [huge], admin),
    grpc.status.RESOURCE_EXHAUSTED, 'MESSAGE_TOO_LARGE', 'Ingest of a message over max_message_bytes');
  check(!tooLarge.rich.RetryInfo && tooLarge.rich.ErrorInfo.metadata.limit_bytes === String(maxBytes),
    `MESSAGE_TOO_LARGE: ${JSON.stringify(tooLarge.rich)}`);
  errors.too_large = { limit_bytes: tooLarge.rich.ErrorInfo.metadata.limit_bytes };

  // A burst over max_in_flight: the refused asks say when to retry.
  let busy = null;
  for (let burst = 0; burst < 5 && !busy; burst += 1) {
    const outcomes = await Promise.allSettled(
      Array.from({ length: 6 }, () => unary(ragcore, 'Ask', { question: QUESTION }, admin)));
    const refused = outcomes.find((o) => o.status === 'rejected');
    if (refused) {
      busy = await expectError(Promise.reject(refused.reason), grpc.status.RESOURCE_EXHAUSTED, 'SERVER_BUSY', 'a burst of asks');
    }
  }
  check(busy, `a burst of asks over max_in_flight ${limits.max_in_flight}: none was refused`);
  const delay = busy.rich.RetryInfo && busy.rich.RetryInfo.retry_delay;
  check(delay && (Number(delay.seconds) > 0 || delay.nanos > 0), `SERVER_BUSY without a RetryInfo delay: ${JSON.stringify(busy.rich)}`);
  errors.busy = { retry_delay_ms: Number(delay.seconds) * 1000 + delay.nanos / 1e6 };
  result.errors = errors;
}

// -- a reader, unscoped: reads, no writes -------------------------------------------
async function asReader(ragcore, reader, result) {
  const answer = await unary(ragcore, 'Ask', { question: QUESTION }, reader);
  check(answer.status === 'ANSWER_STATUS_OK', `Ask as a reader: ${answer.status}`);
  const denied = await expectError(ingest(ragcore, [NEW_DOCUMENT], reader),
    grpc.status.PERMISSION_DENIED, 'ADMIN_REQUIRED', 'Ingest with a reader token');
  await expectError(unary(ragcore, 'DeleteKnowledgeBase', { name: 'faq' }, reader),
    grpc.status.PERMISSION_DENIED, 'ADMIN_REQUIRED', 'DeleteKnowledgeBase with a reader token');
  const tableDenied = await expectError(ingestTable(ragcore, TABLE, TABLE_PIECES, reader),
    grpc.status.PERMISSION_DENIED, 'ADMIN_REQUIRED', 'IngestTable with a reader token');
  result.reader = { ask: answer.status, ingest: denied.code, ingest_table: tableDenied.code };
}

// -- scoped tokens: nothing from outside their knowledge bases ------------------------
async function asScoped(ragcore, admin, scopedReader, scopedAdmin, result) {
  const everything = await listAll(ragcore, admin);
  const kbOf = Object.fromEntries(everything.map((d) => [d.id, d.knowledge_base]));
  const titleKb = {};
  for (const d of everything) if (d.title) (titleKb[d.title] = titleKb[d.title] || new Set()).add(d.knowledge_base);
  const inside = everything.filter((d) => d.knowledge_base === SCOPED_READER_KB);
  const replies = [];
  const seen = async (promise) => {
    const reply = await promise;
    replies.push(reply);
    return reply;
  };

  const info = await seen(unary(ragcore, 'GetServerInfo', {}, scopedReader));
  check(info.role === 'ROLE_READER' && info.scope.join() === SCOPED_READER_KB, `GetServerInfo scoped: ${info.role} ${info.scope}`);
  const kbs = await seen(unary(ragcore, 'ListKnowledgeBases', {}, scopedReader));
  check(kbs.knowledge_bases.map((kb) => kb.name).join() === SCOPED_READER_KB, `ListKnowledgeBases scoped: ${JSON.stringify(kbs)}`);
  const stats = await seen(unary(ragcore, 'GetStats', {}, scopedReader));
  check(stats.knowledge_bases === 1 && stats.documents === inside.length && stats.documents === kbs.knowledge_bases[0].documents &&
    Number(stats.database_bytes) === 0, `GetStats scoped: ${JSON.stringify(stats)} (${inside.length} documents in ${SCOPED_READER_KB})`);
  const listed = await listAll(ragcore, scopedReader);
  replies.push(listed);
  check(listed.length === inside.length, `ListDocuments scoped: ${listed.length} documents, ${inside.length} in ${SCOPED_READER_KB}`);
  const hits = await seen(unary(ragcore, 'Search', { query: 'lockout tagout energy isolation inspection', k: 20 }, scopedReader));
  check(hits.hits.length > 0, 'Search scoped: no hits');
  const answer = await seen(unary(ragcore, 'Ask', { question: REGULATION_QUESTION, include_trace: true }, scopedReader));
  const events = await askStream(ragcore, { question: REGULATION_QUESTION, include_trace: true }, scopedReader);
  replies.push(events);
  for (const d of everything.filter((x) => x.knowledge_base !== SCOPED_READER_KB).slice(0, 3)) {
    await expectError(unary(ragcore, 'GetDocument', { document_id: d.id }, scopedReader),
      grpc.status.NOT_FOUND, 'DOCUMENT_NOT_FOUND', `GetDocument ${d.id} (outside the scope)`);
  }
  const outside = await expectError(unary(ragcore, 'Search', { query: 'lockout', filters: { knowledge_bases: ['regulations'] } }, scopedReader),
    grpc.status.PERMISSION_DENIED, 'OUTSIDE_SCOPE', 'Search of a knowledge base outside the scope');
  const nowhere = await expectError(unary(ragcore, 'Search', { query: 'lockout', filters: { knowledge_bases: ['no-such-kb'] } }, scopedReader),
    grpc.status.PERMISSION_DENIED, 'OUTSIDE_SCOPE', 'Search of an unknown knowledge base');
  check(outside.details.replace('regulations', 'X') === nowhere.details.replace('no-such-kb', 'X'),
    `an existing and a missing knowledge base outside the scope read differently: ${outside.details} / ${nowhere.details}`);
  await expectError(unary(ragcore, 'ListDocuments', { knowledge_base: 'regulations' }, scopedReader),
    grpc.status.PERMISSION_DENIED, 'OUTSIDE_SCOPE', 'ListDocuments of a knowledge base outside the scope');

  // Nothing any reply carried is from outside the scope.
  const names = namesIn(replies);
  const foreignIds = [...names.ids].filter((id) => kbOf[id] !== SCOPED_READER_KB);
  const foreignKbs = [...names.kbs].filter((kb) => kb !== SCOPED_READER_KB);
  const foreignTitles = [...names.titles].filter((t) => !(titleKb[t] && titleKb[t].has(SCOPED_READER_KB)));
  check(!foreignIds.length && !foreignKbs.length && !foreignTitles.length,
    `a scoped reader saw ids ${foreignIds}, knowledge bases ${foreignKbs}, titles ${foreignTitles}`);
  const retries = events.filter((e) => e.event === 'retry').length;
  result.scoped_reader = {
    documents: listed.length,
    ids_seen: names.ids.size,
    ask: answer.status,
    cited: answer.citations.map((c) => c.document_id),
    stream_events: events.length,
    retries,
  };

  // A scoped admin writes and deletes only inside its scope; nothing else changes.
  const countBefore = (await listAll(ragcore, admin)).length;
  await expectError(ingest(ragcore, [{ ...NEW_DOCUMENT, id: 'node-scoped-out' }], scopedAdmin),
    grpc.status.PERMISSION_DENIED, 'OUTSIDE_SCOPE', 'Ingest outside the scoped admin\'s knowledge bases');
  const victim = everything.find((d) => d.knowledge_base !== SCOPED_ADMIN_KB);
  const notThere = await expectError(unary(ragcore, 'DeleteDocument', { document_id: victim.id }, scopedAdmin),
    grpc.status.NOT_FOUND, 'DOCUMENT_NOT_FOUND', 'DeleteDocument outside the scope');
  const reallyMissing = await expectError(unary(ragcore, 'DeleteDocument', { document_id: 'no-such-document' }, scopedAdmin),
    grpc.status.NOT_FOUND, 'DOCUMENT_NOT_FOUND', 'DeleteDocument of an unknown id');
  check(notThere.details.replace(victim.id, 'X') === reallyMissing.details.replace('no-such-document', 'X'),
    `a document outside the scope reads unlike a missing one: ${notThere.details} / ${reallyMissing.details}`);
  await expectError(unary(ragcore, 'DeleteKnowledgeBase', { name: SCOPED_READER_KB }, scopedAdmin),
    grpc.status.PERMISSION_DENIED, 'OUTSIDE_SCOPE', 'DeleteKnowledgeBase outside the scope');
  const mine = await ingest(ragcore, [{ id: 'node-scoped-in', knowledge_base: SCOPED_ADMIN_KB, text: 'A scoped admin note on the GX-9.' }], scopedAdmin);
  check(mine.added === 1, `Ingest inside the scope: ${JSON.stringify(mine)}`);
  await unary(ragcore, 'DeleteDocument', { document_id: 'node-scoped-in' }, scopedAdmin);
  const countAfter = (await listAll(ragcore, admin)).length;
  check(countAfter === countBefore, `the scoped admin's refused calls changed the store: ${countBefore} → ${countAfter}`);
  result.scoped_admin = { refused: 3, documents: countAfter };
}

async function run(target) {
  const { Ragcore, Health } = loadServices();
  const ragcore = new Ragcore(target, grpc.credentials.createInsecure());
  // Health shares the channel; it needs no token, so it gets no metadata.
  const health = new Health(target, grpc.credentials.createInsecure(), {
    channelOverride: ragcore.getChannel(),
  });
  const env = process.env;
  const result = { target };
  try {
    await asAdmin(ragcore, health, withToken(env.RAGCORE_ADMIN_TOKEN), result);
    await asReader(ragcore, withToken(env.RAGCORE_READER_TOKEN), result);
    await asScoped(ragcore, withToken(env.RAGCORE_ADMIN_TOKEN), withToken(env.RAGCORE_SCOPED_READER_TOKEN),
      withToken(env.RAGCORE_SCOPED_ADMIN_TOKEN), result);
    return result;
  } finally {
    ragcore.close();
  }
}

async function main() {
  const target = process.argv[2] || process.env.RAGCORE_TARGET;
  const missing = ['RAGCORE_ADMIN_TOKEN', 'RAGCORE_READER_TOKEN', 'RAGCORE_SCOPED_READER_TOKEN', 'RAGCORE_SCOPED_ADMIN_TOKEN']
    .filter((name) => !process.env[name]);
  if (!target || missing.length) {
    console.error(`usage: node client.js TARGET (or $RAGCORE_TARGET), with ${missing.join(', ') || 'the tokens'} set`);
    process.exit(2);
  }
  try {
    console.log(JSON.stringify(await run(target)));
  } catch (err) {
    // A failed check says what it expected; an unexpected grpc error says which code.
    const why = err instanceof CheckFailed ? err.message
      : err.code !== undefined
        ? `${err.method}: unexpected gRPC error ${grpc.status[err.code]} (${err.code}): ${err.details}`
        : err.stack;
    console.error(`node client FAILED against ${target}: ${why}`);
    process.exit(1);
  }
}

main();
