import { JSONParseError, NoObjectGeneratedError, NoOutputGeneratedError, TypeValidationError } from 'ai'
import { z } from 'zod'

// A text model's reply that came back but is not the JSON its schema asks for: told apart from a
// request that failed, and said in one line, for whoever reports it or asks the model again.

/** The AI SDK's errors for a reply that is not the JSON the schema asks for. */
export function isInvalidReply(error: unknown): boolean {
  return (
    NoObjectGeneratedError.isInstance(error) ||
    NoOutputGeneratedError.isInstance(error) ||
    TypeValidationError.isInstance(error) ||
    JSONParseError.isInstance(error)
  )
}

/**
 * What in the reply was wrong, in one line: the first schema issue and where (`items[0].check: Invalid
 * input`), or the error's first line (a reply that is not JSON, or empty). The SDK's own message
 * repeats the whole reply and every issue.
 */
export function invalidReplyReason(error: Error): string {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof z.ZodError) {
      const issue = cause.issues[0]!
      const at = issue.path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('').replace(/^\./, '')
      return at ? `${at}: ${issue.message}` : issue.message
    }
  }
  return error.message.split('\n')[0]!
}
