import test from 'ava'
import type { Page } from 'puppeteer-core'
import sharp from 'sharp'
import { captureViewport } from '../src/browser/viewport-screenshot.ts'
import { observe } from '../src/collector/observe.ts'
import type { Rect } from '../src/base/rect.ts'
import { BADGE_HEIGHT, badgeWidth, overlaps, placeBadges, type Badge } from '../src/vision/badge-layout.ts'
import { badgeScreenshot, SOURCE_QUALITY } from '../src/vision/badged-screenshot.ts'
import { useChrome } from './helpers/chrome.ts'

// Where badges go: beside their element, never over one another, inside the image; and, in Chrome,
// drawn where the collector says each element is.

const chrome = useChrome(test)
const IMAGE = { width: 1280, height: 800 }

/** How far a badge is from its element's box: 0 when they touch or overlap. */
function gap(badge: Rect, box: Rect): number {
  const dx = Math.max(box.x - (badge.x + badge.width), badge.x - (box.x + box.width), 0)
  const dy = Math.max(box.y - (badge.y + badge.height), badge.y - (box.y + box.height), 0)
  return Math.max(dx, dy)
}

function checkLayout(t: import('ava').ExecutionContext, badges: Badge[]): void {
  for (const [index, badge] of badges.entries()) {
    t.true(badge.x >= 0 && badge.y >= 0 && badge.x + badge.width <= IMAGE.width && badge.y + badge.height <= IMAGE.height, `${badge.id} inside the image`)
    for (const other of badges.slice(index + 1)) t.false(overlaps(badge, other), `${badge.id} and ${other.id} apart`)
  }
}

test('a badge sits just above its element, at its left edge, when there is room', (t) => {
  const box = { x: 100, y: 100, width: 80, height: 30 }
  const [badge] = placeBadges([{ id: 'e1', box }], IMAGE)
  t.deepEqual({ x: badge!.x, y: badge!.y, width: badge!.width, height: badge!.height }, { x: 100, y: 100 - BADGE_HEIGHT - 1, width: badgeWidth('e1'), height: BADGE_HEIGHT })
  t.false(badge!.inside)
})

test('at the top edge a badge goes beside its element, not over it', (t) => {
  const box = { x: 300, y: 0, width: 80, height: 30 }
  const [badge] = placeBadges([{ id: 'e1', box }], IMAGE)
  t.false(overlaps(badge!, box))
  t.true(gap(badge!, box) <= 1)
})

test('neighbours in a row and a dense grid: no badge covers another or its own element', (t) => {
  const row = Array.from({ length: 12 }, (_, index) => ({ id: `e${index + 1}`, box: { x: 10 + index * 50, y: 200, width: 46, height: 20 } }))
  const badges = placeBadges(row, IMAGE)
  checkLayout(t, badges)
  t.true(badges.every((badge) => !badge.inside && gap(badge, badge.target) <= 1))

  const grid = Array.from({ length: 300 }, (_, index) => ({
    id: `e${index + 1}`,
    box: { x: 20 + (index % 20) * 60, y: 40 + Math.floor(index / 20) * 50, width: 50, height: 24 },
  }))
  const dense = placeBadges(grid, IMAGE)
  checkLayout(t, dense)
  t.is(dense.filter((badge) => overlaps(badge, badge.target)).length, 0)
})

async function page(t: import('ava').ExecutionContext, html: string): Promise<Page> {
  const opened = await chrome.page(t, { width: 1280, height: 800 })
  await opened.setContent(html)
  return opened
}

test('in Chrome: each badge is drawn beside the element the collector placed, in red, and the image is the viewport', async (t) => {
  const buttons = Array.from({ length: 60 }, (_, index) => `<button style="position:absolute;left:${20 + (index % 10) * 120}px;top:${60 + Math.floor(index / 10) * 110}px;width:100px;height:40px">B${index}</button>`)
  const opened = await page(t, `<body style="margin:0;background:#fff">${buttons.join('')}</body>`)
  const snapshot = await observe(opened)
  const elements = snapshot.observation.elements
  t.is(elements.length, 60)
  const shot = await captureViewport(opened, SOURCE_QUALITY)
  const image = await badgeScreenshot(shot!, elements.map((element) => ({ id: element.id, rect: element.rect })))
  t.deepEqual([image.width, image.height], [1280, 800])
  checkLayout(t, image.badges)
  const { data, info } = await sharp(image.jpeg).raw().toBuffer({ resolveWithObject: true })
  for (const badge of image.badges) {
    const element = elements.find((candidate) => candidate.id === badge.id)!
    const rect = await opened.$$eval('button', (all, name) => {
      const box = all.find((button) => button.textContent === name)!.getBoundingClientRect()
      return { x: box.x, y: box.y, width: box.width, height: box.height }
    }, element.name)
    for (const key of ['x', 'y', 'width', 'height'] as const) t.true(Math.abs(badge.target[key] - rect[key]) < 1, `${badge.id}.${key}`)
    t.true(gap(badge, rect) <= 1, `${badge.id} touches its button`)
    t.false(overlaps(badge, rect), `${badge.id} leaves its button's text alone`)
    // The badge's fill in its padding, left of its text: dark red.
    const at = (Math.round(badge.y + badge.height / 2) * info.width + Math.round(badge.x + 2)) * info.channels
    const [r, g, b] = [data[at]!, data[at + 1]!, data[at + 2]!]
    t.true(r > 130 && r - g > 70 && r - b > 60, `${badge.id} is drawn: rgb(${r}, ${g}, ${b})`)
  }
  await snapshot.dispose()
})
