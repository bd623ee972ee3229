import test from 'ava'
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import sharp from 'sharp'
import agent from '../src/index.ts'
import { MAX_IMAGE, MAX_IMAGE_BYTES } from '../src/vision/badged-screenshot.ts'
import { useChrome } from './helpers/chrome.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { evaluatorModel, scriptedModel, textDecider, textModel, type ScriptStep } from './helpers/goal-scripted-model.ts'

// vision: true: every decision request carries one badged screenshot of the viewport, drawn outside
// the page, within its bounds; decisions: false sends it to the text model; a recording keeps it.

const chrome = useChrome(test)
const servers = useFixtureServers(test)

const open = (t: Parameters<typeof chrome.page>[0], path: string) => chrome.open(t, servers.site.url(path), { width: 1280, height: 800 })

const FORM: ScriptStep[] = [{ operation: 'SELECT', target: /Size/, option: 'Large' }, { operation: 'CLICK', target: 'Place order' }, { operation: 'DONE' }]

test('each decision request carries one JPEG of the viewport within the bound; the trace has its time and size', async (t) => {
  const page = await open(t, 'sites/form/index.html')
  const scripted = scriptedModel(FORM)
  const result = await agent(page).goal('Order a large pizza.', { decisions: scripted.model, text: textModel('unused'), checklist: false, vision: true })
  t.is(result.status, 'success', result.error?.message)
  t.is(scripted.seen.length, 3)
  for (const request of scripted.seen) {
    t.is(request.files.length, 1)
    const [file] = request.files
    t.is(file!.mediaType, 'image/jpeg')
    t.true(file!.data.byteLength <= MAX_IMAGE_BYTES)
    const meta = await sharp(file!.data).metadata()
    t.deepEqual([meta.format, meta.width, meta.height], ['jpeg', 1280, 800])
  }
  for (const entry of result.trace) {
    t.true(entry.imageBytes! > 1000, `imageBytes ${entry.imageBytes}`)
    t.is(typeof entry.imageMs, 'number')
  }
  t.is(await page.$eval('#summary', (p) => p.textContent), 'Ordered: l thin crust')

  const plain = scriptedModel(FORM)
  const off = await agent(await open(t, 'sites/form/index.html')).goal('Order a large pizza.', { decisions: plain.model, text: textModel('unused'), checklist: false })
  t.true(plain.seen.every((request) => request.files.length === 0))
  t.false('imageBytes' in off.trace[0]!)
})

test('a screen denser than the bound is scaled down to fit it', async (t) => {
  const page = await chrome.page(t, { width: 1600, height: 1000, deviceScaleFactor: 2 } as never)
  await page.goto(servers.site.url('sites/form/index.html'))
  const scripted = scriptedModel([{ operation: 'DONE' }])
  await agent(page).goal('Look.', { decisions: scripted.model, text: textModel('unused'), checklist: false, vision: true })
  const meta = await sharp(scripted.seen[0]!.files[0]!.data).metadata()
  t.true(meta.width! <= MAX_IMAGE.width && meta.height! <= MAX_IMAGE.height, `${meta.width}×${meta.height}`)
  t.is(meta.width, 1280)
})

test('a page of noise, too large at the lowest quality, is scaled down until its image is within the bytes', async (t) => {
  const page = await chrome.page(t, { width: 1280, height: 800 })
  // Random pixels behind a button: no JPEG quality brings them under the bound at 1280×800. The
  // canvas is a background, not an element, so the page is not a canvas the agent cannot act on.
  await page.setContent(`<body style="margin:0;height:800px"><button>Go</button><script>
    const canvas = document.createElement('canvas')
    canvas.width = 1280
    canvas.height = 800
    const context = canvas.getContext('2d')
    const pixels = context.createImageData(1280, 800)
    for (let index = 0; index < pixels.data.length; index++) pixels.data[index] = index % 4 === 3 ? 255 : Math.random() * 256
    context.putImageData(pixels, 0, 0)
    document.body.style.background = 'url(' + canvas.toDataURL() + ')'
  </script></body>`)
  const scripted = scriptedModel([{ operation: 'DONE' }])
  const result = await agent(page).goal('Look.', { decisions: scripted.model, text: textModel('unused'), checklist: false, vision: true })
  t.is(result.status, 'success', result.error?.message)
  const [file] = scripted.seen[0]!.files
  t.true(file!.data.byteLength <= MAX_IMAGE_BYTES, `${file!.data.byteLength} bytes`)
  t.is(result.trace[0]!.imageBytes, file!.data.byteLength)
  const meta = await sharp(file!.data).metadata()
  t.true(meta.width! < 1280 && Math.abs(meta.width! / meta.height! - 1.6) < 0.01, `${meta.width}×${meta.height}`)
})

test('decisions: false sends the image to the text model; the local model ignores it', async (t) => {
  const page = await open(t, 'sites/news/index.html')
  const decider = textDecider([{ operation: 'CLICK', target: '42 comments' }, { operation: 'DONE' }])
  const result = await agent(page).goal('Open the comments of the first story.', { decisions: false, text: decider, evaluator: evaluatorModel(0.9), checklist: false, vision: true })
  t.is(result.status, 'success', result.error?.message)
  const prompt = decider.doGenerateCalls[0]!.prompt
  const user = prompt.find((message) => message.role === 'user')!
  const parts = user.content as { type: string; mediaType?: string }[]
  t.deepEqual(parts.map((part) => part.type), ['text', 'file'])
  t.is(parts[1]!.mediaType, 'image/jpeg')

  const local = await agent(await open(t, 'sites/search/index.html')).goal('Search for "dune"', { decisions: 'local', text: 'local', checklist: false, vision: true })
  t.is(local.status, 'success', local.error?.message)
})

test('the page sees nothing of the badges: no mutation, no event, no element at any point', async (t) => {
  const page = await open(t, 'sites/form/index.html')
  await page.evaluate(() => {
    const seen: string[] = ((window as unknown as { seen: string[] }).seen = [])
    new MutationObserver((records) => seen.push(`mutation ${records.length}`)).observe(document, { subtree: true, childList: true, attributes: true, characterData: true })
    for (const type of ['pointermove', 'pointerdown', 'mousemove', 'mousedown', 'click', 'focusin', 'keydown', 'scroll', 'resize']) {
      window.addEventListener(type, () => seen.push(type), true)
    }
  })
  const before = await page.evaluate(() => document.documentElement.outerHTML)
  const scripted = scriptedModel([{ operation: 'WAIT' }, { operation: 'DONE' }])
  const result = await agent(page).goal('Look at the form.', { decisions: scripted.model, text: textModel('unused'), checklist: false, vision: true, waitMs: 0 })
  t.is(result.status, 'success', result.error?.message)
  t.is(scripted.seen[1]!.files.length, 1)
  t.deepEqual(await page.evaluate(() => (window as unknown as { seen: string[] }).seen), [])
  t.is(await page.evaluate(() => document.documentElement.outerHTML), before)
})

test('with a recording, the badged image the model saw is the step’s screenshot', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pa-vision-'))
  const page = await open(t, 'sites/form/index.html')
  const scripted = scriptedModel(FORM)
  const result = await agent(page).goal('Order a large pizza.', { decisions: scripted.model, text: textModel('unused'), checklist: false, vision: true, record: dir })
  const stored = await readFile(join(dirname(result.report!), 'step-001.jpg'))
  t.deepEqual(new Uint8Array(stored), new Uint8Array(scripted.seen[0]!.files[0]!.data))
})
