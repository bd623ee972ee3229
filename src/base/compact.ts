import type { JSONObject, JSONValue } from '@ai-sdk/provider'

// Every request to a model is built of such objects, from the collector's elements up to the
// evaluator's trace: one definition, so they all leave out the same things.

/** Drops undefined fields, so a request carries only what is known. */
export function compact(fields: Record<string, JSONValue | undefined>): JSONObject {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as JSONObject
}
