import type { TextEdit } from '../../types/index.d.ts'

// Where an edit of part of a field's value goes, computed from the value the field holds at input
// time. The quoted passage must be there exactly once: a passage found twice could be the wrong one,
// and one not found means the model misread the value; either way nothing is typed.

/** The range of the value the edit's text takes the place of (empty for an insertion), or why it cannot go in. */
export type EditRange = { start: number; end: number } | { refused: string }

export function editRange(value: string, edit: TextEdit): EditRange {
  if (edit.mode === 'append') return { start: value.length, end: value.length }
  const { quote } = edit
  const first = value.indexOf(quote)
  if (first === -1) return { refused: 'the quoted passage is not in the field\'s value (quote it exactly as the value holds it, line breaks and spaces included)' }
  // Overlapping occurrences count too: "aa" is twice in "aaa".
  if (value.indexOf(quote, first + 1) !== -1) {
    return { refused: 'the quoted passage is in the field\'s value more than once (quote a longer passage, found once)' }
  }
  const end = first + quote.length
  return edit.mode === 'replace' ? { start: first, end } : { start: end, end }
}
