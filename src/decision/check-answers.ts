import { Experimental_DecisionRefusalError, InvalidResponseDataError } from 'ai'
import type { DecisionAnswers, DecisionReply, Rounding } from '../models/call-decision-model.ts'

// Checks for the answers a run acts on. They repeat the AI SDK's rules for these heads (so they hold
// even where the SDK's verdict was about another head) and add the agent's own.

/** How far the probabilities may sum from 1, unless the provider's declared rounding allows more. */
export const SUM_TOLERANCE = 0.02
// Floating-point slack, as the SDK allows.
const EPSILON = 1e-6

export interface CheckedChoice {
  choice: string
  probabilities: Record<string, number>
  /** Probability of the chosen option. */
  confidence: number
}

export interface ModelIdentity {
  provider: string
  modelId: string
}

/**
 * The answers of a reply, ready for the checks of the heads a caller reads. A reply the SDK rejected
 * (perhaps over a head nobody reads) must still follow its structural rule: one answer per question.
 */
export function answersOf(reply: DecisionReply, questions: Record<string, unknown>): DecisionAnswers {
  if (reply.rejection !== undefined) checkAnswerMap(reply.answers, questions)
  return reply.answers
}

function checkAnswerMap(answers: unknown, questions: Record<string, unknown>): asserts answers is DecisionAnswers {
  const ids = Object.keys(questions)
  const valid =
    typeof answers === 'object' &&
    answers !== null &&
    !Array.isArray(answers) &&
    Object.keys(answers).length === ids.length &&
    ids.every((id) => Object.hasOwn(answers, id))
  if (!valid) {
    throw new InvalidResponseDataError({
      data: answers,
      message: `Decision must return exactly one answer for every question (${ids.join(', ')}); got ${describeKeys(answers)}.`,
    })
  }
}

function describeKeys(answers: unknown): string {
  if (typeof answers !== 'object' || answers === null || Array.isArray(answers)) return String(answers)
  const keys = Object.keys(answers)
  return keys.length === 0 ? 'none' : keys.join(', ')
}

/**
 * A choice head the run uses: `probabilities` with exactly the offered IDs, finite values in [0, 1],
 * a chosen option no other option beats, and a sum within the tolerance of 1.
 */
export function checkChoice(
  answers: DecisionAnswers,
  id: string,
  offered: readonly string[],
  rounding: Rounding,
  model: ModelIdentity,
): CheckedChoice {
  const answer = usedAnswer(answers, id, 'choice', model)
  const fail: (message: string) => never = (message) => {
    throw new InvalidResponseDataError({ data: answers, message: `Question "${id}" ${message}` })
  }
  const { choice } = answer
  if (typeof choice !== 'string' || !offered.includes(choice)) {
    fail(`selected an option that was not offered: ${showAnswer(choice)} (offered: ${offered.join(', ')}).`)
  }
  if (typeof answer.probabilities !== 'object' || answer.probabilities === null || Array.isArray(answer.probabilities)) {
    fail(`must return probabilities for its options; got ${showAnswer(answer.probabilities)}.`)
  }
  const given = answer.probabilities as Record<string, unknown>
  const missing = offered.filter((option) => !Object.hasOwn(given, option))
  const extra = Object.keys(given).filter((key) => !offered.includes(key))
  if (missing.length > 0 || extra.length > 0) {
    const problems = [missing.length > 0 ? `missing ${missing.join(', ')}` : '', extra.length > 0 ? `not offered ${extra.join(', ')}` : '']
    fail(`must give a probability for exactly the offered options; ${problems.filter(Boolean).join('; ')}.`)
  }
  for (const [option, value] of Object.entries(given)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
      fail(`must give finite probabilities in [0, 1]; "${option}" is ${showAnswer(value)}.`)
    }
  }
  const probabilities = given as Record<string, number>
  const sum = Object.values(probabilities).reduce((total, value) => total + value, 0)
  const tolerance = sumTolerance(offered.length, probabilityDecimals(answers, rounding))
  if (Math.abs(sum - 1) > tolerance) {
    fail(`probabilities must sum to 1 within ${round(tolerance)}; they sum to ${round(sum)}.`)
  }
  const chosen = probabilities[choice]!
  const better = Object.entries(probabilities).find(([, value]) => value > chosen + EPSILON)
  if (better) {
    fail(`did not select a highest-probability option: chose "${choice}" (${chosen}) over "${better[0]}" (${better[1]}).`)
  }
  return { choice, probabilities: { ...probabilities }, confidence: chosen }
}

/** A boolean head the run uses: P(true) as a finite probability in [0, 1]. */
export function checkBoolean(answers: DecisionAnswers, id: string, model: ModelIdentity): number {
  const { probability } = usedAnswer(answers, id, 'boolean', model)
  if (typeof probability !== 'number' || !Number.isFinite(probability) || probability < 0 || probability > 1) {
    throw new InvalidResponseDataError({
      data: answers,
      message: `Question "${id}" must return P(true) as a finite probability in [0, 1]; got ${showAnswer(probability)}.`,
    })
  }
  return probability
}

/**
 * The SDK's bound is `1e-6 + K·½·10^-decimals` (only 1e-6 when no rounding is declared). The agent
 * caps it at 0.02, except for providers that declare two or more decimals, whose declared rounding
 * of many options may add up to more.
 */
export function sumTolerance(options: number, decimals: number | undefined): number {
  const declared = EPSILON + (decimals === undefined ? 0 : options * 0.5 * 10 ** -decimals)
  return decimals !== undefined && decimals >= 2 ? declared : Math.min(declared, SUM_TOLERANCE)
}

type AnswerOf<T extends string> = Record<string, unknown> & { type: T }

function usedAnswer<T extends 'choice' | 'boolean'>(
  answers: DecisionAnswers,
  id: string,
  type: T,
  model: ModelIdentity,
): AnswerOf<T> {
  const answer: unknown = answers[id]
  if (typeof answer === 'object' && answer !== null && (answer as { type?: unknown }).type === 'refusal') {
    throw new Experimental_DecisionRefusalError({ questionIds: [id], provider: model.provider, modelId: model.modelId })
  }
  if (typeof answer !== 'object' || answer === null || (answer as { type?: unknown }).type !== type) {
    const got = typeof answer === 'object' && answer !== null ? (answer as { type?: unknown }).type : answer
    throw new InvalidResponseDataError({
      data: answers,
      message: `Question "${id}" returned an answer with the wrong type: expected "${type}", got ${showAnswer(got)}.`,
    })
  }
  return answer as AnswerOf<T>
}

function probabilityDecimals(answers: DecisionAnswers, rounding: Rounding): number | undefined {
  const decimals = rounding?.probabilityDecimals
  if (decimals === undefined) return undefined
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 15) {
    throw new InvalidResponseDataError({
      data: answers,
      message: `Decision rounding decimals must be integers between 0 and 15; got ${showAnswer(decimals)}.`,
    })
  }
  return decimals
}

/** A part of a reply as an error shows it: JSON where it can be. */
function showAnswer(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (typeof value === 'number') return String(value)
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

function round(value: number): number {
  return Number(value.toFixed(6))
}
