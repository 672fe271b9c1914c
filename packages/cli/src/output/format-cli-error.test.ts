import { ConfigError, CtxhostError } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { CLI_ERROR_CODES, CliError } from '../errors.js';
import { colorEnabled } from './cli-io.js';
import { formatCliError } from './format-cli-error.js';

describe('formatCliError', () => {
  it('prints a ctxhost error as one line with its code, exit code 1', () => {
    const formatted = formatCliError(
      new CtxhostError('CTXHOST_X', 'transcript a.jsonl: cannot read the file (ENOENT)'),
    );
    expect(formatted).toEqual({
      text: 'ctxhost: transcript a.jsonl: cannot read the file (ENOENT) [CTXHOST_X]\n',
      exitCode: 1,
      json: { code: 'CTXHOST_X', message: 'transcript a.jsonl: cannot read the file (ENOENT)', exitCode: 1 },
    });
  });

  it('gives usage errors exit code 2', () => {
    expect(formatCliError(new CliError(CLI_ERROR_CODES.usage, '--window takes a whole number')).exitCode).toBe(2);
    expect(formatCliError(new CliError(CLI_ERROR_CODES.fileUnreadable, 'no file')).exitCode).toBe(1);
  });

  it('prints one line for each config issue, with file, line and column', () => {
    const error = new ConfigError([
      {
        file: '.ctxhost/config.yaml',
        line: 2,
        column: 14,
        path: 'compression.threshold',
        expected: 'a number between 0 and 1',
        found: '"half"',
      },
      {
        file: '.ctxhost/config.yaml',
        line: 4,
        column: 1,
        path: 'bogus',
        expected: 'one of the keys context',
        found: '"bogus"',
      },
    ]);
    const lines = formatCliError(error).text.trimEnd().split('\n');
    expect(lines).toEqual([
      'ctxhost: config .ctxhost/config.yaml:2:14 compression.threshold: expected a number between 0 and 1, got "half" [CTXHOST_CONFIG_INVALID]',
      'ctxhost: config .ctxhost/config.yaml:4:1 bogus: expected one of the keys context, got "bogus" [CTXHOST_CONFIG_INVALID]',
    ]);
  });

  it('adds the stack and the causes only with debug', () => {
    const error = new Error('outer', { cause: new Error('inner') });
    expect(formatCliError(error).text).toBe('ctxhost: outer\n');
    const debug = formatCliError(error, { debug: true }).text;
    expect(debug).toMatch(/^ctxhost: outer\nError: outer\n {4}at /);
    expect(debug).toMatch(/caused by: Error: inner/);
  });
});

describe('colorEnabled', () => {
  it.each([
    [true, {}, true],
    [false, {}, false],
    [true, { NO_COLOR: '1' }, false],
    [false, { FORCE_COLOR: '1' }, true],
    [true, { FORCE_COLOR: '0' }, false],
  ])('on a TTY %s with %j: %s', (isTTY, env, expected) => {
    expect(colorEnabled(isTTY, env)).toBe(expected);
  });
});
