import { clip, clipFrom, startMark } from '../clip.ts'
import { scrollHeightOf, scrollTopOf } from './dom-safe.ts'

// A long multiline value as its field shows it: a textarea scrolled down shows its later lines, and
// the model is shown the same part, so SCROLL_DOWN in the field reveals its end. Only what is shown
// moves: the fingerprint hashes the whole value, so a scroll never makes the field stale.

/** How far a window's start may move to reach the start of a word. */
const WORD_REACH = 40

/** `at`, or the start of the next word when `at` falls inside one close to its end. */
function wordStart(text: string, at: number): number {
  if (at <= 0 || text[at - 1] === ' ') return at
  const space = text.indexOf(' ', at)
  return space >= 0 && space - at < WORD_REACH ? space + 1 : at
}

/**
 * `text` (the field's value, whitespace collapsed) in at most `limit` characters, from about the first
 * line in view. The offset is estimated from the scroll position (`scrollTop / scrollHeight` of the
 * text's length: lines wrap unevenly, so it is about, not exactly, that line), and a window that would
 * run short of `limit` starts earlier, so that at the bottom the whole last `limit` is read.
 */
export function scrolledValue(el: Element, text: string, limit: number): string {
  if (text.length <= limit) return clip(text, limit)
  const top = scrollTopOf(el)
  const height = scrollHeightOf(el)
  if (top <= 0 || height <= 0) return clip(text, limit)
  let start = Math.round((top / height) * text.length)
  const room = limit - startMark(start, text.length).length
  start = Math.max(0, Math.min(start, text.length - room))
  return clipFrom(text, wordStart(text, start), limit)
}
