/** The message of whatever was thrown, for a record or a progress line. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name
  return String(error)
}
