import type { ElementHandle, Frame, JSHandle } from 'puppeteer-core'
import { documentLoader, isolatedWorld } from './isolated-world.ts'
import { PAGE_SCRIPTS, type PageScript } from '../page/bundle.generated.ts'
import type { PageFunctions } from '../page/call-page.ts'

// Calls a function of a page script (src/page/, bundled into two scripts at build time: the goal's
// and the extraction's) by name, in the frame's isolated world. A document that already holds the
// script at this version is sent only a short stub; a new document, or one holding another version,
// gets the whole script once, which installs itself. A document this process has not installed the
// script in is sent the whole script at once: asking first would cost it a round trip. Installing over
// a copy already there loses nothing: what a script keeps lives on the document, under its symbols.

type Name = keyof PageFunctions
/** An argument as Node passes it: an element travels as its handle. */
type Remote<T> = [Exclude<T, null | undefined>] extends [Element] ? ElementHandle<Element> | Extract<T, null> : T
type RemoteArgs<P extends unknown[]> = { [K in keyof P]: Remote<P[K]> }
type Args<N extends Name> = RemoteArgs<Parameters<PageFunctions[N]>>
type Result<N extends Name> = Awaited<ReturnType<PageFunctions[N]>>
type Install = (key: string, version: string, name: Name, ...args: unknown[]) => unknown

const MISSING = 'puppeteer-agent: page script missing'

export interface LoadedScript extends PageScript {
  // Built from the generated source in Node: Puppeteer sends a function's source text to the page.
  install: Install
}

/** The script that holds each function. */
const SCRIPT_OF = new Map<string, LoadedScript>()
for (const script of Object.values(PAGE_SCRIPTS)) {
  const loaded: LoadedScript = { ...script, install: new Function(`return ${script.source}`)() as Install }
  for (const name of script.functions) SCRIPT_OF.set(name, loaded)
}

/** The page script `name` belongs to, as the bundle lists them. */
export function pageScriptOf(name: Name): LoadedScript {
  const script = SCRIPT_OF.get(name)
  if (!script) throw new Error(`No page script holds a function named "${name}"; run scripts/bundle-page.mjs again.`)
  return script
}

/** The stub: calls the installed script when it is this version, else answers MISSING. Self-contained. */
function callInstalled(key: string, version: string, name: Name, missing: string, ...args: unknown[]): unknown {
  const installed = (globalThis as unknown as Record<symbol, { version: string; call(name: Name, args: unknown[]): unknown } | undefined>)[Symbol.for(key)]
  return installed && installed.version === version ? installed.call(name, args) : missing
}

/** By frame and script (`key@version`), the document the script was last installed in or found in. */
const INSTALLED = new WeakMap<Frame, Map<string, string>>()

const scriptId = (script: LoadedScript) => `${script.key}@${script.version}`

/** Whether this process installed the script in the frame's current document, or found it there; if not, the whole script is sent at once. */
function knownInstalled(frame: Frame, script: LoadedScript): boolean {
  return INSTALLED.get(frame)?.get(scriptId(script)) === documentLoader(frame)
}

function noteInstalled(frame: Frame, script: LoadedScript): void {
  let scripts = INSTALLED.get(frame)
  if (!scripts) INSTALLED.set(frame, (scripts = new Map()))
  scripts.set(scriptId(script), documentLoader(frame))
}

function isMissing(handle: JSHandle): boolean {
  const remote = handle.remoteObject()
  return remote.type === 'string' && remote.value === MISSING
}

/** Runs a function in the frame's isolated world, by value or as a handle. */
type Evaluate<R> = (fn: typeof callInstalled | Install, ...args: unknown[]) => Promise<R>

/**
 * Calls `name` through the stub where the document is known to hold its script, else (or when the stub
 * answers `missing`, which also frees what it returned) by sending the whole script.
 */
async function callScript<R>(frame: Frame, name: Name, args: unknown[], evaluate: Evaluate<R>, missing: (result: R) => Promise<boolean>): Promise<R> {
  const script = pageScriptOf(name)
  const { key, version, install } = script
  if (knownInstalled(frame, script)) {
    const quick = await evaluate(callInstalled, key, version, name, MISSING, ...args)
    if (!(await missing(quick))) return quick
  }
  const result = await evaluate(install, key, version, name, ...args)
  noteInstalled(frame, script)
  return result
}

/** Runs `name` in the frame's isolated world and returns its result by value. */
export async function callInFrame<N extends Name>(frame: Frame, name: N, ...args: Args<N>): Promise<Result<N>> {
  const world = isolatedWorld(frame)
  const evaluate: Evaluate<unknown> = (fn, ...rest) => world.evaluate(fn as never, ...rest)
  return (await callScript(frame, name, args as unknown[], evaluate, async (result) => result === MISSING)) as Result<N>
}

/** Runs `name` in the frame's isolated world and returns a handle to its result (nodes, live objects). */
export async function callHandleInFrame<N extends Name>(frame: Frame, name: N, ...args: Args<N>): Promise<JSHandle<Result<N>>> {
  const world = isolatedWorld(frame)
  const evaluate: Evaluate<JSHandle> = (fn, ...rest) => world.evaluateHandle(fn as never, ...rest)
  const disposedIfMissing = async (handle: JSHandle) => {
    if (!isMissing(handle)) return false
    await handle.dispose()
    return true
  }
  return (await callScript(frame, name, args as unknown[], evaluate, disposedIfMissing)) as JSHandle<Result<N>>
}
