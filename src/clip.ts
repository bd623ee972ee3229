// A page controls the length of its title, URL, dialog messages and the rest: each is cut to a bound
// before the agent keeps it or sends it to a model, and says that it was cut.

/**
 * `text` when it fits in `max` characters; otherwise its start and a mark with the original length,
 * `… (1,048,576 characters)`, at most `max` characters in all, so that no model or reader takes it for
 * the whole. Bounds below about 30 characters leave no room for the start.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text
  const mark = `… (${text.length.toLocaleString('en')} characters)`
  let keep = Math.max(0, max - mark.length)
  // Half of a surrogate pair would be sent as a six-character escape, and means nothing.
  if (keep > 0 && isHighSurrogate(text.charCodeAt(keep - 1))) keep -= 1
  return `${text.slice(0, keep)}${mark}`
}

/** How many characters of a text a part of it leaves out, before it and after it (a type, so that it is JSON as it is). */
export type Omitted = { before: number; after: number }

/**
 * The part of `text` from `start` on, at most `max` characters, exactly as it is (no mark: what was
 * left out is counted beside it), and never half a surrogate pair at either end.
 */
export function windowOf(text: string, start: number, max: number): { part: string } & Omitted {
  let from = Math.max(0, Math.min(start, text.length))
  if (from > 0 && isLowSurrogate(text.charCodeAt(from))) from += 1
  let to = Math.min(text.length, from + max)
  if (to < text.length && to > from && isHighSurrogate(text.charCodeAt(to - 1))) to -= 1
  return { part: text.slice(from, to), before: from, after: text.length - to }
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff
}
