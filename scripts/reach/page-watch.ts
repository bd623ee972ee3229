import type { Frame } from 'puppeteer-core'
import { within } from './bounded.ts'

// What the precision probe watches in every frame of the page while it clicks: DOM mutations
// (attributes, text and children, in the document and every open shadow root), the value or checked
// state of any field, focus, and the frame's URL (history.pushState and hash changes too).
//
// The watch starts before the press and is armed just before it: what changes in between (hover
// handlers answering the pointer's move, a clock, a carousel) marks those nodes as noise, as does
// what the page changed by itself while the bench watched it idle. Only changes elsewhere count.
// Nodes are told apart by their path (child indexes from the document, `#shadow` for a shadow root)
// so that noise seen on one load can be recognised on the next load of the same page.

/** Where each frame's watch lives on its window: a name no page's own code uses. */
const KEY = 'puppeteer-agent bench:reach watch'

export interface FrameChange {
  /** The path of the first node that changed after the press (noise left out). */
  mutated?: string
  value: boolean
  /** Focus moved (the probe then asks whether it moved to the clicked element, which is no response). */
  focus: boolean
  url: boolean
  /** Paths that changed before arming. */
  noisy: string[]
}

function installWatch(key: string): void {
  const path = (node: Node | null): string => {
    const parts: string[] = []
    let current = node
    while (current && current !== document) {
      if (current instanceof ShadowRoot) {
        parts.push('#shadow')
        current = current.host
        continue
      }
      const parent: Node | null = current.parentNode
      if (!parent) {
        parts.push('detached')
        break
      }
      parts.push(String(Array.prototype.indexOf.call(parent.childNodes, current)))
      current = parent
    }
    return parts.reverse().join('/')
  }
  const roots: Node[] = [document]
  const visit = (root: Document | ShadowRoot) => {
    for (const element of root.querySelectorAll('*')) {
      if (element.shadowRoot) {
        roots.push(element.shadowRoot)
        visit(element.shadowRoot)
      }
    }
  }
  visit(document)
  const fields = () =>
    JSON.stringify(
      roots.flatMap((root) =>
        [...(root as ParentNode).querySelectorAll('input, textarea, select')].map((field) => {
          const input = field as HTMLInputElement
          return [input.value, input.checked]
        }),
      ),
    )
  const active = (): Element | null => {
    let element = document.activeElement
    while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement
    return element
  }
  const state = { armed: false, noisy: new Set<string>(), mutated: [] as string[], fields: fields(), active: active(), href: location.href }
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      const where = path(record.target)
      if (state.armed) state.mutated.push(where)
      else state.noisy.add(where)
    }
  })
  for (const root of roots) observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true })
  ;(window as unknown as Record<string, unknown>)[key] = {
    arm(noise: string[]) {
      observer.takeRecords().forEach((record) => state.noisy.add(path(record.target)))
      for (const where of noise) state.noisy.add(where)
      state.armed = true
      state.fields = fields()
      state.active = active()
      state.href = location.href
    },
    read() {
      for (const record of observer.takeRecords()) {
        if (state.armed) state.mutated.push(path(record.target))
        else state.noisy.add(path(record.target))
      }
      // A change inside a noisy node is noise too (a re-rendered clock's new text), unless that node
      // is <html>, <head>, <body> or one of their children: that would silence the whole page.
      const noisy = [...state.noisy]
      const inside = (where: string, noise: string) => noise.split('/').length >= 4 && where.startsWith(`${noise}/`)
      const mutated = state.mutated.find((where) => !noisy.some((noise) => where === noise || inside(where, noise)))
      return { mutated, value: fields() !== state.fields, focus: active() !== state.active, url: location.href !== state.href, noisy }
    },
  }
}

// A frame busy in a loop of its own must not hold the probe.
const bounded = <T>(work: Promise<T>) => within(1_000, 'the frame watch', work)

/** Starts the watch in a frame; false when the frame cannot run it (detached, or busy for a second). */
export async function startWatch(frame: Frame): Promise<boolean> {
  return bounded(frame.evaluate(installWatch, KEY)).then(
    () => true,
    () => false,
  )
}

export async function armWatch(frame: Frame, noise: readonly string[]): Promise<void> {
  await bounded(frame.evaluate((key, paths) => (window as any)[key]?.arm(paths), KEY, [...noise])).catch(() => {})
}

/** What changed in the frame since it was armed; `gone` when its document was replaced or is busy. */
export async function readWatch(frame: Frame): Promise<FrameChange | 'gone'> {
  try {
    const change = (await bounded(frame.evaluate((key) => (window as any)[key]?.read() ?? null, KEY))) as FrameChange | null
    return change ?? 'gone'
  } catch {
    return 'gone'
  }
}

