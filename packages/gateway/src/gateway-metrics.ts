import type { Usage } from '@ctxhost/core';

/** Prometheus-style counters of what the gateway did, read at `/metrics`. */
export interface GatewayMetrics {
  request(protocol: string, status: number): void;
  compaction(tokensSaved: number): void;
  recovery(): void;
  usage(protocol: string, usage: Usage): void;
  /** Time the gateway itself added before the request left for the upstream (read, project, write). */
  addedLatency(seconds: number): void;
  inFlight(count: number): void;
  render(): string;
}

/** Upper bounds of the added-latency histogram, in seconds. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

export function createGatewayMetrics(): GatewayMetrics {
  const requests = new Map<string, number>();
  const prompt = new Map<string, number>();
  const cacheRead = new Map<string, number>();
  const output = new Map<string, number>();
  let compactions = 0;
  let recoveries = 0;
  let tokensSaved = 0;
  let inFlight = 0;
  const buckets = BUCKETS.map(() => 0);
  let latencySum = 0;
  let latencyCount = 0;
  const add = (map: Map<string, number>, key: string, value: number) => map.set(key, (map.get(key) ?? 0) + value);
  return {
    request: (protocol, status) => add(requests, `protocol="${protocol}",status="${status}"`, 1),
    compaction(saved) {
      compactions++;
      tokensSaved += Math.max(0, saved);
    },
    recovery: () => void recoveries++,
    usage(protocol, usage) {
      const key = `protocol="${protocol}"`;
      add(prompt, key, usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens);
      add(cacheRead, key, usage.cacheReadInputTokens);
      add(output, key, usage.outputTokens);
    },
    addedLatency(seconds) {
      latencySum += seconds;
      latencyCount++;
      BUCKETS.forEach((bound, index) => {
        if (seconds <= bound) buckets[index]!++;
      });
    },
    inFlight: (count) => void (inFlight = count),
    render() {
      const lines: string[] = [];
      const family = (name: string, type: string, help: string, map: Map<string, number>) => {
        lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
        for (const [labels, value] of map) lines.push(`${name}{${labels}} ${value}`);
      };
      const single = (name: string, type: string, help: string, value: number) =>
        lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, `${name} ${value}`);
      family('ctxhost_gateway_requests_total', 'counter', 'Requests answered, by protocol and status.', requests);
      single(
        'ctxhost_gateway_compactions_total',
        'counter',
        'Requests sent with a projection smaller than the prompt.',
        compactions,
      );
      single('ctxhost_gateway_recoveries_total', 'counter', 'Overflows answered after a recovery.', recoveries);
      single(
        'ctxhost_gateway_tokens_saved_total',
        'counter',
        'Estimated prompt tokens the projections left out.',
        tokensSaved,
      );
      family('ctxhost_gateway_prompt_tokens_total', 'counter', 'Prompt tokens the provider reported.', prompt);
      family(
        'ctxhost_gateway_cache_read_tokens_total',
        'counter',
        'Prompt tokens the provider read from its cache.',
        cacheRead,
      );
      family('ctxhost_gateway_output_tokens_total', 'counter', 'Output tokens the provider reported.', output);
      single('ctxhost_gateway_in_flight', 'gauge', 'Requests in flight.', inFlight);
      lines.push(
        '# HELP ctxhost_gateway_added_latency_seconds Time the gateway spent before forwarding a request.',
        '# TYPE ctxhost_gateway_added_latency_seconds histogram',
      );
      BUCKETS.forEach((bound, index) =>
        lines.push(`ctxhost_gateway_added_latency_seconds_bucket{le="${bound}"} ${buckets[index]}`),
      );
      lines.push(
        `ctxhost_gateway_added_latency_seconds_bucket{le="+Inf"} ${latencyCount}`,
        `ctxhost_gateway_added_latency_seconds_sum ${latencySum}`,
        `ctxhost_gateway_added_latency_seconds_count ${latencyCount}`,
      );
      return `${lines.join('\n')}\n`;
    },
  };
}
