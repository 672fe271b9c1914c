/**
 * ctxhost gateway's added latency: the same requests to the simulator directly and through an
 * in-process gateway (memory store): time to the whole reply, and to the first streamed text, p50 and
 * p99; and the gateway process's heap per open conversation.
 *   node --expose-gc --import tsx --conditions=@ctxhost/source scripts/gateway-latency.ts [requests]
 */
import { performance } from 'node:perf_hooks';
import { createDefaultHost } from 'ctxhost';
import { GatewaySectionSchema, settingsFrom, startGateway } from '@ctxhost/gateway';
import { startSimulator } from '@ctxhost/simulator';

const REQUESTS = Number(process.argv[2] ?? 200);
const sim = await startSimulator({ contextLimit: 200_000, maxRecordedRequests: 10 });
const gateway = await startGateway({
  settings: settingsFrom(GatewaySectionSchema.parse({}), sim.url),
  host: () => createDefaultHost({ config: { store: { kind: 'memory' } } }),
});
const headers = { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-version': '2023-06-01' };
const conversation = (id: number, turns: number) =>
  Array.from({ length: turns * 2 }, (_, index) => ({
    role: index % 2 === 0 ? 'user' : 'assistant',
    content: `conversation ${id} message ${index}: ${'some ordinary words of a conversation '.repeat(20)}`,
  })).slice(0, turns * 2 - 1);

async function timeOne(base: string, id: number, stream: boolean): Promise<{ total: number; first: number }> {
  const started = performance.now();
  const response = await fetch(`${base}/v1/messages`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 200, stream, messages: conversation(id, 20) }),
  });
  let first = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    if (first === 0 && (!stream || Buffer.from(chunk).toString().includes('text_delta')))
      first = performance.now() - started;
  }
  return { total: performance.now() - started, first };
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;
const rows: object[] = [];
for (const stream of [false, true]) {
  for (const [name, base] of [
    ['direct', sim.url],
    ['gateway', gateway.url],
  ] as const) {
    await timeOne(base, 0, stream);
    const totals: number[] = [];
    const firsts: number[] = [];
    for (let index = 0; index < REQUESTS; index++) {
      const { total, first } = await timeOne(base, index % 20, stream);
      totals.push(total);
      firsts.push(first);
    }
    rows.push({
      stream,
      path: name,
      p50ms: percentile(totals, 50).toFixed(2),
      p99ms: percentile(totals, 99).toFixed(2),
      firstTextP50ms: stream ? percentile(firsts, 50).toFixed(2) : '',
      firstTextP99ms: stream ? percentile(firsts, 99).toFixed(2) : '',
    });
  }
}
console.table(rows);

// Heap per open conversation: distinct conversations (40 messages each), each left open as a view.
global.gc?.();
const before = process.memoryUsage().heapUsed;
const OPEN = 200;
for (let index = 0; index < OPEN; index++) await timeOne(gateway.url, 1000 + index, false);
global.gc?.();
const after = process.memoryUsage().heapUsed;
console.log(
  `views open: ${gateway.handler.views()}; heap per open conversation: ${((after - before) / OPEN / 1024).toFixed(1)} KiB (40 messages, ~9 KB of text each)`,
);
await gateway.close();
await sim.close();
