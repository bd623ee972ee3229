// The platform's own methods and getters, captured once when the page script loads (before any page
// is read), and the helpers page code reads elements through.
//
// A form's named fields shadow the form's own properties and methods ([LegacyOverrideBuiltIns], in
// our isolated world too): with `<input name="getAttribute">` inside it, `form.getAttribute` is that
// input, and with one named "parentNode", `form.parentNode` is. Any page could switch the agent off
// with one hidden field, so page code reads an element that may be a form only through these helpers,
// which call the prototypes' own accessors with `.call`. This module is the one place that calls
// getAttribute, hasAttribute and getBoundingClientRect directly (test/page-dom-safe.test.ts).

// Outside a DOM (Node's tests import a few page modules for their text functions) there is nothing to
// capture: the helpers then read the property as written.
const NODE: Node | undefined = globalThis.Node?.prototype
const ELEMENT: Element | undefined = globalThis.Element?.prototype
const HTML_ELEMENT: HTMLElement | undefined = globalThis.HTMLElement?.prototype
const FORM: HTMLFormElement | undefined = globalThis.HTMLFormElement?.prototype
const EVENT_TARGET: EventTarget | undefined = globalThis.EventTarget?.prototype

/** The method `name` of `api`, or one that calls the object's own where there is no DOM. */
function method<A extends object, K extends keyof A>(api: A | undefined, name: K): A[K] {
  if (api) return api[name]
  return function (this: A, ...args: unknown[]) {
    return (this[name] as (...args: unknown[]) => unknown).apply(this, args)
  } as A[K]
}

/** The getter of `name` on `api`, or a plain read where there is none. */
function getter<A extends object, K extends keyof A>(api: A | undefined, name: K): (this: A) => A[K] {
  const own = api && Object.getOwnPropertyDescriptor(api, name)?.get
  return (
    (own as ((this: A) => A[K]) | undefined) ??
    function (this: A) {
      return this[name]
    }
  )
}

const getAttributeOf = method(ELEMENT, 'getAttribute')
const hasAttributeOf = method(ELEMENT, 'hasAttribute')
const boundingBoxOf = method(ELEMENT, 'getBoundingClientRect')
const clientRectsOf = method(ELEMENT, 'getClientRects')
const querySelectorOf = method(ELEMENT, 'querySelector')
const querySelectorAllOf = method(ELEMENT, 'querySelectorAll')
const closestOf = method(ELEMENT, 'closest')
const matchesOf = method(ELEMENT, 'matches')
const checkVisibilityOf = ELEMENT?.checkVisibility
const scrollByOf = method(ELEMENT, 'scrollBy') as (this: Element, options: ScrollToOptions) => void
const addEventListenerOf = method(EVENT_TARGET, 'addEventListener')
const removeEventListenerOf = method(EVENT_TARGET, 'removeEventListener')
const containsOf = method(NODE, 'contains')
const getRootNodeOf = method(NODE, 'getRootNode')
const compareDocumentPositionOf = method(NODE, 'compareDocumentPosition')
const requestSubmitOf = method(FORM, 'requestSubmit')

const getParentNode = getter(NODE, 'parentNode')
const getParentElement = getter(NODE, 'parentElement')
const getNodeType = getter(NODE, 'nodeType')
const getFirstChild = getter(NODE, 'firstChild')
const getNextSibling = getter(NODE, 'nextSibling')
const getPreviousSibling = getter(NODE, 'previousSibling')
const getChildNodes = getter(NODE, 'childNodes')
const getTextContent = getter(NODE, 'textContent')
const getOwnerDocument = getter(NODE, 'ownerDocument')
const getIsConnected = getter(NODE, 'isConnected')
const getLocalName = getter(ELEMENT, 'localName')
const getNamespaceURI = getter(ELEMENT, 'namespaceURI')
const getTagName = getter(ELEMENT, 'tagName')
const getId = getter(ELEMENT, 'id')
const getClassName = getter(ELEMENT, 'className')
const getClassList = getter(ELEMENT, 'classList')
const getAttributes = getter(ELEMENT, 'attributes')
const getChildren = getter(ELEMENT, 'children')
const getChildElementCount = getter(ELEMENT, 'childElementCount')
const getFirstElementChild = getter(ELEMENT, 'firstElementChild')
const getNextElementSibling = getter(ELEMENT, 'nextElementSibling')
const getPreviousElementSibling = getter(ELEMENT, 'previousElementSibling')
const getShadowRoot = getter(ELEMENT, 'shadowRoot')
const getAssignedSlot = getter(ELEMENT, 'assignedSlot')
const getInnerHTML = getter(ELEMENT, 'innerHTML')
const getOuterHTML = getter(ELEMENT, 'outerHTML')
const getClientHeight = getter(ELEMENT, 'clientHeight')
const getScrollHeight = getter(ELEMENT, 'scrollHeight')
const getScrollTop = getter(ELEMENT, 'scrollTop')
const getScrollLeft = getter(ELEMENT, 'scrollLeft')
const getInnerText = getter(HTML_ELEMENT, 'innerText')
const getElements = getter(FORM, 'elements')

export const HTML_NS = 'http://www.w3.org/1999/xhtml'

/** The attribute's value or null, whatever the element's fields are named. */
export function attributeOf(el: Element, name: string): string | null {
  return getAttributeOf.call(el, name)
}

/** Whether the element has the attribute, whatever its fields are named. */
export function hasAttr(el: Element, name: string): boolean {
  return hasAttributeOf.call(el, name)
}

/** The element's border box in the viewport, unshadowed. */
export function boundingBox(el: Element): DOMRect {
  return boundingBoxOf.call(el)
}

/** A range's box: read here too, so that page code calls getBoundingClientRect nowhere else. */
export function rangeBox(range: Range): DOMRect {
  return range.getBoundingClientRect()
}

/** The element's line boxes, unshadowed. */
export function clientRects(el: Element): DOMRectList {
  return clientRectsOf.call(el)
}

/** The first element matching `selector` inside `scope` (an element, a document or a shadow root). */
export function queryOne(scope: ParentNode, selector: string): Element | null {
  return getNodeType.call(scope as Node) === 1 ? querySelectorOf.call(scope, selector) : scope.querySelector(selector)
}

/** Every element matching `selector` inside `scope` (an element, a document or a shadow root). */
export function queryAll(scope: ParentNode, selector: string): NodeListOf<Element> {
  return getNodeType.call(scope as Node) === 1 ? querySelectorAllOf.call(scope, selector) : scope.querySelectorAll(selector)
}

/** The element or its nearest ancestor matching `selector`, unshadowed. */
export function closestTo(el: Element, selector: string): Element | null {
  return closestOf.call(el, selector)
}

/** Whether the element matches `selector`, unshadowed (throws on a selector the engine refuses). */
export function matchesSelector(el: Element, selector: string): boolean {
  return matchesOf.call(el, selector)
}

/** Whether the engine has `checkVisibility` (jsdom has not). */
export const canCheckVisibility = typeof checkVisibilityOf === 'function'

/** `checkVisibility` of the element, unshadowed; only where `canCheckVisibility`. */
export function checkVisibility(el: Element, options: CheckVisibilityOptions): boolean {
  return checkVisibilityOf!.call(el, options)
}

/** Whether `other` is `node` or inside it, unshadowed. */
export function containsNode(node: Node, other: Node | null): boolean {
  return containsOf.call(node, other)
}

/** The document or shadow root the node is in, unshadowed. */
export function rootNodeOf(node: Node): Node {
  return getRootNodeOf.call(node)
}

/** `compareDocumentPosition` of `node` with `other`, unshadowed. */
export function positionOf(node: Node, other: Node): number {
  return compareDocumentPositionOf.call(node, other)
}

/** Scrolls the element, unshadowed. */
export function scrollElementBy(el: Element, options: ScrollToOptions): void {
  scrollByOf.call(el, options)
}

/** Adds a listener to the node (or window), unshadowed. */
export function listenOn(target: EventTarget, type: string, listener: EventListener): void {
  addEventListenerOf.call(target, type, listener)
}

/** Removes a listener `listenOn` added, unshadowed. */
export function stopListening(target: EventTarget, type: string, listener: EventListener): void {
  removeEventListenerOf.call(target, type, listener)
}

/** Submits the form as its own submit would (validation and the submit event), unshadowed. */
export function submitForm(form: HTMLFormElement): void {
  requestSubmitOf.call(form)
}

/** The form's fields, not its field named "elements". */
export function formFields(form: HTMLFormElement): HTMLFormControlsCollection {
  return getElements.call(form)
}

/** The node's parent, not a form's field named "parentNode". */
export function parentNodeOf(node: Node): ParentNode | null {
  return getParentNode.call(node)
}

/** The node's parent element, unshadowed. */
export function parentElementOf(node: Node): HTMLElement | null {
  return getParentElement.call(node)
}

/** The node's type (1 element, 3 text, 9 document, 11 fragment or shadow root), unshadowed. */
export function nodeTypeOf(node: Node): number {
  return getNodeType.call(node)
}

/** The node's first child, unshadowed. */
export function firstChildOf(node: Node): ChildNode | null {
  return getFirstChild.call(node)
}

/** The node's next sibling, unshadowed. */
export function nextSiblingOf(node: Node): ChildNode | null {
  return getNextSibling.call(node)
}

/** The node's previous sibling, unshadowed. */
export function previousSiblingOf(node: Node): ChildNode | null {
  return getPreviousSibling.call(node)
}

/** The node's children, text included, unshadowed. */
export function childNodesOf(node: Node): NodeListOf<ChildNode> {
  return getChildNodes.call(node)
}

/** All the text inside the node, unshadowed. */
export function textContentOf(node: Node): string | null {
  return getTextContent.call(node)
}

/** The node's document, unshadowed. */
export function ownerDocumentOf(node: Node): Document {
  return getOwnerDocument.call(node) as Document
}

/** Whether the node is in a document, unshadowed. */
export function isConnectedNode(node: Node): boolean {
  return getIsConnected.call(node)
}

/** The element's local name ("form", "input"), not its field named "localName". */
export function localNameOf(el: Element): string {
  return getLocalName.call(el)
}

/** The element's namespace, unshadowed. */
export function namespaceOf(el: Element): string | null {
  return getNamespaceURI.call(el)
}

/** The element's tag name, upper-case for HTML, unshadowed. */
export function tagNameOf(el: Element): string {
  return getTagName.call(el)
}

/** The element's id, not its field named "id". */
export function idOf(el: Element): string {
  return getId.call(el)
}

/** The element's `className` (an SVGAnimatedString on SVG, whatever its type says), unshadowed. */
export function classNameOf(el: Element): string {
  return getClassName.call(el)
}

/** The element's class tokens, unshadowed. */
export function classesOf(el: Element): DOMTokenList {
  return getClassList.call(el)
}

/** The element's attributes, unshadowed. */
export function attributesOf(el: Element): NamedNodeMap {
  return getAttributes.call(el)
}

/** The element's child elements, unshadowed. */
export function childrenOf(el: Element): HTMLCollection {
  return getChildren.call(el)
}

/** How many child elements the element has, unshadowed. */
export function childElementCountOf(el: Element): number {
  return getChildElementCount.call(el)
}

/** The element's first child element, unshadowed. */
export function firstElementChildOf(el: Element): Element | null {
  return getFirstElementChild.call(el)
}

/** The element's next sibling element, unshadowed. */
export function nextElementOf(el: Element): Element | null {
  return getNextElementSibling.call(el)
}

/** The element's previous sibling element, unshadowed. */
export function previousElementOf(el: Element): Element | null {
  return getPreviousElementSibling.call(el)
}

/** The element's open shadow root, unshadowed. */
export function shadowRootOf(el: Element): ShadowRoot | null {
  return getShadowRoot.call(el)
}

/** The rendered text of an HTML element, unshadowed; undefined for others (SVG, MathML), which have none. */
export function innerTextOf(el: Element): string | undefined {
  return getNamespaceURI.call(el) === HTML_NS ? getInnerText.call(el as HTMLElement) : undefined
}

/** The slot an element is rendered in, unshadowed. */
export function assignedSlotOf(el: Element): HTMLSlotElement | null {
  return getAssignedSlot.call(el)
}

/** The element's markup inside it, unshadowed. */
export function innerHtmlOf(el: Element): string {
  return getInnerHTML.call(el) as string
}

/** The element's markup, itself included, unshadowed. */
export function outerHtmlOf(el: Element): string {
  return getOuterHTML.call(el)
}

/** The height of the element's padding box, unshadowed. */
export function clientHeightOf(el: Element): number {
  return getClientHeight.call(el)
}

/** The height of the element's content, scrolled or not, unshadowed. */
export function scrollHeightOf(el: Element): number {
  return getScrollHeight.call(el)
}

/** How far the element is scrolled down, unshadowed. */
export function scrollTopOf(el: Element): number {
  return getScrollTop.call(el)
}

/** How far the element is scrolled right, unshadowed. */
export function scrollLeftOf(el: Element): number {
  return getScrollLeft.call(el)
}
