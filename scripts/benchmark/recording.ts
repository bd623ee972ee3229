import type {
  Experimental_DecisionModelV4,
  Experimental_DecisionModelV4Answer,
  Experimental_DecisionModelV4Question,
  Experimental_DecisionModelV4Result,
  JSONObject,
} from '@ai-sdk/provider'
import type { GoalResult } from '../../types/index.d.ts'

/**
 * How a live run ended, as the agent reported it: `verified` is its checklist proven on the page;
 * `report` is the run's report.html when the benchmark ran with --record (absent otherwise).
 */
export type LiveOutcome = Pick<GoalResult, 'status' | 'verified' | 'failure' | 'report'>

/** One decision request of a live run and the live model's answer: one JSON line of a recording. */
export interface RecordedRequest {
  /** 1-based position in the recording. */
  request: number
  /** Which live run it came from (1-based). */
  run: number
  /** The decision model that answered live, as given on the command line. */
  model: string
  goal: string
  /** The request's state `{ goal, page, elements, recent_actions }`, exactly as sent. */
  state: JSONObject
  questions: Record<string, Experimental_DecisionModelV4Question>
  /** The live model's answers, exactly as it returned them, and the rounding it declared. */
  answers: Record<string, Experimental_DecisionModelV4Answer>
  rounding?: Experimental_DecisionModelV4Result['rounding']
  /** The live model's request time. */
  ms: number
  /** How the live run this request came from ended; recordings from before the checklist lack it. */
  outcome?: LiveOutcome
}

export type CapturedCall = Pick<RecordedRequest, 'state' | 'questions' | 'answers' | 'rounding' | 'ms'>

/**
 * The same decision model, with every answered `doDecide` call handed to `onCall`. Attempts that throw
 * are not captured: the library retries them, and a recording must not hold the same request twice.
 */
export function recordingModel(model: Experimental_DecisionModelV4, onCall: (call: CapturedCall) => void): Experimental_DecisionModelV4 {
  return {
    specificationVersion: 'v4',
    // Read through: a gateway model exposes these as getters, which a spread would not copy.
    get provider() {
      return model.provider
    },
    get modelId() {
      return model.modelId
    },
    get supportedQuestionTypes() {
      return model.supportedQuestionTypes
    },
    async doDecide(options) {
      const started = performance.now()
      const result = await model.doDecide(options)
      onCall({
        state: stateObject(options.state),
        questions: structuredClone(options.questions) as Record<string, Experimental_DecisionModelV4Question>,
        answers: structuredClone(result.answers),
        ...(result.rounding ? { rounding: { ...result.rounding } } : {}),
        ms: Math.round(performance.now() - started),
      })
      return result
    },
  }
}

/** The agent sends its state as one JSON object, which the SDK hands over as one `json` part. */
function stateObject(parts: Parameters<Experimental_DecisionModelV4['doDecide']>[0]['state']): JSONObject {
  const [part] = parts
  if (parts.length !== 1 || part?.type !== 'json' || typeof part.value !== 'object' || part.value === null || Array.isArray(part.value)) {
    throw new Error(
      `Cannot record this decision request: expected its state as one JSON object, got parts ${JSON.stringify(parts.map((item) => item.type))}.`,
    )
  }
  return structuredClone(part.value) as JSONObject
}
