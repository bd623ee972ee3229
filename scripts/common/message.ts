/** The message of whatever was thrown, for a record or a progress line. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name
  return String(error)
}

/** The first line of a message, for a one-line progress report (the record keeps the whole message). */
export function firstLine(message: string): string {
  return message.split('\n', 1)[0]!.trim()
}
