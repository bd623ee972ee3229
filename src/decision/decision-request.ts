import type { Experimental_DecisionModelV4Question, JSONObject, JSONValue } from '@ai-sdk/provider'
import type { Operation } from '../../types/index.d.ts'
import { compact } from '../base/compact.ts'
import { describeElement } from '../collector/describe-element.ts'
import { LIMITS } from '../collector/limits.ts'
import type { Observation, ObservedElement } from '../collector/observation.ts'
import { clip, windowOf } from '../clip.ts'
import { DRAG_MOVES, exclusionKey, FOCUSED_TARGET, NAMED_KEYS, OPERATION_NAMES, PRESS_KEYS, specOf } from '../operations.ts'
import { checklistQuestions } from './checklist-questions.ts'
import type { ChecklistLine, RecentAction } from './decision.ts'
import { dropFirst, dropLast, fitRequest, REQUEST_LIMITS, shortenText, sizeOf, type Part } from './request-bounds.ts'

// Turns an observation into the one request of a step: the state the model reads and the questions
// it answers, offering only what can be done now.

export const OPERATION_QUESTION = 'operation'
export const RISK_QUESTION = 'risk'

const OPERATION_INSTRUCTIONS =
  'Which operation brings the page closest to the goal now? Read state.recent_actions: do not repeat an action that changed nothing. ' +
  // Said so that a goal's "the 3rd text box" can be counted in the list.
  'state.elements lists the controls in the order of the page (the document first, then its frames): "the third text box" is the third text box of the list.'
/**
 * Said where the element fields are read, when a value is shown in part: its edges and line breaks
 * are the field's, and what was left out is counted beside it, never marked inside it.
 */
/** Said when controls read alike: what `alike` counts, so the model picks one by its place. */
const ALIKE =
  'Elements with the same role, name and nearby text carry alike, their place among them in page order ("2 of 3": the second of three).'
const PART_SHOWN =
  `An element's value is exactly what the field holds, line breaks and spaces included; of a long value only a part is shown, and value_omitted counts the characters left out before and after it. The text TYPE_TEXT types is written by a later request that is shown the whole value (up to ${LIMITS.keptValueLimit.toLocaleString('en')} characters): there is no need to scroll a field to read it first.`

/** The risk question: four closed classes, rated for the action itself. */
export const RISK_INSTRUCTIONS = [
  'Consider the operation and target chosen in the other answers. Is doing it one of these:',
  '(1) a payment or a purchase (placing an order, paying, subscribing);',
  '(2) deleting data, or overwriting it so that it cannot be recovered;',
  '(3) sending something to other people (a message, an invitation, an application, a comment others receive);',
  '(4) changing who may access what (sharing, permissions, roles, membership)?',
  'Saving an edit, or a new page or draft that can be edited again, is not in itself one of them.',
  'Answer for the action itself, whether or not the goal asks for it: the caller approves such actions.',
].join(' ')

/** What a target option of a head stands for. */
export interface TargetChoice {
  /** Snapshot action ID of the element, or `page` / a scroll container ID. */
  target: string
  /** For SELECT: the option ID within the element. */
  option?: string
}

export interface TargetHead {
  question: string
  options: Map<string, TargetChoice>
}

/** The second question of an operation that has one (PRESS's key, DRAG's destination), and its options. */
export interface DetailHead {
  question: string
  options: string[]
}

export interface DecisionRequest {
  state: JSONObject
  /** The elements the state offers, after the request's bound: what an image of the page labels. */
  elements: readonly ObservedElement[]
  questions: Record<string, Experimental_DecisionModelV4Question>
  operations: Operation[]
  /** The target head of each offered operation that has targets. */
  heads: Partial<Record<Operation, TargetHead>>
  /** The detail head of each offered operation that asks one. */
  details: Partial<Record<Operation, DetailHead>>
}

export function buildDecisionRequest(input: {
  goal: string
  observation: Observation
  recent: readonly RecentAction[]
  /** `exclusionKey`s of operations on targets not to offer; the targets stay in the state. */
  exclude?: ReadonlySet<string>
  checklist?: readonly ChecklistLine[]
}): DecisionRequest {
  const { observation } = input
  const exclude = input.exclude ?? new Set<string>()
  // The final bound: what the page fills gives way until the request fits, in this order: its text
  // (context), the oldest of the history, then the last controls, which are counted as omitted.
  const text: Part<string> = { value: observation.text }
  const recent: Part<JSONObject[]> = { value: tellRecent(input.recent) }
  const elements: Part<ObservedElement[]> = { value: observation.elements }
  return fitRequest(
    () => {
      const omitted = observation.omitted + observation.elements.length - elements.value.length
      const state = { goal: input.goal, checklist: input.checklist, recent: recent.value }
      return assemble(state, { ...observation, text: text.value, omitted }, elements.value, exclude)
    },
    (request) => sizeOf({ state: request.state, questions: request.questions }),
    [shortenText(text), dropFirst(recent), dropLast(elements, describeElement)],
  )
}

/** What the state carries besides the page: the goal, its checklist, and the history. */
interface StateContext {
  goal: string
  checklist: readonly ChecklistLine[] | undefined
  recent: JSONObject[]
}

/** The operation question's instructions, with what the element fields of this request need said. */
function operationInstructions(described: readonly JSONObject[]): string {
  const notes = [OPERATION_INSTRUCTIONS]
  if (described.some((element) => element.value_omitted !== undefined)) notes.push(PART_SHOWN)
  if (described.some((element) => element.alike !== undefined)) notes.push(ALIKE)
  return notes.join(' ')
}

function assemble(context: StateContext, observation: Observation, elements: readonly ObservedElement[], exclude: ReadonlySet<string>): DecisionRequest {
  const described = elements.map(describeElement)
  const heads: Partial<Record<Operation, TargetHead>> = {}

  const details: Partial<Record<Operation, DetailHead>> = {}
  for (const operation of OPERATION_NAMES) {
    const choices = targetChoices(operation, observation, elements, exclude)
    if (choices.length > 0) heads[operation] = head(operation, choices)
    const detail = heads[operation] && detailHead(operation, observation, elements)
    if (detail) details[operation] = detail
  }
  // Those with a target are offered only when one is; the others always are.
  const operations = OPERATION_NAMES.filter((operation) => heads[operation] || specOf(operation).target.kind === 'none')
  const questions: Record<string, Experimental_DecisionModelV4Question> = {
    [OPERATION_QUESTION]: {
      type: 'choice',
      instructions: operationInstructions(described),
      criteria: Object.fromEntries(operations.map((operation) => [operation, specOf(operation).criterion])),
    },
  }
  for (const operation of OPERATION_NAMES) {
    const target = heads[operation]
    if (target) questions[target.question] = targetQuestion(operation, target)
    const detail = details[operation]
    const spec = specOf(operation).detail
    if (detail && spec) {
      questions[detail.question] = { type: 'choice', instructions: spec.instructions, criteria: Object.fromEntries(detail.options.map((option) => [option, null])) }
    }
  }
  questions[RISK_QUESTION] = {
    type: 'boolean',
    // Said outright: a model that discounted what the goal asks for would let such an action past the
    // caller's approval without telling; and the classes are closed, since a model asked about "a post"
    // rated saving a wiki page risky and the run stopped.
    instructions: RISK_INSTRUCTIONS,
  }
  Object.assign(questions, checklistQuestions(context.checklist ?? []))

  return { state: buildState(context, observation, described), elements, questions, operations, heads, details }
}

/** The options of an operation's target question: elements, SELECT's element:option pairs, or scroll targets. */
function targetChoices(
  operation: Operation,
  observation: Observation,
  elements: readonly ObservedElement[],
  exclude: ReadonlySet<string>,
): [string, TargetChoice][] {
  const { target } = specOf(operation)
  const open = (id: string) => !exclude.has(exclusionKey(operation, id))
  if (target.kind === 'scroll') {
    return observation.scroll.filter((scroll) => open(scroll.id) && scroll[target.direction]).map((scroll) => [scroll.id, { target: scroll.id }])
  }
  if (target.kind === 'none') return []
  const fitting = elements.filter((element) => element.operations.includes(target.capability) && open(element.id))
  if (target.capability !== 'select') {
    const choices = fitting.map((element): [string, TargetChoice] => [element.id, { target: element.id }])
    return target.focused && open(FOCUSED_TARGET) ? [...choices, [FOCUSED_TARGET, { target: FOCUSED_TARGET }]] : choices
  }
  // A single choice offers what it could change to; a multiple one each option, to add or to remove.
  return fitting.flatMap((element) =>
    (element.options ?? [])
      .filter((option) => element.state?.multiple || !option.selected)
      .map((option): [string, TargetChoice] => [`${element.id}:${option.id}`, { target: element.id, option: option.id }]),
  )
}

/** The options of an operation's detail question: every key, or the drop targets and the moves. */
function detailHead(operation: Operation, observation: Observation, elements: readonly ObservedElement[]): DetailHead | undefined {
  const detail = specOf(operation).detail
  if (!detail) return undefined
  if (detail.kind === 'key') return { question: detail.question, options: [...(takesKeys(observation, elements) ? PRESS_KEYS : NAMED_KEYS)] }
  const drops = elements.filter((element) => element.operations.includes('drop')).map((element) => element.id)
  return { question: detail.question, options: [...drops, ...DRAG_MOVES] }
}

/** Something on the page reads keys outside a field (a terminal, a game, the page's shortcuts): every key is offered. */
function takesKeys(observation: Observation, elements: readonly ObservedElement[]): boolean {
  return observation.keysOnPage === true || elements.some((element) => element.operations.includes('keys'))
}

function head(operation: Operation, options: [string, TargetChoice][]): TargetHead {
  return { question: `${operation.toLowerCase()}_target`, options: new Map(options) }
}

function targetQuestion(operation: Operation, target: TargetHead): Experimental_DecisionModelV4Question {
  // A target question cannot see the operation answer, so it says which operation it assumes.
  return {
    type: 'choice',
    instructions: `If the operation is ${operation}: ${specOf(operation).targetQuestion}`,
    criteria: Object.fromEntries([...target.options.keys()].map((id) => [id, null])),
  }
}

function buildState(context: StateContext, observation: Observation, elements: JSONObject[]): JSONObject {
  const fileInputs = observation.blockers.filter((blocker) => blocker.kind === 'file_input').length
  return compact({
    goal: context.goal,
    // Open items first, in order, the next one marked: what "done" means and what comes next.
    checklist: context.checklist && context.checklist.length > 0 ? context.checklist.map((line) => compact({ ...line })) : undefined,
    page: compact({
      url: observation.url,
      title: observation.title,
      text: observation.text,
      omitted_controls: observation.omitted > 0 ? observation.omitted : undefined,
      // Not offered: a file input needs a file only the caller can give.
      file_inputs_left_out: fileInputs > 0 ? fileInputs : undefined,
      omitted_names: observation.omitted > 0 && observation.omittedNames?.length ? observation.omittedNames : undefined,
      scroll:
        observation.scroll.length > 0
          ? observation.scroll.map((target) => compact({ id: target.id, name: target.name, up: target.up, down: target.down }))
          : undefined,
    }),
    elements,
    recent_actions: context.recent,
  })
}

/**
 * The latest actions as a decision request tells them, with their outcome and its detail clipped (a detail
 * can hold a URL and dialogs), and the note the model wrote with each: the notes travel, and give way,
 * with their actions.
 */
export function tellRecent(recent: readonly RecentAction[]): JSONObject[] {
  return recent.slice(-REQUEST_LIMITS.recentActions).map((action) =>
    tellAction(action, {
      outcome: action.outcome,
      detail: action.detail === undefined ? undefined : clip(action.detail, REQUEST_LIMITS.actionDetail),
      // Clipped at the reply already; scrubbing may have lengthened it (a placeholder for a short value).
      note: action.note === undefined ? undefined : clip(action.note, REQUEST_LIMITS.note),
    }),
  )
}

/**
 * An action as every request tells it (a recent action, a trace entry): by name, since old snapshot
 * IDs mean nothing in a later observation, with the start of the typed value as it was typed and how
 * many characters were left out after it (as a long field value is shown), and for an edit of part of
 * a value how it was edited and the start of the passage quoted, likewise; then what the caller adds.
 */
export function tellAction(
  action: Pick<RecentAction, 'operation' | 'targetName' | 'option' | 'key' | 'to' | 'text' | 'edit'>,
  after: Record<string, JSONValue | undefined>,
): JSONObject {
  const typed = action.text === undefined ? undefined : windowOf(action.text, 0, REQUEST_LIMITS.actionText)
  const quoted = action.edit?.mode === 'append' || action.edit === undefined ? undefined : windowOf(action.edit.quote, 0, REQUEST_LIMITS.actionText)
  return compact({
    operation: action.operation,
    target_name: action.targetName,
    option: action.option,
    key: action.key,
    to: action.to,
    text: typed?.part,
    text_omitted: typed && typed.after > 0 ? { before: 0, after: typed.after } : undefined,
    edit: action.edit?.mode,
    quote: quoted?.part,
    quote_omitted: quoted && quoted.after > 0 ? { before: 0, after: quoted.after } : undefined,
    ...after,
  })
}

