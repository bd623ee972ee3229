// Word handling for the offline models: plain string matching, no language model.

// Words that say nothing about what to look for on a page.
const STOP_WORDS = new Set(
  ('a an the and or but of for to in on at by with from into onto about as is are be it its this that these those ' +
    'me my i you your we our us then than there here please can could would should will just only all any some ' +
    'page pages site website result results item items link links one ones first second third last top ' +
    'el la los las un una de del y en con por para que al lo le les des du et au aux der die das und mit').split(' '),
)

/** Verbs that ask for one action each; used to tell how far a goal has come. */
const ACTION_VERBS = new Set(
  ('search find look type enter write fill open click go navigate visit select choose pick sort order filter ' +
    'submit press show view add read check tick book login sign subscribe download').split(' '),
)

// A quoted phrase, in straight, curly or angle quotes, or in single quotes that are not apostrophes.
const QUOTED = /"([^"]+)"|“([^”]+)”|«([^»]+)»|(?<!\p{L})'([^']+)'(?!\p{L})/gu

/** Text values the executor types come from here: `search for "bmw x3"` gives `bmw x3`. */
export function quotedPhrases(text: string): string[] {
  const phrases: string[] = []
  for (const match of text.matchAll(QUOTED)) {
    const phrase = phraseOf(match)
    if (phrase) phrases.push(phrase)
  }
  return phrases
}

/** The text between the quotes, whichever kind matched. */
function phraseOf(match: RegExpMatchArray): string {
  return (match[1] ?? match[2] ?? match[3] ?? match[4] ?? '').trim()
}

/** Where `maskQuoted` took out a quoted phrase: its index between two NUL characters, which no goal holds. */
export const QUOTE_MARK = /\u0000(\d+)\u0000/g

/**
 * `text` with each quoted phrase replaced by a `QUOTE_MARK`, and the phrases: the text can then be
 * split into clauses at commas and "and" without cutting a quotation.
 */
export function maskQuoted(text: string): { masked: string; phrases: string[] } {
  const phrases: string[] = []
  let masked = ''
  let from = 0
  for (const match of text.matchAll(QUOTED)) {
    masked += `${text.slice(from, match.index)}\u0000${phrases.length}\u0000`
    phrases.push(phraseOf(match))
    from = match.index + match[0].length
  }
  return { masked: masked + text.slice(from), phrases }
}

/** Lower-case words without accents, so `Café` matches `cafe`. */
export function tokens(text: string): string[] {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
}

/** A light plural trim, so `Shoes` matches `shoe`; applied after stop words are dropped. */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1)
  return word
}

/** The words of `text` worth matching, stemmed. */
export function contentWords(text: string): string[] {
  return tokens(text)
    .filter((word) => !STOP_WORDS.has(word))
    .map(stem)
    .filter((word) => !STOP_WORDS.has(word))
}

export interface GoalWords {
  /** Every word worth matching against a control's label: key words and the action verbs. */
  all: Set<string>
  /** What should be visible once the goal is met: the words that are neither stop words nor action verbs. */
  key: Set<string>
  /** Number of actions the wording asks for, outside quoted text: `search … and open …` is 2. */
  actions: number
  /** The text to type, when the goal quotes one. */
  quoted: string | undefined
}

export function goalWords(goal: string): GoalWords {
  const quoted = quotedPhrases(goal)[0]
  const unquoted = tokens(goal.replace(/"[^"]*"|“[^”]*”|«[^»]*»/gu, ' '))
  const all = new Set(contentWords(goal))
  const key = new Set([...all].filter((word) => !ACTION_VERBS.has(word)))
  return { all, key, actions: unquoted.filter((word) => ACTION_VERBS.has(word)).length, quoted }
}

/** How many of `wanted` occur in `text`. */
export function overlap(wanted: ReadonlySet<string>, text: string): number {
  if (wanted.size === 0 || !text) return 0
  const present = new Set(tokens(text).map(stem))
  let count = 0
  for (const word of wanted) if (present.has(word)) count++
  return count
}
