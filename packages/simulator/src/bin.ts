#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { startSimulator } from './simulator.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    'context-limit': { type: 'string', default: '200000' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log('ctxhost-simulator [--port N] [--context-limit TOKENS]\nA local server that speaks the Anthropic Messages API. Point ANTHROPIC_BASE_URL at the printed URL.');
  process.exit(0);
}
const port = Number(values.port);
const contextLimit = Number(values['context-limit']);
if (!Number.isInteger(port) || !Number.isInteger(contextLimit) || contextLimit <= 0) {
  console.error('ctxhost-simulator: --port and --context-limit take whole numbers');
  process.exit(2);
}
const simulator = await startSimulator({ port, contextLimit });
console.log(`ctxhost simulator listening on ${simulator.url} (context limit ${contextLimit} tokens)`);
console.log(`export ANTHROPIC_BASE_URL=${simulator.url}`);
const stop = () => void simulator.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
