import type { Experimental_DecisionModelV4Answer } from '@ai-sdk/provider'

// Turns heuristic scores into answers the AI SDK accepts: complete distributions that sum to 1,
// with the chosen option the most probable one (ties allowed), so a weak match reads as low confidence.

export type ChoiceAnswer = Extract<Experimental_DecisionModelV4Answer, { type: 'choice' }>

/** Softmax over the scores; the first option with the highest score is chosen. */
export function choiceAnswer(scores: ReadonlyMap<string, number>): ChoiceAnswer {
  const entries = [...scores]
  if (entries.length === 0) throw new Error('choiceAnswer needs at least one option.')
  const best = Math.max(...entries.map(([, score]) => score))
  const weights = entries.map(([option, score]) => [option, Math.exp(score - best)] as const)
  const total = weights.reduce((sum, [, weight]) => sum + weight, 0)
  const probabilities = Object.fromEntries(weights.map(([option, weight]) => [option, weight / total]))
  const choice = entries.find(([, score]) => score === best)?.[0] as string
  return { type: 'choice', choice, probabilities }
}

/** P(true), kept off 0 and 1: a word-overlap guess is never certain. */
export function booleanAnswer(probability: number): Extract<Experimental_DecisionModelV4Answer, { type: 'boolean' }> {
  return { type: 'boolean', probability: Math.min(0.97, Math.max(0.03, probability)) }
}

/** Spreads the probability over the levels around `position` (0 = lowest level, 1 = highest). */
export function scoreAnswer(levels: number, position: number): Extract<Experimental_DecisionModelV4Answer, { type: 'score' }> {
  const target = Math.min(1, Math.max(0, position)) * (levels - 1)
  const scores = new Map(Array.from({ length: levels }, (_, level) => [String(level), -Math.abs(level - target)] as const))
  const { probabilities } = choiceAnswer(scores)
  const distribution = probabilities as Record<string, number>
  const score = Object.entries(distribution).reduce((sum, [level, p]) => sum + Number(level) * p, 0)
  return { type: 'score', score, probabilities: distribution }
}
