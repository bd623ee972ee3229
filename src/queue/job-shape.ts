// A job comes out of Redis, where anyone with access to the queue can write: it is data, checked
// field by field before a browser is touched, and never code. What a job may ask for is what JSON can
// say: a URL, goals, rules and the options that are plain values; functions, the cache, recording
// and secrets belong to the worker.
import { createHash } from 'node:crypto'
import type { Rules } from '../../types/index.d.ts'
import type { JobOptions, WorkJob } from '../../types/queue.d.ts'
import { showValue } from '../base/show-value.ts'
import { parseOptions } from '../options.ts'

/** A job that can never run as given: it goes to the failed set at once, not retried. */
export class JobShapeError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'JobShapeError'
  }
}

export const LIMITS = { url: 2_000, goals: 20, goal: 10_000, instruction: 10_000, id: 200, rulesBytes: 100_000 } as const

/** Options a job may set: plain values only. */
const JOB_OPTIONS = [
  'decisions',
  'text',
  'evaluator',
  'reasoning',
  'timeout',
  'maxRetries',
  'maxRetryAfterMs',
  'maxSteps',
  'maxDecisions',
  'waitMs',
  'minConfidence',
  'checklist',
  'consent',
  'vision',
] as const
/** Options a job may not set, and why: said in the error, so the producer learns where they go. */
const WORKER_OPTIONS: Record<string, string> = {
  cache: "the worker's --cache",
  record: "the worker's --record",
  secrets: "the worker's own agent options (a job's data sits in Redis in the clear)",
  approve: 'nowhere: a job is data, and a function is code',
  extractor: 'nowhere: a job is data, and a function is code',
  signal: 'nowhere: a job is data',
}
const JOB_KEYS = ['id', 'url', 'goals', 'extract', 'options', 'repeatable']

// Letters, digits, dot, dash, underscore: no ':' (Redis key separators) and not all digits (bullmq's own ids).
const ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/

/** Checks a job as a producer wrote it (or as Redis holds it) and returns it complete; throws JobShapeError naming the field. */
export function parseJob(input: unknown, where = 'job'): WorkJob {
  if (!isRecord(input)) throw new JobShapeError(`${where} must be an object, got ${showValue(input)}.`)
  const unknown = Object.keys(input).filter((key) => !JOB_KEYS.includes(key))
  if (unknown.length > 0) throw new JobShapeError(`${where} has unknown field "${unknown[0]}": the fields are ${JOB_KEYS.join(', ')}.`)
  const url = parseUrl(input.url, where)
  const goals = parseGoals(input.goals, where)
  const extract = parseExtract(input.extract, where)
  if (goals.length === 0 && !extract) throw new JobShapeError(`${where} for ${url} has nothing to do: give it goals, extract, or both.`)
  const options = parseJobOptions(input.options, where)
  if (input.repeatable !== undefined && typeof input.repeatable !== 'boolean') {
    throw new JobShapeError(`${where}: repeatable must be true or false, got ${showValue(input.repeatable)}.`)
  }
  const job = { url, goals, ...(extract && { extract }), options, repeatable: input.repeatable === true }
  return { id: input.id === undefined ? derivedId(job) : parseId(input.id, where), ...job }
}

function parseUrl(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.length > LIMITS.url) {
    throw new JobShapeError(`${where}: url must be a string of at most ${LIMITS.url} characters, got ${showValue(value)}.`)
  }
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new JobShapeError(`${where}: url is not a URL: ${showValue(value)}.`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new JobShapeError(`${where}: url must be http or https, got ${showValue(value)}.`)
  return value
}

function parseGoals(value: unknown, where: string): string[] {
  if (value === undefined) return []
  const goals = typeof value === 'string' ? [value] : value
  if (!Array.isArray(goals) || goals.length > LIMITS.goals) {
    throw new JobShapeError(`${where}: goals must be a string or a list of at most ${LIMITS.goals} strings, got ${showValue(value)}.`)
  }
  return goals.map((goal, index) => {
    if (typeof goal !== 'string' || goal.trim() === '' || goal.length > LIMITS.goal) {
      throw new JobShapeError(`${where}: goals[${index}] must be a non-empty string of at most ${LIMITS.goal} characters, got ${showValue(goal)}.`)
    }
    return goal
  })
}

function parseExtract(value: unknown, where: string): WorkJob['extract'] {
  if (value === undefined) return undefined
  if (!isRecord(value) || Object.keys(value).some((key) => key !== 'instruction' && key !== 'rules')) {
    throw new JobShapeError(`${where}: extract must be { rules } or { instruction, rules? }, got ${showValue(value)}.`)
  }
  const { instruction, rules } = value
  if (instruction !== undefined && (typeof instruction !== 'string' || instruction.trim() === '' || instruction.length > LIMITS.instruction)) {
    throw new JobShapeError(`${where}: extract.instruction must be a non-empty string of at most ${LIMITS.instruction} characters, got ${showValue(instruction)}.`)
  }
  if (rules !== undefined && !isRulesData(rules)) {
    throw new JobShapeError(`${where}: extract.rules must be an object of field rules (plain JSON, at most ${LIMITS.rulesBytes} bytes), got ${showValue(rules)}.`)
  }
  if (instruction === undefined && rules === undefined) throw new JobShapeError(`${where}: extract needs rules, an instruction, or both.`)
  // The rules' own fields are checked by the extraction, which reports a bad rule in the job's result.
  return { ...(instruction !== undefined && { instruction }), ...(rules !== undefined && { rules: rules as Rules }) }
}

function parseJobOptions(value: unknown, where: string): JobOptions {
  if (value === undefined) return {}
  if (!isRecord(value)) throw new JobShapeError(`${where}: options must be an object, got ${showValue(value)}.`)
  for (const [key, option] of Object.entries(value)) {
    if (key in WORKER_OPTIONS) throw new JobShapeError(`${where}: options.${key} cannot come from a job; it is set in ${WORKER_OPTIONS[key]}.`)
    if (!(JOB_OPTIONS as readonly string[]).includes(key)) throw new JobShapeError(`${where}: unknown option "${key}"; a job may set ${JOB_OPTIONS.join(', ')}.`)
    // A model is named by its id (or 'local'): an instance is an object with methods, which JSON has not.
    if (['decisions', 'text', 'evaluator'].includes(key) && typeof option !== 'string' && option !== false) {
      throw new JobShapeError(`${where}: options.${key} must be a model id string, got ${showValue(option)}.`)
    }
  }
  try {
    parseOptions(value, `${where} options`)
  } catch (error) {
    throw new JobShapeError((error as Error).message)
  }
  return value as JobOptions
}

function parseId(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.length > LIMITS.id || !ID.test(value) || /^\d+$/.test(value)) {
    throw new JobShapeError(
      `${where}: id must be 1–${LIMITS.id} letters, digits, ".", "-" or "_", starting with a letter or digit and not all digits, got ${showValue(value)}.`,
    )
  }
  return value
}

/** The same job gives the same id, so enqueueing it twice makes one job. */
function derivedId(job: Omit<WorkJob, 'id'>): string {
  return `job-${createHash('sha256').update(JSON.stringify(job)).digest('hex').slice(0, 32)}`
}

/** JSON data only (no functions, cycles or class instances), and small enough to keep in a job. */
function isRulesData(value: unknown): boolean {
  if (!isRecord(value) || Object.keys(value).length === 0) return false
  try {
    return JSON.stringify(value).length <= LIMITS.rulesBytes && plainJson(value)
  } catch {
    return false
  }
}

function plainJson(value: unknown): boolean {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return true
  if (Array.isArray(value)) return value.every(plainJson)
  return isRecord(value) && Object.values(value).every(plainJson)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}
