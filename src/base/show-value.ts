// How an error message shows a value it refuses: short enough for one line, never the whole of a
// caller's object or a page's text.

/** Longest string shown whole. */
const SHOWN_CHARS = 60

/** A value as a usage error shows it: short strings quoted, objects by their kind. */
export function showValue(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string') return JSON.stringify(value.length > SHOWN_CHARS ? `${value.slice(0, SHOWN_CHARS)}…` : value)
  if (typeof value === 'object') return 'an object'
  if (typeof value === 'function') return 'a function'
  return String(value)
}
