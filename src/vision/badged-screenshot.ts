import sharp from 'sharp'
import type { Shot } from '../browser/viewport-screenshot.ts'
import type { Rect } from '../base/rect.ts'
import { placeBadges, type Badge } from './badge-layout.ts'
import { drawBadges } from './draw-badges.ts'

// The image a decision request carries with `vision: true`: the viewport as the browser rendered it,
// with each offered element's action ID drawn beside it. The badges are drawn here, in Node, on the
// screenshot's decoded pixels (src/vision/draw-badges.ts), never in the page: the page cannot see,
// move, cover or click them, and nothing is left in its DOM to clean up before the input.

/** The screenshot's own JPEG quality: high, since the badged image is encoded again. */
export const SOURCE_QUALITY = 85
/** The largest image sent: a 1280×800 viewport at 1× whole; larger or denser screens are scaled down to fit. */
export const MAX_IMAGE = { width: 1280, height: 800 }
/** The JPEG quality tried first, and the lowest one tried to stay under MAX_IMAGE_BYTES before the image is scaled down. */
export const IMAGE_QUALITY = 70
const LOWEST_QUALITY = 40
/** Bytes of the image at most: a busy 1280×800 page at quality 70 is about 150–250 KB; noise needs a smaller image. */
export const MAX_IMAGE_BYTES = 300_000

export interface BadgedImage {
  jpeg: Uint8Array
  width: number
  height: number
  /** Where each badge was drawn, in image pixels. */
  badges: Badge[]
  /** The image's pixels per CSS pixel of the viewport. */
  scale: number
}

/** Draws the badges of `elements` (boxes in CSS pixels of the viewport) on the screenshot, within the bounds. */
export async function badgeScreenshot(shot: Shot, elements: readonly { id: string; rect: Rect }[]): Promise<BadgedImage> {
  const meta = await sharp(shot.jpeg).metadata()
  const pixels = { width: meta.width ?? shot.viewport.width, height: meta.height ?? shot.viewport.height }
  let fit = Math.min(1, MAX_IMAGE.width / pixels.width, MAX_IMAGE.height / pixels.height)
  for (let quality = IMAGE_QUALITY; ; quality = LOWEST_QUALITY) {
    const image = await encode(shot, elements, pixels, fit, quality)
    if (image.jpeg.byteLength <= MAX_IMAGE_BYTES) return image
    // Still too large at the lowest quality (noise, fine texture): smaller, by the square root of the
    // excess since bytes go with the area, and by a tenth at least so that the loop always ends.
    fit *= Math.min(0.9, Math.sqrt(MAX_IMAGE_BYTES / image.jpeg.byteLength) * 0.95)
  }
}

/** The image at `fit` of the screenshot's pixels, at the first quality from `first` down that is within the bytes, else at the lowest. */
async function encode(
  shot: Shot,
  elements: readonly { id: string; rect: Rect }[],
  pixels: { width: number; height: number },
  fit: number,
  first: number,
): Promise<BadgedImage> {
  const width = Math.max(1, Math.round(pixels.width * fit))
  const height = Math.max(1, Math.round(pixels.height * fit))
  // Boxes are in CSS pixels; the screenshot is in device pixels; the image may be scaled down.
  const scale = (pixels.width / shot.viewport.width) * (width / pixels.width)
  const placed = elements.map((element) => ({ id: element.id, box: scaleBox(element.rect, scale) })).filter((element) => onImage(element.box, width, height))
  const badges = placeBadges(placed, { width, height })
  const decoding = sharp(shot.jpeg)
  if (width !== pixels.width || height !== pixels.height) decoding.resize(width, height)
  const { data, info } = await decoding.toColourspace('srgb').removeAlpha().raw().toBuffer({ resolveWithObject: true })
  await drawBadges({ data, width: info.width, height: info.height, channels: info.channels }, badges)
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } }
  for (let quality = first; ; quality -= 15) {
    // Huffman tables are not optimised: 4 ms instead of 9 for a few per cent more bytes.
    const jpeg = await sharp(data, raw).jpeg({ quality, optimiseCoding: false }).toBuffer()
    if (jpeg.byteLength <= MAX_IMAGE_BYTES || quality - 15 < LOWEST_QUALITY) return { jpeg, width, height, badges, scale }
  }
}

function scaleBox(box: Rect, scale: number): Rect {
  return { x: box.x * scale, y: box.y * scale, width: box.width * scale, height: box.height * scale }
}

function onImage(box: Rect, width: number, height: number): boolean {
  return box.width > 0 && box.height > 0 && box.x < width && box.y < height && box.x + box.width > 0 && box.y + box.height > 0
}
