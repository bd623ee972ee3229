// The `record` option, resolved, and the environment variable that turns it on for scripts the CLI
// runs (`puppeteer-agent exec --record=<dir>`).

export interface RecordSettings {
  dir: string
  typedValues: boolean
}

export const RECORD_ENV = 'PUPPETEER_AGENT_RECORD'

/** `record` as settings: a directory or `{ dir, typedValues }`. Throws an Error saying what was wrong. */
export function resolveRecord(value: unknown): RecordSettings | false {
  if (value === false) return false
  if (typeof value === 'string') return fromDir(value, false)
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const { dir, typedValues, ...rest } = value as Record<string, unknown>
    const unknown = Object.keys(rest)
    if (unknown.length > 0) throw new Error(`unknown record setting "${unknown[0]}" (known: dir, typedValues)`)
    if (typeof dir !== 'string') throw new Error('record.dir must be a directory')
    if (typedValues !== undefined && typeof typedValues !== 'boolean') throw new Error('record.typedValues must be true or false')
    return fromDir(dir, typedValues ?? false)
  }
  throw new Error('expected false, a directory, or { dir, typedValues }')
}

function fromDir(dir: string, typedValues: boolean): RecordSettings {
  if (dir.trim() === '') throw new Error('the record directory is empty')
  return { dir, typedValues }
}

/** The recording the environment turns on, when the options leave it unset; blank is unset. */
export function recordFromEnvironment(env: NodeJS.ProcessEnv = process.env): RecordSettings | false {
  const dir = env[RECORD_ENV]?.trim()
  return dir ? fromDir(dir, false) : false
}
