/**
 * A test-only opencode plugin (loaded by `opencode serve` beside ctxhost's):
 * it holds a prompt whose text starts with "[held] " in `chat.message` —
 * after opencode gave the prompt its id and time — until the session has a
 * compaction marker. It stands for any plugin whose `chat.message` takes a
 * while: opencode then stores the prompt after a compaction that began later
 * than the prompt's time, and folds it into the summary turn.
 */
interface Client {
  session: {
    messages(options: { path: { id: string } }): Promise<{ data?: { parts: { type: string }[] }[] }>;
  };
}

export const PromptHolder = async ({ client }: { client: Client }) => ({
  'chat.message': async (input: { sessionID: string }, output: { parts: { type: string; text?: string }[] }) => {
    const text = output.parts.find((part) => part.type === 'text')?.text ?? '';
    if (!text.startsWith('[held] ')) return;
    for (let attempt = 0; attempt < 600; attempt++) {
      const messages = (await client.session.messages({ path: { id: input.sessionID } })).data ?? [];
      if (messages.some((message) => message.parts.some((part) => part.type === 'compaction'))) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  },
});
