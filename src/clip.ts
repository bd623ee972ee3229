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

/** The mark at the start of a window into a longer text: `… (from character 2,001 of 3,000) `. */
export function startMark(start: number, length: number): string {
  return `… (from character ${(start + 1).toLocaleString('en')} of ${length.toLocaleString('en')}) `
}

/**
 * The part of `text` from `start` on, as a scrolled field shows it: `startMark` first, then as much as
 * fits in `max` characters in all, cut as `clip` cuts and its end mark giving the whole text's length.
 * A window from the start is `clip`.
 */
export function clipFrom(text: string, start: number, max: number): string {
  if (start <= 0) return clip(text, max)
  // A window starting inside a surrogate pair would open with half a character.
  if (isLowSurrogate(text.charCodeAt(start))) start += 1
  const lead = startMark(start, text.length)
  const rest = text.slice(start)
  if (lead.length + rest.length <= max) return lead + rest
  const mark = `… (${text.length.toLocaleString('en')} characters)`
  let keep = Math.max(0, max - lead.length - mark.length)
  if (keep > 0 && isHighSurrogate(rest.charCodeAt(keep - 1))) keep -= 1
  return `${lead}${rest.slice(0, keep)}${mark}`
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff
}
