import { clip, collapse } from './text.ts'

// The outline the rule writer shows a text model: one element a line, similar siblings counted.

/** What the rule writer shows the model about the page. */
export interface PageOutline {
  url: string
  title: string
  /** One element a line, indented by nesting. */
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

/**
 * Outlines the body,
 * then again after each interval until two takes are the same or the wait is over.
 */
export async function outlinePage(limits: OutlineLimits): Promise<PageOutline> {
  // Elements, not text: a select's options are outlined, unlike in read text.
  const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'link', 'meta'])
  // Attributes besides id, class and data-* that tell a model what an element is or holds.
  const SHOWN = ['role', 'aria-label', 'name', 'type', 'itemprop', 'href', 'src', 'alt', 'title', 'placeholder', 'datetime', 'content', 'for', 'value']

  function classesOf(element: Element): string {
    const names = typeof element.className === 'string' ? element.className.trim() : (element.getAttribute('class') ?? '').trim()
    return names ? `.${names.split(/\s+/).join('.')}` : ''
  }

  function label(element: Element): string {
    let line = element.localName
    if (element.id) line += `#${element.id}`
    line += classesOf(element)
    for (const attribute of Array.from(element.attributes)) {
      const name = attribute.name
      if (name.startsWith('data-') || SHOWN.includes(name)) line += `[${name}=${JSON.stringify(clip(attribute.value, limits.textChars + 1))}]`
    }
    let own = ''
    for (let child = element.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) own += (child as Text).data
    }
    own = collapse(own)
    if (own) line += ` ${JSON.stringify(clip(own, limits.textChars + 1))}`
    return line
  }

  // Same tag, same classes, same children (by tag and classes): one of a run of list items or cards.
  function shape(element: Element): string {
    let key = element.localName + classesOf(element) + '>'
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) key += `${child.localName}${classesOf(child)},`
    return key
  }

  function take(): string {
    const lines: string[] = []
    let size = 0
    let full = false
    const add = (depth: number, text: string) => {
      if (full) return
      const line = '  '.repeat(depth) + text
      if (size + line.length + 1 > limits.maxChars - 80) {
        full = true
        return
      }
      lines.push(line)
      size += line.length + 1
    }
    const walk = (element: Element, depth: number) => {
      add(depth, label(element))
      const children = Array.from(element.children).filter((child) => !SKIPPED.has(child.localName))
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
        if (count === limits.similarShown && total > count) {
          const child = children[index]
          add(depth + 1, `… ${total - count} more ${child.localName}${classesOf(child)} like the ones above`)
        }
      }
    }
    const root = document.body ?? document.documentElement
    if (root) walk(root, 0)
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
