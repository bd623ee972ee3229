import type { ChecklistCheck } from '../../types/index.d.ts'
import { fold } from '../base/fold.ts'
import { clip } from '../clip.ts'
import type { Observation, ObservedElement } from '../collector/observation.ts'
import { bestMatches, nameFit, valueMatches } from './match-names.ts'

// The controls a checklist item names on one observation, and how evidence speaks of them.

/** Characters of a page-supplied piece (a name, a value, a URL) in an evidence string. */
const EVIDENCE_PART = 60

/** Roles of controls that hold a checked state; a checkbox offered through its label has its role. */
const CHECKABLE_ROLES = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'])

/** Roles of controls that show a chosen option when they are not native selects. */
const CHOOSING_ROLES = new Set(['combobox', 'listbox'])

/** The controls a state item names on one observation, what holding its state means, and how to say what one shows. */
export interface StateControls {
  controls: ObservedElement[]
  holds(control: ObservedElement): boolean
  describe(control: ObservedElement): string
}

/** What the collector shows for a password field that holds something (src/page/control-state.ts). */
const MASKED = '•••'

/**
 * The fields a `field_value` item names, and whether each holds its value, compared with the secrets'
 * placeholders filled in (`resolve`, inside the process). A masked field holds what the agent typed
 * into it (`typed`), if it typed.
 */
export function fieldControls(
  check: Extract<ChecklistCheck, { kind: 'field_value' }>,
  elements: ObservedElement[],
  resolve: (text: string) => string,
  typed: (node: string) => string | undefined,
): StateControls | undefined {
  const controls = bestMatches(
    elements.filter((element) => element.value !== undefined),
    (element) => element.name,
    check.field,
  )
  if (controls.length === 0) return undefined
  const wanted = fold(resolve(check.value))
  const masked = (element: ObservedElement) => element.type === 'password' || element.value === MASKED
  return {
    controls,
    holds: (element) => {
      if (!masked(element)) return valueMatches(element.value, check.value, element.valueOmitted) || fold(resolve(element.value ?? '')) === wanted
      const text = typed(element.nodeId)
      return element.value === MASKED && text !== undefined && fold(resolve(text)) === wanted
    },
    describe: (element) =>
      masked(element) && element.value === MASKED && typed(element.nodeId) !== undefined
        ? `${named(element)} holds the text the agent typed (masked)`
        : `${named(element)} holds ${quote(element.value ?? '')}`,
  }
}

/** The control an item names, for items that name one. */
export function controlOf(check: ChecklistCheck): string {
  if (check.kind === 'field_value') return check.field
  return 'control' in check ? check.control : ''
}

/** Whether the observation offers a control the item names. */
export function offers(observation: Observation, check: ChecklistCheck): boolean {
  const wanted = controlOf(check)
  return observation.elements.some((element) => nameFit(element.name, wanted) > 0)
}

export function checkedControls(check: Extract<ChecklistCheck, { kind: 'checked' }>, elements: ObservedElement[]): StateControls | undefined {
  const controls = bestMatches(
    elements.filter((element) => CHECKABLE_ROLES.has(element.role) || element.state?.checked !== undefined),
    (element) => element.name,
    check.control,
  )
  if (controls.length === 0) return undefined
  return {
    controls,
    // 'mixed' is neither checked nor unchecked, so it proves neither.
    holds: (element) => (element.state?.checked ?? false) === check.checked,
    describe: (element) => {
      const state = element.state?.checked === 'mixed' ? 'partly checked' : element.state?.checked ? 'checked' : 'not checked'
      return `${named(element)} is ${state}`
    },
  }
}

export function selectedControls(check: Extract<ChecklistCheck, { kind: 'selected' }>, elements: ObservedElement[]): StateControls | undefined {
  const controls = bestMatches(
    elements.filter((element) => element.options !== undefined || CHOOSING_ROLES.has(element.role)),
    (element) => element.name,
    check.control,
  )
  if (controls.length === 0) return undefined
  return {
    controls,
    holds: (element) => chosen(element).some((label) => valueMatches(label, check.option)),
    describe: (element) => `${named(element)} shows ${quote(chosen(element).join(', '))}`,
  }
}

/** What a choosing control shows as chosen: a native select's selected options, else its value. */
function chosen(element: ObservedElement): string[] {
  const selected = element.options?.filter((option) => option.selected).map((option) => option.label) ?? []
  if (selected.length > 0) return selected
  return element.value ? [element.value] : []
}

export function named(element: ObservedElement): string {
  return element.name ? clip(element.name, EVIDENCE_PART) : `The unnamed ${element.role}`
}

export function quote(text: string): string {
  return JSON.stringify(clip(text, EVIDENCE_PART))
}
