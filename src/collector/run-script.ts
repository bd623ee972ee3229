import { createHash } from 'node:crypto'
import type { ElementHandle, Frame, JSHandle } from 'puppeteer-core'
import { isolatedWorld } from '../browser/isolated-world.ts'
import { collectorScript, installedScript, type PageRequest } from './page-script.ts'

// Calls the page script the cheap way first: a document that already ran this version keeps it, so
// only a short stub is sent. A new document, or another version, gets the whole script once.

type Request = PageRequest extends infer R ? (R extends PageRequest ? Omit<R, 'version'> : never) : never

export const SCRIPT_VERSION = createHash('sha1').update(collectorScript.toString()).digest('base64url').slice(0, 12)

function stamped(request: Request): PageRequest {
  return { ...request, version: SCRIPT_VERSION } as PageRequest
}

function isMissing(handle: JSHandle): boolean {
  const remote = handle.remoteObject()
  return remote.type === 'string' && remote.value === 'missing'
}

/** Runs the script in a frame's document (in its isolated world) and returns a handle to its result. */
export async function evaluateHandleInFrame(frame: Frame, request: Request, owners: ElementHandle<Element>[]): Promise<JSHandle> {
  const full = stamped(request)
  const quick = await isolatedWorld(frame).evaluateHandle(installedScript, null, full, ...owners)
  if (!isMissing(quick)) return quick
  return isolatedWorld(frame).evaluateHandle(collectorScript, null, full, ...owners)
}

/** Runs the script in a frame's document and returns its result by value. */
export async function evaluateInFrame<T>(frame: Frame, request: Request, owners: ElementHandle<Element>[]): Promise<T> {
  const full = stamped(request)
  const quick = await isolatedWorld(frame).evaluate(installedScript, null, full, ...owners)
  if (quick !== 'missing') return quick as T
  return (await isolatedWorld(frame).evaluate(collectorScript, null, full, ...owners)) as T
}

/** Runs the script on an element (the `target`) in its own document and returns its result by value; element handles live in the isolated world. */
export async function evaluateOnElement<T>(handle: ElementHandle<Element>, request: Request): Promise<T> {
  const full = stamped(request)
  const quick = await handle.evaluate(installedScript, full)
  if (quick !== 'missing') return quick as T
  return (await handle.evaluate(collectorScript, full)) as T
}
