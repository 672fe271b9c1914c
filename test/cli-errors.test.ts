import { TRANSCRIPT_FORMAT_NAMES, TRANSCRIPT_FORMATS } from '@ctxhost/transcripts';
import { describe, expect, it } from 'vitest';
import { corpus, runCtxhost, runCtxhostInProcess } from './cli-run-bin.js';

describe('ctxhost on bad input', () => {
  it('says which file is missing in one line, exit code 1, no stack trace (the bin as a child process)', async () => {
    const { code, stdout, stderr } = await runCtxhost(['inspect', 'no/such/session.jsonl']);
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    expect(stderr).toBe(
      'ctxhost: transcript no/such/session.jsonl: cannot read the file (ENOENT); check the path and its permissions [CTXHOST_TRANSCRIPT_UNREADABLE]\n',
    );
  });

  it('adds the stack trace and causes with --debug, before or after the command', async () => {
    for (const args of [
      ['--debug', 'inspect', 'missing.jsonl'],
      ['inspect', 'missing.jsonl', '--debug'],
    ]) {
      const { code, stderr } = await runCtxhostInProcess(args);
      expect(code).toBe(1);
      expect(stderr).toMatch(
        /^ctxhost: transcript missing\.jsonl: cannot read the file \(ENOENT\).*\nTranscriptError: .*\n {4}at /,
      );
      expect(stderr).toMatch(/\ncaused by: Error: ENOENT/);
    }
  });

  it('names each format tried and why it failed for a file that is no transcript', async () => {
    const { code, stderr } = await runCtxhostInProcess(['inspect', corpus('README.md')]);
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^ctxhost: transcript .*README\.md: not a known transcript format; tried claude-code \(.+\); openhands \(.+\); swe-agent \(.+\) \[CTXHOST_TRANSCRIPT_UNKNOWN_FORMAT\]\n$/,
    );
  });

  it.each([
    [
      ['inspect', corpus('swe-agent/pydicom__pydicom-1458.traj'), '--colour'],
      /^error: unknown option '--colour'\n\(run with --help for usage\)\n$/,
    ],
    [['inspect'], /^error: missing required argument 'transcript'\n/],
    [
      ['inspect', 'x', '--run', '-1'],
      /^error: option '--run <n>' argument '-1' is invalid\. expected a whole number from 0\n/,
    ],
    [['inspekt'], /^error: unknown command 'inspekt'\n\(Did you mean inspect\?\)\n/],
    [['config', 'chek'], /^error: unknown command 'chek'\n/],
    [[], /^Usage: ctxhost \[options\] \[command\]\n/],
  ])('refuses %j with a usage error, exit code 2', async (args, message) => {
    const { code, stdout, stderr } = await runCtxhostInProcess(args);
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toMatch(message);
  });

  it('prints help on stdout for --help, exit code 0, on each subcommand', async () => {
    for (const command of [['inspect'], ['compact'], ['config', 'check'], ['simulator']]) {
      const { code, stdout } = await runCtxhostInProcess([...command, '--help']);
      expect(code).toBe(0);
      expect(stdout).toMatch(new RegExp(`^Usage: ctxhost ${command.join(' ')} \\[options\\]`));
    }
  });

  it('names every transcript format the importers read in the help of inspect and replay', async () => {
    for (const command of ['inspect', 'replay']) {
      const { stdout } = await runCtxhostInProcess([command, '--help']);
      const help = stdout.replace(/\s+/g, ' ');
      const names = TRANSCRIPT_FORMATS.map((format) => TRANSCRIPT_FORMAT_NAMES[format]);
      expect(names).toHaveLength(7);
      expect(help, command).toContain(`(${names.join(', ')})`);
    }
  });
});
