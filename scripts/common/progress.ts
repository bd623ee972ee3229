// Progress for a person watching: stderr only, so stdout stays the machine-readable result.

export function progress(script: string, message: string): void {
  process.stderr.write(`[${script}] ${message}\n`)
}

export function seconds(ms: number | undefined): string {
  return ms === undefined ? '?' : `${(ms / 1000).toFixed(1)} s`
}
