import { statSync } from 'node:fs'
import mri from 'mri'

// Flag parsing for the scripts, on top of mri. Every flag is read as a string (numbers are checked
// here, with the flag's name in the error) and an unknown flag is refused before anything runs.

export class FlagError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FlagError'
  }
}

export type Flags = Record<string, string | string[] | boolean | undefined>

export function parseFlags(argv: readonly string[], spec: { strings: readonly string[]; booleans?: readonly string[] }): Flags {
  const known = [...spec.strings, ...(spec.booleans ?? [])]
  let unknown: string | undefined
  const parsed = mri([...argv], {
    string: [...spec.strings],
    boolean: [...(spec.booleans ?? [])],
    // mri only refuses flags it has no alias entry for, so every known flag gets an empty one.
    alias: Object.fromEntries(known.map((name) => [name, []])),
    unknown: (flag) => {
      unknown = flag
    },
  })
  if (unknown !== undefined) throw new FlagError(`Unknown flag ${unknown}. Known flags: ${known.map((name) => `--${name}`).join(', ')}.`)
  if (parsed._.length > 0) throw new FlagError(`Unexpected argument ${JSON.stringify(parsed._[0])}: every value goes in a --flag=value.`)
  const { _: _positional, ...flags } = parsed
  return flags as Flags
}

/** Every value of a flag: repeated flags and comma-separated lists, trimmed, blanks dropped. */
export function listFlag(flags: Flags, name: string, fallback: readonly string[] = []): string[] {
  const values = flagValues(flags, name).flatMap((value) => value.split(','))
  const list = values.map((value) => value.trim()).filter((value) => value !== '')
  return list.length > 0 ? list : [...fallback]
}

/** Every value of a repeatable flag, each kept whole (commas included), blanks dropped. */
export function repeatedFlag(flags: Flags, name: string): string[] {
  return flagValues(flags, name).map((value) => value.trim()).filter((value) => value !== '')
}

/** The one value of a flag; repeating it is an error rather than a silent pick. */
export function stringFlag(flags: Flags, name: string): string | undefined {
  const values = repeatedFlag(flags, name)
  if (values.length > 1) throw new FlagError(`--${name} was given ${values.length} times; give it once.`)
  return values[0]
}

export function integerFlag(flags: Flags, name: string, fallback: number, minimum = 1): number {
  const text = stringFlag(flags, name)
  if (text === undefined) return fallback
  const value = Number(text)
  if (!Number.isInteger(value) || value < minimum) {
    throw new FlagError(`--${name} must be an integer of at least ${minimum}, got ${JSON.stringify(text)}.`)
  }
  return value
}

export function numberFlag(flags: Flags, name: string, fallback: number): number {
  const text = stringFlag(flags, name)
  if (text === undefined) return fallback
  const value = Number(text)
  if (!Number.isFinite(value) || value <= 0) throw new FlagError(`--${name} must be a positive number, got ${JSON.stringify(text)}.`)
  return value
}

/**
 * A directory to write into, as `--record=<dir>`: undefined when the flag is absent. Given without a
 * value, given twice, or naming something that exists and is not a directory, it is refused; a
 * directory that does not exist yet is made by whoever writes there.
 */
export function directoryFlag(flags: Flags, name: string): string | undefined {
  if (flags[name] === undefined) return undefined
  const dir = stringFlag(flags, name)
  if (dir === undefined) throw new FlagError(`--${name} needs a directory: --${name}=<dir>.`)
  const found = statSync(dir, { throwIfNoEntry: false })
  if (found && !found.isDirectory()) throw new FlagError(`--${name} must name a directory, and ${JSON.stringify(dir)} is a file.`)
  return dir
}

function flagValues(flags: Flags, name: string): string[] {
  const value = flags[name]
  if (value === undefined || typeof value === 'boolean') return []
  return Array.isArray(value) ? value : [value]
}
