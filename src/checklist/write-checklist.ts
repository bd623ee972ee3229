import type { ChecklistItem } from '../../types/index.d.ts'
import { clip } from '../clip.ts'
import type { Observation, ObservedElement } from '../collector/observation.ts'
import { generateJson } from '../models/call-language-model.ts'
import { invalidReplyReason, isInvalidReply } from '../models/invalid-reply.ts'
import type { LanguageSettings } from '../models/call-language-model.ts'
import type { Ledger } from '../base/ledger.ts'
import { checklistReplySchema, MAX_CHECKLIST_ITEMS, type ChecklistPrompt, type PromptControl } from './checklist-schema.ts'

// The goal split into checkable sub-goals by the text model, in one request when the goal starts. The
// model reads the goal, the controls the page offers (so that it names fields as the observation does)
// with what they hold, and the page's text (for a value the goal refers to on the page), and answers
// kinds and arguments only. A reply that does not validate fails closed: no checklist, and a note
// that says why; the run goes on as it would without one.

/** Controls the prompt lists: a form and its buttons fit many times over; a long menu is cut. */
const PROMPT_CONTROLS = 80
/** Options listed per select: enough to name the one the goal wants in most forms. */
const PROMPT_OPTIONS = 12
/** Characters of an option label in the prompt (the collector keeps 40). */
const OPTION_LABEL = 40
/** Characters of the page's title and URL in the prompt: they say where the goal starts, no more. */
const PAGE_FIELD = 300
/** Characters of the page's visible text in the prompt: the values a goal refers to are near its top. */
const PAGE_TEXT = 3_000
/** Characters of a control's value in the prompt: a name, an address, a date or a short sentence. */
const CONTROL_VALUE = 100
/** Characters of the note on a reply that did not validate. */
const NOTE_LIMIT = 300
/** Eight items of a few short strings each, with room to spare; a longer reply is not a checklist. */
const CHECKLIST_MAX_OUTPUT_TOKENS = 2_048

const INSTRUCTIONS = [
  'You split a goal for a web agent into a short checklist that the agent verifies on the page without you.',
  `Write at most ${MAX_CHECKLIST_ITEMS} items, in the order the agent must do them. Each item has a description (the sub-goal in words) and one check:`,
  '- field_value {field, value}: a text field must hold this value (a value the goal states).',
  '- checked {control, checked}: a checkbox, radio or switch must be checked (true) or not (false).',
  '- selected {control, option}: a select or listbox must have this option selected.',
  '- activated {control}: a button or link the agent must click or submit on the way.',
  '- text_visible {text}: the page must show this text once the goal is met.',
  '- url_matches {contains}: the URL must contain this once the goal is met.',
  '- judgment {}: anything no check above can prove.',
  'Name fields, controls and options exactly as page.controls names them; a control not listed may appear later, name it as the goal does.',
  'A control the page leaves unnamed is named by its kind and place among those of its kind (name_from "position", e.g. "text field 2"): name it so.',
  "A control's value is what it holds now, before the agent acts.",
  'page.text is the start of the visible text of the page (a text cut short ends with its whole length): read it for the values the goal refers to on the page (copy this code, the price shown), never as a control.',
  'Use text_visible and url_matches only for the state the goal ends in, and only for text or a URL you can be sure of; never guess.',
  'Never write selectors, code or coordinates. Reply with exactly one JSON object {"items": [...]} and nothing else.',
].join('\n')

export type WrittenChecklist = { items: ChecklistItem[] } | { items: null; note: string }

/**
 * Asks the text model for the goal's checklist. Returns the items, or no items and a note when the reply
 * did not validate; throws anything else (abort, timeout, a provider failure), as every model call does.
 */
export async function writeChecklist(input: { goal: string; observation: Observation; settings: LanguageSettings; ledger: Ledger }): Promise<WrittenChecklist> {
  try {
    const reply = await generateJson({
      settings: input.settings,
      ledger: input.ledger,
      purpose: 'checklist',
      instructions: INSTRUCTIONS,
      prompt: JSON.stringify(checklistPrompt(input.goal, input.observation)),
      schema: checklistReplySchema,
      maxOutputTokens: CHECKLIST_MAX_OUTPUT_TOKENS,
    })
    return { items: reply.items }
  } catch (error) {
    if (!isInvalidReply(error)) throw error
    return { items: null, note: clip(`The checklist reply did not validate: ${invalidReplyReason(error as Error)}`, NOTE_LIMIT) }
  }
}

/**
 * What the model reads: the goal, where the page is, the start of its text, and the controls it
 * offers. Fields come first, then buttons, then the rest (links), each in page order, and repeated
 * role-and-name pairs once: a page of a hundred links must not push the form out of the list. The
 * whole stays under 65,000 characters plus the goal: 3,000 of text, 80 controls of at most ~750
 * characters (an 80-character name, a 100-character value, twelve 40-character options).
 */
export function checklistPrompt(goal: string, observation: Observation): ChecklistPrompt {
  const seen = new Set<string>()
  const unique = observation.elements.filter((element) => {
    const key = `${element.role}\n${element.name}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
  const ordered = [...unique.filter(isField), ...unique.filter((element) => !isField(element) && element.role === 'button'), ...unique.filter((element) => !isField(element) && element.role !== 'button')]
  const controls = ordered.slice(0, PROMPT_CONTROLS).map(promptControl)
  const prompt: ChecklistPrompt = {
    goal,
    page: { url: clip(observation.url, PAGE_FIELD), title: clip(observation.title, PAGE_FIELD), text: clip(observation.text, PAGE_TEXT) },
    controls,
  }
  const left = observation.elements.length - controls.length + observation.omitted
  if (left > 0) prompt.controls_left_out = left
  return prompt
}

/** A control that holds a value, a checked state or a choice: what a checklist item can check. */
function isField(element: ObservedElement): boolean {
  return element.value !== undefined || element.options !== undefined || element.state?.checked !== undefined
}

function promptControl(element: ObservedElement): PromptControl {
  const control: PromptControl = { role: element.role, name: element.name }
  if (element.nameFrom) control.name_from = element.nameFrom
  if (element.type) control.type = element.type
  if (element.value) control.value = clip(element.value, CONTROL_VALUE)
  if (element.options) control.options = element.options.slice(0, PROMPT_OPTIONS).map((option) => clip(option.label, OPTION_LABEL))
  return control
}

