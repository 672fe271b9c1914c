/**
 * How to make one call through each framework integration, for scenarios written once
 * (test/integration-contract.test.ts, the stateless multi-process bench): an instance of the
 * integration on a given host, pointed at a simulator, and a call that hands it a whole
 * framework-neutral conversation and resolves with the answer's text (or rejects with what the
 * caller would see).
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import Anthropic from '@anthropic-ai/sdk';
import { ChatAnthropic } from '@langchain/anthropic';
import { tool } from '@langchain/core/tools';
import { Agent as MastraAgent } from '@mastra/core/agent';
import type { MastraModelConfig } from '@mastra/core/llm';
import { noopLogger } from '@mastra/core/logger';
import { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled } from '@openai/agents';
import { generateText, wrapLanguageModel } from 'ai';
import type { Host } from 'ctxhost';
import { createAgent } from 'langchain';
import { z } from 'zod';
import OpenAI from 'openai';
import { contextManagementMiddleware as aiSdkMiddleware } from '@ctxhost/ai-sdk';
import { withContextManagement as withAnthropicContextManagement } from '@ctxhost/anthropic';
import { contextManagementMiddleware as langchainMiddleware } from '@ctxhost/langchain';
import { createContextManagementProcessor } from '@ctxhost/mastra';
import { createContextManagement } from '@ctxhost/openai-agents';
import { withContextManagement } from '@ctxhost/openai';
import { BENCH_MODEL, type NeutralMessage } from '../integration-scenarios.js';
import { toModelMessages } from './ai-sdk.js';
import { READ_FILE_TOOL, toMessageParams } from './anthropic-sdk.js';
import { toMessages } from './langchain.js';
import { toItems } from './openai-agents.js';
import { READ_FILE_PARAMETERS, toChatMessages, toResponsesInput } from './openai.js';

export interface IntegrationInstance {
  /** One call with the whole conversation, as the framework's caller makes it; resolves with the answer. */
  call(system: string, messages: NeutralMessage[]): Promise<string>;
}

export interface InstanceOptions {
  host: Host;
  simUrl: string;
  contextWindow: number;
  maxOutputTokens?: number;
  /** The provider client's fetch (a bench times the provider's part of a call with it). */
  fetch?: typeof globalThis.fetch;
}

export interface IntegrationAdapter {
  name: string;
  /** One instance of the integration (its own views) on `host`, sending to the simulator at `simUrl`. */
  instance(options: InstanceOptions): IntegrationInstance;
}

const OUTPUT = 100;

const aiSdk: IntegrationAdapter = {
  name: 'ai-sdk',
  instance({ host, simUrl, contextWindow, maxOutputTokens = OUTPUT, fetch }) {
    const model = wrapLanguageModel({
      model: createAnthropic({ baseURL: `${simUrl}/v1`, apiKey: 'test', ...(fetch === undefined ? {} : { fetch }) })(
        BENCH_MODEL,
      ),
      middleware: aiSdkMiddleware({ host, contextWindow }),
    });
    return {
      async call(system, messages) {
        const result = await generateText({
          model,
          system,
          messages: toModelMessages(messages),
          maxOutputTokens,
          maxRetries: 0,
        });
        return result.text;
      },
    };
  },
};

// The conversations carry read_file calls: the agent declares the tool, as the caller's own agent would.
const readFile = tool(async ({ path }: { path: string }) => `contents of ${path}`, {
  name: 'read_file',
  description: 'Reads a file',
  schema: z.object({ path: z.string() }),
});

const langchain: IntegrationAdapter = {
  name: 'langchain',
  instance({ host, simUrl, contextWindow, maxOutputTokens = OUTPUT, fetch }) {
    const middleware = langchainMiddleware({ host, contextWindow });
    const model = new ChatAnthropic({
      model: BENCH_MODEL,
      apiKey: 'test',
      anthropicApiUrl: simUrl,
      maxRetries: 0,
      maxTokens: maxOutputTokens,
      ...(fetch === undefined ? {} : { clientOptions: { fetch } }),
    });
    return {
      async call(system, messages) {
        const agent = createAgent({ model, tools: [readFile], systemPrompt: system, middleware: [middleware] });
        const result = await agent.invoke({ messages: toMessages(messages) });
        return result.messages.at(-1)?.text ?? '';
      },
    };
  },
};

const openaiAgents: IntegrationAdapter = {
  name: 'openai-agents',
  instance({ host, simUrl, contextWindow, maxOutputTokens = OUTPUT, fetch }) {
    setTracingDisabled(true);
    const ctx = createContextManagement({ host, contextWindow, model: 'gpt-4o' });
    const client = new OpenAI({
      apiKey: 'test',
      baseURL: `${simUrl}/v1`,
      maxRetries: 0,
      ...(fetch === undefined ? {} : { fetch }),
    });
    const model = ctx.wrapModel(new OpenAIChatCompletionsModel(client, 'gpt-4o'));
    return {
      async call(system, messages) {
        const agent = new Agent({
          name: 'assistant',
          instructions: system,
          model,
          modelSettings: { maxTokens: maxOutputTokens },
        });
        const result = await run(agent, toItems(messages), { callModelInputFilter: ctx.callModelInputFilter });
        return String(result.finalOutput ?? '');
      },
    };
  },
};

const mastra: IntegrationAdapter = {
  name: 'mastra',
  instance({ host, simUrl, contextWindow, maxOutputTokens = OUTPUT, fetch }) {
    const processor = createContextManagementProcessor({ host, contextWindow });
    const model = createAnthropic({
      baseURL: `${simUrl}/v1`,
      apiKey: 'test',
      ...(fetch === undefined ? {} : { fetch }),
    })(BENCH_MODEL) as unknown as MastraModelConfig;
    return {
      async call(system, messages) {
        const agent = new MastraAgent({
          id: 'assistant',
          name: 'assistant',
          instructions: system,
          model,
          inputProcessors: [processor],
          errorProcessors: [processor],
          maxProcessorRetries: 3,
        });
        agent.__setLogger(noopLogger);
        const result = await agent.generate(toModelMessages(messages), {
          modelSettings: { maxOutputTokens, maxRetries: 0 },
        });
        if (result.error !== undefined) throw result.error;
        return result.text;
      },
    };
  },
};

const anthropicSdk: IntegrationAdapter = {
  name: 'anthropic',
  instance({ host, simUrl, contextWindow, maxOutputTokens = OUTPUT, fetch }) {
    const client = withAnthropicContextManagement(
      new Anthropic({ apiKey: 'test', baseURL: simUrl, maxRetries: 0, ...(fetch === undefined ? {} : { fetch }) }),
      { host, contextWindow },
    );
    return {
      async call(system, messages) {
        const reply = await client.messages.create({
          model: BENCH_MODEL,
          max_tokens: maxOutputTokens,
          system,
          tools: [READ_FILE_TOOL],
          messages: toMessageParams(messages),
        });
        return reply.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
      },
    };
  },
};

function openAIClient(simUrl: string, fetch: typeof globalThis.fetch | undefined): OpenAI {
  return new OpenAI({
    apiKey: 'test',
    baseURL: `${simUrl}/v1`,
    maxRetries: 0,
    ...(fetch === undefined ? {} : { fetch }),
  });
}

/** The OpenAI SDK wrapper (`withContextManagement` of `@ctxhost/openai`) on `chat.completions.create`. */
const openaiChat: IntegrationAdapter = {
  name: 'openai',
  instance({ host, simUrl, contextWindow, maxOutputTokens = OUTPUT, fetch }) {
    const client = withContextManagement(openAIClient(simUrl, fetch), { host, contextWindow });
    return {
      async call(system, messages) {
        const reply = await client.chat.completions.create({
          model: 'gpt-4o',
          messages: toChatMessages(system, messages),
          max_completion_tokens: maxOutputTokens,
          tools: [{ type: 'function', function: { name: 'read_file', parameters: READ_FILE_PARAMETERS } }],
        });
        return reply.choices[0]?.message.content ?? '';
      },
    };
  },
};

/** The same wrapper on `responses.create`: the conversation as input items, the system prompt as `instructions`. */
const openaiResponses: IntegrationAdapter = {
  name: 'openai-responses',
  instance({ host, simUrl, contextWindow, maxOutputTokens = OUTPUT, fetch }) {
    const client = withContextManagement(openAIClient(simUrl, fetch), { host, contextWindow });
    return {
      async call(system, messages) {
        const response = await client.responses.create({
          model: 'gpt-4o',
          instructions: system,
          input: toResponsesInput(messages),
          max_output_tokens: maxOutputTokens,
          tools: [{ type: 'function', name: 'read_file', parameters: READ_FILE_PARAMETERS, strict: false }],
        });
        return response.output_text;
      },
    };
  },
};

/** Every integration that is on core's stateless path. */
export const INTEGRATION_ADAPTERS: readonly IntegrationAdapter[] = [
  aiSdk,
  langchain,
  openaiAgents,
  mastra,
  anthropicSdk,
  openaiChat,
  openaiResponses,
];
