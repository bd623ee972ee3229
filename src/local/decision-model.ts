import type { Experimental_DecisionModelV4Answer, Experimental_DecisionModelV4CallOptions, Experimental_DecisionModelV4Result, Experimental_DecisionModelV4 } from '@ai-sdk/provider'
import { booleanAnswer, choiceAnswer, scoreAnswer } from './distribution.ts'
import { ABSTAIN, classify, type Classified } from './questions.ts'
import { readState, type LocalState } from './read-state.ts'
import { goalMet, riskOf, scoreOperations, scoreTargets, type BestTarget } from './policy.ts'
import { goalWords, type GoalWords } from './words.ts'

export const LOCAL_PROVIDER = 'puppeteer-agent.local'

/**
 * An offline decision model: ranks the offered options by the overlap between the goal's words and
 * each option's label and nearby text, types the goal's quoted text, and says DONE once the goal's
 * key words are visible and the last action changed the page. A baseline for demos and tests, not a
 * substitute for a real model. It answers every question it is given, with complete distributions.
 */
export function createLocalDecisionModel(): Experimental_DecisionModelV4 {
  return {
    specificationVersion: 'v4',
    provider: LOCAL_PROVIDER,
    modelId: 'word-overlap',
    supportedQuestionTypes: ['choice', 'score', 'boolean'],
    async doDecide(options: Experimental_DecisionModelV4CallOptions): Promise<Experimental_DecisionModelV4Result> {
      options.abortSignal?.throwIfAborted()
      return {
        answers: answerAll(options),
        usage: { inputTokens: 0, outputTokens: 0 },
        warnings: [],
        response: { modelId: 'word-overlap', timestamp: new Date() },
      }
    },
  }
}

function answerAll({ state: parts, questions }: Experimental_DecisionModelV4CallOptions): Record<string, Experimental_DecisionModelV4Answer> {
  const state = readState(parts)
  const goal = goalWords(state.goal)
  const classified = Object.entries(questions).map(([id, question]) => classify(id, question))
  const answers: Record<string, Experimental_DecisionModelV4Answer> = {}

  // Target heads first: the operation's score depends on how good each head's best target is.
  const best = new Map<string, BestTarget>()
  const targetDescriptions = new Map<string, ReadonlyMap<string, string>>()
  for (const question of classified) {
    if (question.kind !== 'target') continue
    const answer = choiceAnswer(scoreTargets(question.operation, question.options, question.descriptions, state, goal))
    answers[question.id] = answer
    if (question.operation) {
      best.set(question.operation, { option: answer.choice, score: scoreOf(question, answer.choice, state, goal) })
      targetDescriptions.set(question.operation, question.descriptions)
    }
  }

  let chosen: string | undefined
  for (const question of classified) {
    if (question.kind !== 'operation') continue
    const answer = choiceAnswer(scoreOperations(question.options, best, state, goal))
    answers[question.id] = answer
    chosen ??= answer.choice.toUpperCase()
  }

  for (const question of classified) {
    if (question.kind === 'target' || question.kind === 'operation') continue
    answers[question.id] = answerOther(question, state, goal, () =>
      riskOf(chosen, chosen ? best.get(chosen)?.option : undefined, state, chosen ? targetDescriptions.get(chosen) : undefined),
    )
  }
  return answers
}

// The score of the chosen target without the position tie-break (scored alone, it is first).
function scoreOf(question: Extract<Classified, { kind: 'target' }>, option: string, state: LocalState, goal: GoalWords): number {
  return scoreTargets(question.operation, [option], question.descriptions, state, goal).get(option) ?? 0
}

function answerOther(question: Classified, state: LocalState, goal: GoalWords, risk: () => number): Experimental_DecisionModelV4Answer {
  switch (question.kind) {
    case 'risk':
      return booleanAnswer(risk())
    case 'goal_met':
      return booleanAnswer(goalMet(state, goal, false))
    case 'boolean':
      // Nothing to go on: an honest coin toss.
      return booleanAnswer(0.5)
    case 'verdict': {
      const met = Math.min(0.97, Math.max(0.03, goalMet(state, goal, false)))
      const scores = new Map(question.options.map((option) => [option, question.yes.has(option) ? Math.log(met) : Math.log(1 - met)] as const))
      return choiceAnswer(scores)
    }
    case 'score':
      return scoreAnswer(question.levels, question.aboutGoal ? goalMet(state, goal, false) : 0.5)
    case 'abstain':
      return choiceAnswer(new Map(question.options.map((option) => [option, option === ABSTAIN ? 0 : -5] as const)))
    default:
      // classify() only returns unsupported types the model never declared; the AI SDK rejects them before asking.
      return { type: 'refusal' }
  }
}
