import type { AgentTool } from '@ctxhost/anthropic';
import { mulberry32 } from '@ctxhost/simulator';

/** Output sizes (characters) a soak tool picks from: small, medium, and over the truncator's cap. */
const OUTPUT_SIZES = [300, 4_000, 60_000] as const;

/**
 * The soak's one tool, `read_file`: the simulator's default responder calls it
 * once per turn. Its output is deterministic from the path and the call count,
 * a build log with errors in the tail (what truncation must keep).
 */
export function createReadFileTool(): AgentTool {
  let calls = 0;
  return {
    definition: {
      name: 'read_file',
      description: 'Read a file of the project',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    },
    async run(input) {
      const path =
        typeof input === 'object' && input !== null && !Array.isArray(input) && typeof input.path === 'string'
          ? input.path
          : 'unknown';
      const random = mulberry32(hash(path) + calls++);
      const size = OUTPUT_SIZES[Math.floor(random() * OUTPUT_SIZES.length)]!;
      const lines: string[] = [];
      let length = 0;
      for (let line = 1; length < size; line++) {
        const text = `${line}: compiling src/module${line % 97}.ts (${Math.floor(random() * 1e6)} bytes)`;
        lines.push(text);
        length += text.length + 1;
      }
      lines.push('error TS2345: src/app.ts:42 argument of type string is not assignable', 'build failed: 1 error');
      return lines.join('\n');
    },
  };
}

function hash(text: string): number {
  let value = 2166136261;
  for (let index = 0; index < text.length; index++) value = Math.imul(value ^ text.charCodeAt(index), 16777619);
  return value >>> 0;
}
