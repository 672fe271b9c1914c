/**
 * Records the Gemini CLI fixture (test/fixtures/gemini-cli/): runs the real
 * `gemini` CLI non-interactively against @ctxhost/simulator's Gemini API, in a
 * scratch project with a HOME under /tmp, and copies the session file Gemini
 * CLI's ChatRecordingService wrote. See test/fixtures/gemini-cli/README.md.
 *
 *   GEMINI_CLI=/path/to/@google/gemini-cli/bundle/gemini.js \
 *     npx tsx scripts/record-gemini-cli-session.ts test/fixtures/gemini-cli
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startSimulator, type MessagesRequest, type ScriptedTurn } from '@ctxhost/simulator';

const MODEL = 'gemini-3-flash-preview';
const cli = process.env['GEMINI_CLI'];
const outputDir = resolve(process.argv[2] ?? 'test/fixtures/gemini-cli');
if (cli === undefined)
  throw new Error('set GEMINI_CLI to the gemini.js of @google/gemini-cli (npm i @google/gemini-cli@0.61.0)');

const scratch = mkdtempSync(join(tmpdir(), 'gemini-cli-fixture-'));
const home = join(scratch, 'home');
const project = join(scratch, 'project');
mkdirSync(join(home, '.gemini'), { recursive: true });
mkdirSync(project, { recursive: true });
writeFileSync(join(project, 'notes.txt'), 'alpha\nbeta\ngamma\n');
/** Gemini CLI's settings; `compressionThreshold` is the fraction of the model's window past which it compresses. */
const writeSettings = (compressionThreshold: number) =>
  writeFileSync(
    join(home, '.gemini', 'settings.json'),
    JSON.stringify({
      security: { auth: { selectedType: 'gemini-api-key' } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      model: { compressionThreshold },
    }),
  );

/** The agent's own requests offer tools; the compressor's carry its <state_snapshot> prompt. */
const mainChat = (request: MessagesRequest) => (request.tools?.length ?? 0) > 0;
const compressor = (request: MessagesRequest) => JSON.stringify(request.system ?? '').includes('state_snapshot');
const turn = (content: ScriptedTurn['content'], when = mainChat): ScriptedTurn => ({ content, when });

const sim = await startSimulator({ contextLimit: 1_048_576, acceptAnyModel: true });
// Asynchronous: the simulator answers from this process while the CLI runs.
const run = async (prompt: string, options: { resume: boolean; compressionThreshold: number }) => {
  writeSettings(options.compressionThreshold);
  const resume = options.resume ? ['--resume', 'latest'] : [];
  const result = await promisify(execFile)(process.execPath, [cli, '-m', MODEL, '--yolo', ...resume, '-p', prompt], {
    cwd: project,
    encoding: 'utf8',
    timeout: 120_000,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: home,
      GEMINI_API_KEY: 'test',
      GOOGLE_GEMINI_BASE_URL: sim.url,
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
      NO_COLOR: '1',
    },
  });
  console.log(`gemini -p ${JSON.stringify(prompt)}\n${result.stdout}${result.stderr}`);
};

const SNAPSHOT = [
  '<state_snapshot>',
  '<overall_goal>Understand what this scratch project is for.</overall_goal>',
  '<key_knowledge>The folder holds one file, notes.txt, a list of words; no build, no tests.</key_knowledge>',
  '<task_state>Answered the overview question; waiting for the next request.</task_state>',
  '</state_snapshot>',
].join('\n');

const OVERVIEW = [
  'This project is a scratch folder with a single file, notes.txt, which keeps a short list of words.',
  'There is no build system, no package manifest and no test suite: nothing here is compiled or run.',
  'The list in notes.txt looks like placeholder data, the kind used to try out a tool that reads files,',
  'counts lines or searches text. If you want to extend it, the usual next steps would be to add more',
  'entries to notes.txt, keep one entry per line so that line-oriented tools such as wc, sort and grep',
  'work on it directly, and perhaps add a README that says what the list is for and who maintains it.',
  'Nothing in the folder depends on anything else, so any change is safe to make and easy to undo.',
].join(' ');

try {
  // Run 1: a question answered in text (no tools, so the resumed history below is sent as recorded).
  sim.script(turn(OVERVIEW));
  await run('What is this project for? Explain in detail.', { resume: false, compressionThreshold: 0.5 });
  // Run 2, resumed with a tiny threshold: Gemini CLI compresses the history before the request
  // (the compressor's summary, then its self-check), then answers.
  sim.script(turn(SNAPSHOT, compressor), turn(SNAPSHOT, compressor), turn('Noted: notes.txt is the only file here.'));
  await run('Keep that in mind. Which file matters?', { resume: true, compressionThreshold: 0.0001 });
  // Run 3, resumed: thoughts, tool calls (one fails), their results, and the answer.
  sim.script(
    turn([
      { type: 'thinking', thinking: '**Reading the files** notes.txt first, then missing.txt.' },
      { type: 'text', text: "I'll read notes.txt first." },
      { type: 'tool_use', id: 'unused', name: 'read_file', input: { file_path: 'notes.txt' } },
    ]),
    turn([{ type: 'tool_use', id: 'unused', name: 'read_file', input: { file_path: 'missing.txt' } }]),
    turn([{ type: 'tool_use', id: 'unused', name: 'run_shell_command', input: { command: 'wc -l notes.txt' } }]),
    turn('notes.txt holds three lines: alpha, beta and gamma. missing.txt does not exist.'),
  );
  await run('What is in notes.txt and missing.txt? Count the lines of notes.txt too.', {
    resume: true,
    compressionThreshold: 0.5,
  });
  for (const request of sim.requests)
    console.log(request.path, request.status, JSON.stringify(request.usage ?? {}), request.error ?? '');
  // A resumed run first opens a new file for the session (a header and the environment context only),
  // named by the minute it starts; the conversation goes on in the original file, the largest one.
  const chats = join(home, '.gemini', 'tmp');
  const found = readdirSync(chats, { recursive: true, encoding: 'utf8' })
    .filter((name) => /chats\/session-.*\.jsonl$/.test(name))
    .sort((a, b) => statSync(join(chats, b)).size - statSync(join(chats, a)).size);
  mkdirSync(outputDir, { recursive: true });
  if (found[0] !== undefined) copyFileSync(join(chats, found[0]), join(outputDir, 'session.jsonl'));
  console.log(`scratch folder: ${scratch}; session files: ${found.join(', ')}`);
} finally {
  await sim.close();
}
