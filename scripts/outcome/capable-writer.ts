import type { ChecklistItem } from '../../types/index.d.ts'
import { clip } from '../../src/clip.ts'
import { MAX_CHECKLIST_ITEMS, MAX_CHECKLIST_TEXT, type ChecklistPrompt, type PromptControl } from '../../src/checklist/checklist-schema.ts'
import type { OracleStep } from '../../test/fixtures/reach/case-types.ts'
import { allByText, fold, holds, nameMatches } from '../reach/match.ts'

// The checklist a capable text model would write for a case's goal, played from the case's steps and
// the checklist request itself: one item per step, of the kind that step proves, the control named as
// the request's `controls` name it when the step's target points to one by the oracle's text matching
// (named so, else the only control holding it as words: the request lists fields first, not in page
// order, so among several the oracle's pick cannot be told), else as the step names it (it may appear
// later). It knows only what a model could: the goal, the controls and the steps a person would take;
// never the case's done text. Text typed that the goal does not state (the first letters that bring up
// suggestions) is a means, not a sub-goal: no item. A final `text_visible` item only for a text the goal
// quotes that no step types, picks or acts on: the text the goal expects to see.

/** Roles whose click sets a checked state rather than activating something. */
const CHECKABLE_ROLES = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'])

const QUOTED = /"([^"]+)"|“([^”]+)”/g

/** `requestText`: the checklist request as the model reads it, for a value a step copies from the page. */
export function writeCapableChecklist(steps: readonly OracleStep[], prompt: ChecklistPrompt, requestText: string): ChecklistItem[] {
  const stated = (step: OracleStep) => step.operation !== 'TYPE_TEXT' || step.text === undefined || holds(prompt.goal, step.text)
  const items = steps.flatMap((step, index) => (stated(step) ? [itemFor(step, steps[index - 1], prompt.controls, requestText)] : []))
  for (const text of quotedPhrases(prompt.goal)) {
    if (!steps.some((step) => textsOf(step).some((said) => nameMatches(said, text)))) {
      items.push({ description: `The page shows "${text}"`, check: { kind: 'text_visible', text } })
    }
  }
  // A description says a long name or value in full no more than a model told the bound would.
  return bounded(unique(items)).map((item) => ({ ...item, description: clip(item.description, MAX_CHECKLIST_TEXT) }))
}

function itemFor(step: OracleStep, previous: OracleStep | undefined, controls: readonly PromptControl[], requestText: string): ChecklistItem {
  const judgment = (description: string): ChecklistItem => ({ description, check: { kind: 'judgment' } })
  const activated = (name: string, verb: string): ChecklistItem => ({ description: `${verb} ${name}`, check: { kind: 'activated', control: name } })
  switch (step.operation) {
    case 'TYPE_TEXT': {
      const field = nameOf(controls, step.target)
      const value = step.copy === undefined ? step.text : new RegExp(step.copy).exec(requestText)?.[1]
      if (value === undefined) return judgment(`Type into ${field} the text copied from the page`)
      // The schema holds no longer value: what a model cannot check, it leaves to judgment.
      if (value.length > MAX_CHECKLIST_TEXT) return judgment(`Type "${value}" into ${field}`)
      return { description: `Type "${value}" into ${field}`, check: { kind: 'field_value', field, value } }
    }
    case 'SELECT':
      return selected(controls, nameOf(controls, step.target), step.option)
    case 'CLICK': {
      const control = pointedTo(controls, step.target)
      if (control && CHECKABLE_ROLES.has(control.role)) return { description: `Check ${control.name}`, check: { kind: 'checked', control: control.name, checked: true } }
      // Clicking an option of a listed select or listbox picks it, as the oracle plays it.
      const list = control ? undefined : controls.find((candidate) => candidate.options?.some((label) => fold(label) === fold(step.target)))
      if (list) return selected(controls, list.name, step.target)
      return activated(control?.name ?? step.target, 'Click')
    }
    case 'SUBMIT':
      return activated(nameOf(controls, step.target), 'Submit')
    case 'PRESS': {
      // Enter on the focused element goes to the control the step before acted on.
      const target = step.target ?? (previous && 'target' in previous ? previous.target : undefined)
      if (step.key !== 'Enter' || target === undefined) return judgment(`Press ${step.key}${step.target === undefined ? '' : ` in ${step.target}`}`)
      return activated(nameOf(controls, target), 'Press Enter in')
    }
    case 'HOVER':
      return judgment(`Point at ${step.target}`)
    case 'DRAG':
      return judgment(`Drag ${step.target} to ${step.to}`)
    case 'SCROLL_DOWN':
    case 'SCROLL_UP':
      return judgment(`Scroll ${step.target} to the ${step.operation === 'SCROLL_DOWN' ? 'end' : 'start'}`)
  }
}

function selected(controls: readonly PromptControl[], control: string, option: string): ChecklistItem {
  const listed = controls.find((candidate) => candidate.name === control)?.options?.find((label) => fold(label) === fold(option)) ?? option
  return { description: `Choose ${listed} in ${control}`, check: { kind: 'selected', control, option: listed } }
}

/** The control a step's target points to: named so, else the only one holding it as words. */
function pointedTo(controls: readonly PromptControl[], target: string): PromptControl | undefined {
  const holding = allByText(controls, target)
  return holding.find((control) => fold(control.name) === fold(target)) ?? (holding.length === 1 ? holding[0] : undefined)
}

/** The control's name as the request lists it, else the step's. */
function nameOf(controls: readonly PromptControl[], target: string): string {
  return pointedTo(controls, target)?.name ?? target
}

/** The texts a step acts with: its target, what it types, picks or drops on. */
function textsOf(step: OracleStep): string[] {
  return [step.target, 'text' in step ? step.text : undefined, 'option' in step ? step.option : undefined, 'to' in step ? step.to : undefined].filter(
    (text): text is string => text !== undefined,
  )
}

function quotedPhrases(goal: string): string[] {
  return [...goal.matchAll(QUOTED)].map((match) => (match[1] ?? match[2])!.trim()).filter((phrase) => phrase !== '')
}

/** A step repeated (Next slide, twice) proves one thing: one item. */
function unique(items: ChecklistItem[]): ChecklistItem[] {
  const seen = new Set<string>()
  return items.filter((item) => {
    const key = item.check.kind === 'judgment' ? `judgment ${item.description}` : JSON.stringify(item.check)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/**
 * Within the schema's bound, as a model told the bound writes: judgment items go first (they prove
 * nothing), then the steps on the way, keeping the first ones and the last, which ends the goal.
 */
function bounded(items: ChecklistItem[]): ChecklistItem[] {
  if (items.length <= MAX_CHECKLIST_ITEMS) return items
  const checkable = items.filter((item) => item.check.kind !== 'judgment')
  if (checkable.length <= MAX_CHECKLIST_ITEMS) return checkable
  return [...checkable.slice(0, MAX_CHECKLIST_ITEMS - 1), checkable.at(-1)!]
}
