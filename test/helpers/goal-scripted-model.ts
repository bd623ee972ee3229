import type {
  Experimental_DecisionModelV4,
  Experimental_DecisionModelV4Answer,
  Experimental_DecisionModelV4CallOptions,
  JSONObject,
} from '@ai-sdk/provider'
import { MockLanguageModelV4 } from 'ai/test'
import type { Operation } from '../../types/index.d.ts'
import { decisionModel, distribution } from './decision-models.ts'
import { replyingModel, textResult, tokenUsage } from './language-models.ts'

// A hand-written decision model that plays a script, one step per request, reading the offered
// elements from the request's state the way a real model would: by name, never by a fixed ID.

export interface ScriptStep {
  operation: Operation
  /** Picks the target by the element's accessible name (or `page` / a scroll ID for scrolling). */
  target?: string | RegExp
  /** For SELECT: the label of the option to choose. */
  option?: string
  /** For PRESS: the key (an option of `press_key`). */
  key?: string
  /** For DRAG: the name of the element to drop on, or a move such as `right-25`. */
  to?: string
  /** Probability of the chosen operation and target. Default 0.9. */
  confidence?: number
  /** P(risky) answered to the risk question. Default 0.02. */
  risk?: number
  /** The description of the judgment checklist item this action serves (the serves question). */
  serves?: string
  /** A checklist item (its description) this decision disputes, and why (the dispute question). */
  dispute?: { item: string; reason: string }
  /** Runs before the model answers, e.g. to change the page under a decision. */
  before?: () => unknown | Promise<unknown>
}

export interface StateElement {
  id: string
  role: string
  name: string
  /** The element holds keyboard focus. */
  focused?: true
  value?: string
  /** Characters of a long value left out before and after the part shown. */
  value_omitted?: { before: number; after: number }
  state?: Record<string, unknown>
  options?: { id: string; label: string; selected?: true }[]
}

export interface SeenRequest {
  elements: StateElement[]
  recent: { operation: string; target_name?: string; outcome: string; detail?: string; text?: string; edit?: string; quote?: string }[]
  operations: string[]
  /** Each question of the request and its choice options (`hover_target`: the element IDs HOVER may take). */
  questions: Record<string, string[]>
  page: { url: string; title: string; text: string }
  /** The goal's checklist as the request showed it, when it had one. */
  checklist?: { id: string; item: string; status: string; next?: true }[]
  /** The file parts of the state (vision's screenshot), in order. */
  files: { mediaType: string; data: Uint8Array }[]
}

export interface ScriptedModel {
  model: Experimental_DecisionModelV4
  /** What each request offered, in order. */
  seen: SeenRequest[]
}

/** Plays `steps` in order; after the last one it keeps repeating it (for budget tests). */
export function scriptedModel(steps: ScriptStep[] | ((request: SeenRequest, index: number) => ScriptStep)): ScriptedModel {
  const seen: SeenRequest[] = []
  const { model } = decisionModel(
    async (options) => {
      const state = readState(options)
      const operationQuestion = options.questions.operation
      if (operationQuestion?.type !== 'choice') throw new Error('scripted model: no operation question')
      const request: SeenRequest = {
        elements: state.elements,
        recent: state.recent_actions,
        operations: Object.keys(operationQuestion.criteria),
        questions: Object.fromEntries(Object.entries(options.questions).map(([id, question]) => [id, question.type === 'choice' ? Object.keys(question.criteria) : []])),
        page: state.page,
        ...(state.checklist ? { checklist: state.checklist } : {}),
        files: filesOf(options),
      }
      seen.push(request)
      const index = seen.length - 1
      const step = typeof steps === 'function' ? steps(request, index) : steps[Math.min(index, steps.length - 1)]
      if (!step) throw new Error(`scripted model: no step for request ${index + 1}`)
      await step.before?.()
      if (!request.operations.includes(step.operation)) {
        throw new Error(`scripted model: ${step.operation} is not offered (offered: ${request.operations.join(', ')})`)
      }
      const p = step.confidence ?? 0.9
      const answers: Record<string, Experimental_DecisionModelV4Answer> = {}
      for (const [id, question] of Object.entries(options.questions)) {
        if (question.type === 'boolean') {
          answers[id] = { type: 'boolean', probability: step.risk ?? 0.02 }
        } else if (question.type === 'choice') {
          const keys = Object.keys(question.criteria)
          const head = `${step.operation.toLowerCase()}_target`
          let choice = keys[0]!
          if (id === 'operation') choice = step.operation
          else if (id === head) choice = pickTarget(step, keys, state.elements)
          else if (id === 'press_key' && step.operation === 'PRESS') choice = pickDetail(step.key, keys, state.elements)
          else if (id === 'drag_to' && step.operation === 'DRAG') choice = pickDetail(step.to, keys, state.elements)
          else if (id === 'serves' && step.serves) choice = lineId(state.checklist, step.serves)
          else if (id === 'dispute' && step.dispute) choice = `${lineId(state.checklist, step.dispute.item)}:${step.dispute.reason}`
          answers[id] = { type: 'choice', choice, probabilities: distribution(keys, choice, id === 'operation' || id === head ? p : 0.9) }
        } else {
          throw new Error(`scripted model: unexpected question type ${question.type}`)
        }
      }
      return { answers, warnings: [], usage: { inputTokens: 100, outputTokens: 5 }, rounding: { probabilityDecimals: 6 } }
    },
    { provider: 'scripted', modelId: 'script-1' },
  )
  return { model, seen }
}

/** The ID the request gives the checklist item described so. */
function lineId(checklist: SeenRequest['checklist'], description: string): string {
  const line = checklist?.find((candidate) => candidate.item === description)
  if (!line) throw new Error(`scripted model: no checklist item "${description}" in the request`)
  return line.id
}

function filesOf(options: Experimental_DecisionModelV4CallOptions): SeenRequest['files'] {
  const files: SeenRequest['files'] = []
  for (const part of options.state) {
    if (part.type !== 'file') continue
    const data = part.data
    if (data.type !== 'data') throw new Error(`scripted model: a file part of type ${data.type}`)
    files.push({ mediaType: part.mediaType, data: typeof data.data === 'string' ? Buffer.from(data.data, 'base64') : data.data })
  }
  return files
}

function readState(options: Experimental_DecisionModelV4CallOptions): {
  elements: StateElement[]
  recent_actions: SeenRequest['recent']
  page: SeenRequest['page']
  checklist?: SeenRequest['checklist']
} {
  const part = options.state.find((candidate) => candidate.type === 'json') as { type: 'json'; value: JSONObject } | undefined
  if (!part) throw new Error('scripted model: the state has no JSON part')
  return part.value as unknown as ReturnType<typeof readState>
}

/** A key, a move, or the ID of the element named `wanted` among a detail question's options. */
function pickDetail(wanted: string | undefined, keys: string[], elements: StateElement[]): string {
  if (wanted === undefined) throw new Error(`scripted model: the step needs a key or destination (options: ${keys.join(', ')})`)
  if (keys.includes(wanted)) return wanted
  const element = elements.find((candidate) => candidate.name === wanted && keys.includes(candidate.id))
  if (!element) throw new Error(`scripted model: ${wanted} is not offered (options: ${keys.join(', ')})`)
  return element.id
}

function pickTarget(step: ScriptStep, keys: string[], elements: StateElement[]): string {
  const matches = (name: string) => (typeof step.target === 'string' ? name === step.target : step.target!.test(name))
  if (step.target === undefined) throw new Error(`scripted model: ${step.operation} needs a target in the script`)
  if (step.operation.startsWith('SCROLL_') || (step.target === 'page' && keys.includes('page'))) {
    const id = keys.find((key) => typeof step.target === 'string' && key === step.target)
    if (!id) throw new Error(`scripted model: scroll target ${String(step.target)} not offered (${keys.join(', ')})`)
    return id
  }
  for (const element of elements.filter((candidate) => matches(candidate.name))) {
    if (step.operation === 'SELECT') {
      const option = element.options?.find((candidate) => candidate.label === step.option)
      const key = option && `${element.id}:${option.id}`
      if (key && keys.includes(key)) return key
    } else if (keys.includes(element.id)) {
      return element.id
    }
  }
  const offered = elements.filter((element) => keys.includes(element.id) || keys.some((key) => key.startsWith(`${element.id}:`)))
  throw new Error(
    `scripted model: no offered ${step.operation} target named ${String(step.target)} (offered: ${offered.map((element) => `${element.id} "${element.name}"`).join(', ')})`,
  )
}

/** A text model that writes the given values in order, as `{ "text": … }`. */
export function textModel(...values: string[]): MockLanguageModelV4 {
  return replyingModel(values.map((text) => ({ text })), { usage: tokenUsage(50, 5) })
}

/** An evaluator for `profiling()`: answers every boolean question with `probability`. */
export function evaluatorModel(probability: number): Experimental_DecisionModelV4 {
  const answer = (options: Experimental_DecisionModelV4CallOptions) => {
    const answers: Record<string, Experimental_DecisionModelV4Answer> = {}
    for (const [id, question] of Object.entries(options.questions)) {
      if (question.type !== 'boolean') throw new Error(`evaluator: unexpected question type ${question.type}`)
      answers[id] = { type: 'boolean', probability }
    }
    return { answers, warnings: [], usage: { inputTokens: 80, outputTokens: 2 } }
  }
  return decisionModel(answer, { provider: 'scripted', modelId: 'evaluator-1' }).model
}

/**
 * A text model that takes the decisions (`decisions: false`): reads the request from the prompt and
 * answers `{ operation, target, risky }`, picking targets by name like `scriptedModel`. `risky` is
 * false unless a step says otherwise; `null` leaves it out of the reply.
 */
export function textDecider(steps: { operation: Operation; target?: string; risky?: boolean | null }[]): MockLanguageModelV4 {
  let call = 0
  return new MockLanguageModelV4({
    doGenerate: async (options) => {
      const user = options.prompt.find((message) => message.role === 'user')
      const part = user && Array.isArray(user.content) ? user.content.find((candidate) => candidate.type === 'text') : undefined
      if (!part || part.type !== 'text') throw new Error('text decider: no prompt text')
      const { state } = JSON.parse(part.text) as { state: { elements: StateElement[] } }
      const step = steps[Math.min(call, steps.length - 1)]!
      call += 1
      const target = step.target === undefined ? null : state.elements.find((element) => element.name === step.target)?.id
      if (target === undefined) throw new Error(`text decider: no element named ${step.target}`)
      const risky = step.risky === null ? {} : { risky: step.risky ?? false }
      return textResult(JSON.stringify({ operation: step.operation, target, ...risky }), { usage: tokenUsage(200, 10) })
    },
  })
}

/**
 * A text model for goals with a checklist: the checklist request (its reply schema has `items`) gets
 * `checklist` as the reply (a value, or a raw string for invalid replies); every other request gets
 * the next of `texts` as `{ "text": … }` (the last one repeats).
 */
export function checklistWriter(checklist: unknown, ...texts: string[]): MockLanguageModelV4 {
  let typed = 0
  return new MockLanguageModelV4({
    doGenerate: async (options) => {
      const format = options.responseFormat
      const properties = format?.type === 'json' ? (format.schema as { properties?: Record<string, unknown> } | undefined)?.properties : undefined
      if (properties && 'items' in properties) {
        return textResult(typeof checklist === 'string' ? checklist : JSON.stringify(checklist), { usage: tokenUsage(300, 60) })
      }
      const text = texts[Math.min(typed, texts.length - 1)]
      typed += 1
      if (text === undefined) throw new Error('checklist writer: asked for a text, and the test gave none')
      return textResult(JSON.stringify({ text }), { usage: tokenUsage(50, 5) })
    },
  })
}

/** Whether a request the model received asked for a checklist. */
export function askedForChecklist(call: { responseFormat?: unknown }): boolean {
  const format = call.responseFormat as { type?: string; schema?: { properties?: Record<string, unknown> } } | undefined
  return format?.type === 'json' && format.schema?.properties !== undefined && 'items' in format.schema.properties
}

/** A TYPE_TEXT request as the text model reads it: its prompt's JSON. */
export interface TextRequest {
  goal: string
  field: { name: string; value?: string; value_omitted?: { before: number; after: number } }
  other_fields: { name: string; value: string; value_omitted?: { before: number; after: number } }[]
}

/**
 * A text model that writes each TYPE_TEXT value from the request it receives, as a model reading only
 * that request would (never from the fixture); `requests` holds what it read, in order.
 */
export function readingTextModel(write: (request: TextRequest) => string): { model: MockLanguageModelV4; requests: TextRequest[] } {
  return replyingTextModel((request) => ({ text: write(request) }))
}

/** The text model's reply: a whole value, or an edit of part of it. */
export type TextReply = { text: string; edit?: 'replace' | 'insert_after' | 'append'; quote?: string }

/** As readingTextModel, with the whole reply written from the request (an edit of part of the value). */
export function replyingTextModel(write: (request: TextRequest) => TextReply): { model: MockLanguageModelV4; requests: TextRequest[] } {
  const requests: TextRequest[] = []
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => {
      const user = options.prompt.find((message) => message.role === 'user')
      const part = user && Array.isArray(user.content) ? user.content.find((candidate) => candidate.type === 'text') : undefined
      if (!part || part.type !== 'text') throw new Error('reading text model: no prompt text')
      const request = JSON.parse(part.text) as TextRequest
      requests.push(request)
      return textResult(JSON.stringify(write(request)), { usage: tokenUsage(300, 40) })
    },
  })
  return { model, requests }
}
