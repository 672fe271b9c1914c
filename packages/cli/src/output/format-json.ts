/** Machine output for `--json`: one pretty-printed JSON document and a newline. */
export function formatJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
