import type { ElementHandle, Frame, JSHandle } from 'puppeteer-core'
import { isolatedWorld } from './isolated-world.ts'
import { PAGE_SCRIPT, PAGE_SCRIPT_VERSION } from '../page/bundle.generated.ts'
import type { PageFunctions } from '../page/entry.ts'

// Calls a function of the page script (src/page/, bundled into one script at build time) by name, in
// the frame's isolated world. A document that already holds this version is sent only a short stub;
// a new document, or one holding another version, gets the whole script once, which installs itself.

type Name = keyof PageFunctions
/** An argument as Node passes it: an element travels as its handle. */
type Remote<T> = [Exclude<T, null | undefined>] extends [Element] ? ElementHandle<Element> | Extract<T, null> : T
type RemoteArgs<P extends unknown[]> = { [K in keyof P]: Remote<P[K]> }
type Args<N extends Name> = RemoteArgs<Parameters<PageFunctions[N]>>
type Result<N extends Name> = Awaited<ReturnType<PageFunctions[N]>>

const MISSING = 'puppeteer-agent: page script missing'

// Built from the generated source in Node: Puppeteer sends a function's source text to the page.
const installPageScript = new Function(`return ${PAGE_SCRIPT}`)() as (version: string, name: Name, ...args: unknown[]) => unknown

/** The stub: calls the installed script when it is this version, else answers MISSING. Self-contained. */
function callInstalled(version: string, name: Name, missing: string, ...args: unknown[]): unknown {
  const installed = (globalThis as unknown as Record<symbol, { version: string; call(name: Name, args: unknown[]): unknown } | undefined>)[
    Symbol.for('puppeteer-agent.page')
  ]
  return installed && installed.version === version ? installed.call(name, args) : missing
}

function isMissing(handle: JSHandle): boolean {
  const remote = handle.remoteObject()
  return remote.type === 'string' && remote.value === MISSING
}

/** Runs `name` in the frame's isolated world and returns its result by value. */
export async function callInFrame<N extends Name>(frame: Frame, name: N, ...args: Args<N>): Promise<Result<N>> {
  const world = isolatedWorld(frame)
  const quick = await world.evaluate(callInstalled, PAGE_SCRIPT_VERSION, name, MISSING, ...(args as unknown[]))
  if (quick !== MISSING) return quick as Result<N>
  return (await world.evaluate(installPageScript, PAGE_SCRIPT_VERSION, name, ...(args as unknown[]))) as Result<N>
}

/** Runs `name` in the frame's isolated world and returns a handle to its result (nodes, live objects). */
export async function callHandleInFrame<N extends Name>(frame: Frame, name: N, ...args: Args<N>): Promise<JSHandle<Result<N>>> {
  const world = isolatedWorld(frame)
  const quick = await world.evaluateHandle(callInstalled, PAGE_SCRIPT_VERSION, name, MISSING, ...(args as unknown[]))
  if (!isMissing(quick)) return quick as JSHandle<Result<N>>
  await quick.dispose()
  return (await world.evaluateHandle(installPageScript, PAGE_SCRIPT_VERSION, name, ...(args as unknown[]))) as JSHandle<Result<N>>
}
