import type { Experimental_DecisionState } from 'ai'
import type { JSONObject } from '@ai-sdk/provider'
import type { Shot } from '../browser/viewport-screenshot.ts'
import type { ObservedElement } from '../collector/observation.ts'
import { badgeScreenshot } from './badged-screenshot.ts'

// A decision request's image: the screenshot taken when the page was observed, with a badge for each
// element the request offers (after the request's own bound has dropped any), so the image and the
// state name the same action IDs.

export interface RequestImage {
  jpeg: Uint8Array
  bytes: number
  /** From the start of the capture to the badged JPEG, as far as the step waited for it. */
  ms: number
}

/** The badged image of the offered `elements`, or undefined when the screenshot could not be taken. */
export async function requestImage(screenshot: Promise<Shot | undefined>, elements: readonly ObservedElement[]): Promise<RequestImage | undefined> {
  const started = performance.now()
  const shot = await screenshot
  if (!shot) return undefined
  const image = await badgeScreenshot(
    shot,
    elements.map((element) => ({ id: element.id, rect: element.rect })),
  )
  return { jpeg: image.jpeg, bytes: image.jpeg.byteLength, ms: Math.round(performance.now() - started) }
}

/** The state with the image after it: the JSON first, so a model reads what the badges name. */
export function stateWithImage(state: JSONObject, image: RequestImage | undefined): JSONObject | Experimental_DecisionState {
  if (!image) return state
  return [
    { type: 'json', value: state },
    { type: 'file', mediaType: 'image/jpeg', data: image.jpeg },
  ]
}
