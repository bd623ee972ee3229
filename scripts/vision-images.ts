// Writes the image a decision request carries with `vision: true` for a few fixture pages and the demo
// shop, so a person can look at the badges: npm run vision:images [-- --out=vision-images]
// Each page is observed by the collector, its viewport taken at 1280×800, and the badges of every
// offered element drawn as the decision step draws them (src/vision/).
import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { captureViewport } from '../src/browser/viewport-screenshot.ts'
import { observe } from '../src/collector/observe.ts'
import { buildDecisionRequest } from '../src/decision/decision-request.ts'
import { badgeScreenshot, SOURCE_QUALITY } from '../src/vision/badged-screenshot.ts'
import { launchChrome } from '../test/helpers/chrome.ts'
import { serveFixtures } from '../test/helpers/fixture-server.ts'
import { DEMO_URL, openSite } from './common/site.ts'

const { values } = parseArgs({ options: { out: { type: 'string', default: 'vision-images' } } })
const out = resolve(values.out)

const PAGES = ['sites/form/index.html', 'sites/news/index.html', 'sites/search/index.html', 'sites/long/index.html', 'sites/shadow/index.html', 'sites/consent/index.html']

const server = await serveFixtures()
const browser = await launchChrome()
await mkdir(out, { recursive: true })
try {
  const demo = await openSite(DEMO_URL)
  try {
    for (const [name, url] of [...PAGES.map((path) => [path.split('/')[1]!, server.url(path)]), ['demo-shop', demo.url]] as [string, string][]) {
      const page = await browser.newPage()
      await page.setViewport({ width: 1280, height: 800 })
      await page.goto(url, { waitUntil: 'load' })
      const snapshot = await observe(page)
      const request = buildDecisionRequest({ goal: 'look', observation: snapshot.observation, recent: [] })
      const shot = await captureViewport(page, SOURCE_QUALITY)
      if (!shot) throw new Error(`No screenshot of ${url}`)
      const image = await badgeScreenshot(shot, request.elements.map((element) => ({ id: element.id, rect: element.rect })))
      const file = join(out, `${name}.jpg`)
      await writeFile(file, image.jpeg)
      const inside = image.badges.filter((badge) => badge.inside).length
      console.log(`${file}: ${image.width}×${image.height}, ${Math.round(image.jpeg.byteLength / 1024)} KB, ${image.badges.length} badges (${inside} over their element)`)
      await snapshot.dispose()
      await page.close()
    }
  } finally {
    await demo.close()
  }
} finally {
  await browser.close()
  await server.close()
}
