import type {
  Experimental_DecisionModelV4,
  Experimental_DecisionModelV4Answer,
  Experimental_DecisionModelV4CallOptions,
  JSONObject,
} from '@ai-sdk/provider'
import { MockLanguageModelV4 } from 'ai/test'
import { distribution } from '../../test/helpers/decision-models.ts'
import { textResult, tokenUsage } from '../../test/helpers/language-models.ts'
import type { OracleStep } from '../../test/fixtures/reach/case-types.ts'
import { fold, holds } from './match.ts'

// The oracle of a case's task: a decision model that knows the steps a person would take and plays
// them in order, finding each target the way a person does, by the text they read in the request's
// `state.elements` (a name equal to the step's target, else one holding it as whole words). It
// cannot help the collector: when the step's operation is not offered, or no offered element of it
// has that text, it answers BLOCKED and says why. That is how a missing control fails a task. After
// the last step it answers DONE.
//
// Which step is next comes from the request's own history (`recent_actions` that acted), so a stale
// decision the loop discarded is played again rather than skipped.

interface StateElement {
  id: string
  name?: string
  options?: { id: string; label: string }[]
}

interface State {
  elements?: StateElement[]
  recent_actions?: { outcome?: string }[]
}

const ACTED = new Set(['page_changed', 'no_change', 'dialog'])
const P = 0.9

export interface Oracle {
  decisions: Experimental_DecisionModelV4
  text: MockLanguageModelV4
  /** Why the oracle answered BLOCKED, when it did. */
  blocked?: string
}

export function oracle(steps: readonly OracleStep[]): Oracle {
  let pendingText: string | undefined
  const result: Oracle = {
    decisions: {
      specificationVersion: 'v4',
      provider: 'bench-reach',
      modelId: 'oracle',
      supportedQuestionTypes: ['choice', 'score', 'boolean'],
      doDecide: async (options) => {
        const state = readState(options)
        const index = (state.recent_actions ?? []).filter((action) => ACTED.has(action.outcome ?? '')).length
        const step = steps[index]
        const plan = step ? planStep(step, index, steps.length, options, state) : { operation: 'DONE' as const }
        if ('blocked' in plan) result.blocked ??= plan.blocked
        if (step?.operation === 'TYPE_TEXT' && !('blocked' in plan)) pendingText = step.text
        return { answers: answer(options, plan), warnings: [], usage: { inputTokens: 100, outputTokens: 5 } }
      },
    },
    text: new MockLanguageModelV4({
      doGenerate: async () => {
        if (pendingText === undefined) throw new Error('oracle text model: asked for a text no TYPE_TEXT step chose')
        return textResult(JSON.stringify({ text: pendingText }), { usage: tokenUsage(50, 5) })
      },
    }),
  }
  return result
}

type Plan = { operation: string; target?: string } | { operation: 'BLOCKED'; blocked: string }

function readState(options: Experimental_DecisionModelV4CallOptions): State {
  const part = options.state.find((candidate) => candidate.type === 'json') as { type: 'json'; value: JSONObject } | undefined
  if (!part) throw new Error('oracle: the state has no JSON part')
  return part.value as unknown as State
}

function planStep(step: OracleStep, index: number, count: number, options: Experimental_DecisionModelV4CallOptions, state: State): Plan {
  const where = `step ${index + 1} of ${count} (${step.operation} "${step.target}"${step.operation === 'SELECT' ? ` → "${step.option}"` : ''})`
  const offered = options.questions.operation?.type === 'choice' ? Object.keys(options.questions.operation.criteria) : []
  if (!offered.includes(step.operation)) return { operation: 'BLOCKED', blocked: `${where}: ${step.operation} is not offered` }
  const keys = targetKeys(options, step.operation)
  const elements = state.elements ?? []
  const want = fold(step.target)
  const exact = elements.filter((element) => fold(element.name) === want)
  const holding = elements.filter((element) => fold(element.name) !== want && holds(element.name ?? '', step.target))
  for (const element of [...exact, ...holding]) {
    if (step.operation === 'SELECT') {
      const option = element.options?.find((candidate) => fold(candidate.label) === fold(step.option))
      if (option && keys.includes(`${element.id}:${option.id}`)) return { operation: 'SELECT', target: `${element.id}:${option.id}` }
    } else if (keys.includes(element.id)) {
      return { operation: step.operation, target: element.id }
    }
  }
  // Clicking an option of an offered listbox is what SELECT does (the executor clicks it), so a
  // CLICK on an option's text is played as SELECT when no element of that text can be clicked.
  if (step.operation === 'CLICK' && offered.includes('SELECT')) {
    const selectKeys = targetKeys(options, 'SELECT')
    for (const element of elements) {
      const option = element.options?.find((candidate) => fold(candidate.label) === want)
      if (option && selectKeys.includes(`${element.id}:${option.id}`)) return { operation: 'SELECT', target: `${element.id}:${option.id}` }
    }
  }
  const names = elements.filter((element) => keys.some((key) => key === element.id || key.startsWith(`${element.id}:`))).map((element) => `"${element.name}"`)
  const shown = names.length > 8 ? `${names.slice(0, 8).join(', ')}… (${names.length})` : names.join(', ') || 'none'
  return { operation: 'BLOCKED', blocked: `${where}: no offered target with that text (${step.operation} targets: ${shown})` }
}

function targetKeys(options: Experimental_DecisionModelV4CallOptions, operation: string): string[] {
  const head = options.questions[`${operation.toLowerCase()}_target`]
  return head?.type === 'choice' ? Object.keys(head.criteria) : []
}

function answer(options: Experimental_DecisionModelV4CallOptions, plan: Plan): Record<string, Experimental_DecisionModelV4Answer> {
  const answers: Record<string, Experimental_DecisionModelV4Answer> = {}
  const head = `${plan.operation.toLowerCase()}_target`
  for (const [id, question] of Object.entries(options.questions)) {
    if (question.type === 'boolean') {
      // The risk question: nothing the fixtures do is a purchase the bench should be asked to approve.
      answers[id] = { type: 'boolean', probability: 0.02 }
    } else if (question.type === 'choice') {
      const keys = Object.keys(question.criteria)
      const choice = id === 'operation' ? plan.operation : id === head && 'target' in plan && plan.target ? plan.target : keys[0]!
      answers[id] = { type: 'choice', choice, probabilities: distribution(keys, choice, P) }
    } else if (question.type === 'score') {
      answers[id] = { type: 'score', score: 0 }
    } else {
      answers[id] = { type: 'refusal' }
    }
  }
  return answers
}
