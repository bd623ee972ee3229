import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { CACHE_ENV } from '../../src/cache/cache-settings.ts'
import { RECORD_ENV } from '../../src/record/record-settings.ts'

// The built CLI (dist/, from `npx tsc`) run as users run it: a child process on this Node, in the
// repository's root. No key, remote browser, debug output, cache or recording comes from the
// surrounding shell: each test sets what it needs in `env`.

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))
export const BIN = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url))

export interface CliRun {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  /** When the process exited, on performance.now()'s clock. */
  exitedAt: number
}

const FROM_SHELL = ['AI_GATEWAY_API_KEY', 'BROWSER_WS_ENDPOINT', 'DEBUG', CACHE_ENV, RECORD_ENV]

/** Runs `puppeteer-agent <args>`; `onStderr` sees everything written to stderr so far, and the child. */
export function runCli(args: string[], options: { env?: NodeJS.ProcessEnv; onStderr?: (text: string, child: ChildProcess) => void } = {}): Promise<CliRun> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !FROM_SHELL.includes(name)))
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...inherited, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => (stdout += chunk))
  child.stderr.on('data', (chunk) => {
    stderr += chunk
    options.onStderr?.(stderr, child)
  })
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr, exitedAt: performance.now() }))
  })
}
