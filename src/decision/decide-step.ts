import type { Observation } from '../collector/observation.ts'
import { callDecisionModel, type DecisionReply } from '../models/call-decision-model.ts'
import type { Ledger } from '../base/ledger.ts'
import { answersOf, checkBoolean, checkChoice } from './check-answers.ts'
import { checklistAnswers, DISPUTE_QUESTION, SERVES_QUESTION } from './checklist-questions.ts'
import type { ChecklistLine, Decision, RecentAction } from './decision.ts'
import {
  buildDecisionRequest,
  OPERATION_QUESTION,
  RISK_QUESTION,
  type DecisionRequest,
} from './decision-request.ts'
import { specOf } from '../operations.ts'
import { detailOf } from './detail.ts'
import { decideWithText } from './text-decision.ts'
import type { TextSettings } from './write-text.ts'
import type { Shot } from '../browser/viewport-screenshot.ts'
import { requestImage, stateWithImage } from '../vision/request-image.ts'
import type { Operation } from '../../types/index.d.ts'

/** What a step's decision reads of the settings: the decision model (or `false` for the text path) and the text model's. */
export interface DecisionSettings extends TextSettings {
  decisions: string | object | false
}

export interface DecideStepInput {
  goal: string
  observation: Observation
  recent: RecentAction[]
  settings: DecisionSettings
  ledger: Ledger
  /** Operations on targets not to offer (`exclusionKey`s, e.g. `CLICK:e4`): they changed nothing last time. */
  exclude?: ReadonlySet<string>
  /** The goal's checklist, open items first, as ordering context. */
  checklist?: readonly ChecklistLine[]
  /** With `vision`: the screenshot taken when the page was observed, badged here and sent with the state. */
  screenshot?: Promise<Shot | undefined>
}

/**
 * One decision request for one step: the `decisions` model answers the operation head, every target
 * head and the risk question at once, and only the heads the chosen operation uses are read and
 * checked. With `decisions: false` the text model answers the same request as JSON. Throws when the
 * answer is refused, unfit or not offered.
 */
export async function decideStep(input: DecideStepInput): Promise<Decision> {
  const started = performance.now()
  const request = buildDecisionRequest(input)
  const image = input.screenshot ? await requestImage(input.screenshot, request.elements) : undefined
  const { settings } = input
  const chosen =
    settings.decisions === false
      ? await decideWithText(request, settings, input.ledger, image)
      : await callDecisionModel({
          model: settings.decisions,
          settings,
          ledger: input.ledger,
          purpose: 'decision',
          state: stateWithImage(request.state, image),
          questions: request.questions,
        }).then((reply) => readDecision(request, reply))
  const decision: Decision = { ...chosen, decisionMs: Math.round(performance.now() - started) }
  if (image) decision.image = image
  return decision
}

/** The run's reading of a decision model's reply: the operation head, the head it selects, the risk, and the checklist answers. */
export function readDecision(request: DecisionRequest, reply: DecisionReply): Omit<Decision, 'decisionMs'> {
  const { rounding, model } = reply
  const answers = answersOf(reply, request.questions)
  const operation = checkChoice(answers, OPERATION_QUESTION, request.operations, rounding, model)
  const decision: Omit<Decision, 'decisionMs'> = {
    operation: operation.choice as Operation,
    confidence: operation.confidence,
    probabilities: operation.probabilities,
  }
  const head = request.heads[decision.operation]
  const chosen = (question: string) => {
    const asked = request.questions[question]
    return asked?.type === 'choice' ? checkChoice(answers, question, Object.keys(asked.criteria), rounding, model).choice : undefined
  }
  Object.assign(decision, checklistAnswers(chosen(SERVES_QUESTION), chosen(DISPUTE_QUESTION), head !== undefined && specOf(decision.operation).input))
  if (!head) return decision
  const target = checkChoice(answers, head.question, [...head.options.keys()], rounding, model)
  const picked = head.options.get(target.choice)!
  decision.target = picked.target
  if (picked.option !== undefined) decision.option = picked.option
  decision.targetConfidence = target.confidence
  decision.targetProbabilities = target.probabilities
  const detail = request.details[decision.operation]
  if (detail) Object.assign(decision, detailOf(decision.operation, checkChoice(answers, detail.question, detail.options, rounding, model).choice))
  if (specOf(decision.operation).input) decision.risk = checkBoolean(answers, RISK_QUESTION, model)
  return decision
}
