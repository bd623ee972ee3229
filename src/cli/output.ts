/** The script's return value as pretty JSON, or undefined when there is nothing to print. */
export function toJson(value: unknown): string | undefined {
  if (value === undefined || typeof value === 'function') return undefined
  return JSON.stringify(value, replacer, 2)
}

// An Error has no enumerable fields, so JSON.stringify would print `{}` for a result's `error`.
function replacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (!(value instanceof Error)) return value
  const { name, message } = value
  const extra = value as Error & { code?: unknown; reason?: unknown }
  return { name, message, ...(extra.code !== undefined && { code: extra.code }), ...(extra.reason !== undefined && { reason: extra.reason }) }
}

// Errors that point at a bug in the script: their stack is what the user needs.
const BUG_NAMES = new Set(['TypeError', 'ReferenceError', 'SyntaxError', 'RangeError', 'EvalError'])

/** One message for stderr: the stack only for programming errors or when `verbose`, otherwise name, message and causes. */
export function describeError(error: Error, verbose: boolean): string {
  if (verbose || BUG_NAMES.has(error.name)) return error.stack ?? `${error.name}: ${error.message}`
  const lines = [headline(error)]
  let cause = error.cause
  for (let depth = 0; cause instanceof Error && depth < 5; depth++, cause = cause.cause) {
    lines.push(`  caused by ${headline(cause)}`)
  }
  return lines.join('\n')
}

function headline(error: Error): string {
  const reason = (error as Error & { reason?: unknown }).reason
  const suffix = typeof reason === 'string' && !error.message.includes(reason) ? ` (reason: ${reason})` : ''
  const name = error.name && error.name !== 'Error' ? `${error.name}: ` : ''
  return `${name}${error.message}${suffix}`
}
