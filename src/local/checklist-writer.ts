import type { ChecklistCheck, ChecklistItem } from '../../types/index.d.ts'
import { clip } from '../clip.ts'
import { MAX_CHECKLIST_ITEMS, MAX_CHECKLIST_TEXT } from '../checklist/checklist-schema.ts'
import { bestMatches, valueMatches } from '../checklist/match-names.ts'
import type { ChecklistPrompt, PromptControl } from '../checklist/checklist-schema.ts'
import { contentWords, maskQuoted, overlap, QUOTE_MARK, tokens } from './words.ts'

// The offline checklist writer: a baseline that reads the goal's words, not its meaning. The goal is
// cut into clauses (at commas, semicolons, full stops, "and", "then", never inside quotes), and each
// clause's first verb decides its item:
//   "check"/"tick" X → checked true; "uncheck"/"untick" X → checked false (X a checkbox offered)
//   "select"/"choose"/"pick" "X" → selected, on the select offering an option X (or checked, on a radio X)
//   "submit"/"send" → activated, on the button whose name shares most words with the goal, else the
//     first one that is not a cancel or reset button
//   "click"/"open"/"press"/"follow" X → activated, on the control named X (or one whose name has every
//     word of X)
//   no verb and nothing quoted → the options and boxes the clause names with every word of theirs:
//     selected for an option of a select ("a large pizza" → Size: Large), checked for a checkbox or
//     radio ("thick crust" → Thick), unchecked after "no"/"without" ("no extra cheese")
//   an ordering word ("order", "buy", "subscribe", "join", "book", "register") → activated, last, on the
//     button whose name has that word ("Place order"): choosing is not ordering
//   a quoted value otherwise → field_value, on the text field whose name shares most words with the
//   words before the value, else the first free one; "search" adds activated on the search button,
//   or on the field itself (pressing Enter in it submits it)
// X is quoted, or the rest of the clause. A control the page does not offer is kept as the goal names it
// when quoted, and makes the clause a judgment otherwise. A clause with nothing checkable is a judgment;
// a goal with nothing checkable is one judgment item, the goal itself.

type Verb = 'check' | 'uncheck' | 'select' | 'submit' | 'activate' | 'search'

const VERBS: ReadonlyMap<string, Verb> = new Map([
  ['check', 'check'],
  ['tick', 'check'],
  ['uncheck', 'uncheck'],
  ['untick', 'uncheck'],
  ['select', 'select'],
  ['choose', 'select'],
  ['pick', 'select'],
  ['submit', 'submit'],
  ['send', 'submit'],
  ['click', 'activate'],
  ['open', 'activate'],
  ['press', 'activate'],
  ['follow', 'activate'],
  ['search', 'search'],
])

/** The first of the verbs above in a clause, as a whole word. */
const VERB_WORD = new RegExp(`\\b(?:${[...VERBS.keys()].join('|')})\\b`, 'i')

const CLAUSE_BREAK = /\s*(?:[,;]|\.(?=\s|$)|\bthen\b|\band\b)\s*/i

/** Words that ask for the form to be sent, not only filled: the button with the word is the last item. */
const ORDERING_WORDS = new Set(['order', 'buy', 'subscribe', 'join', 'book', 'register'])

/** Words that turn a box the clause names into one that must stay unticked. */
const NEGATIONS = new Set(['no', 'without', 'not'])

/** Words of buttons that end a form without sending it: never taken for its submit button. */
const NOT_SUBMITTING = new Set(['cancel', 'reset', 'clear', 'back', 'close', 'delete', 'remove'])

const TEXT_ROLES = new Set(['textbox', 'searchbox', 'spinbutton'])
const CHECKABLE_ROLES = new Set(['checkbox', 'radio', 'switch'])

/** One clause of the goal: its words, and its quoted phrases with the words just before each. */
interface Clause {
  /** The clause as the goal wrote it, quotes restored. */
  text: string
  verb: Verb | undefined
  /** The clause after its verb, quotes restored: what an unquoted X is. */
  rest: string
  quoted: { phrase: string; before: string }[]
}

export function writeLocalChecklist(prompt: ChecklistPrompt): ChecklistItem[] {
  const { goal, controls } = prompt
  const usedFields = new Set<PromptControl>()
  const items: ChecklistItem[] = []
  for (const clause of clausesOf(goal)) items.push(...itemsFor(clause, goal, controls, usedFields))
  const sending = orderingButton(goal, controls)
  if (sending && !items.some((item) => item.check.kind === 'activated' && item.check.control === sending)) {
    // A clause the button says in full ("buy bananas", "Buy Bananas") is that item, not a judgment beside it.
    const covered = (item: ChecklistItem) => item.check.kind === 'judgment' && saysAll(sending, item.description)
    items.splice(0, items.length, ...items.filter((item) => !covered(item)))
    items.push({ description: itemText(`Send it with ${sending}`), check: { kind: 'activated', control: sending } })
  }
  const checkable = items.filter((item) => item.check.kind !== 'judgment')
  if (checkable.length === 0) return [{ description: itemText(goal), check: { kind: 'judgment' } }]
  return items.slice(0, MAX_CHECKLIST_ITEMS)
}

function clausesOf(goal: string): Clause[] {
  const { masked, phrases } = maskQuoted(goal)
  const restore = (text: string) => text.replace(QUOTE_MARK, (_, index: string) => `"${phrases[Number(index)]}"`)
  const clauses: Clause[] = []
  for (const piece of masked.split(CLAUSE_BREAK)) {
    const marks = [...piece.matchAll(QUOTE_MARK)]
    const quoted = marks.map((mark, index) => {
      const previous = marks[index - 1]
      const from = previous ? previous.index + previous[0].length : 0
      return { phrase: phrases[Number(mark[1])]!, before: piece.slice(from, mark.index) }
    })
    if (quoted.length === 0 && contentWords(piece).length === 0) continue
    const verb = VERB_WORD.exec(piece)
    clauses.push({
      text: restore(piece).trim(),
      verb: verb ? VERBS.get(verb[0].toLowerCase()) : undefined,
      rest: restore(verb ? piece.slice(verb.index + verb[0].length) : piece).trim(),
      quoted,
    })
  }
  return clauses
}

function itemsFor(clause: Clause, goal: string, controls: PromptControl[], usedFields: Set<PromptControl>): ChecklistItem[] {
  const description = itemText(clause.text)
  const item = (check: ChecklistCheck | undefined): ChecklistItem[] => [{ description, check: check ?? { kind: 'judgment' } }]
  const wanted = clause.quoted[0]?.phrase ?? clause.rest
  switch (clause.verb) {
    case 'check':
    case 'uncheck': {
      const control = named(controls.filter((control) => CHECKABLE_ROLES.has(control.role)), wanted, clause.quoted.length > 0)
      return item(control === undefined ? undefined : { kind: 'checked', control, checked: clause.verb === 'check' })
    }
    case 'select':
      return item(selection(controls, wanted))
    case 'submit': {
      const buttons = controls.filter((control) => control.role === 'button' && !tokens(control.name).some((word) => NOT_SUBMITTING.has(word)))
      const button = mostOverlapping(buttons, goal)
      return item(button === undefined ? undefined : { kind: 'activated', control: button.name })
    }
    case 'activate': {
      const control = named(controls, wanted, clause.quoted.length > 0)
      return item(control === undefined ? undefined : { kind: 'activated', control })
    }
    case 'search':
    case undefined: {
      if (clause.quoted.length > 0) return fieldItems(clause, controls, usedFields)
      const named = impliedChoices(clause, controls)
      return named.length > 0 ? named : item(undefined)
    }
  }
}

/** The options and boxes a clause names with every word of theirs (see the header). */
function impliedChoices(clause: Clause, controls: PromptControl[]): ChecklistItem[] {
  const words = tokens(clause.text)
  const covers = (name: string) => saysAll(clause.text, name)
  const items: ChecklistItem[] = []
  for (const control of controls) {
    if (!usable(control.name)) continue
    if (control.options) {
      const option = control.options.find((label) => usable(label) && covers(label))
      if (option) items.push({ description: itemText(`${control.name}: ${option}`), check: { kind: 'selected', control: control.name, option } })
    } else if (CHECKABLE_ROLES.has(control.role) && covers(control.name)) {
      const first = words.indexOf(tokens(control.name)[0] ?? '')
      const checked = !(first > 0 && NEGATIONS.has(words[first - 1]!))
      items.push({ description: itemText(`${control.name}: ${checked ? 'on' : 'off'}`), check: { kind: 'checked', control: control.name, checked } })
    }
  }
  return items
}

/**
 * The button that sends what the goal orders ("Place order" for "order a pizza"), if the goal orders:
 * of the buttons with the ordering word, the one sharing most words with the goal ("Buy Bananas", not
 * the first "Buy Apples").
 */
function orderingButton(goal: string, controls: PromptControl[]): string | undefined {
  const asked = tokens(goal).filter((word) => ORDERING_WORDS.has(word))
  if (asked.length === 0) return undefined
  const buttons = controls.filter((control) => control.role === 'button' && usable(control.name) && tokens(control.name).some((word) => asked.includes(word)))
  return mostOverlapping(buttons, goal, true)?.name
}

/** One field_value per quoted value, and for a search the control that submits it. */
function fieldItems(clause: Clause, controls: PromptControl[], usedFields: Set<PromptControl>): ChecklistItem[] {
  const fields = controls.filter((control) => (TEXT_ROLES.has(control.role) || (control.role === 'combobox' && !control.options)) && usable(control.name))
  const items: ChecklistItem[] = []
  let searchField: PromptControl | undefined
  for (const { phrase, before } of clause.quoted) {
    const free = fields.filter((field) => !usedFields.has(field))
    const field = mostOverlapping(free, before, false) ?? mostOverlapping(free, clause.text, false) ?? free[0]
    if (!field || !usable(phrase)) {
      items.push({ description: itemText(clause.text), check: { kind: 'judgment' } })
      continue
    }
    usedFields.add(field)
    searchField ??= field
    items.push({ description: itemText(`Type "${phrase}" into ${field.name}`), check: { kind: 'field_value', field: field.name, value: phrase } })
  }
  if (clause.verb === 'search' && searchField) {
    const button = mostOverlapping(controls.filter((control) => control.role === 'button'), 'search', false)
    items.push({ description: 'Submit the search', check: { kind: 'activated', control: (button ?? searchField).name } })
  }
  return items
}

/** `selected` on the select that offers the option, else `checked` on a radio of that name. */
function selection(controls: PromptControl[], option: string): ChecklistCheck | undefined {
  for (const control of controls) {
    const label = control.options?.find((label) => valueMatches(label, option))
    if (label !== undefined && usable(control.name)) return { kind: 'selected', control: control.name, option: label }
  }
  const radio = bestMatches(
    controls.filter((control) => CHECKABLE_ROLES.has(control.role)),
    (control) => control.name,
    option,
  )[0]
  return radio && usable(radio.name) ? { kind: 'checked', control: radio.name, checked: true } : undefined
}

/**
 * The name of the control `wanted` stands for: one named so (or containing it as words), else one whose
 * name has every content word of it. Not offered: `wanted` itself when the goal quoted it, else nothing.
 * A control sharing only some words ("Jackets" for "the cheapest jacket") is not it: clicking it would
 * prove a step the goal never asked for.
 */
function named(controls: PromptControl[], wanted: string, quoted: boolean): string | undefined {
  const usableControls = controls.filter((control) => usable(control.name))
  const control =
    bestMatches(usableControls, (control) => control.name, wanted)[0] ?? usableControls.find((control) => saysAll(control.name, wanted))
  if (control) return control.name
  return quoted && usable(wanted) ? wanted : undefined
}

/** The first control whose name shares the most content words with `text`; with `orFirst`, the first when none shares any. */
function mostOverlapping(controls: PromptControl[], text: string, orFirst = true): PromptControl | undefined {
  const words = new Set(contentWords(text))
  let best: PromptControl | undefined
  let bestScore = 0
  for (const control of controls) {
    const score = overlap(words, control.name)
    if (score > bestScore) {
      best = control
      bestScore = score
    }
  }
  return best ?? (orFirst ? controls.find((control) => usable(control.name)) : undefined)
}

/** Whether `text` has every content word of `words` (and `words` has at least one). */
function saysAll(text: string, words: string): boolean {
  const wanted = contentWords(words)
  const said = new Set(contentWords(text))
  return wanted.length > 0 && wanted.every((word) => said.has(word))
}

/** A name or value the checklist schema accepts. */
function usable(text: string): boolean {
  const length = text.trim().length
  return length > 0 && length <= MAX_CHECKLIST_TEXT
}

/** A description within the schema's bound. */
function itemText(text: string): string {
  return clip(text, MAX_CHECKLIST_TEXT)
}
