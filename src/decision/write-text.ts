import type { JSONObject } from '@ai-sdk/provider'
import type { TextEdit } from '../../types/index.d.ts'
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

// The value typed for TYPE_TEXT, written by the text model: the field's whole value, or with `edit`
// a change to part of it (adding a row to a long page must not mean retyping the page). The edit is a
// mode of TYPE_TEXT, not an operation of its own: the decision model chooses the field to write into,
// and the text model, which reads the field's value, chooses whether to write it whole or in part;
// the decision request and the cache's matching stay as they are. Anything but exactly the schema's
// object with usable strings fails closed: nothing is typed.

/** Longest text typed: a field kept whole (`LIMITS.keptValueLimit`) written anew, with room to grow. */
export const MAX_TEXT_LENGTH = 5_000
/**
 * Room for the longest text, escapes included (about 1,500 tokens); a reasoning model can spend a
 * larger budget thinking and still return nothing usable.
 */
export const TEXT_MAX_OUTPUT_TOKENS = 2_048

const EDIT_MODES = ['replace', 'insert_after', 'append'] as const

const replySchema = z
  .strictObject({
    text: z.string().max(MAX_TEXT_LENGTH),
    edit: z.enum(EDIT_MODES).optional(),
    quote: z.string().min(1).max(MAX_TEXT_LENGTH).optional(),
  })
  .superRefine((reply, context) => {
    const quoted = reply.edit === 'replace' || reply.edit === 'insert_after'
    if (quoted !== (reply.quote !== undefined)) {
      context.addIssue({ code: 'custom', path: ['quote'], message: quoted ? `edit "${reply.edit}" needs the quoted passage` : 'a quote goes only with edit "replace" or "insert_after"' })
    }
    // A whole value cannot be empty (PRESS empties a field); a replaced passage may be deleted.
    if (reply.edit === undefined && reply.text.trim() === '') context.addIssue({ code: 'custom', path: ['text'], message: 'must not be empty' })
    if ((reply.edit === 'insert_after' || reply.edit === 'append') && reply.text === '') context.addIssue({ code: 'custom', path: ['text'], message: 'must not be empty for an insertion' })
  })

/** Other fields' values the request carries: enough for a form, and a page of inputs cannot grow it. */
export const OTHER_FIELDS = 30
/** Characters of another field's value: enough to copy a number or a line; the field typed into is sent as the observation keeps it. */
export const OTHER_FIELD_VALUE = 300

const INSTRUCTIONS = [
  'You write the exact text to type into one field of a web page, to move it toward the goal.',
  'Take values from the goal. When the goal says to copy or use something shown on the page, take it from the page text or from the other fields\' values (other_fields), exactly as shown.',
  'Do not invent personal information.',
  'The text is typed exactly as you write it, every line break and space included. {"text": "..."} replaces what the field holds, and cannot be empty.',
  'To change part of a long value, write only the change: {"edit": "replace", "quote": "<passage>", "text": "<what takes its place>"} (an empty text deletes the passage), {"edit": "insert_after", "quote": "<passage>", "text": "<what goes right after it>"}, or {"edit": "append", "text": "<what goes at the end>"}. The quote is copied exactly from field.value and must appear in it once: quote a whole line, or more, rather than a word.',
  'A value (field.value, other_fields) is exactly what the field holds, line breaks and spaces included; of a long value only a part is shown, and value_omitted counts the characters left out before and after it.',
  'Reply with exactly one JSON object of these and nothing else.',
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
  /** The whole value, or with `edit` the text of the part edited. */
  text: string
  edit?: TextEdit
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
  const textMs = Math.round(performance.now() - started)
  if (reply.edit === undefined) return { text: reply.text, textMs }
  const edit: TextEdit = reply.edit === 'append' ? { mode: 'append' } : { mode: reply.edit, quote: reply.quote! }
  return { text: reply.text, edit, textMs }
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
