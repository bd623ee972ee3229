import type { Observation } from '../collector/observation.ts'
import type { Secret } from './placeholders.ts'
import { escapePattern } from '../base/pattern.ts'

// Pages echo what was typed: a field's value, a welcome line, the URL of a GET form. Every string that
// comes from the page has each secret value replaced by its placeholder before anything reads it, so
// no model request, trace, recording, cache entry, log line or error carries it.

/** Replaces every secret value in a text by its placeholder. */
export type Scrub = (text: string) => string

/** A start (or end) this long of a value cut off by a clip mark is still replaced: shorter ones tell next to nothing. */
const CUT_PART = 3
/** What `clip` leaves at the end of a text it cut (src/clip.ts), or the page script's bare `…` (src/page/text.ts). */
const CLIP_MARK = /…(?: \([\d,]+ characters\))?$/
/** What `clipFrom` puts before a window into a longer text, such as a scrolled field's value (src/clip.ts). */
const START_MARK = /^… \(from character [\d,]+ of [\d,]+\) /
/**
 * Keys of an observation that hold the agent's identifiers and hashes, or the kinds its logic reads
 * (a password "password" must not turn `type: 'password'` into a placeholder): never free page text.
 */
const OWN_KEYS = new Set(['id', 'nodeId', 'fingerprint', 'signature', 'operations', 'kind', 'type', 'role', 'tag', 'nameFrom'])
/** Keys whose object's own keys are page text: a form's field names. */
const PAGE_KEYED = new Set(['fields'])

/** The identity for no secrets; otherwise a scrub of every form a page may show a value in. */
export function scrubberOf(secrets: readonly Secret[]): Scrub {
  if (secrets.length === 0) return (text) => text
  const forms = shownForms(secrets)
  const placeholders = [...new Set(secrets.map((secret) => secret.placeholder))]
  // Placeholders come first and stay as they are, so that a text scrubbed twice is unchanged. Values
  // are matched longest first (a value inside another) and in any case: a page may show a name in capitals.
  const alternatives = [...placeholders, ...forms.map((form) => form.text)].map((text) => `(${escapePattern(text)})`)
  const pattern = new RegExp(alternatives.join('|'), 'giu')
  const replaceAll = (text: string) =>
    text.replace(pattern, (match: string, ...groups: unknown[]) => {
      const index = groups.findIndex((group) => group !== undefined)
      return index < placeholders.length ? match : forms[index - placeholders.length]!.placeholder
    })
  return (text) => {
    if (text === '') return text
    const whole = replaceAll(text)
    const ended = CLIP_MARK.test(whole) ? scrubCutStart(whole, forms) : whole
    return START_MARK.test(ended) ? scrubCutEnd(ended, forms) : ended
  }
}

/** Every string of `observation` scrubbed, in a new observation of the same shape. */
export function scrubObservation(observation: Observation, scrub: Scrub): Observation {
  return scrubValue(observation, scrub) as Observation
}

/** `error` with its message and stack scrubbed, and its causes', in place: it is the same error the run ended with. */
export function scrubError(error: Error, scrub: Scrub): Error {
  const seen = new Set<unknown>()
  for (let current: unknown = error; current instanceof Error && !seen.has(current); current = current.cause) {
    seen.add(current)
    try {
      current.message = scrub(current.message)
      if (typeof current.stack === 'string') current.stack = scrub(current.stack)
    } catch {
      // A message that cannot be set (a frozen error) holds no page text the agent put there.
    }
  }
  return error
}

interface Form {
  text: string
  placeholder: string
}

/**
 * Each value as typed, percent-encoded (a URL's path or query by script), form-encoded (a GET form:
 * spaces as `+`) and with its runs of whitespace collapsed (page text), longest first.
 */
function shownForms(secrets: readonly Secret[]): Form[] {
  const forms = new Map<string, string>()
  for (const { value, placeholder } of secrets) {
    for (const text of [value, value.replace(/\s+/g, ' ').trim(), ...encoded(value)]) {
      if (text !== '' && !forms.has(text)) forms.set(text, placeholder)
    }
  }
  return [...forms].map(([text, placeholder]) => ({ text, placeholder })).sort((a, b) => b.text.length - a.text.length)
}

function encoded(value: string): string[] {
  try {
    const percent = encodeURIComponent(value)
    return [percent, percent.replace(/%20/g, '+'), new URLSearchParams({ v: value }).toString().slice(2)]
  } catch {
    // A lone surrogate has no percent-encoding, and so no URL can hold it encoded.
    return []
  }
}

/** A text cut by `clip` in the middle of a value: the start left before the mark is replaced too. */
function scrubCutStart(text: string, forms: readonly Form[]): string {
  const mark = CLIP_MARK.exec(text)!
  const kept = text.slice(0, mark.index)
  const lower = kept.toLowerCase()
  for (const form of forms) {
    const value = form.text.toLowerCase()
    for (let length = Math.min(value.length - 1, kept.length); length >= CUT_PART; length -= 1) {
      if (lower.endsWith(value.slice(0, length))) return `${kept.slice(0, kept.length - length)}${form.placeholder}${mark[0]}`
    }
  }
  return text
}

/** A window into a text that opens in the middle of a value: the end of it after the mark is replaced too. */
function scrubCutEnd(text: string, forms: readonly Form[]): string {
  const mark = START_MARK.exec(text)!
  const rest = text.slice(mark[0].length)
  const lower = rest.toLowerCase()
  for (const form of forms) {
    const value = form.text.toLowerCase()
    for (let length = Math.min(value.length - 1, rest.length); length >= CUT_PART; length -= 1) {
      if (lower.startsWith(value.slice(value.length - length))) return `${mark[0]}${form.placeholder}${rest.slice(length)}`
    }
  }
  return text
}

function scrubValue(value: unknown, scrub: Scrub, key?: string): unknown {
  if (typeof value === 'string') return scrub(value)
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, scrub))
  if (!isPlainObject(value)) return value
  const pageKeys = key !== undefined && PAGE_KEYED.has(key)
  return Object.fromEntries(
    Object.entries(value).map(([name, inner]) => [
      pageKeys ? scrub(name) : name,
      OWN_KEYS.has(name) && !pageKeys ? inner : scrubValue(inner, scrub, name),
    ]),
  )
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false
  const prototype = Object.getPrototypeOf(value) as unknown
  return prototype === Object.prototype || prototype === null
}

