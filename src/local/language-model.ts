import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4GenerateResult, LanguageModelV4StreamPart } from '@ai-sdk/provider'
import type { ChecklistPrompt } from '../checklist/checklist-schema.ts'
import { writeLocalChecklist } from './checklist-writer.ts'
import { LOCAL_PROVIDER } from './decision-model.ts'
import { quotedPhrases } from './words.ts'

const MODEL_ID = 'quoted-text'

/**
 * An offline language model that answers two requests: the TYPE_TEXT value, with the text quoted in
 * the goal (`search for "bmw x3"` gives `{ "text": "bmw x3" }`), and the goal's checklist, from the
 * goal's words (src/local/checklist-writer.ts). Anything else it is asked (rules, decisions, a goal with
 * nothing quoted) fails with an error that says so. A baseline, not a model.
 */
export function createLocalLanguageModel(): LanguageModelV4 {
  return {
    specificationVersion: 'v4',
    provider: LOCAL_PROVIDER,
    modelId: MODEL_ID,
    supportedUrls: {},
    async doGenerate(options) {
      options.abortSignal?.throwIfAborted()
      return generate(options)
    },
    async doStream(options) {
      options.abortSignal?.throwIfAborted()
      const { content, finishReason, usage } = generate(options)
      const text = content[0]?.type === 'text' ? content[0].text : ''
      const parts: LanguageModelV4StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't0' },
        { type: 'text-delta', id: 't0', delta: text },
        { type: 'text-end', id: 't0' },
        { type: 'finish', finishReason, usage },
      ]
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part)
            controller.close()
          },
        }),
      }
    },
  }
}

function generate(options: LanguageModelV4CallOptions): LanguageModelV4GenerateResult {
  const format = options.responseFormat
  const properties = format?.type === 'json' ? (format.schema as { properties?: Record<string, unknown> } | undefined)?.properties : undefined
  if (properties && 'items' in properties) return answer({ items: writeLocalChecklist(checklistPromptOf(options)) })
  if (properties && !('text' in properties)) {
    throw new Error(
      `The local language model only writes TYPE_TEXT values; it was asked for an object with ${Object.keys(properties).join(', ') || 'no fields'}. ` +
        'Besides these it writes goal checklists; use a real model in `text` for extraction instructions or `decisions: false`.',
    )
  }
  const goal = findGoal(promptText(options))
  if (goal === undefined) throw new Error('The local language model found no goal in the request, so it has no quoted text to type.')
  const value = quotedPhrases(goal)[0]
  if (value === undefined) {
    throw new Error(`The local language model types only text quoted in the goal, like search for "bmw x3"; this goal quotes nothing: ${JSON.stringify(goal)}.`)
  }
  return answer({ text: value })
}

/** A finished generation whose text is `reply` as JSON. */
function answer(reply: object): LanguageModelV4GenerateResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(reply) }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: {
      inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 0, text: 0, reasoning: 0 },
    },
    response: { modelId: MODEL_ID, timestamp: new Date() },
    warnings: [],
  }
}

/** The request `writeChecklist` sends: its user message is the JSON `checklistPrompt` wrote. */
function checklistPromptOf(options: LanguageModelV4CallOptions): ChecklistPrompt {
  const text = options.prompt
    .filter((message) => message.role === 'user')
    .flatMap((message) => message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])))
    .join('\n')
  let prompt: Partial<ChecklistPrompt> | undefined
  try {
    prompt = JSON.parse(text) as Partial<ChecklistPrompt>
  } catch {
    prompt = undefined
  }
  if (typeof prompt?.goal !== 'string' || !Array.isArray(prompt.controls)) {
    throw new Error('The local language model writes a checklist only from the request checklistPrompt writes: a JSON object with a goal and controls.')
  }
  return prompt as ChecklistPrompt
}

function promptText(options: LanguageModelV4CallOptions): string {
  return options.prompt
    .flatMap((message) =>
      typeof message.content === 'string' ? [message.content] : message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])),
    )
    .join('\n')
}

/** The goal as the request states it: a JSON `"goal": "…"` field, or a `Goal: …` line. */
function findGoal(text: string): string | undefined {
  const field = /"goal"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(text)
  if (field?.[1]) return JSON.parse(field[1]) as string
  return /^\s*goal\s*:\s*(.+)$/im.exec(text)?.[1]?.trim()
}
