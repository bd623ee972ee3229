import type { LanguageModelV4GenerateResult, LanguageModelV4Usage } from '@ai-sdk/provider'
import { MockLanguageModelV4 } from 'ai/test'

// Replies for MockLanguageModelV4 ('ai/test'), as a provider would send them.

/** Usage that reports totals only: no cache and no reasoning breakdown. */
export function tokenUsage(input: number, output: number): LanguageModelV4Usage {
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  }
}

/** A finished generation whose only content is `text`; `fields` replace any part (usage, finish reason, metadata). */
export function textResult(text: string, fields: Partial<LanguageModelV4GenerateResult> = {}): LanguageModelV4GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: tokenUsage(100, 10),
    warnings: [],
    ...fields,
  }
}

/**
 * A language model that answers its nth request with the nth reply (the last one repeats): strings as
 * they are, anything else as JSON. `fields` go into every result, e.g. its usage.
 */
export function replyingModel(replies: readonly unknown[], fields: Partial<LanguageModelV4GenerateResult> = {}): MockLanguageModelV4 {
  if (replies.length === 0) throw new Error('replyingModel needs at least one reply')
  let answered = 0
  return new MockLanguageModelV4({
    doGenerate: async () => {
      const reply = replies[Math.min(answered, replies.length - 1)]
      answered += 1
      return textResult(typeof reply === 'string' ? reply : JSON.stringify(reply), fields)
    },
  })
}

/** The prompt of the model's first request, as JSON text. */
export function promptOf(model: MockLanguageModelV4): string {
  return JSON.stringify(model.doGenerateCalls[0]?.prompt ?? null)
}
