// The part of the collector that runs inside the page, once per frame. It is one self-contained
// function (Puppeteer sends its source text), so every helper lives inside it. The same function
// describes a target for the freshness check, so the collector and the check never disagree.

export type Point = [number, number]
export type Rect = { x: number; y: number; width: number; height: number }

interface BaseRequest {
  /** Version of this script; a document keeps the version it was given and runs it again. */
  version: string
}

export interface ObserveRequest extends BaseRequest {
  mode: 'observe'
  /** Token for this document if it has none yet; node IDs are `<token>:<n>`. */
  docToken: string
  maxElements: number
  textLimit: number
  nameLimit: number
  nearbyLimit: number
  /** Report this document's own scroller as a container (child frames). */
  frameScroller: boolean
  /** Per child iframe passed as an extra argument: points in the child's viewport to hit-test here. */
  childPoints: Point[][]
  /** Node IDs Node already holds a handle for: those nodes are not sent again. */
  held: string[]
}

export interface CheckRequest extends BaseRequest {
  mode: 'check'
  nodeId: string
  fingerprint: string
  focused: boolean
  nameLimit: number
  nearbyLimit: number
}

/** Hit-tests points given in the viewport of the iframe passed as the extra argument. */
export interface HitRequest extends BaseRequest {
  mode: 'hit'
  points: Point[]
}

export type PageRequest = ObserveRequest | CheckRequest | HitRequest

export interface RawElement {
  nodeId: string
  role: string
  name: string
  tag: string
  type?: string
  value?: string
  state?: { checked?: boolean | 'mixed'; selected?: boolean; expanded?: boolean; pressed?: boolean | 'mixed' }
  operations: Array<'click' | 'type' | 'select' | 'submit'>
  options?: Array<{ label: string; value: string; selected: boolean }>
  form?: { name: string; fields: Record<string, string> }
  nearby?: string
  rect: Rect
  /** Where hit-testing reached it, in this frame's viewport. */
  at: Point
  fingerprint: string
  /** Node already holds a handle to this node (its ID was in `held`), so it is not in the result. */
  held?: true
}

export interface RawBlocker {
  kind: 'captcha' | 'password' | 'canvas' | 'file_input' | 'no_body'
  text?: string
  rect: Rect
  at: Point
}

export interface RawScroller {
  nodeId: string
  held?: true
  name: string
  /** Current scroll offset, for the page signature. */
  top: number
  up: boolean
  down: boolean
  rect: Rect
  at: Point
}

export interface ChildReport {
  visible: boolean
  /** Origin of the iframe's content box in this frame's viewport. */
  x: number
  y: number
  width: number
  height: number
  /** Each requested point translated into this viewport, or null where it is not visible here. */
  points: Array<Point | null>
}

export interface FrameReport {
  url: string
  title: string
  doc: string
  text: string
  scroll: { x: number; y: number; up: boolean; down: boolean }
  elements: RawElement[]
  /** Visible controls beyond `maxElements`. */
  omitted: number
  blockers: RawBlocker[]
  scrollers: RawScroller[]
  children: ChildReport[]
}

export interface CheckReport {
  /** The failed check, or null when the target is fresh. */
  reason: string | null
  at?: Point
}

/**
 * observe: returns the FrameReport as JSON, or `[json, ...nodes]` with the element then scroller nodes
 * that are not `held`, in report order (one round trip less when every node is already held).
 * check: `target` is the element; returns a CheckReport.
 * hit: returns the translated points (null where not visible).
 */
export function collectorScript(target: Element | null, request: PageRequest, ...owners: Element[]): unknown {
  const KEY = Symbol.for('puppeteer-agent.collector')
  const doc = document
  const win = window
  const vw = win.innerWidth
  const vh = win.innerHeight

  const INTERACTIVE_ROLES = new Set([
    'button', 'link', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'checkbox', 'radio',
    'switch', 'combobox', 'textbox', 'searchbox', 'treeitem', 'slider', 'spinbutton',
  ])
  const NAME_FROM_CONTENT = new Set([
    'button', 'link', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'checkbox', 'radio',
    'switch', 'treeitem',
  ])
  const TEXT_INPUTS = new Set(['', 'text', 'search', 'email', 'url', 'tel', 'password', 'number'])
  const DATE_INPUTS = new Set(['date', 'time', 'datetime-local', 'month', 'week'])
  const SKIP_TAGS = new Set(['script', 'style', 'noscript', 'template', 'head', 'select', 'datalist', 'option', 'textarea'])
  const BLOCK_TAGS = new Set([
    'address', 'article', 'aside', 'blockquote', 'br', 'dd', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer',
    'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table',
    'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'button', 'label', 'option',
  ])
  const ROW_TAGS = new Set(['li', 'tr', 'article', 'dd', 'fieldset'])
  const ROW_ROLES = new Set(['row', 'listitem', 'article', 'group', 'radiogroup'])
  const HEADINGS = 'h1,h2,h3,h4,h5,h6,[role="heading"]'
  const CAPTCHA =
    /\b(re|h)?captcha\b|i['’]?m not a robot|are you (a )?(human|robot)|verify (that )?you(['’]re| are) (a )?human|human verification|prove you(['’]re| are) (a )?human|press (&|and) hold|checking (if the site connection is secure|your browser)|unusual traffic/i

  // ------------------------------------------------------------ small helpers

  function collapse(text: string): string {
    return text.replace(/\s+/g, ' ').trim()
  }

  function clip(text: string, limit: number): string {
    return text.length > limit ? `${text.slice(0, limit - 1)}…` : text
  }

  function hash(text: string): string {
    let h = 0x811c9dc5
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
    return (h >>> 0).toString(36)
  }

  function round(rect: DOMRect): Rect {
    return { x: Math.round(rect.left), y: Math.round(rect.top), width: Math.round(rect.width), height: Math.round(rect.height) }
  }

  /** Parent in the composed (rendered) tree: slot for slotted nodes, host for shadow roots. */
  function composedParent(node: Node): Node | null {
    const slot = (node as Element).assignedSlot
    if (slot) return slot
    const parent = node.parentNode
    if (parent && parent.nodeType === 11) return (parent as ShadowRoot).host ?? null
    return parent
  }

  function attr(el: Element, name: string): string {
    return (el.getAttribute(name) ?? '').trim()
  }

  function inputType(el: Element): string {
    return el.localName === 'input' ? ((el as HTMLInputElement).type || 'text').toLowerCase() : ''
  }

  // ------------------------------------------------------------ visibility

  // Layout does not change during one call: each box and each visibility answer is read once.
  const boxes = new Map<Element, DOMRect>()
  const renderedAnswers = new Map<Element, boolean>()

  function boxOf(el: Element): DOMRect {
    let box = boxes.get(el)
    if (!box) {
      box = el.getBoundingClientRect()
      boxes.set(el, box)
    }
    return box
  }

  function rendered(el: Element): boolean {
    let answer = renderedAnswers.get(el)
    if (answer === undefined) {
      answer = renderedNow(el)
      renderedAnswers.set(el, answer)
    }
    return answer
  }

  function renderedNow(el: Element): boolean {
    if (typeof el.checkVisibility === 'function') {
      return el.checkVisibility({ opacityProperty: true, visibilityProperty: true, checkOpacity: true, checkVisibilityCSS: true, contentVisibilityAuto: true } as CheckVisibilityOptions)
    }
    // Engines without checkVisibility (jsdom): walk the ancestors' computed style.
    const own = getComputedStyle(el)
    if (own.visibility === 'hidden' || own.visibility === 'collapse') return false
    for (let node: Node | null = el; node; node = composedParent(node)) {
      if (node.nodeType !== 1) continue
      const style = getComputedStyle(node as Element)
      if (style.display === 'none' || style.opacity === '0') return false
    }
    return true
  }

  /** `display: contents` (slots, framework wrappers): no box of its own, its children render. */
  function boxless(el: Element): boolean {
    return el.localName === 'slot' || getComputedStyle(el).display === 'contents'
  }

  /** The element itself, or for a box-less one the nearest ancestor with a box. */
  function boxed(el: Element): Element | null {
    let node: Node | null = el
    while (node && node.nodeType === 1 && boxless(node as Element)) node = composedParent(node)
    return node && node.nodeType === 1 ? (node as Element) : null
  }

  function hiddenFromUsers(el: Element): boolean {
    for (let node: Node | null = el; node; node = composedParent(node)) {
      if (node.nodeType !== 1) continue
      const element = node as Element
      if (element.getAttribute('aria-hidden') === 'true' || element.hasAttribute('inert')) return true
    }
    return false
  }

  function disabled(el: Element): boolean {
    if (attr(el, 'aria-disabled') === 'true') return true
    try {
      return el.matches(':disabled')
    } catch {
      return false
    }
  }

  /** The slot that renders a text child of `host` found at the point, if any. */
  function slotOfTextAt(host: Element, x: number, y: number): Element | null {
    const range = doc.createRange()
    for (const child of Array.from(host.childNodes)) {
      if (child.nodeType !== 3 || !(child as Text).assignedSlot) continue
      range.selectNodeContents(child)
      for (const box of Array.from(range.getClientRects())) {
        if (x >= box.left && x <= box.right && y >= box.top && y <= box.bottom) return (child as Text).assignedSlot
      }
    }
    return null
  }

  /** The element at a point, descending into open shadow roots. */
  function deepHit(x: number, y: number): Element | null {
    let hit = doc.elementFromPoint(x, y)
    while (hit && hit.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y)
      if (inner && inner !== hit) {
        hit = inner
        continue
      }
      // A host is the answer when the point is on its own text, rendered through one of its slots.
      const slot = slotOfTextAt(hit, x, y)
      if (!slot) break
      hit = slot
    }
    return hit
  }

  /** Hit-testing at a point reaches `el`: the hit is `el`, inside it, or a label of it. */
  function reaches(hit: Element | null, el: Element): boolean {
    for (let node: Node | null = hit; node; node = composedParent(node)) {
      if (node === el) return true
      if ((node as Element).localName === 'label' && (node as HTMLLabelElement).control === el) return true
    }
    return false
  }

  function clipToViewport(rect: DOMRect): { left: number; top: number; right: number; bottom: number } | null {
    const left = Math.max(rect.left, 0)
    const top = Math.max(rect.top, 0)
    const right = Math.min(rect.right, vw)
    const bottom = Math.min(rect.bottom, vh)
    return right > left && bottom > top ? { left, top, right, bottom } : null
  }

  function centre(rect: DOMRect): Point | null {
    const part = clipToViewport(rect)
    return part ? [Math.round((part.left + part.right) / 2), Math.round((part.top + part.bottom) / 2)] : null
  }

  type Seen = { rect: DOMRect; at: Point } | { reason: string }

  /** Rendered, in the viewport, not hidden from users, and reached by hit-testing at its centre. */
  function visibility(el: Element): Seen {
    const rect = boxOf(el)
    if (rect.width <= 0 || rect.height <= 0) return { reason: 'hidden' }
    const at = centre(rect)
    if (!at) return { reason: 'offscreen' }
    if (!rendered(el) || hiddenFromUsers(el)) return { reason: 'hidden' }
    if (reaches(deepHit(at[0], at[1]), el)) return { rect, at }
    // A wrapped inline element's box centre can fall between its lines: try each line box.
    const lines = el.getClientRects()
    if (lines.length > 1) {
      for (const box of Array.from(lines)) {
        const point = centre(box)
        if (point && reaches(deepHit(point[0], point[1]), el)) return { rect, at: point }
      }
    }
    return { reason: 'covered' }
  }

  // ------------------------------------------------------------ registry and node IDs

  interface Registry {
    doc: string
    ids: WeakMap<Element, string>
    next: number
    /** This function, kept so later calls need not send its source again (see `installedScript`). */
    run: typeof collectorScript
    version: string
  }

  function registry(token: string | null): Registry | undefined {
    const holder = doc as unknown as Record<symbol, Registry | undefined>
    let found = holder[KEY]
    if (!found && token) {
      found = { doc: token, ids: new WeakMap(), next: 1, run: collectorScript, version: request.version }
      Object.defineProperty(doc, KEY, { value: found })
    }
    if (found && token) {
      found.run = collectorScript
      found.version = request.version
    }
    return found
  }

  // ------------------------------------------------------------ roles and names

  function isCandidate(el: Element): boolean {
    switch (el.localName) {
      case 'a':
        if (el.hasAttribute('href')) return true
        break
      case 'button':
      case 'select':
      case 'textarea':
        return true
      case 'input':
        return inputType(el) !== 'hidden'
      case 'summary':
        return el.parentElement?.localName === 'details'
    }
    const role = attr(el, 'role').split(/\s+/)[0]
    if (role && INTERACTIVE_ROLES.has(role)) return true
    const editable = el.getAttribute('contenteditable')
    if (editable !== null && editable !== 'false') {
      const parent = composedParent(el) as Element | null
      const inherited = parent?.nodeType === 1 ? parent.closest('[contenteditable]') : null
      return !inherited || inherited.getAttribute('contenteditable') === 'false'
    }
    return false
  }

  function roleOf(el: Element): string {
    const explicit = attr(el, 'role').split(/\s+/)[0]
    if (explicit && explicit !== 'presentation' && explicit !== 'none' && explicit !== 'generic') return explicit
    switch (el.localName) {
      case 'a':
        return 'link'
      case 'button':
      case 'summary':
        return 'button'
      case 'textarea':
        return 'textbox'
      case 'select':
        return (el as HTMLSelectElement).multiple || (el as HTMLSelectElement).size > 1 ? 'listbox' : 'combobox'
      case 'input': {
        const type = inputType(el)
        if (type === 'checkbox' || type === 'radio') return type
        if (type === 'range') return 'slider'
        if (type === 'number') return 'spinbutton'
        if (type === 'submit' || type === 'reset' || type === 'button' || type === 'image') return 'button'
        if (el.hasAttribute('list')) return 'combobox'
        if (type === 'search') return 'searchbox'
        return 'textbox'
      }
    }
    return el.hasAttribute('contenteditable') ? 'textbox' : el.localName
  }

  /** Visible text of a subtree in the composed tree, with alt text and child aria-labels; stops near `limit`. */
  function textOf(node: Node, limit: number, skip: Node | null, includeHidden: boolean): string {
    let out = ''
    const visit = (current: Node) => {
      if (out.length >= limit || current === skip) return
      if (current.nodeType === 3) {
        out += (current as Text).data
        return
      }
      if (current.nodeType !== 1) return
      const el = current as Element
      const tag = el.localName
      if (SKIP_TAGS.has(tag) || tag === 'input') return
      if (current !== node) {
        if (!includeHidden && (el.getAttribute('aria-hidden') === 'true' || (el as HTMLElement).hidden)) return
        if (!includeHidden && typeof el.checkVisibility === 'function' && !el.checkVisibility({ visibilityProperty: true, checkVisibilityCSS: true } as CheckVisibilityOptions) && !boxless(el)) return
        const label = attr(el, 'aria-label')
        if (label) {
          out += ` ${label} `
          return
        }
      }
      if (tag === 'img' || tag === 'area') {
        out += ` ${attr(el, 'alt')} `
        return
      }
      const block = BLOCK_TAGS.has(tag)
      if (block) out += ' '
      const children: ArrayLike<Node> =
        el.shadowRoot?.childNodes ??
        (tag === 'slot' && (el as HTMLSlotElement).assignedNodes({ flatten: true }).length
          ? (el as HTMLSlotElement).assignedNodes({ flatten: true })
          : el.childNodes)
      for (let i = 0; i < children.length && out.length < limit; i++) visit(children[i]!)
      if (block) out += ' '
    }
    visit(node)
    return collapse(out)
  }

  function byIds(el: Element, ids: string): Element[] {
    const root = el.getRootNode() as Document | ShadowRoot
    return ids
      .split(/\s+/)
      .map((id) => (id ? root.getElementById(id) : null))
      .filter((found): found is HTMLElement => found !== null)
  }

  function nameOf(el: Element, role: string, limit: number): string {
    const budget = limit + 40
    const labelledBy = attr(el, 'aria-labelledby')
    if (labelledBy) {
      const text = collapse(byIds(el, labelledBy).map((ref) => textOf(ref, budget, null, true)).join(' '))
      if (text) return clip(text, limit)
    }
    const label = attr(el, 'aria-label')
    if (label) return clip(collapse(label), limit)
    const labels = (el as HTMLInputElement).labels
    if (labels && labels.length) {
      const text = collapse(Array.from(labels).map((found) => textOf(found, budget, el, false)).join(' '))
      if (text) return clip(text, limit)
    }
    const tag = el.localName
    const type = inputType(el)
    if (tag === 'img' || tag === 'area' || type === 'image') {
      const alt = attr(el, 'alt')
      if (alt) return clip(collapse(alt), limit)
    }
    if (type === 'submit' || type === 'reset' || type === 'button') {
      const value = (el as HTMLInputElement).value || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '')
      if (value) return clip(collapse(value), limit)
    }
    if (NAME_FROM_CONTENT.has(role) || tag === 'summary' || tag === 'button' || tag === 'a') {
      const text = textOf(el, budget, null, false)
      if (text) return clip(text, limit)
    }
    const title = attr(el, 'title')
    if (title) return clip(collapse(title), limit)
    const placeholder = attr(el, 'placeholder') || attr(el, 'aria-placeholder')
    if (placeholder) return clip(collapse(placeholder), limit)
    return ''
  }

  // ------------------------------------------------------------ description of a control

  type Description = Omit<RawElement, 'nodeId' | 'rect' | 'at' | 'fingerprint'> & { parts: string[] }

  const formCache = new Map<Element, { name: string; entries: Array<[string, string, Element[]]>; digest: string }>()
  const headingCache = new Map<Node, Element[]>()

  /** A hidden checkbox or radio is offered through its visible label; the label then stands for it. */
  function subjectOf(el: Element): Element {
    if (el.localName !== 'label') return el
    const control = (el as HTMLLabelElement).control
    const type = control ? inputType(control) : ''
    return control && (type === 'checkbox' || type === 'radio') ? control : el
  }

  function valueOf(el: Element): { shown?: string; full?: string } {
    const tag = el.localName
    if (tag === 'input') {
      const input = el as HTMLInputElement
      const type = inputType(el)
      if (type === 'checkbox' || type === 'radio' || type === 'submit' || type === 'reset' || type === 'button' || type === 'image') return {}
      if (type === 'file') return { shown: collapse(Array.from(input.files ?? []).map((file) => file.name).join(', ')) }
      // Passwords never leave the page; only whether one is filled in.
      if (type === 'password') return { shown: input.value ? '•••' : '', full: String(input.value.length) }
      return { shown: input.value, full: input.value }
    }
    if (tag === 'textarea') return { shown: (el as HTMLTextAreaElement).value, full: (el as HTMLTextAreaElement).value }
    if (tag === 'select') {
      const chosen = Array.from((el as HTMLSelectElement).selectedOptions).map((option) => collapse(option.label || option.text))
      return { shown: chosen.join(', '), full: chosen.join('\n') }
    }
    const editable = el.getAttribute('contenteditable')
    if (editable !== null && editable !== 'false') {
      const text = (el as HTMLElement).innerText ?? el.textContent ?? ''
      return { shown: collapse(text), full: text }
    }
    const ariaValue = attr(el, 'aria-valuetext') || attr(el, 'aria-valuenow')
    return ariaValue ? { shown: ariaValue, full: ariaValue } : {}
  }

  function tristate(value: string): boolean | 'mixed' | undefined {
    if (value === 'true') return true
    if (value === 'false') return false
    if (value === 'mixed') return 'mixed'
    return undefined
  }

  function stateOf(el: Element, role: string): RawElement['state'] {
    const state: NonNullable<RawElement['state']> = {}
    const type = inputType(el)
    if (type === 'checkbox' || type === 'radio') {
      const input = el as HTMLInputElement
      state.checked = input.indeterminate ? 'mixed' : input.checked
    } else {
      const checked = tristate(attr(el, 'aria-checked'))
      if (checked !== undefined) state.checked = checked
      else if (role === 'checkbox' || role === 'radio' || role === 'switch' || role === 'menuitemcheckbox' || role === 'menuitemradio') state.checked = false
    }
    const selected = attr(el, 'aria-selected')
    if (selected === 'true' || selected === 'false') state.selected = selected === 'true'
    const expanded = attr(el, 'aria-expanded')
    if (expanded === 'true' || expanded === 'false') state.expanded = expanded === 'true'
    else if (el.localName === 'summary') state.expanded = (el.parentElement as HTMLDetailsElement).open
    const pressed = tristate(attr(el, 'aria-pressed'))
    if (pressed !== undefined) state.pressed = pressed
    return Object.keys(state).length ? state : undefined
  }

  function operationsOf(el: Element, role: string): RawElement['operations'] {
    const tag = el.localName
    const type = inputType(el)
    if (tag === 'select') return ['select']
    if (tag === 'input') {
      if (TEXT_INPUTS.has(type)) return ['type', 'submit']
      if (DATE_INPUTS.has(type)) return ['click', 'type']
      return ['click']
    }
    if (tag === 'textarea') return ['type']
    const editable = el.getAttribute('contenteditable')
    if (editable !== null && editable !== 'false') return ['type']
    if (role === 'textbox' || role === 'searchbox') return ['type']
    return ['click']
  }

  function formOf(el: Element): HTMLFormElement | null {
    const own = (el as HTMLInputElement).form
    if (own !== undefined) return own
    return el.closest('form')
  }

  function fieldKey(field: Element, index: number): string {
    const name = attr(field, 'name') || field.id
    if (name) return name
    const labels = (field as HTMLInputElement).labels
    const label = labels && labels.length ? textOf(labels[0]!, 40, field, false) : ''
    return label || attr(field, 'aria-label') || attr(field, 'placeholder') || `field${index + 1}`
  }

  function formSummary(form: HTMLFormElement) {
    const cached = formCache.get(form)
    if (cached) return cached
    const entries: Array<[string, string, Element[]]> = []
    const groups = new Map<string, [string, string, Element[]]>()
    Array.from(form.elements).forEach((field, index) => {
      const tag = field.localName
      const type = inputType(field)
      if (tag !== 'input' && tag !== 'select' && tag !== 'textarea') return
      if (type === 'hidden' || type === 'submit' || type === 'reset' || type === 'button' || type === 'image') return
      const key = fieldKey(field, index)
      if (type === 'radio') {
        const group = groups.get(key) ?? [key, '', []]
        if (!groups.has(key)) {
          groups.set(key, group)
          entries.push(group)
        }
        group[2].push(field)
        if ((field as HTMLInputElement).checked) group[1] = (field as HTMLInputElement).value
        return
      }
      const value = type === 'checkbox' ? ((field as HTMLInputElement).checked ? 'checked' : 'unchecked') : valueOf(field).full ?? ''
      entries.push([key, type === 'password' ? (value === '0' ? '' : '•••') : value, [field]])
    })
    const forms = Array.from(doc.forms)
    const name = clip(
      attr(form, 'aria-label') || attr(form, 'name') || form.id || (forms.length > 1 ? `form ${forms.indexOf(form) + 1}` : 'form'),
      40,
    )
    const summary = { name, entries, digest: hash(entries.map(([key, value]) => `${key}=${value}`).join('\n')) }
    formCache.set(form, summary)
    return summary
  }

  function headingsOf(root: Document | ShadowRoot): Element[] {
    let found = headingCache.get(root)
    if (!found) {
      found = Array.from(root.querySelectorAll(HEADINGS))
      headingCache.set(root, found)
    }
    return found
  }

  /** The last heading before `el` in its tree (not one that contains it), then in the host's tree. */
  function precedingHeading(el: Element): Element | null {
    let anchor: Element | null = el
    while (anchor) {
      const root = anchor.getRootNode() as Document | ShadowRoot
      const list = headingsOf(root)
      // Binary search for the first heading that comes after the anchor (4: DOCUMENT_POSITION_FOLLOWING).
      let lo = 0
      let hi = list.length
      while (lo < hi) {
        const mid = (lo + hi) >> 1
        if (list[mid]!.compareDocumentPosition(anchor) & 4) lo = mid + 1
        else hi = mid
      }
      for (let i = lo - 1; i >= 0; i--) {
        if (!list[i]!.contains(anchor)) return list[i]!
      }
      anchor = root.nodeType === 11 ? (root as ShadowRoot).host : null
    }
    return null
  }

  function isRow(el: Element): boolean {
    return ROW_TAGS.has(el.localName) || ROW_ROLES.has(attr(el, 'role'))
  }

  /** Short text that tells this control apart: its row or list item, else the closest heading before it. */
  function nearbyOf(el: Element, name: string, limit: number): string {
    let hops = 0
    for (let node = composedParent(el); node && node.nodeType === 1 && hops < 8; node = composedParent(node), hops++) {
      const container = node as Element
      if (container.localName === 'body') break
      if (!isRow(container)) continue
      const legend = container.localName === 'fieldset' ? container.querySelector(':scope > legend') : null
      const text = legend ? textOf(legend, limit + 20, null, false) : textOf(container, limit * 2, el, false)
      if (text && text !== name) return clip(text, limit)
    }
    const heading = precedingHeading(el)
    const text = heading ? textOf(heading, limit + 20, null, false) : ''
    return text && text !== name ? clip(text, limit) : ''
  }

  function describe(node: Element, nameLimit: number, nearbyLimit: number): Description {
    const el = subjectOf(node)
    const role = roleOf(el)
    const tag = el.localName
    const type = inputType(el)
    const name = nameOf(el, role, nameLimit)
    const value = valueOf(el)
    const state = stateOf(el, role)
    const operations = operationsOf(el, role)
    const options =
      tag === 'select'
        ? Array.from((el as HTMLSelectElement).options).map((option) => ({
            label: clip(collapse(option.label || option.text), 40),
            value: option.value,
            selected: option.selected,
          }))
        : undefined
    const form = formOf(el)
    const summary = form ? formSummary(form) : null
    const fields: Record<string, string> = {}
    if (summary) {
      for (const [key, fieldValue, members] of summary.entries) {
        if (members.includes(el) || Object.keys(fields).length >= 10) continue
        fields[clip(key, 30)] = clip(collapse(fieldValue), 40)
      }
    }
    const nearby = nearbyOf(node, name, nearbyLimit)
    const parts = [
      [tag, type, role, el.id, attr(el, 'name'), attr(el, 'href')].join('|'),
      name,
      value.full ?? '',
      JSON.stringify(state ?? {}),
      options ? options.map((option) => `${option.value}=${option.label}`).join('\n') : '',
      nearby,
      summary ? `${summary.name}:${summary.digest}` : '',
    ]
    const description: Description = { role, name, tag, operations, parts }
    if (type) description.type = type
    if (value.shown !== undefined) description.value = clip(collapse(value.shown), 80)
    if (state) description.state = state
    if (options) description.options = options.slice(0, 100)
    if (summary) description.form = { name: summary.name, fields }
    if (nearby) description.nearby = nearby
    return description
  }

  const PART_REASONS = [
    'attributes changed',
    'name changed',
    'value changed',
    'state changed',
    'options changed',
    'nearby text changed',
    'form values changed',
  ]

  function fingerprintOf(parts: string[]): string {
    return parts.map(hash).join('.')
  }

  /** Translates points from a child iframe's viewport into this one, keeping those that hit the iframe. */
  function hitThrough(owner: Element, points: Point[]): ChildReport {
    const rect = boxOf(owner)
    const style = getComputedStyle(owner)
    const x = rect.left + owner.clientLeft + (parseFloat(style.paddingLeft) || 0)
    const y = rect.top + owner.clientTop + (parseFloat(style.paddingTop) || 0)
    const width = owner.clientWidth - (parseFloat(style.paddingLeft) || 0) - (parseFloat(style.paddingRight) || 0)
    const height = owner.clientHeight - (parseFloat(style.paddingTop) || 0) - (parseFloat(style.paddingBottom) || 0)
    const visible = rect.width > 0 && rect.height > 0 && clipToViewport(rect) !== null && rendered(owner) && !hiddenFromUsers(owner)
    const translated = points.map((point): Point | null => {
      if (!visible) return null
      const [px, py] = point
      if (px < 0 || py < 0 || px >= width || py >= height) return null
      const at: Point = [Math.round(x + px), Math.round(y + py)]
      if (at[0] < 0 || at[1] < 0 || at[0] >= vw || at[1] >= vh) return null
      return deepHit(at[0], at[1]) === owner ? at : null
    })
    return { visible, x: Math.round(x), y: Math.round(y), width: Math.round(width), height: Math.round(height), points: translated }
  }

  // ------------------------------------------------------------ modes

  if (request.mode === 'hit') return hitThrough(owners[0]!, request.points).points

  if (request.mode === 'check') {
    if (!target) return { reason: 'detached' } satisfies CheckReport
    const found = registry(null)
    if (!found || found.doc !== request.nodeId.slice(0, request.nodeId.indexOf(':'))) return { reason: 'document changed' } satisfies CheckReport
    if (!target.isConnected) return { reason: 'detached' } satisfies CheckReport
    if (found.ids.get(target) !== request.nodeId) return { reason: 'node changed' } satisfies CheckReport
    if (disabled(subjectOf(target))) return { reason: 'disabled' } satisfies CheckReport
    const now = fingerprintOf(describe(target, request.nameLimit, request.nearbyLimit).parts).split('.')
    const then = request.fingerprint.split('.')
    for (let i = 0; i < PART_REASONS.length; i++) {
      if (now[i] !== then[i]) return { reason: PART_REASONS[i]! } satisfies CheckReport
    }
    const seen = visibility(target)
    if ('reason' in seen) return { reason: seen.reason } satisfies CheckReport
    if (request.focused) {
      let active = doc.activeElement
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement
      if (active !== subjectOf(target)) return { reason: 'not focused', at: seen.at } satisfies CheckReport
    }
    return { reason: null, at: seen.at } satisfies CheckReport
  }

  // observe
  const reg = registry(request.docToken)!
  const nodeIdOf = (el: Element): string => {
    let id = reg.ids.get(el)
    if (!id) {
      id = `${reg.doc}:${reg.next++}`
      reg.ids.set(el, id)
    }
    return id
  }

  const candidates: Element[] = []
  const canvases: Element[] = []
  const texts: Text[] = []

  function nextSkipping(walker: TreeWalker): Node | null {
    let next = walker.nextSibling()
    while (!next) {
      if (!walker.parentNode()) return null
      next = walker.nextSibling()
    }
    return next
  }

  function walk(root: Document | ShadowRoot) {
    // SHOW_ELEMENT | SHOW_TEXT
    const walker = doc.createTreeWalker(root, 0x1 | 0x4)
    let node = walker.nextNode()
    while (node) {
      if (node.nodeType === 3) {
        texts.push(node as Text)
        node = walker.nextNode()
        continue
      }
      const el = node as Element
      const tag = el.localName
      if (isCandidate(el)) candidates.push(el)
      else if (tag === 'canvas') canvases.push(el)
      if (el.shadowRoot) walk(el.shadowRoot)
      node = SKIP_TAGS.has(tag) || (el as HTMLElement).hidden ? nextSkipping(walker) : walker.nextNode()
    }
  }
  walk(doc)

  const elements: RawElement[] = []
  const nodes: Element[] = []
  const blockers: RawBlocker[] = []
  let omitted = 0
  const seenNodes = new Set<Element>()

  for (const el of candidates) {
    const type = inputType(el)
    const labelled = type === 'checkbox' || type === 'radio'
    // Cheap first cut: most controls of a long page are outside the viewport. A checkbox or radio may
    // be moved off-screen on purpose and be offered through its label.
    if (!labelled) {
      const rect = boxOf(el)
      if (rect.bottom <= 0 || rect.right <= 0 || rect.top >= vh || rect.left >= vw) continue
    }
    if (disabled(el)) continue
    let node = el
    let seen = visibility(el)
    if ('reason' in seen && labelled) {
      const labels = Array.from((el as HTMLInputElement).labels ?? [])
      for (const label of labels) {
        const viaLabel = visibility(label)
        if (!('reason' in viaLabel)) {
          node = label
          seen = viaLabel
          break
        }
      }
    }
    if ('reason' in seen || seenNodes.has(node)) continue
    seenNodes.add(node)
    if (type === 'password') blockers.push({ kind: 'password', rect: round(seen.rect), at: seen.at })
    if (type === 'file') blockers.push({ kind: 'file_input', rect: round(seen.rect), at: seen.at })
    if (elements.length >= request.maxElements) {
      omitted++
      continue
    }
    const { parts, ...description } = describe(node, request.nameLimit, request.nearbyLimit)
    elements.push({ nodeId: nodeIdOf(node), ...description, rect: round(seen.rect), at: seen.at, fingerprint: fingerprintOf(parts) })
    nodes.push(node)
  }

  for (const canvas of canvases) {
    const seen = visibility(canvas)
    if ('reason' in seen || seen.rect.width < 32 || seen.rect.height < 32) continue
    blockers.push({ kind: 'canvas', rect: round(seen.rect), at: seen.at })
  }

  // Viewport text, in document order, and the elements that hold it (for scroll containers).
  let text = ''
  const holders: Element[] = []
  // Per parent element: 0 not visible, 1 partly in the viewport, 2 wholly in it.
  const parentSeen = new Map<Element, number>()
  const range = doc.createRange()
  let captcha: RawBlocker | null = null
  let previous: { parent: Element; endsInSpace: boolean } | null = null
  for (const node of texts) {
    if (text.length >= request.textLimit) break
    const data = node.data
    if (!/\S/.test(data)) continue
    const parent = node.parentElement
    if (!parent) continue
    let seen = parentSeen.get(parent)
    if (seen === undefined) {
      const rect = boxOf(parent)
      if (rect.width === 0 && rect.height === 0 && boxless(parent)) {
        // No box of its own: judge the text by its own box and the nearest ancestor that has one.
        const holder = boxed(parent)
        seen = holder && rendered(holder) ? 1 : 0
      } else {
        const inside = rect.width > 0 && rect.height > 0 && rect.bottom > 0 && rect.right > 0 && rect.top < vh && rect.left < vw
        seen = !inside || !rendered(parent) ? 0 : rect.top >= 0 && rect.left >= 0 && rect.bottom <= vh && rect.right <= vw ? 2 : 1
      }
      parentSeen.set(parent, seen)
      if (seen) holders.push(parent)
    }
    if (!seen) continue
    if (seen === 1) {
      range.selectNodeContents(node)
      const box = range.getBoundingClientRect()
      if (box.width <= 0 || box.bottom <= 0 || box.top >= vh || box.right <= 0 || box.left >= vw) continue
    }
    const piece = collapse(data)
    // Split inline runs ("Hel<b>lo</b>") stay joined; anything else is separated by a space.
    const joined =
      previous !== null &&
      !previous.endsInSpace &&
      !/^\s/.test(data) &&
      (previous.parent === parent ||
        (parent.parentElement === previous.parent && !BLOCK_TAGS.has(parent.localName)) ||
        (previous.parent.parentElement === parent && !BLOCK_TAGS.has(previous.parent.localName)))
    text += joined || !text ? piece : ` ${piece}`
    previous = { parent, endsInSpace: /\s$/.test(data) }
    if (!captcha && CAPTCHA.test(piece)) {
      const box = boxOf(parent)
      captcha = { kind: 'captcha', text: clip(piece, 80), rect: round(box), at: centre(box) ?? [0, 0] }
    }
  }
  text = clip(text, request.textLimit)
  if (!captcha) {
    const match = CAPTCHA.exec(text)
    if (match) captcha = { kind: 'captcha', text: match[0], rect: { x: 0, y: 0, width: vw, height: vh }, at: [vw >> 1, vh >> 1] }
  }
  if (captcha) blockers.unshift(captcha)
  // An XML or SVG document has no body: no form, no text layout the agent can reason about.
  if (!doc.body && win === win.top) blockers.push({ kind: 'no_body', rect: { x: 0, y: 0, width: vw, height: vh }, at: [vw >> 1, vh >> 1] })

  // Tall scroll containers around what is visible (a docs sidebar, a results pane).
  const scrollers: RawScroller[] = []
  const scrollNodes: Element[] = []
  const visited = new Set<Node>()
  const pageScroller = doc.scrollingElement ?? doc.documentElement
  for (const start of [...nodes, ...holders]) {
    for (let node = composedParent(start); node && node.nodeType === 1; node = composedParent(node)) {
      if (visited.has(node)) break
      visited.add(node)
      const el = node as Element
      if (el === pageScroller || el === doc.body || el === doc.documentElement) continue
      if (el.clientHeight < 150 || el.scrollHeight <= el.clientHeight + 8) continue
      const overflow = getComputedStyle(el).overflowY
      if (overflow !== 'auto' && overflow !== 'scroll' && overflow !== 'overlay') continue
      const seen = visibility(el)
      if ('reason' in seen) continue
      const heading = el.querySelector(HEADINGS)
      const label = nameOf(el, roleOf(el), 40) || (heading ? textOf(heading, 60, null, false) : '') || textOf(el, 60, null, false)
      scrollers.push({
        nodeId: nodeIdOf(el),
        name: clip(label || el.localName, 40),
        top: Math.round(el.scrollTop),
        up: el.scrollTop > 0,
        down: el.scrollTop + el.clientHeight < el.scrollHeight - 1,
        rect: round(seen.rect),
        at: seen.at,
      })
      scrollNodes.push(el)
    }
  }

  const scrollTop = win.scrollY
  const scrollHeight = pageScroller ? pageScroller.scrollHeight : 0
  const scroll = { x: Math.round(win.scrollX), y: Math.round(scrollTop), up: scrollTop > 0, down: scrollTop + vh < scrollHeight - 1 }
  if (request.frameScroller && pageScroller && (scroll.up || scroll.down) && vh >= 150) {
    scrollers.unshift({
      nodeId: nodeIdOf(pageScroller),
      name: clip(doc.title || location.host || 'frame', 40),
      top: scroll.y,
      up: scroll.up,
      down: scroll.down,
      rect: { x: 0, y: 0, width: vw, height: vh },
      at: [vw >> 1, vh >> 1],
    })
    scrollNodes.unshift(pageScroller)
  }

  const children = owners.map((owner, index) => hitThrough(owner, request.childPoints[index] ?? []))

  const report: FrameReport = {
    url: location.href,
    title: doc.title,
    doc: reg.doc,
    text,
    scroll,
    elements,
    omitted,
    blockers,
    scrollers,
    children,
  }
  const held = new Set(request.held)
  const sent: Element[] = []
  elements.forEach((element, i) => (held.has(element.nodeId) ? (element.held = true) : sent.push(nodes[i]!)))
  scrollers.forEach((scroller, i) => (held.has(scroller.nodeId) ? (scroller.held = true) : sent.push(scrollNodes[i]!)))
  const json = JSON.stringify(report)
  return sent.length ? [json, ...sent] : json
}

/**
 * Runs the collector script the document already holds, when it is this version; otherwise answers
 * 'missing' and the caller sends the whole script. Saves sending and compiling it on every call.
 */
export function installedScript(target: Element | null, request: PageRequest, ...owners: Element[]): unknown {
  const holder = document as unknown as Record<symbol, { run: typeof collectorScript; version: string } | undefined>
  const found = holder[Symbol.for('puppeteer-agent.collector')]
  return found && found.version === request.version ? found.run(target, request, ...owners) : 'missing'
}
