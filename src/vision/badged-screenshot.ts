import sharp from 'sharp'
import type { Shot } from '../browser/viewport-screenshot.ts'
import { BADGE_FONT_PX, BADGE_HEIGHT, placeBadges, type Badge, type Box } from './badge-layout.ts'

// The image a decision request carries with `vision: true`: the viewport as the browser rendered it,
// with each offered element's action ID drawn beside it. The badges are drawn here, in Node, on the
// screenshot's pixels (sharp compositing an SVG), never in the page: the page cannot see, move, cover
// or click them, and nothing is left in its DOM to clean up before the input.

/** The screenshot's own JPEG quality: high, since the badged image is encoded again. */
export const SOURCE_QUALITY = 85
/** The largest image sent: a 1280×800 viewport at 1× whole; larger or denser screens are scaled down to fit. */
export const MAX_IMAGE = { width: 1280, height: 800 }
/** The JPEG quality tried first, and the lowest one tried to stay under MAX_IMAGE_BYTES. */
export const IMAGE_QUALITY = 70
const LOWEST_QUALITY = 40
/** Bytes of the image at most: a busy 1280×800 page at quality 70 is about 150–250 KB. */
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
export async function badgeScreenshot(shot: Shot, elements: readonly { id: string; rect: Box }[]): Promise<BadgedImage> {
  const source = sharp(shot.jpeg)
  const meta = await source.metadata()
  const pixels = { width: meta.width ?? shot.viewport.width, height: meta.height ?? shot.viewport.height }
  const fit = Math.min(1, MAX_IMAGE.width / pixels.width, MAX_IMAGE.height / pixels.height)
  const width = Math.round(pixels.width * fit)
  const height = Math.round(pixels.height * fit)
  // Boxes are in CSS pixels; the screenshot is in device pixels; the image may be scaled down.
  const scale = (pixels.width / shot.viewport.width) * fit
  const placed = elements.map((element) => ({ id: element.id, box: scaleBox(element.rect, scale) })).filter((element) => onImage(element.box, width, height))
  const badges = placeBadges(placed, { width, height })
  const resized = await source.resize(width, height).toBuffer()
  let quality = IMAGE_QUALITY
  for (;;) {
    const jpeg = await sharp(resized)
      .composite([{ input: Buffer.from(badgeSvg(badges, width, height)), top: 0, left: 0 }])
      .jpeg({ quality })
      .toBuffer()
    if (jpeg.byteLength <= MAX_IMAGE_BYTES || quality <= LOWEST_QUALITY) return { jpeg, width, height, badges, scale }
    quality -= 15
  }
}

function scaleBox(box: Box, scale: number): Box {
  return { x: box.x * scale, y: box.y * scale, width: box.width * scale, height: box.height * scale }
}

function onImage(box: Box, width: number, height: number): boolean {
  return box.width > 0 && box.height > 0 && box.x < width && box.y < height && box.x + box.width > 0 && box.y + box.height > 0
}

/** The badges as SVG: a thin outline round each element, and its ID in white on a dark red label. */
function badgeSvg(badges: readonly Badge[], width: number, height: number): string {
  const shapes = badges.map((badge) => {
    const { target } = badge
    const outline = `<rect x="${target.x + 0.5}" y="${target.y + 0.5}" width="${Math.max(0, target.width - 1)}" height="${Math.max(0, target.height - 1)}" fill="none" stroke="#c0162b" stroke-opacity="0.7" stroke-width="1"/>`
    const label = `<rect x="${badge.x}" y="${badge.y}" width="${badge.width}" height="${badge.height}" rx="3" fill="#c0162b"/>`
    const text = `<text x="${badge.x + badge.width / 2}" y="${badge.y + BADGE_HEIGHT - 4}" text-anchor="middle">${escapeXml(badge.id)}</text>`
    return outline + label + text
  })
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><g font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="${BADGE_FONT_PX}" font-weight="bold" fill="#fff">${shapes.join('')}</g></svg>`
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`)
}
