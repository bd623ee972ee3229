import test from 'ava'
import { describeElement } from '../src/collector/describe-element.ts'
import { mergeFrames, type PlacedFrame } from '../src/collector/merge.ts'
import type { FrameReport, RawElement } from '../src/page/types.ts'
import { LIMITS } from '../src/collector/limits.ts'

// Joining frame reports: IDs, placement, caps, the character budget, text and the signature.

function element(name: string, extra: Partial<RawElement> = {}): RawElement {
  return {
    nodeId: `d1:${name}`,
    role: 'button',
    name,
    tag: 'button',
    operations: ['click'],
    rect: { x: 10, y: 20, width: 30, height: 40 },
    at: [25, 40],
    fingerprint: 'f',
    ...extra,
  }
}

function report(elements: RawElement[], extra: Partial<FrameReport> = {}): FrameReport {
  return {
    url: 'http://127.0.0.1/',
    title: 'Top',
    doc: 'd1',
    text: 'top text',
    scroll: { x: 0, y: 0, up: false, down: true },
    elements,
    omitted: 0,
    blockers: [],
    scrollers: [],
    children: [],
    ...extra,
  }
}

function place(frameReport: FrameReport, extra: Partial<PlacedFrame<string>> = {}): PlacedFrame<string> {
  return {
    report: frameReport,
    frame: { url: frameReport.url, crossOrigin: false },
    offset: { x: 0, y: 0 },
    seen: {
      elements: frameReport.elements.map(() => true),
      blockers: frameReport.blockers.map(() => true),
      scrollers: frameReport.scrollers.map(() => true),
    },
    elementHandles: frameReport.elements.map((raw) => `handle:${raw.name}`),
    scrollHandles: frameReport.scrollers.map((raw) => `scroller:${raw.name}`),
    ...extra,
  }
}

test('snapshot IDs, option IDs and frame placement', (t) => {
  const top = place(report([element('A', { held: true }), element('S', { options: [{ label: 'One', value: '1', selected: true }] })]))
  const child = place(report([element('In frame')], { url: 'http://localhost/f', title: 'Frame', text: 'frame text' }), {
    frame: { url: 'http://localhost/f', crossOrigin: true },
    offset: { x: 100, y: 200 },
    box: { x: 100, y: 200, width: 300, height: 100 },
  })
  const merged = mergeFrames([top, child], ['http://popup/'])
  const { observation } = merged
  t.deepEqual(observation.elements.map((e) => [e.id, e.name, e.frame]), [
    ['e1', 'A', 0],
    ['e2', 'S', 0],
    ['e3', 'In frame', 1],
  ])
  t.deepEqual(observation.elements[1]!.options, [{ id: 'o1', label: 'One', value: '1', selected: true }])
  t.deepEqual(observation.elements[2]!.rect, { x: 110, y: 220, width: 30, height: 40 })
  t.is(merged.handles.get('e3'), 'handle:In frame')
  t.is(observation.text, 'top text\n[frame 1: Frame] frame text')
  t.deepEqual(observation.popups, ['http://popup/'])
  t.deepEqual(observation.frames, [
    { url: 'http://127.0.0.1/', crossOrigin: false },
    { url: 'http://localhost/f', crossOrigin: true },
  ])
  t.false('at' in observation.elements[0]!)
  t.false('held' in observation.elements[0]!)
})

test('controls an ancestor frame hides are dropped with their handles', (t) => {
  const top = place(report([element('A'), element('B')]))
  top.seen.elements = [true, false]
  const merged = mergeFrames([top], [])
  t.deepEqual(merged.observation.elements.map((e) => e.name), ['A'])
  t.deepEqual([...merged.handles.values()], ['handle:A'])
  t.is(merged.observation.omitted, 0)
})

test('the cap keeps frame controls first when it binds, and counts what it leaves out', (t) => {
  const many = Array.from({ length: 300 }, (_, i) => element(`T${i}`))
  const top = place(report(many, { omitted: 5 }))
  const child = place(report([element('Accept all')], { url: 'http://localhost/c' }), { offset: { x: 0, y: 0 } })
  const merged = mergeFrames([top, child], [])
  const { elements, omitted } = merged.observation
  t.is(elements.length, LIMITS.maxElements)
  t.true(elements.some((e) => e.name === 'Accept all'))
  t.is(elements.at(-1)!.name, 'Accept all', 'display order stays: top document first')
  t.is(omitted, 5 + 301 - LIMITS.maxElements)
  t.is(merged.handles.size, LIMITS.maxElements)
})

test('unnamed controls are named by kind and place across frames, counting those the cap leaves out', (t) => {
  const field = (nodeId: string, name: string, type = 'text') => element(name, { nodeId, role: 'textbox', tag: 'input', type, operations: ['type'] })
  const buttons = Array.from({ length: 300 }, (_, i) => element('', { nodeId: `d1:b${i}` }))
  const top = place(report([field('d1:a', 'Email'), field('d1:b', ''), field('d1:c', '', 'date'), field('d1:d', ''), ...buttons]))
  const child = place(report([field('d2:e', ''), element('', { nodeId: 'd2:b' })], { url: 'http://localhost/c' }))
  const { elements } = mergeFrames([top, child], []).observation
  const named = (nodeId: string) => elements.find((e) => e.nodeId === nodeId)
  t.deepEqual(
    ['d1:a', 'd1:b', 'd1:c', 'd1:d', 'd1:b0', 'd1:b1', 'd2:e', 'd2:b'].map((nodeId) => [named(nodeId)?.name, named(nodeId)?.nameFrom]),
    [
      ['Email', undefined],
      ['text field 1', 'position'],
      ['date field 1', 'position'],
      ['text field 2', 'position'],
      ['button 1', 'position'],
      ['button 2', 'position'],
      ['text field 3', 'position'],
      // The top document's buttons the cap left out still count: the number does not hang on the budget.
      ['button 301', 'position'],
    ],
  )
  t.like(describeElement(named('d1:c')!), { name: 'date field 1', name_from: 'position', type: 'date' })
})

test('the character budget bounds what the model reads, whatever the page', (t) => {
  const long = 'x'.repeat(LIMITS.nameLimit)
  const heavy = Array.from({ length: 250 }, (_, i) =>
    element(`${i}${long}`.slice(0, LIMITS.nameLimit), {
      nearby: long.slice(0, LIMITS.nearbyLimit),
      form: { name: 'f', fields: Object.fromEntries(Array.from({ length: 10 }, (_, j) => [`field${j}`, long.slice(0, 40)])) },
    }),
  )
  const merged = mergeFrames([place(report(heavy, { text: 'y'.repeat(LIMITS.textLimit) }))], [])
  const { observation } = merged
  const elementsSize = JSON.stringify(observation.elements.map(describeElement)).length
  t.true(elementsSize <= LIMITS.elementBudget + 2)
  t.true(observation.elements.length < 250)
  t.is(observation.elements.length + observation.omitted, 250)
  t.true(elementsSize + observation.text.length < 34_000)
})

test('frame text gets a share of the 6,000 characters, the top document the rest', (t) => {
  const top = place(report([], { text: 'a'.repeat(LIMITS.textLimit) }))
  const child = place(report([], { url: 'http://localhost/c', title: 'Consent', text: 'We use cookies' }))
  const { text } = mergeFrames([top, child], []).observation
  t.is(text.length, LIMITS.textLimit)
  t.true(text.endsWith('\n[frame 1: Consent] We use cookies'))
})

test('a visible challenge frame is a CAPTCHA blocker even without text', (t) => {
  const top = place(report([]))
  const child = place(report([], { url: 'https://www.google.com/recaptcha/api2/anchor?k=1', text: '' }), {
    box: { x: 5, y: 6, width: 300, height: 80 },
  })
  const { blockers } = mergeFrames([top, child], []).observation
  t.deepEqual(blockers, [{ kind: 'captcha', frame: 1, text: 'https://www.google.com/recaptcha/api2/anchor?k=1', rect: { x: 5, y: 6, width: 300, height: 80 } }])
})

test('scroll targets: the page first, then containers with IDs and handles', (t) => {
  const top = place(
    report([], { scrollers: [{ nodeId: 'd1:9', name: 'Docs sidebar', top: 0, up: false, down: true, rect: { x: 0, y: 0, width: 200, height: 600 }, at: [100, 300] }] }),
  )
  const merged = mergeFrames([top], [])
  t.deepEqual(merged.observation.scroll, [
    { id: 'page', name: 'page', up: false, down: true },
    { id: 's1', name: 'Docs sidebar', up: false, down: true },
  ])
  t.is(merged.scrollHandles.get('s1'), 'scroller:Docs sidebar')
})

test('the signature follows what the agent can see', (t) => {
  const signature = (frameReport: FrameReport) => mergeFrames([place(frameReport)], []).observation.signature
  const base = report([element('A')])
  t.is(signature(base), signature(report([element('A')])))
  t.not(signature(base), signature(report([element('A')], { text: 'other text' })))
  t.not(signature(base), signature(report([element('A', { fingerprint: 'g' })])))
  t.not(signature(base), signature(report([element('A')], { scroll: { x: 0, y: 10, up: true, down: true } })))
  t.not(signature(base), signature(report([element('A')], { doc: 'd2' })))
  t.is(signature(base), signature(report([element('A', { rect: { x: 1, y: 2, width: 3, height: 4 } })])), 'layout alone is not a change')
})
