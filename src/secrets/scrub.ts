import type { Omitted } from '../clip.ts'
import type { Observation } from '../collector/observation.ts'
import type { Secret } from './placeholders.ts'
import { escapePattern } from '../base/pattern.ts'

// Pages echo what was typed: a field's value, a welcome line, the URL of a GET form. Every string that
// comes from the page has each secret value replaced by its placeholder before anything reads it, so
// no model request, trace, recording, cache entry, log line or error carries it.

/** Replaces every secret value in a text by its placeholder. */
export interface Scrub {
  (text: string): string
  /** The same for a part of a longer text (a long field's value), cut where `cut` left characters out. */
  part(text: string, cut: Omitted): string
}

/** A start (or end) this long of a value cut off by a clip mark or a part's edge is still replaced: shorter ones tell next to nothing. */
const CUT_PART = 3
/** What `clip` leaves at the end of a text it cut (src/clip.ts), or the page script's bare `…` (src/page/text.ts). */
const CLIP_MARK = /…(?: \([\d,]+ characters\))?$/
/**
 * Keys of an observation that hold the agent's identifiers and hashes, or the kinds its logic reads
 * (a password "password" must not turn `type: 'password'` into a placeholder): never free page text.
 */
const OWN_KEYS = new Set(['id', 'nodeId', 'fingerprint', 'signature', 'operations', 'kind', 'type', 'role', 'tag', 'nameFrom', 'alike'])
/** Keys whose object's own keys are page text: a form's field names. */
const PAGE_KEYED = new Set(['fields'])

/** The identity for no secrets; otherwise a scrub of every form a page may show a value in. */
export function scrubberOf(secrets: readonly Secret[]): Scrub {
  if (secrets.length === 0) return Object.assign((text: string) => text, { part: (text: string) => text })
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
  const scrubCut = (text: string, cut: Omitted): string => {
    if (text === '') return text
    const whole = replaceAll(text)
    const mark = CLIP_MARK.exec(whole)
    let kept = mark ? whole.slice(0, mark.index) : whole
    if (mark || cut.after > 0) kept = scrubCutStart(kept, forms)
    if (cut.before > 0) kept = scrubCutEnd(kept, forms)
    return mark ? `${kept}${mark[0]}` : kept
  }
  return Object.assign((text: string) => scrubCut(text, { before: 0, after: 0 }), { part: scrubCut })
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

/** A text cut in the middle of a value (by `clip`, or a part's end): the start of the value it ends with is replaced too. */
function scrubCutStart(text: string, forms: readonly Form[]): string {
  const lower = text.toLowerCase()
  for (const form of forms) {
    const value = form.text.toLowerCase()
    for (let length = Math.min(value.length - 1, text.length); length >= CUT_PART; length -= 1) {
      if (lower.endsWith(value.slice(0, length))) return `${text.slice(0, text.length - length)}${form.placeholder}`
    }
  }
  return text
}

/** A part of a text that opens in the middle of a value: the end of the value it starts with is replaced too. */
function scrubCutEnd(text: string, forms: readonly Form[]): string {
  const lower = text.toLowerCase()
  for (const form of forms) {
    const value = form.text.toLowerCase()
    for (let length = Math.min(value.length - 1, text.length); length >= CUT_PART; length -= 1) {
      if (lower.startsWith(value.slice(value.length - length))) return `${form.placeholder}${text.slice(length)}`
    }
  }
  return text
}

function scrubValue(value: unknown, scrub: Scrub, key?: string): unknown {
  if (typeof value === 'string') return scrub(value)
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, scrub))
  if (!isPlainObject(value)) return value
  const pageKeys = key !== undefined && PAGE_KEYED.has(key)
  // A long field's value is kept as a part of it, cut where `valueOmitted` says.
  const cut = value.valueOmitted as Omitted | undefined
  return Object.fromEntries(
    Object.entries(value).map(([name, inner]) => [
      pageKeys ? scrub(name) : name,
      name === 'value' && cut && typeof inner === 'string' ? scrub.part(inner, cut) : OWN_KEYS.has(name) && !pageKeys ? inner : scrubValue(inner, scrub, name),
    ]),
  )
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false
  const prototype = Object.getPrototypeOf(value) as unknown
  return prototype === Object.prototype || prototype === null
}

