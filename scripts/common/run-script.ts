import { FlagError } from './flags.ts'

/**
 * Runs a script's `main` with its command-line arguments and sets the exit code: what `main` resolves,
 * 2 for a bad flag (its message, then `usage`), 1 for anything else thrown (its message, then `hint`
 * when one is given for it).
 */
export function runScript(name: string, usage: string, main: (argv: string[]) => Promise<number>, hint?: () => string | undefined): void {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code
    },
    (error: unknown) => {
      const bad = error instanceof FlagError
      const extra = bad ? undefined : hint?.()
      process.stderr.write(`${name}: ${error instanceof Error ? error.message : String(error)}${extra ? `\n${extra}` : ''}\n${bad ? `${usage}\n` : ''}`)
      process.exitCode = bad ? 2 : 1
    },
  )
}
