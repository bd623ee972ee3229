import { z } from 'zod'
import type { Observation, ObservedElement } from '../collector/observation.ts'
import { generateJson } from '../models/call-language-model.ts'
import type { Settings } from '../options.ts'
import type { Ledger } from '../profiling/ledger.ts'
import type { RecentAction } from './decision.ts'
import { RECENT_ACTIONS_SHOWN } from './decision-request.ts'

// The value typed for TYPE_TEXT, written by the text model. Anything but exactly `{ "text": "…" }`
// with a usable string fails closed: nothing is typed.

export const MAX_TEXT_LENGTH = 2_000
/** A reasoning model can spend a larger budget thinking and still return nothing usable. */
export const TEXT_MAX_OUTPUT_TOKENS = 1_024

const replySchema = z.strictObject({
  text: z
    .string()
    .max(MAX_TEXT_LENGTH)
    .refine((text) => text.trim().length > 0, 'must not be empty'),
})

const INSTRUCTIONS = [
  'You write the exact text to type into one field of a web page, to move it toward the goal.',
  'Take values from the goal. Do not invent personal information.',
  'Reply with exactly one JSON object {"text": "..."} and nothing else.',
].join('\n')

export interface WriteTextInput {
  goal: string
  observation: Observation
  target: ObservedElement
  recent: RecentAction[]
  settings: Settings
  ledger: Ledger
}

export interface WrittenText {
  text: string
  textMs: number
}

export async function writeText(input: WriteTextInput): Promise<WrittenText> {
  const started = performance.now()
  const { observation, target } = input
  const prompt = JSON.stringify({
    goal: input.goal,
    field: {
      role: target.role,
      name: target.name,
      type: target.type,
      value: target.value,
      form: target.form,
      nearby: target.nearby,
    },
    page: { url: observation.url, title: observation.title, text: observation.text },
    recent_actions: input.recent.slice(-RECENT_ACTIONS_SHOWN).map((action) => ({
      operation: action.operation,
      target_name: action.targetName,
      text: action.text,
      outcome: action.outcome,
    })),
  })
  const reply = await generateJson({
    settings: input.settings,
    ledger: input.ledger,
    purpose: 'text',
    instructions: INSTRUCTIONS,
    prompt,
    schema: replySchema,
    maxOutputTokens: TEXT_MAX_OUTPUT_TOKENS,
  })
  return { text: reply.text, textMs: Math.round(performance.now() - started) }
}
