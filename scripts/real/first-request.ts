import type { Experimental_DecisionModelV4, LanguageModelV4 } from '@ai-sdk/provider'
import { MockLanguageModelV4 } from 'ai/test'
import { textResult } from '../../test/helpers/language-models.ts'

// Models for measuring the path to a goal's first decision request: the text model writes a
// one-item checklist (at once, or after `textMs` as a real provider would), and the decision model notes when the first request arrived, how big
// it was and how many elements it offered, then ends the run through the goal's signal.

export interface FirstRequest {
  /** performance.now() when the request reached the model. */
  at: number
  /** `JSON.stringify({ state, questions })`: what the model reads. */
  chars: number
  elements: number
}

const CHECKLIST = JSON.stringify({ items: [{ description: 'The main content is read', check: { kind: 'judgment' } }] })

/** Resolves after `ms`, or rejects with the signal's reason as the request is cancelled. */
function answerAfter(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms === 0) return Promise.resolve()
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', cancel)
      resolve()
    }, ms)
    const cancel = () => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    if (signal?.aborted) cancel()
    else signal?.addEventListener('abort', cancel, { once: true })
  })
}

/** `textMs`: how long the text model takes to write the checklist. */
export function firstRequestModels(textMs = 0): { decisions: Experimental_DecisionModelV4; text: LanguageModelV4; signal: AbortSignal; first(): FirstRequest | undefined } {
  const controller = new AbortController()
  let first: FirstRequest | undefined
  const decisions: Experimental_DecisionModelV4 = {
    specificationVersion: 'v4',
    provider: 'bench',
    modelId: 'first-request',
    supportedQuestionTypes: ['choice', 'score', 'boolean'],
    doDecide: async (options) => {
      const at = performance.now()
      // The state is parts: the JSON the agent wrote (and, with vision, an image).
      const json = options.state.find((part) => part.type === 'json')
      const state = (json && 'value' in json ? json.value : {}) as { elements?: unknown[] }
      first ??= { at, chars: JSON.stringify({ state, questions: options.questions }).length, elements: Array.isArray(state.elements) ? state.elements.length : 0 }
      controller.abort(new Error('first request measured'))
      throw controller.signal.reason
    },
  }
  const text = new MockLanguageModelV4({
    doGenerate: async (options) => {
      await answerAfter(textMs, options.abortSignal)
      return textResult(CHECKLIST)
    },
  })
  return { decisions, text, signal: controller.signal, first: () => first }
}
