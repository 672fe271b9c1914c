import Anthropic from '@anthropic-ai/sdk';

/**
 * A client when `ANTHROPIC_API_KEY` or `ANTHROPIC_BASE_URL` is set; `null`
 * otherwise, so examples, the CLI and the demo start the simulator instead.
 */
export function createClientFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  options: { maxRetries?: number } = {},
): Anthropic | null {
  const apiKey = env['ANTHROPIC_API_KEY'];
  const baseURL = env['ANTHROPIC_BASE_URL'];
  if (apiKey === undefined && baseURL === undefined) return null;
  return new Anthropic({
    apiKey: apiKey ?? 'unused',
    ...(baseURL === undefined ? {} : { baseURL }),
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
  });
}
