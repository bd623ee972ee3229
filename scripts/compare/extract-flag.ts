import type { Rules } from '../../types/index.d.ts'
import { FlagError } from '../common/flags.ts'

/**
 * `--extract` holds an instruction for the text model, or Microlink rules as a JSON object, which run
 * with no model request (so an extraction can be compared offline, and its data must then agree).
 */
export function parseExtract(value: string | undefined): string | Rules | undefined {
  if (value === undefined) return undefined
  if (!value.trimStart().startsWith('{')) return value
  let rules: unknown
  try {
    rules = JSON.parse(value)
  } catch (error) {
    throw new FlagError(`--extract starts with "{" but is not valid JSON rules: ${(error as Error).message}`)
  }
  if (typeof rules !== 'object' || rules === null || Array.isArray(rules)) {
    throw new FlagError(`--extract rules must be a JSON object of fields, got ${JSON.stringify(rules)}.`)
  }
  return rules as Rules
}
