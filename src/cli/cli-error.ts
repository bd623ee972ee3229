/** A failure the CLI reports itself, with the exit code it ends with (2: bad usage or setup). */
export class CliError extends Error {
  readonly exitCode: number

  constructor(message: string, exitCode: number) {
    super(message)
    this.name = 'CliError'
    this.exitCode = exitCode
  }
}

export const EXIT = { ok: 0, scriptFailed: 1, usage: 2 } as const
