#!/usr/bin/env node
// A Node.js client of the ragcore edge service that knows only the .proto files: no
// generated code, nothing from the Python side. tests/test_node_client.py runs it
// against a live server over a fresh copy of the sample knowledge base.
//
//   node client.js TARGET [TOKEN] [--reader]
//
// TARGET (host:port) and TOKEN may also come from $RAGCORE_TARGET and $RAGCORE_TOKEN.
// With an admin token (or none, when the server has no tokens) it checks health, Ask,
// an invalid Ask, Ingest of one new document and a Search that finds it first. With
// --reader (a reader token) it checks that the same Ingest is refused with
// PERMISSION_DENIED instead. On success it prints one JSON line with what it saw;
// on any failure it prints why to stderr and exits with status 1.
'use strict';

const path = require('node:path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const PROTO_ROOT = path.join(__dirname, '..', '..', '..', 'proto');
const PROTOS = ['ragcore/v1/ragcore.proto', 'grpc/health/v1/health.proto'];
const DEADLINE_MS = 30000; // every call gets one; an Ask on a small machine takes seconds

const QUESTION = 'How often should the CP-200 seal be replaced?';
// A document nothing in the sample knowledge base resembles, and a query only it matches.
const NEW_DOCUMENT = {
  id: 'node-client-xv9-valve',
  knowledge_base: 'manuals',
  title: 'XV-9 quench valve',
  doc_type: 'manual',
  updated_at: '2025-06-01',
  metadata: { written_by: 'tests/node/client.js' },
  text:
    'The XV-9 quench valve opens when the cooling loop exceeds 95 °C. ' +
    'Lubricate the XV-9 quench valve stem with graphite paste every 400 operating hours.',
};
const SEARCH_QUERY = 'XV-9 quench valve stem graphite paste';

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

const callOptions = () => ({ deadline: Date.now() + DEADLINE_MS });

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
  return new Promise((resolve, reject) => {
    const call = client.Ingest(metadata, callOptions(), settle('Ingest', resolve, reject));
    for (const document of documents) call.write({ document });
    call.end();
  });
}

// The error a call fails with; a CheckFailed if it succeeds or fails with another code.
async function expectError(promise, code, what) {
  try {
    await promise;
  } catch (err) {
    check(err.code === code, `${what}: expected status ${grpc.status[code]} (${code}), ` +
      `got ${grpc.status[err.code]} (${err.code}): ${err.details}`);
    return err;
  }
  throw new CheckFailed(`${what}: expected status ${grpc.status[code]} (${code}), but it succeeded`);
}

// -- the checks -----------------------------------------------------------------------
async function run(target, token, readerMode) {
  const { Ragcore, Health } = loadServices();
  const ragcore = new Ragcore(target, grpc.credentials.createInsecure());
  // Health shares the channel; it needs no token, so it gets no metadata.
  const health = new Health(target, grpc.credentials.createInsecure(), {
    channelOverride: ragcore.getChannel(),
  });
  const metadata = new grpc.Metadata();
  if (token) metadata.set('authorization', `Bearer ${token}`);
  const result = { target };
  try {
    const status = await unary(health, 'Check', { service: 'ragcore.v1.Ragcore' }, new grpc.Metadata());
    check(status.status === 'SERVING', `health of ragcore.v1.Ragcore is ${status.status}, not SERVING`);
    result.health = status.status;

    const answer = await unary(ragcore, 'Ask', { question: QUESTION }, metadata);
    check(answer.status === 'ANSWER_STATUS_OK',
      `Ask ${JSON.stringify(QUESTION)}: status ${answer.status}, not ANSWER_STATUS_OK: ${answer.text}`);
    check(answer.citations.length >= 1, `Ask ${JSON.stringify(QUESTION)}: no citations`);
    result.ask = {
      status: answer.status,
      citations: answer.citations.length,
      cited: answer.citations.map((c) => c.document_id),
      text: answer.text,
    };

    const invalid = await expectError(
      unary(ragcore, 'Ask', { question: '' }, metadata), grpc.status.INVALID_ARGUMENT, 'Ask with an empty question');
    check(invalid.details && invalid.details.trim(), 'Ask with an empty question: the error has no message');
    result.invalid_argument = { code: invalid.code, details: invalid.details };

    if (readerMode) {
      const denied = await expectError(
        ingest(ragcore, [NEW_DOCUMENT], metadata), grpc.status.PERMISSION_DENIED, 'Ingest with a reader token');
      result.ingest = { code: denied.code, details: denied.details };
      return result;
    }

    const summary = await ingest(ragcore, [NEW_DOCUMENT], metadata);
    check(summary.added === 1, `Ingest: expected added=1, got ${JSON.stringify(summary)}`);
    result.ingest = { document_id: NEW_DOCUMENT.id, added: summary.added, chunks: summary.chunks };

    const found = await unary(ragcore, 'Search', { query: SEARCH_QUERY }, metadata);
    const first = found.hits.length ? found.hits[0].document_id : null;
    check(first === NEW_DOCUMENT.id,
      `Search ${JSON.stringify(SEARCH_QUERY)}: first hit is ${first}, not ${NEW_DOCUMENT.id}`);
    result.search = { first, hits: found.hits.length, mode: 'hybrid' };
    return result;
  } finally {
    ragcore.close();
  }
}

async function main() {
  const args = process.argv.slice(2);
  const readerMode = args.includes('--reader');
  const [target = process.env.RAGCORE_TARGET, token = process.env.RAGCORE_TOKEN] =
    args.filter((a) => a !== '--reader');
  if (!target) {
    console.error('usage: node client.js TARGET [TOKEN] [--reader]  (or set $RAGCORE_TARGET)');
    process.exit(2);
  }
  try {
    console.log(JSON.stringify(await run(target, token, readerMode)));
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
