/**
 * The pricing key of a model name as providers spell it: lower case, without
 * a gateway prefix (`anthropic/`), a Bedrock region and vendor (`us.anthropic.`),
 * a Vertex version (`@20250929`) or a Bedrock suffix (`-v1:0`), with dots
 * between digits as dashes (`claude-sonnet-4.5` → `claude-sonnet-4-5`).
 */
export function normalizeModelName(model: string): string {
  return model
    .toLowerCase()
    .replace(/^.*\//, '')
    .replace(/^(?:[a-z]{2,4}\.)?anthropic\./, '')
    .replace(/@.*$/, '')
    .replace(/-v\d+(?::\d+)?$/, '')
    .replace(/(\d)\.(\d)/g, '$1-$2');
}
