import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CHROME_FLAGS, findChrome } from '../../src/cli/find-chrome.ts'

// A Chrome started as a process of its own with a remote debugging port, and reached only through its
// DevTools WebSocket: a stand-in for a browser pool (the browserless Docker image, a Chrome on another
// machine). Nothing here goes through puppeteer.launch, so the tests see what a user of
// puppeteer.connect or `exec --ws-endpoint` sees: no process handle, only a connection.

/** How long Chrome may take to say where it listens before the start counts as failed. */
const START_TIMEOUT_MS = 20_000
/** Chrome's last words kept for the error of a failed start. */
const STDERR_KEPT = 4_000
const LISTENING = /DevTools listening on (ws:\/\/\S+)/

export interface RemoteChrome {
  /** The browser's DevTools endpoint, `ws://127.0.0.1:<port>/devtools/browser/<id>`. */
  readonly wsEndpoint: string
  /** The browser process; it leads a process group with its renderers and helpers. */
  readonly pid: number
  /** Whether the browser process is still running. */
  readonly running: boolean
  /** Settles when the browser process has exited, whatever ended it. */
  readonly exited: Promise<void>
  /**
   * SIGKILLs the whole process group at once, as a pool recycling a browser or a machine going away
   * would: no goodbye on the WebSocket, the connection just drops. Resolves once every process of the
   * group has gone. Safe to call twice.
   */
  kill(): Promise<void>
  /** Kills the browser if it still runs and removes its profile directory. Safe to call twice. */
  close(): Promise<void>
}

/** Starts Chrome headless on a free debugging port with a fresh profile and resolves once it listens. */
export async function startRemoteChrome(): Promise<RemoteChrome> {
  const executablePath = findChrome()
  if (!executablePath) throw new Error('No Chrome found for the tests: set CHROME_PATH or install chromium.')
  const profile = mkdtempSync(join(tmpdir(), 'remote-chrome-'))
  const args = [
    ...CHROME_FLAGS,
    '--disable-gpu',
    '--headless=new',
    '--remote-debugging-address=127.0.0.1',
    '--remote-debugging-port=0',
    `--user-data-dir=${profile}`,
    'about:blank',
  ]
  // Detached: Chrome leads its own process group, so one signal reaches every process it started.
  const child = spawn(executablePath, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'] })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  // Should the test process die first, the browser goes with it.
  const onExit = () => killGroup(child)
  process.once('exit', onExit)

  let removed = false
  const removeProfile = () => {
    if (removed) return
    removed = true
    rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 })
  }
  let killing: Promise<void> | undefined
  const kill = () =>
    (killing ??= (async () => {
      killGroup(child)
      await exited
      await groupGone(child.pid!)
    })())
  const close = async () => {
    await kill()
    process.off('exit', onExit)
    removeProfile()
  }

  try {
    const wsEndpoint = await listening(child, exited)
    return {
      wsEndpoint,
      pid: child.pid!,
      get running() {
        return child.exitCode === null && child.signalCode === null
      },
      exited,
      kill,
      close,
    }
  } catch (error) {
    await close()
    throw error
  }
}

/** Reads Chrome's stderr until it names its endpoint; keeps draining it after, so Chrome never blocks on a full pipe. */
function listening(child: ChildProcess, exited: Promise<void>): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let stderr = ''
    let found = false
    const fail = (why: string) => {
      clearTimeout(timer)
      reject(new Error(`Chrome (pid ${child.pid}) ${why}. Its stderr:\n${stderr.slice(-STDERR_KEPT)}`))
    }
    const timer = setTimeout(() => fail(`did not print "DevTools listening on ws://…" within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS)
    child.stderr!.setEncoding('utf8')
    child.stderr!.on('data', (chunk: string) => {
      if (found) return
      stderr = (stderr + chunk).slice(-STDERR_KEPT * 2)
      const match = LISTENING.exec(stderr)
      if (!match) return
      found = true
      clearTimeout(timer)
      resolve(match[1]!)
    })
    child.once('error', (error) => fail(`could not start: ${error.message}`))
    void exited.then(() => {
      if (!found) fail(`exited (code ${child.exitCode}, signal ${child.signalCode}) before it listened`)
    })
  })
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return
  try {
    process.kill(-child.pid, 'SIGKILL')
  } catch {
    // The group is gone already.
  }
}

/** Waits (up to 5 s) until no process is left in the group: the profile is only removed after. */
async function groupGone(pgid: number): Promise<void> {
  for (let tries = 0; tries < 100; tries++) {
    try {
      process.kill(-pgid, 0)
    } catch {
      return
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
