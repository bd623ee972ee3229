import type { Experimental_DecisionModelV4CallOptions } from '@ai-sdk/provider'
import type { OracleStep } from '../../test/fixtures/reach/case-types.ts'
import { fold, holds } from './match.ts'

// What the oracle answers for one step of its script, read from one decision request: the
// operation, its target (an element found by the text a person reads on it, a scroll container by
// its name, `page`), and the step's value for the other questions it needs (`press_key`,
// `drag_to`). When any of these is not offered, the plan is BLOCKED with the reason.

export interface StateElement {
  id: string
  name?: string
  options?: { id: string; label: string }[]
}

export interface ScrollEntry {
  id: string
  name?: string
  up?: boolean
  down?: boolean
}

export interface State {
  elements?: StateElement[]
  page?: { scroll?: ScrollEntry[] }
  recent_actions?: { operation?: string; target_name?: string; outcome?: string }[]
}

/** `answers` holds the choice of each question besides the operation and its target. */
export type Plan = { operation: string; target?: string; answers?: Record<string, string> } | { operation: 'BLOCKED'; blocked: string }

const MOVE = /^(left|right|up|down)-\d+$/

export function planStep(step: OracleStep, where: string, options: Experimental_DecisionModelV4CallOptions, state: State): Plan {
  const at = `${where} (${describeStep(step)})`
  const blocked = (why: string): Plan => ({ operation: 'BLOCKED', blocked: `${at}: ${why}` })
  const offered = choices(options, 'operation')
  if (!offered.includes(step.operation)) return blocked(`${step.operation} is not offered`)
  const keys = choices(options, `${step.operation.toLowerCase()}_target`)
  const elements = state.elements ?? []

  if (step.operation === 'SCROLL_DOWN' || step.operation === 'SCROLL_UP') {
    const target = step.target === 'page' ? 'page' : scrollEntry(state, step.target)?.id
    if (target && keys.includes(target)) return { operation: step.operation, target }
    return blocked(`no offered scroll target of that name (${step.operation} targets: ${list(keys.map((key) => scrollName(state, key)))})`)
  }
  if (step.operation === 'SELECT') {
    const target = byText(elements, step.target, (element) => {
      const option = element.options?.find((candidate) => fold(candidate.label) === fold(step.option))
      return option ? `${element.id}:${option.id}` : undefined
    }, keys)
    return target ? { operation: 'SELECT', target } : blocked(`no offered target with that text (${targetNames(step.operation, elements, keys)})`)
  }
  const target = step.operation === 'PRESS' && step.target === undefined ? (keys.includes('page') ? 'page' : undefined) : byText(elements, step.target!, (element) => element.id, keys)
  if (!target) {
    // Clicking an option of an offered listbox is what SELECT does (the executor clicks it), so a
    // CLICK on an option's text is played as SELECT when no element of that text can be clicked.
    if (step.operation === 'CLICK' && offered.includes('SELECT')) {
      const option = optionByLabel(elements, step.target, choices(options, 'select_target'))
      if (option) return { operation: 'SELECT', target: option }
    }
    return blocked(step.target === undefined ? '"page" is not a PRESS target' : `no offered target with that text (${targetNames(step.operation, elements, keys)})`)
  }
  if (step.operation === 'PRESS') {
    const offeredKeys = choices(options, 'press_key')
    if (!offeredKeys.includes(step.key)) return blocked(`the key is not offered (press_key: ${list(offeredKeys)})`)
    return { operation: 'PRESS', target, answers: { press_key: step.key } }
  }
  if (step.operation === 'DRAG') {
    const destinations = choices(options, 'drag_to')
    const to = MOVE.test(step.to) ? (destinations.includes(step.to) ? step.to : undefined) : byText(elements, step.to, (element) => element.id, destinations)
    if (!to) return blocked(`no offered destination "${step.to}" (drag_to: ${list(destinations.map((key) => elementName(elements, key)))})`)
    return { operation: 'DRAG', target, answers: { drag_to: to } }
  }
  return { operation: step.operation, target }
}

/** The scroll container a step names (`page` aside): its name is the text, or holds it. */
export function scrollEntry(state: State, name: string): ScrollEntry | undefined {
  const scroll = state.page?.scroll ?? []
  if (name === 'page') return scroll.find((entry) => entry.id === 'page')
  return scroll.find((entry) => fold(entry.name) === fold(name)) ?? scroll.find((entry) => holds(entry.name ?? '', name))
}

export function describeStep(step: OracleStep): string {
  switch (step.operation) {
    case 'SELECT':
      return `SELECT "${step.target}" → "${step.option}"`
    case 'PRESS':
      return `PRESS ${step.key}${step.target === undefined ? '' : ` on "${step.target}"`}`
    case 'DRAG':
      return `DRAG "${step.target}" → "${step.to}"`
    default:
      return `${step.operation} "${step.target}"`
  }
}

/** The options of a choice question, or none. */
export function choices(options: Experimental_DecisionModelV4CallOptions, question: string): string[] {
  const head = options.questions[question]
  return head?.type === 'choice' ? Object.keys(head.criteria) : []
}

/**
 * The key of the element a person means by `text` (named exactly that, else holding it as whole
 * words) among the offered `keys`, `keyOf` giving an element's key.
 */
function byText(elements: StateElement[], text: string, keyOf: (element: StateElement) => string | undefined, keys: string[]): string | undefined {
  const want = fold(text)
  const exact = elements.filter((element) => fold(element.name) === want)
  const holding = elements.filter((element) => fold(element.name) !== want && holds(element.name ?? '', text))
  return [...exact, ...holding].map(keyOf).find((key) => key !== undefined && keys.includes(key))
}

function optionByLabel(elements: StateElement[], label: string, keys: string[]): string | undefined {
  for (const element of elements) {
    const option = element.options?.find((candidate) => fold(candidate.label) === fold(label))
    if (option && keys.includes(`${element.id}:${option.id}`)) return `${element.id}:${option.id}`
  }
  return undefined
}

function targetNames(operation: string, elements: StateElement[], keys: string[]): string {
  const named = elements.filter((element) => keys.some((key) => key === element.id || key.startsWith(`${element.id}:`)))
  return `${operation} targets: ${list(named.map((element) => `"${element.name}"`).concat(keys.includes('page') ? ['page'] : []))}`
}

function elementName(elements: StateElement[], key: string): string {
  const element = elements.find((candidate) => candidate.id === key)
  return element ? `"${element.name}"` : key
}

function scrollName(state: State, key: string): string {
  const entry = state.page?.scroll?.find((candidate) => candidate.id === key)
  return entry && entry.id !== 'page' ? `"${entry.name}"` : key
}

function list(names: string[]): string {
  return names.length > 8 ? `${names.slice(0, 8).join(', ')}… (${names.length})` : names.join(', ') || 'none'
}
