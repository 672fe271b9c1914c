#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { SimulatorError } from './errors.js';
import { startSimulator } from './handler/server.js';
import { LONG_RUNNING_RECORDING } from './handler/long-running-recording.js';

const USAGE = `ctxhost-simulator [--port N] [--host H] [--context-limit TOKENS] [--overflow-style prompt_too_long|input_plus_max_tokens|stop_reason|openai_text]
A local server that speaks the Anthropic Messages API. Point ANTHROPIC_BASE_URL at the printed URL.`;

function wholeNumber(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number)) fail(`--${flag} takes a whole number, got "${value}"`);
  return number;
}

function fail(message: string): never {
  console.error(`ctxhost-simulator: ${message}\n${USAGE}`);
  process.exit(2);
}

let parsed: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'context-limit': { type: 'string' },
      'overflow-style': { type: 'string' },
      'accept-any-model': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  }).values;
}
try {
  parsed = parse();
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
if (parsed.help) {
  console.log(USAGE);
  process.exit(0);
}
const port = wholeNumber('port', parsed.port);
const contextLimit = wholeNumber('context-limit', parsed['context-limit']);
const options = {
  ...LONG_RUNNING_RECORDING,
  ...(port === undefined ? {} : { port }),
  ...(parsed.host === undefined ? {} : { host: parsed.host }),
  ...(contextLimit === undefined ? {} : { contextLimit }),
  ...(parsed['overflow-style'] === undefined ? {} : { overflowStyle: parsed['overflow-style'] as 'prompt_too_long' }),
  acceptAnyModel: parsed['accept-any-model'],
};
const simulator = await startSimulator(options).catch((error: unknown) =>
  fail(SimulatorError.isInstance(error) ? error.message : String(error)),
);
console.log(`ctxhost simulator listening on ${simulator.url} (context limit ${contextLimit ?? 200_000} tokens)`);
console.log(`export ANTHROPIC_BASE_URL=${simulator.url}`);
const stop = () => void simulator.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
