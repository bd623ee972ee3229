// Many phrases as one pattern: the stock phrases and buy words in twenty languages, a shop's code
// labels. A phrase whose first or last character is a letter of a spaced script stands at a word
// boundary; written once per group of phrases with the same edges rather than once per phrase, as
// hundreds of Unicode classes took half a second to compile in a page.

/** Scripts written without spaces between words: their phrases match inside longer runs of letters. */
export const UNSPACED = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}\p{sc=Thai}]/u
const BEFORE = '(?<![\\p{L}\\p{N}])'
const AFTER = '(?![\\p{L}\\p{N}])'

export interface PhraseForm {
  /** A phrase's pattern between its edges: escaped, and its own notation read (`#` a number, a space any spaces). */
  body: (phrase: string) => string
  /** Whether a phrase starting or ending with this character needs a word boundary there. */
  edge: (char: string) => boolean
}

/** The phrases as one alternation, longest first, so that at a position the longer one ("not in stock") wins. */
export function phraseAlternation(phrases: readonly string[], form: PhraseForm): string {
  const groups = new Map<string, { before: boolean; after: boolean; bodies: string[] }>()
  for (const phrase of [...new Set(phrases)].sort((a, b) => b.length - a.length)) {
    if (phrase === '') continue
    const before = form.edge(phrase[0]!)
    const after = form.edge(phrase[phrase.length - 1]!)
    const key = `${before}${after}`
    const group = groups.get(key) ?? { before, after, bodies: [] }
    group.bodies.push(form.body(phrase))
    groups.set(key, group)
  }
  return Array.from(groups.values(), ({ before, after, bodies }) => `${before ? BEFORE : ''}(?:${bodies.join('|')})${after ? AFTER : ''}`).join('|')
}
