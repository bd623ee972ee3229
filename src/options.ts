import { z } from 'zod'
import type { AgentOptions, ChecklistItem, ConsentChoice, ReasoningLevel } from '../types/index.d.ts'
import { cacheFromEnvironment, resolveCache, type CacheSettings } from './cache/cache-settings.ts'
import { parseCallerChecklist } from './checklist/checklist-schema.ts'
import { recordFromEnvironment, resolveRecord, type RecordSettings } from './record/record-settings.ts'
import { parseSecrets, type Secret } from './secrets/placeholders.ts'
import type { DecisionSettings } from './decision/decide-step.ts'
import { UsageError } from './errors.ts'
import { showValue } from './base/show-value.ts'
import { createLocalDecisionModel, createLocalLanguageModel } from './local/index.ts'

export const REASONING_LEVELS = ['provider-default', 'none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const

/**
 * Every option, filled in: parts of the pipeline read this, never the raw caller input. Each feature declares the settings it reads (`DecisionSettings`
 * and the model settings it extends), so the features never import this module; extending them here
 * makes the compiler check that these fields are what the features read.
 */
export interface Settings extends DecisionSettings {
  decisions: string | object | false
  text: string | object
  evaluator: string | object
  reasoning: ReasoningLevel
  timeout: number
  maxRetries: number
  maxRetryAfterMs: number
  signal: AbortSignal | undefined
  maxSteps: number
  maxDecisions: number
  waitMs: number
  minConfidence: number | undefined
  approve: AgentOptions['approve'] | undefined
  checklist: boolean | ChecklistItem[]
  extractor: AgentOptions['extractor'] | undefined
  consent: ConsentChoice | false
  cache: CacheSettings | false
  record: RecordSettings | false
  vision: boolean
  /** Empty when none were given: models then see no placeholders, and a password field is a login wall. */
  secrets: Secret[]
}

export const DEFAULTS: Settings = {
  decisions: 'typesafe-ai/jev',
  text: 'openai/gpt-6-luna',
  evaluator: 'typesafe-ai/jev',
  reasoning: 'none',
  timeout: 25_000,
  maxRetries: 2,
  // A provider asking for a longer pause is better treated as down than waited on mid-run.
  maxRetryAfterMs: 10_000,
  signal: undefined,
  maxSteps: 60,
  maxDecisions: 120,
  waitMs: 100,
  minConfidence: undefined,
  approve: undefined,
  // On: one text request per goal buys a DONE the page must confirm (docs/checklist-and-verified.md).
  checklist: true,
  extractor: undefined,
  // Off: clearing a banner is a choice made for the user (docs/consent.md).
  consent: false,
  // Off unless given, or named by the environment (mergeSettings): see cache/cache-settings.ts.
  cache: false,
  // Off unless given, or named by the environment (mergeSettings): see record/record-settings.ts.
  record: false,
  // Off: an image costs input tokens on every request (docs/vision.md).
  vision: false,
  secrets: [],
}

const decisionModel = z.custom<object>(
  (value) => isModel(value, 'doDecide') || isModel(value, 'doEvaluate'),
  'expected a model id string or an AI SDK decision model (specificationVersion "v4" with doDecide)',
)
const languageModel = z.custom<object>(
  (value) => isModel(value, 'doGenerate'),
  'expected a model id string or an AI SDK language model (specificationVersion "v4" with doGenerate)',
)
const modelId = z.string().trim().min(1, 'expected a non-empty model id')
const positiveInt = z.number().int().positive()
const nonNegativeInt = z.number().int().nonnegative()

const optionSchemas = {
  decisions: z.union([z.literal(false), modelId, decisionModel]),
  text: z.union([modelId, languageModel]),
  evaluator: z.union([modelId, decisionModel]),
  reasoning: z.enum(REASONING_LEVELS),
  timeout: positiveInt,
  maxRetries: nonNegativeInt.max(10),
  maxRetryAfterMs: nonNegativeInt,
  signal: z.custom<AbortSignal>((value) => value instanceof AbortSignal, 'expected an AbortSignal'),
  maxSteps: positiveInt,
  maxDecisions: positiveInt,
  waitMs: nonNegativeInt,
  minConfidence: z.number().min(0).max(1),
  approve: z.custom<NonNullable<AgentOptions['approve']>>((value) => typeof value === 'function', 'expected a function'),
  checklist: resolvedBy((value): boolean | ChecklistItem[] => {
    if (typeof value === 'boolean') return value
    if (!Array.isArray(value)) throw new Error('expected true, false or a list of checklist items')
    return parseCallerChecklist(value, 'checklist')
  }),
  extractor: z.custom<NonNullable<AgentOptions['extractor']>>((value) => typeof value === 'function', 'expected a function'),
  consent: z.union([z.literal(false), z.enum(['reject', 'accept'])]),
  cache: resolvedBy(resolveCache),
  record: resolvedBy(resolveRecord),
  vision: z.boolean(),
  secrets: resolvedBy(parseSecrets),
} satisfies OptionSchemas

/**
 * The compiler ties the caller's options to the settings: a schema per setting, yielding that
 * setting's type, and a name that is an option but no setting (or a setting but no option) would
 * need a schema of type `never`, which nothing is.
 */
type OptionSchemas = { [K in keyof Settings]: z.ZodType<Settings[K]> } & Record<
  Exclude<keyof AgentOptions, keyof Settings> | Exclude<keyof Settings, keyof AgentOptions>,
  never
>

/** An option checked by a resolver that throws an Error saying what was wrong. */
function resolvedBy<T>(resolve: (value: unknown) => T) {
  return z.unknown().transform((value, context): T => {
    try {
      return resolve(value)
    } catch (error) {
      context.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) })
      return z.NEVER
    }
  })
}

function isModel(value: unknown, method: string): boolean {
  if (typeof value !== 'object' || value === null) return false
  const model = value as Record<string, unknown>
  return model.specificationVersion === 'v4' && typeof model[method] === 'function'
}

export function isOptionsObject(value: unknown): value is AgentOptions {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Checks options and drops the ones passed as `undefined` or `null`, so that they keep the default.
 * Throws a UsageError naming the first bad option.
 */
export function parseOptions(input: unknown, where = 'options'): Partial<Settings> {
  if (input === undefined || input === null) return {}
  if (!isOptionsObject(input)) throw new UsageError(`${where} must be an object, got ${showValue(input)}.`)
  const parsed: Partial<Record<keyof Settings, unknown>> = {}
  for (const [key, value] of Object.entries(input)) {
    if (!(key in optionSchemas)) {
      throw new UsageError(`Unknown option "${key}" in ${where}. Known options: ${Object.keys(optionSchemas).join(', ')}.`)
    }
    if (value === undefined || value === null) continue
    const result = optionSchemas[key as keyof Settings].safeParse(value)
    if (!result.success) {
      const issue = result.error.issues[0]?.message ?? 'invalid value'
      // A secret is never shown, even given in the wrong shape.
      const got = key === 'secrets' ? '' : ` (got ${showValue(value)})`
      throw new UsageError(`Invalid option "${key}" in ${where}: ${issue}${got}.`)
    }
    parsed[key as keyof Settings] = result.data
  }
  return parsed as Partial<Settings>
}

/** Later layers win; each layer has already been parsed. The environment's cache and recording come under them all. */
export function mergeSettings(...layers: Partial<Settings>[]): Settings {
  return withLocalModels(Object.assign({}, DEFAULTS, { cache: cacheFromEnvironment(), record: recordFromEnvironment() }, ...layers) as Settings)
}

/** The model setting that names the offline baseline models. */
export const LOCAL_MODEL = 'local'

/** `'local'` becomes the offline models here, where options are resolved: the models folder sees only ids and instances. */
export function resolveLocal<T extends string | object | false>(setting: T, create: () => object): T | object {
  return setting === LOCAL_MODEL ? create() : setting
}

function withLocalModels(settings: Settings): Settings {
  return {
    ...settings,
    decisions: resolveLocal(settings.decisions, createLocalDecisionModel),
    text: resolveLocal(settings.text, createLocalLanguageModel),
    evaluator: resolveLocal(settings.evaluator, createLocalDecisionModel),
  }
}
