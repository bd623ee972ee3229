import { InvalidResponseDataError } from 'ai'
import { z } from 'zod'
import type { Operation } from '../../types/index.d.ts'
import { generateJson } from '../models/call-language-model.ts'
import type { LanguageSettings } from '../models/call-language-model.ts'
import type { Ledger } from '../base/ledger.ts'
import type { Decision } from './decision.ts'
import { specOf } from '../operations.ts'
import type { DecisionRequest } from './decision-request.ts'
import { checklistAnswers, DISPUTE_QUESTION, SERVES_QUESTION } from './checklist-questions.ts'
import { detailOf } from './detail.ts'
import { REQUEST_LIMITS } from './request-bounds.ts'
import { clip } from '../clip.ts'
import type { RequestImage } from '../vision/request-image.ts'

// `decisions: false`: the text model answers the same state and questions as one JSON object.

/** Room for the short JSON reply, and for some thinking when `reasoning` is raised. */
export const TEXT_DECISION_MAX_TOKENS = 1024

const replySchema = z.strictObject({
  operation: z.string(),
  target: z.string().nullish(),
  key: z.string().nullish(),
  to: z.string().nullish(),
  risky: z.boolean().nullish(),
  serves: z.string().nullish(),
  dispute: z.string().nullish(),
  note: z.string().nullish(),
})

const INSTRUCTIONS = [
  'You operate a web page to reach the goal in state.goal. The prompt is JSON with the page state and the questions of this step.',
  'Reply with one JSON object {"operation", "target", "key", "to", "risky", "serves", "dispute", "note"}:',
  '- operation: one of the options of questions.operation.criteria.',
  '- target: for an operation that has a question "<operation>_target" (e.g. click_target), one of that question\'s options; otherwise null.',
  '- key: for PRESS, one of the options of questions.press_key; otherwise null.',
  '- to: for DRAG, one of the options of questions.drag_to; otherwise null.',
  '- risky: the answer to questions.risk for the action you chose (true or false). Without it, the action counts as risky.',
  '- serves, dispute: when questions.serves or questions.dispute is asked, one of its options ("none" says nothing); otherwise null.',
  `- note: what you want to remember in later steps (prices, names or counts seen that may scroll away), at most ${REQUEST_LIMITS.note} characters; or null. Later requests show it beside this action in state.recent_actions.`,
].join('\n')

function detailAnswer(reply: z.infer<typeof replySchema>, operation: Operation): string | null | undefined {
  return specOf(operation).detail?.kind === 'key' ? reply.key : reply.to
}

/**
 * The reply's answer to a checklist question: one of its options, or undefined when it was not asked
 * or left unanswered (read as none). An answer that is not an option is refused.
 */
function optionOf(request: DecisionRequest, reply: z.infer<typeof replySchema>, question: typeof SERVES_QUESTION | typeof DISPUTE_QUESTION): string | undefined {
  const asked = request.questions[question]
  const answer = reply[question]
  if (asked?.type !== 'choice' || answer === null || answer === undefined) return undefined
  if (!Object.hasOwn(asked.criteria, answer)) {
    throw new InvalidResponseDataError({
      data: reply,
      message: `The text model answered ${JSON.stringify(answer)} to ${question}, which is not one of its options (${Object.keys(asked.criteria).join(', ')}).`,
    })
  }
  return answer
}

export async function decideWithText(
  request: DecisionRequest,
  settings: LanguageSettings,
  ledger: Ledger,
  image?: RequestImage,
): Promise<Omit<Decision, 'decisionMs'>> {
  const reply = await generateJson({
    settings,
    ledger,
    purpose: 'decision',
    instructions: INSTRUCTIONS,
    prompt: JSON.stringify({ state: request.state, questions: request.questions }),
    schema: replySchema,
    maxOutputTokens: TEXT_DECISION_MAX_TOKENS,
    ...(image ? { image: image.jpeg } : {}),
  })
  const operation = reply.operation as Operation
  if (!request.operations.includes(operation)) {
    throw new InvalidResponseDataError({
      data: reply,
      message: `The text model chose operation ${JSON.stringify(reply.operation)}, which was not offered (offered: ${request.operations.join(', ')}).`,
    })
  }
  const head = request.heads[operation]
  // A note is kept as model text only: clipped to its bound (a longer one costs the run nothing), and
  // never read as evidence of what the page did.
  const note = reply.note ? { note: clip(reply.note, REQUEST_LIMITS.note) } : {}
  const answered = checklistAnswers(optionOf(request, reply, SERVES_QUESTION), optionOf(request, reply, DISPUTE_QUESTION), head !== undefined && specOf(operation).input)
  // WAIT, DONE and BLOCKED have no target: one sent with them is ignored.
  if (!head) return { operation, ...answered, ...note }
  const picked = typeof reply.target === 'string' ? head.options.get(reply.target) : undefined
  if (!picked) {
    throw new InvalidResponseDataError({
      data: reply,
      message: `The text model chose target ${JSON.stringify(reply.target ?? null)} for ${operation}, which was not offered for it (offered: ${[...head.options.keys()].join(', ')}).`,
    })
  }
  const decision: Omit<Decision, 'decisionMs'> = { operation, target: picked.target, ...answered, ...note }
  if (picked.option !== undefined) decision.option = picked.option
  const detail = request.details[operation]
  if (detail) {
    const answer = detailAnswer(reply, operation)
    if (typeof answer !== 'string' || !detail.options.includes(answer)) {
      throw new InvalidResponseDataError({
        data: reply,
        message: `The text model answered ${JSON.stringify(answer ?? null)} to ${detail.question} for ${operation}, which is not one of its options (${detail.options.join(', ')}).`,
      })
    }
    Object.assign(decision, detailOf(operation, answer))
  }
  // A reply that does not rate the action is read as risky: the risk gate then asks approve() (or
  // stops the run), rather than letting an unrated payment or deletion through.
  if (specOf(operation).input) decision.risk = reply.risky === false ? 0 : 1
  return decision
}
