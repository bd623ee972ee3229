import { isGeneratedName } from './generated-names.ts'
import { chromeWithin, findMainContent } from './main-content.ts'
import { metadataLines } from './outline-metadata.ts'
import { collapse, shorten } from './text.ts'

// The outline the rule writer shows a text model. Dense, because it is capped and real pages are
// large: the page's metadata first, then its main content, then the rest of the body; one element a
// line (bare wrappers joined to their child's line), its depth as a number instead of indentation,
// generated class names left out, similar siblings counted.

/** What the rule writer shows the model about the page. */
export interface PageOutline {
  url: string
  title: string
  /** The metadata and the elements, one a line, each element's depth as a number before it. */
  outline: string
}

export interface OutlineLimits {
  /** Longest outline, in characters. */
  maxChars: number
  /** Text and attribute values are clipped to this many characters. */
  textChars: number
  /** Of similar siblings, this many are shown and the rest counted. */
  similarShown: number
  /** The outline is taken again until it stops changing, for at most this long. */
  maxWaitMs: number
  /** Pause between two takes. */
  intervalMs: number
}

// Room kept under the cap for the line saying the outline was cut.
const CUT_NOTE_ROOM = 80

/**
 * Outlines the page,
 * then again after each interval until two takes are the same or the wait is over.
 */
export async function outlinePage(limits: OutlineLimits): Promise<PageOutline> {
  // Elements, not text: a select's options are outlined, unlike in read text. A `<meta>` in the body
  // (itemprop microdata) is outlined: its content is often the price.
  const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'link'])
  // Attributes besides id, class and data-* that tell a model what an element is or holds.
  const SHOWN = ['role', 'aria-label', 'name', 'type', 'itemprop', 'href', 'src', 'alt', 'title', 'placeholder', 'datetime', 'content', 'for', 'value']

  /** `tag#id.class`, generated ids and class names left out: a rule built on them breaks at the next build. */
  function nameOf(element: Element): string {
    let name = element.localName
    if (element.id && !isGeneratedName(element.id)) name += `#${element.id}`
    const classes = typeof element.className === 'string' ? element.className : (element.getAttribute('class') ?? '')
    for (const token of classes.split(/\s+/)) if (token && !isGeneratedName(token)) name += `.${token}`
    return name
  }

  function label(element: Element): string {
    let line = nameOf(element)
    for (const attribute of Array.from(element.attributes)) {
      const name = attribute.name
      if (name.startsWith('data-') || SHOWN.includes(name)) line += `[${name}=${JSON.stringify(shorten(attribute.value, limits.textChars + 1))}]`
    }
    let own = ''
    for (let child = element.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) own += (child as Text).data
    }
    own = collapse(own)
    if (own) line += ` ${JSON.stringify(shorten(own, limits.textChars + 1))}`
    return line
  }

  // Same tag, same classes, same children (by tag and classes): one of a run of list items or cards.
  function shape(element: Element): string {
    let key = nameOf(element) + '>'
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) key += `${nameOf(child)},`
    return key
  }

  /** Whether anything is outlined before the element when the body is outlined in order. */
  function preceded(element: Element, body: Element): boolean {
    for (let node: Element | null = element; node && node !== body; node = node.parentElement) {
      for (let sibling = node.previousElementSibling; sibling; sibling = sibling.previousElementSibling) if (!SKIPPED.has(sibling.localName)) return true
    }
    return false
  }

  function take(): string {
    const lines: string[] = []
    let size = 0
    let full = false
    const add = (line: string) => {
      if (full) return
      if (size + line.length + 1 > limits.maxChars - CUT_NOTE_ROOM) {
        full = true
        return
      }
      lines.push(line)
      size += line.length + 1
    }
    // Elements outlined in another section: one line here saying where.
    const elsewhere = new Map<Element, string>()
    const walk = (element: Element, depth: number, prefix = '') => {
      const moved = elsewhere.get(element)
      if (moved) return add(`${depth} ${prefix}${nameOf(element)} (${moved})`)
      const line = label(element)
      // An SVG's shapes hold nothing a rule reads, and icons put dozens of them in every menu item.
      const children = element.localName === 'svg' ? [] : Array.from(element.children).filter((child) => !SKIPPED.has(child.localName))
      // A bare wrapper (no name, attribute or text of its own) around one element shares its line: `div > div > a`.
      if (line === element.localName && children.length === 1) return walk(children[0], depth, `${prefix}${line} > `)
      add(`${depth} ${prefix}${line}`)
      const shapes = children.map(shape)
      const totals = new Map<string, number>()
      for (const key of shapes) totals.set(key, (totals.get(key) ?? 0) + 1)
      const seen = new Map<string, number>()
      for (let index = 0; index < children.length && !full; index++) {
        const key = shapes[index]
        const count = (seen.get(key) ?? 0) + 1
        seen.set(key, count)
        if (count <= limits.similarShown) walk(children[index], depth + 1)
        const total = totals.get(key) ?? 0
        if (count === limits.similarShown && total > count) add(`${depth + 1} … ${total - count} more ${nameOf(children[index])} like the ones above`)
      }
    }

    const metadata = metadataLines(limits.textChars)
    if (metadata.length) add('Metadata:')
    for (const line of metadata) add(line)
    const body = document.body ?? document.documentElement
    const main = body ? findMainContent(body, SKIPPED) : undefined
    // Page chrome inside the main content: the block holding all the content can hold the header too.
    const chrome = main ? chromeWithin(main) : []
    if (body && main && (chrome.length || preceded(main, body))) {
      // The main content first, page chrome inside it after the rest of the page.
      for (const element of chrome) elsewhere.set(element, 'outlined at the end')
      add('Main content:')
      walk(main, 0)
      elsewhere.clear()
      elsewhere.set(main, 'the main content, outlined above')
      add('Rest of the page:')
      walk(body, 0)
      elsewhere.clear()
      for (const element of chrome) walk(element, 0)
    } else if (body) {
      if (metadata.length) add('Page:')
      walk(body, 0)
    }
    if (full) lines.push(`… (outline cut at ${limits.maxChars} characters)`)
    return lines.join('\n')
  }

  const started = Date.now()
  let outline = take()
  while (Date.now() - started < limits.maxWaitMs) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(limits.intervalMs, limits.maxWaitMs - (Date.now() - started))))
    const next = take()
    if (next === outline) break
    outline = next
  }
  return { url: location.href, title: document.title, outline }
}
