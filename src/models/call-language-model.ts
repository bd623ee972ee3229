import { generateText, Output } from 'ai'
import type { LanguageModelV4 } from '@ai-sdk/provider'
import type { z } from 'zod'
import type { ReasoningLevel } from '../../types/index.d.ts'
import type { Ledger, ModelCallRecord } from '../base/ledger.ts'
import { reportGeneration, type CallReport } from './call-report.ts'
import { runModelRequest, type RequestSettings } from './model-request.ts'
import { modelLabel, resolveLanguageModel } from './resolve-model.ts'

/** What a text model call reads of the settings: the model and its reasoning, and the request's bounds. */
export interface LanguageSettings extends RequestSettings {
  text: string | object
  reasoning: ReasoningLevel
}

export interface JsonRequest<T> {
  settings: LanguageSettings
  ledger: Ledger
  purpose: ModelCallRecord['purpose']
  instructions: string
  prompt: string
  /** The reply must be a JSON object that this schema accepts. */
  schema: z.ZodType<T>
  maxOutputTokens?: number
  /** A JPEG sent after the prompt, in the same user message (vision with `decisions: false`). */
  image?: Uint8Array
}

/**
 * Asks the `text` model for one JSON object and returns it validated by `schema`. Timeout, abort,
 * retries and accounting follow `runModelRequest`. A reply that is not JSON, does not match the schema
 * or has no output throws the AI SDK's error (NoObjectGeneratedError, NoOutputGeneratedError), never
 * retried.
 */
export async function generateJson<T>(request: JsonRequest<T>): Promise<T> {
  const { settings } = request
  const model = resolveLanguageModel(settings.text)
  return runModelRequest({
    settings,
    ledger: request.ledger,
    purpose: request.purpose,
    description: `text model "${modelLabel(model)}"`,
    attempt: async (signal, report) => {
      const result = await generateText({
        model: reportingModel(model, report),
        instructions: request.instructions,
        prompt: request.image
          ? [{ role: 'user', content: [{ type: 'text', text: request.prompt }, { type: 'file', mediaType: 'image/jpeg', data: request.image }] }]
          : request.prompt,
        output: outputFor(request.schema),
        reasoning: settings.reasoning,
        maxOutputTokens: request.maxOutputTokens,
        // Retries are ours: every attempt is counted and Retry-After is capped.
        maxRetries: 0,
        abortSignal: signal,
      })
      return result.output as T
    },
  })
}

/**
 * One output specification per schema, made once: making one converts the schema to JSON Schema, which
 * cost about a millisecond on the way to a goal's first decision request (the checklist's request).
 */
const OUTPUTS = new WeakMap<z.ZodType, Output.Output>()

function outputFor<T>(schema: z.ZodType<T>): Output.Output {
  let output = OUTPUTS.get(schema)
  if (!output) OUTPUTS.set(schema, (output = Output.object({ schema })))
  return output
}

/** The same model, reporting each raw result before the SDK parses it (a rejected reply still cost tokens). */
function reportingModel(model: LanguageModelV4, report: (figures: CallReport) => void): LanguageModelV4 {
  return {
    specificationVersion: 'v4',
    // Copied explicitly: on provider classes these are getters or prototype methods.
    provider: model.provider,
    modelId: model.modelId,
    get supportedUrls() {
      return model.supportedUrls
    },
    doGenerate: async (options) => {
      const result = await model.doGenerate(options)
      report(reportGeneration(result))
      return result
    },
    doStream: (options) => model.doStream(options),
  }
}
