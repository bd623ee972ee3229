import type { JSONObject } from '@ai-sdk/provider'
import { z } from 'zod'
import type { Observation, ObservedElement } from '../collector/observation.ts'
import { generateJson } from '../models/call-language-model.ts'
import type { Settings } from '../options.ts'
import type { Ledger } from '../profiling/ledger.ts'
import type { RecentAction } from './decision.ts'
import { compact, tellRecent } from './decision-request.ts'
import { dropFirst, fitRequest, shortenText, sizeOf, type Part } from './request-bounds.ts'

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
  const reply = await generateJson({
    settings: input.settings,
    ledger: input.ledger,
    purpose: 'text',
    instructions: INSTRUCTIONS,
    prompt: JSON.stringify(textPrompt(input)),
    schema: replySchema,
    maxOutputTokens: TEXT_MAX_OUTPUT_TOKENS,
  })
  return { text: reply.text, textMs: Math.round(performance.now() - started) }
}

/** What the text model reads: the goal, the field, the page and the history, within the request bound. */
export function textPrompt(input: Pick<WriteTextInput, 'goal' | 'observation' | 'target' | 'recent'>): JSONObject {
  const { observation, target } = input
  const field = compact({
    role: target.role,
    name: target.name,
    type: target.type,
    value: target.value,
    form: target.form,
    nearby: target.nearby,
  })
  // The page's text gives way first, then the oldest of the history, as in the decision request.
  const text: Part<string> = { value: observation.text }
  const recent: Part<JSONObject[]> = { value: tellRecent(input.recent) }
  return fitRequest(
    () => ({ goal: input.goal, field, page: { url: observation.url, title: observation.title, text: text.value }, recent_actions: recent.value }),
    sizeOf,
    [shortenText(text), dropFirst(recent)],
  )
}
