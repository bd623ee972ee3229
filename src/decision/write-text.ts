import type { JSONObject } from '@ai-sdk/provider'
import { z } from 'zod'
import { clip } from '../clip.ts'
import type { Observation, ObservedElement } from '../collector/observation.ts'
import { describeElement } from '../collector/describe-element.ts'
import { shownValue } from '../collector/shown-value.ts'
import { generateJson, type LanguageSettings } from '../models/call-language-model.ts'
import { invalidReplyReason, isInvalidReply } from '../models/invalid-reply.ts'
import type { Ledger } from '../base/ledger.ts'
import { DATE_FORMATS } from '../page/date-formats.ts'
import { listPlaceholders, type Secret } from '../secrets/placeholders.ts'
import type { RecentAction } from './decision.ts'
import { compact } from '../base/compact.ts'
import { tellRecent } from './decision-request.ts'
import { dropFirst, dropLast, fitRequest, shortenText, sizeOf, type Part } from './request-bounds.ts'

// The value typed for TYPE_TEXT, written by the text model. Anything but exactly `{ "text": "…" }`
// with a usable string fails closed: nothing is typed.

/** Longest text typed: a field kept whole (`LIMITS.keptValueLimit`) written anew, with room to grow. */
export const MAX_TEXT_LENGTH = 5_000
/**
 * Room for the longest text, escapes included (about 1,500 tokens); a reasoning model can spend a
 * larger budget thinking and still return nothing usable.
 */
export const TEXT_MAX_OUTPUT_TOKENS = 2_048

const replySchema = z.strictObject({
  text: z
    .string()
    .max(MAX_TEXT_LENGTH)
    .refine((text) => text.trim().length > 0, 'must not be empty'),
})

/** Other fields' values the request carries: enough for a form, and a page of inputs cannot grow it. */
export const OTHER_FIELDS = 30
/** Characters of another field's value: enough to copy a number or a line; the field typed into is sent as the observation keeps it. */
export const OTHER_FIELD_VALUE = 300

const INSTRUCTIONS = [
  'You write the exact text to type into one field of a web page, to move it toward the goal.',
  'Take values from the goal. When the goal says to copy or use something shown on the page, take it from the page text or from the other fields\' values (other_fields), exactly as shown.',
  'Do not invent personal information.',
  'The text replaces what the field holds, and cannot be empty. It is typed exactly as you write it, every line break and space included: to change part of a field, write its whole value (field.value) with only that part changed.',
  'A value (field.value, other_fields) is exactly what the field holds, line breaks and spaces included; of a long value only a part is shown, and value_omitted counts the characters left out before and after it.',
  'Reply with exactly one JSON object {"text": "..."} and nothing else.',
].join('\n')

// Only with `secrets`: the model writes a placeholder, and the executor types the value it stands for.
const SECRET_INSTRUCTIONS = [
  'Where the field needs one of the secrets (a login name, a password…), write its placeholder from "secrets" exactly, such as %password%, in its place.',
  'The real value is typed for you; never guess or invent a secret.',
].join('\n')

export interface WriteTextInput {
  goal: string
  observation: Observation
  target: ObservedElement
  recent: RecentAction[]
  settings: TextSettings
  ledger: Ledger
}

/** What writing a field's text reads of the settings: the text model, and the secrets it may name. */
export interface TextSettings extends LanguageSettings {
  secrets: Secret[]
}

export interface WrittenText {
  text: string
  textMs: number
}

export async function writeText(input: WriteTextInput): Promise<WrittenText> {
  const started = performance.now()
  const placeholders = listPlaceholders(input.settings.secrets)
  let reply: z.infer<typeof replySchema>
  try {
    reply = await generateJson({
      settings: input.settings,
      ledger: input.ledger,
      purpose: 'text',
      instructions: placeholders.length > 0 ? `${INSTRUCTIONS}\n${SECRET_INSTRUCTIONS}` : INSTRUCTIONS,
      prompt: JSON.stringify(textPrompt({ ...input, placeholders })),
      schema: replySchema,
      maxOutputTokens: TEXT_MAX_OUTPUT_TOKENS,
    })
  } catch (error) {
    if (!isInvalidReply(error)) throw error
    // The SDK's own message ("No object generated: response did not match schema.") names neither the
    // field nor what was wrong with the reply.
    throw new Error(`The text model gave no usable value to type into "${clip(input.target.name, 80)}" (${invalidReplyReason(error as Error)}): nothing was typed.`, { cause: error })
  }
  return { text: reply.text, textMs: Math.round(performance.now() - started) }
}

/**
 * What the text model reads, within the request bound: the goal, the field, the secrets' placeholders
 * when there are any, the page with its text and the other fields' values (to copy from), and the history.
 */
export function textPrompt(input: Pick<WriteTextInput, 'goal' | 'observation' | 'target' | 'recent'> & { placeholders?: string[] }): JSONObject {
  const { observation, target } = input
  // The field as the decision request described it (multiline, its state, its form…), with its value
  // as the observation keeps it: the text written replaces the whole of it.
  const field = compact({
    ...describeElement(target),
    // A date or time field's value has one written form, whatever the page shows.
    format: target.type === undefined ? undefined : DATE_FORMATS.get(target.type),
    value: target.value,
    value_omitted: target.valueOmitted,
  })
  const secrets = input.placeholders?.length ? { secrets: input.placeholders } : {}
  // The page's text gives way first, then the oldest of the history, as in the decision request, then
  // the last of the other fields; only the goal and the field itself never do.
  const text: Part<string> = { value: observation.text }
  const recent: Part<JSONObject[]> = { value: tellRecent(input.recent) }
  const fields: Part<JSONObject[]> = { value: otherFields(observation, target) }
  return fitRequest(
    () => ({
      goal: input.goal,
      field,
      ...secrets,
      page: { url: observation.url, title: observation.title, text: text.value },
      other_fields: fields.value,
      recent_actions: recent.value,
    }),
    sizeOf,
    [shortenText(text), dropFirst(recent), dropLast(fields, (item) => item)],
  )
}

/** The other controls that hold a value, in the page's order, as `{ name, value, value_omitted }`: what a goal may say to copy. */
function otherFields(observation: Observation, target: ObservedElement): JSONObject[] {
  return observation.elements
    .filter((element) => element.id !== target.id && element.value !== undefined && element.value !== '')
    .slice(0, OTHER_FIELDS)
    .map((element) => compact({ name: element.name, ...shownValue(element, OTHER_FIELD_VALUE) }))
}
