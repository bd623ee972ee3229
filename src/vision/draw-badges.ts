import sharp from 'sharp'
import type { Rect } from '../base/rect.ts'
import { BADGE_FONT_PX, BADGE_HEIGHT, CHAR_WIDTH, type Badge } from './badge-layout.ts'

// Draws badges into decoded pixels. sharp composites an SVG overlay the size of the viewport in 30–40
// ms on this machine (it renders and blends every pixel), which alone would use half of a step's
// budget; here the glyphs are rendered by sharp once, as masks, and each badge is a few hundred pixel
// writes: about 1 ms for a page of controls, between a decode and an encode that sharp does.

/** The characters an action ID can hold (`e12`, `s1`, `page`); any other is drawn as a blank. */
const GLYPHS = 'abcdefghijklmnopqrstuvwxyz0123456789:-_'
const FILL = [192, 22, 43] as const
const TEXT = [255, 255, 255] as const
/** The element outline's opacity: it shows which box a badge names without hiding the box's edge. */
const OUTLINE_ALPHA = 0.7

/** Pixels of an image being drawn on: rows of `channels` bytes (3, sRGB). */
export interface Pixels {
  data: Buffer
  width: number
  height: number
  channels: number
}

type Masks = Map<string, Uint8Array>
let masks: Promise<Masks> | undefined

/** Each glyph's coverage (0–255) in a CHAR_WIDTH × BADGE_HEIGHT cell, rendered once per process. */
function glyphMasks(): Promise<Masks> {
  masks ??= renderMasks()
  return masks
}

async function renderMasks(): Promise<Masks> {
  const width = GLYPHS.length * CHAR_WIDTH
  const text = [...GLYPHS]
    .map((char, index) => `<text x="${index * CHAR_WIDTH + CHAR_WIDTH / 2}" y="${BADGE_HEIGHT - 4}" text-anchor="middle">${char}</text>`)
    .join('')
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${BADGE_HEIGHT}"><g font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="${BADGE_FONT_PX}" font-weight="bold" fill="#fff">${text}</g></svg>`
  const { data, info } = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
  const result: Masks = new Map()
  for (const [index, char] of [...GLYPHS].entries()) {
    const mask = new Uint8Array(CHAR_WIDTH * BADGE_HEIGHT)
    for (let y = 0; y < BADGE_HEIGHT; y++) {
      for (let x = 0; x < CHAR_WIDTH; x++) mask[y * CHAR_WIDTH + x] = data[(y * info.width + index * CHAR_WIDTH + x) * info.channels + 3]!
    }
    result.set(char, mask)
  }
  return result
}

/** Draws each badge's outline round its element, then the badges, so a badge is never under an outline. */
export async function drawBadges(pixels: Pixels, badges: readonly Badge[]): Promise<void> {
  const glyphs = await glyphMasks()
  for (const badge of badges) outline(pixels, badge.target)
  for (const badge of badges) {
    fillBadge(pixels, badge)
    const textWidth = badge.id.length * CHAR_WIDTH
    const left = Math.round(badge.x + (badge.width - textWidth) / 2)
    for (const [index, char] of [...badge.id.toLowerCase()].entries()) {
      const mask = glyphs.get(char)
      if (mask) stamp(pixels, mask, left + index * CHAR_WIDTH, badge.y)
    }
  }
}

function fillBadge(pixels: Pixels, badge: Badge): void {
  for (let y = badge.y; y < badge.y + badge.height; y++) {
    for (let x = badge.x; x < badge.x + badge.width; x++) {
      // The corner pixels are left out: a hint of a rounded label.
      const corner = (y === badge.y || y === badge.y + badge.height - 1) && (x === badge.x || x === badge.x + badge.width - 1)
      if (!corner) blend(pixels, x, y, FILL, 1)
    }
  }
}

function stamp(pixels: Pixels, mask: Uint8Array, left: number, top: number): void {
  for (let y = 0; y < BADGE_HEIGHT; y++) {
    for (let x = 0; x < CHAR_WIDTH; x++) {
      const coverage = mask[y * CHAR_WIDTH + x]!
      if (coverage > 0) blend(pixels, left + x, top + y, TEXT, coverage / 255)
    }
  }
}

function outline(pixels: Pixels, box: Rect): void {
  const left = Math.round(box.x)
  const top = Math.round(box.y)
  const right = Math.round(box.x + box.width) - 1
  const bottom = Math.round(box.y + box.height) - 1
  for (let x = left; x <= right; x++) {
    blend(pixels, x, top, FILL, OUTLINE_ALPHA)
    blend(pixels, x, bottom, FILL, OUTLINE_ALPHA)
  }
  for (let y = top + 1; y < bottom; y++) {
    blend(pixels, left, y, FILL, OUTLINE_ALPHA)
    blend(pixels, right, y, FILL, OUTLINE_ALPHA)
  }
}

function blend(pixels: Pixels, x: number, y: number, colour: readonly [number, number, number], alpha: number): void {
  if (x < 0 || y < 0 || x >= pixels.width || y >= pixels.height) return
  const at = (y * pixels.width + x) * pixels.channels
  for (let channel = 0; channel < 3; channel++) {
    pixels.data[at + channel] = Math.round(pixels.data[at + channel]! * (1 - alpha) + colour[channel]! * alpha)
  }
}
