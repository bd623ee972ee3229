import type {
  Experimental_DecisionModelV4,
  Experimental_DecisionModelV4Answer,
  Experimental_DecisionModelV4CallOptions,
  JSONObject,
  LanguageModelV4Prompt,
} from '@ai-sdk/provider'
import { MockLanguageModelV4 } from 'ai/test'
import { distribution } from '../../test/helpers/decision-models.ts'
import { textResult, tokenUsage } from '../../test/helpers/language-models.ts'
import type { OracleStep } from '../../test/fixtures/reach/case-types.ts'
import { findByText } from './match.ts'
import { describeStep, planStep, scrollEntry, type Plan, type State } from './oracle-plan.ts'

// The oracle of a case's task: a decision model that knows the steps a person would take and plays
// them in order, finding each target the way a person does, by the text they read in the request's
// `state.elements` (a name equal to the step's target, else one holding it as whole words), and a
// scroll container by its name in `state.page.scroll` (oracle-plan.ts). It cannot help the
// collector: when the step's operation, target, key or destination is not offered, it answers
// BLOCKED and says why. That is how a missing control fails a task. After the last step it answers
// DONE. A choice question its plan does not answer (one it does not know included) is not refused:
// it gets the option that names the step's target, else the first.
//
// Which step is next comes from the request's own history (`recent_actions` that acted), so a stale
// decision the loop discarded is played again rather than skipped. A scroll step goes on while its
// container can still move that way: "scroll the terms to the end" takes as many scrolls as it takes.
//
// Its text model types a step's `text` as it is (a secret's `%name%` placeholder included), or, for
// a step that copies, the first capture of the step's `copy` pattern in the prompt it receives: the
// text must come from the request, never from the case.

const ACTED = new Set(['page_changed', 'no_change', 'dialog'])
const P = 0.9

export interface Oracle {
  decisions: Experimental_DecisionModelV4
  text: MockLanguageModelV4
  /** Why the oracle answered BLOCKED (or its text model had nothing to type), when it did. */
  blocked?: string
}

type TypeStep = Extract<OracleStep, { operation: 'TYPE_TEXT' }>

export function oracle(steps: readonly OracleStep[]): Oracle {
  let pending: { step: TypeStep; where: string } | undefined
  const result: Oracle = {
    decisions: {
      specificationVersion: 'v4',
      provider: 'bench-reach',
      modelId: 'oracle',
      supportedQuestionTypes: ['choice', 'score', 'boolean'],
      doDecide: async (options) => {
        const state = readState(options)
        const index = nextStep(steps, state)
        const step = steps[index]
        const where = `step ${index + 1} of ${steps.length}`
        const plan: Plan = step ? planStep(step, where, options, state) : { operation: 'DONE' }
        if ('blocked' in plan) result.blocked ??= plan.blocked
        else if (step?.operation === 'TYPE_TEXT') pending = { step, where: `${where} (${describeStep(step)})` }
        return { answers: answer(options, plan, step), warnings: [], usage: { inputTokens: 100, outputTokens: 5 } }
      },
    },
    text: new MockLanguageModelV4({
      doGenerate: async ({ prompt }) => {
        if (!pending) throw new Error('oracle text model: asked for a text no TYPE_TEXT step chose')
        const { step, where } = pending
        const text = step.copy === undefined ? step.text : new RegExp(step.copy).exec(userText(prompt))?.[1]
        if (text === undefined) {
          result.blocked ??= `${where}: the text request holds nothing matching /${step.copy}/`
          throw new Error(`oracle text model: the prompt holds nothing matching /${step.copy}/`)
        }
        return textResult(JSON.stringify({ text }), { usage: tokenUsage(50, 5) })
      },
    }),
  }
  return result
}

function readState(options: Experimental_DecisionModelV4CallOptions): State {
  const part = options.state.find((candidate) => candidate.type === 'json') as { type: 'json'; value: JSONObject } | undefined
  if (!part) throw new Error('oracle: the state has no JSON part')
  return part.value as unknown as State
}

/**
 * The index of the step to play: each action of the history that acted played one step, but
 * consecutive scrolls of one target are one scroll step, which goes on while the container can
 * still move that way.
 */
function nextStep(steps: readonly OracleStep[], state: State): number {
  const acted = (state.recent_actions ?? []).filter((action) => ACTED.has(action.outcome ?? ''))
  let index = 0
  let scrolling = false
  for (let at = 0; at < acted.length && index < steps.length; index++) {
    const step = steps[index]!
    const first = acted[at++]!
    scrolling = isScroll(step)
    if (scrolling) while (at < acted.length && acted[at]!.operation === first.operation && acted[at]!.target_name === first.target_name) at++
    scrolling &&= at === acted.length
  }
  const last = steps[index - 1]
  if (scrolling && last && isScroll(last) && scrollEntry(state, last.target)?.[last.operation === 'SCROLL_DOWN' ? 'down' : 'up']) return index - 1
  return index
}

function isScroll(step: OracleStep): step is Extract<OracleStep, { operation: 'SCROLL_DOWN' | 'SCROLL_UP' }> {
  return step.operation === 'SCROLL_DOWN' || step.operation === 'SCROLL_UP'
}

/** What the user messages of a text request say (the instructions left out). */
export function userText(prompt: LanguageModelV4Prompt): string {
  return prompt
    .flatMap((message) => (message.role === 'user' ? message.content : []))
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('\n')
}

function answer(options: Experimental_DecisionModelV4CallOptions, plan: Plan, step: OracleStep | undefined): Record<string, Experimental_DecisionModelV4Answer> {
  const answers: Record<string, Experimental_DecisionModelV4Answer> = {}
  const head = `${plan.operation.toLowerCase()}_target`
  for (const [id, question] of Object.entries(options.questions)) {
    if (question.type === 'boolean') {
      // The risk question: nothing the fixtures do is a purchase the bench should be asked to approve.
      answers[id] = { type: 'boolean', probability: 0.02 }
    } else if (question.type === 'choice') {
      const keys = Object.keys(question.criteria)
      const planned = id === 'operation' ? plan.operation : id === head && 'target' in plan ? plan.target : 'answers' in plan ? plan.answers?.[id] : undefined
      const choice = planned !== undefined && keys.includes(planned) ? planned : closestOption(question.criteria, step)
      answers[id] = { type: 'choice', choice, probabilities: distribution(keys, choice, P) }
    } else if (question.type === 'score') {
      answers[id] = { type: 'score', score: 0 }
    } else {
      answers[id] = { type: 'refusal' }
    }
  }
  return answers
}

/**
 * The answer to a choice question the plan does not cover (another operation's target, or a question
 * the oracle does not know, such as which checklist item an action serves): the option whose key or
 * description names the step's target, by the text matching of its targets, else the first.
 */
function closestOption(criteria: Readonly<Record<string, unknown>>, step: OracleStep | undefined): string {
  const keys = Object.keys(criteria)
  const target = step && 'target' in step ? step.target : undefined
  if (target === undefined) return keys[0]!
  const said = (value: unknown) => (value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value))
  const texts = keys.flatMap((key) => [
    { key, name: key },
    { key, name: said(criteria[key]) },
  ])
  return findByText(texts, target)?.key ?? keys[0]!
}
