import { attributeOf, childElementCountOf, classesOf, firstElementChildOf, localNameOf, matchesSelector, queryAll, queryOne, textContentOf } from './dom-safe.ts'
import { attr, inputType } from './dom.ts'
import { collapse } from './text.ts'

// The name of a control drawn without text, read from what draws it: an inline SVG's title or symbol,
// an image's file name, an icon font's class, a background image's file name, and last the words of
// a class list that says what the control does (`class="trash"`, `email-send`).

/** Class prefixes of icon sets (Font Awesome, Bootstrap, Material, generic `icon-`): what follows names the icon. */
const ICON_CLASS = /^(?:fa[srlbdt]?|bi|glyphicon|icon|icons?|ico|mdi|ti|ri|la|ion|material-icons)[-_](.+)$/i

/**
 * Words of class lists and icon files that say how an icon looks or which framework drew it, not
 * what it does: prefixes (`btn`, `icon`), sizes (`lg`, `2x`), colours and variants (`red`, `outline`).
 */
const LOOK_WORDS = new Set([
  'btn', 'button', 'icon', 'icons', 'ico', 'i', 'fa', 'fas', 'far', 'fab', 'bi', 'glyphicon', 'mdi', 'material', 'sprite', 'svg', 'img', 'image',
  'js', 'is', 'has', 'ui', 'text', 'bg', 'color', 'colour', 'link', 'action', 'tool', 'toolbar', 'item', 'control', 'clickable',
  'xs', 'sm', 'md', 'lg', 'xl', 'xxl', 'small', 'large', 'big', 'mini', 'tiny', 'fw',
  'red', 'green', 'blue', 'black', 'white', 'gray', 'grey', 'yellow', 'orange', 'purple',
  'primary', 'secondary', 'success', 'danger', 'warning', 'info', 'light', 'dark', 'muted', 'default',
  'outline', 'outlined', 'filled', 'solid', 'regular', 'round', 'rounded', 'sharp', 'spin', 'active', 'inline',
])

/** A count shown beside an icon ("14", "1.2K", "99+"): it names nothing alone. */
export const COUNT = /^[\d.,\s]*\d[\d.,]*\s*[KkMmBb]?\+?$/

/** Elements read for an icon inside a control: the control and the first few below it (an icon is small). */
const ICON_ELEMENTS = 8

/** The words of an identifier (a file name, an icon's class or symbol), split at case changes and punctuation. */
export function words(text: string): string {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    // Digits alone (sizes, counters) and long hex runs (content hashes) name nothing.
    .filter((word) => word && !/^\d+$/.test(word) && !/^(?=.*\d)[0-9a-f]{8,}$/i.test(word) && !/^\d+x$/i.test(word))
    .join(' ')
}

/** Words of a class with the words of its look left out (`icon--lg` gives '', `archive_box` "archive box"). */
function iconWords(text: string): string {
  return words(text)
    .split(' ')
    .filter((word) => word && !LOOK_WORDS.has(word.toLowerCase()))
    .join(' ')
}

/** The file name of a URL, its extension, query and escapes taken off; '' for a `data:` URL. */
function fileName(url: string): string {
  if (!url || url.startsWith('data:')) return ''
  let file = url.split(/[?#]/)[0]!.split('/').pop() ?? ''
  try {
    file = decodeURIComponent(file)
  } catch {
    // A malformed escape: read the name as written.
  }
  return file.replace(/\.[a-z0-9]{2,5}$/i, '')
}

/** Words of an image's file name ("/img/site-logo_dark@2x.png" gives "site logo dark"), hashes and numbers left out. */
export function fileWords(img: Element): string {
  return words(fileName(attr(img, 'src')))
}

/** An inline SVG icon's own name: its `<title>`, its aria-label, or the symbol it uses (`#icon-share`). */
function svgName(el: Element): string {
  const svg = localNameOf(el) === 'svg' ? el : queryOne(el, 'svg')
  if (!svg) return ''
  const title = svg.querySelector('title')
  const text = collapse(title?.textContent ?? '') || collapse(attr(svg, 'aria-label'))
  if (text) return text
  const use = svg.querySelector('use')
  const ref = use ? attr(use, 'href') || attr(use, 'xlink:href') : ''
  if (!ref.includes('#')) return ''
  const symbol = ref.slice(ref.indexOf('#') + 1)
  return words(ICON_CLASS.exec(symbol)?.[1] ?? symbol)
}

/** Words of an icon font's class (`fa fa-star` gives "star", `icon-share-alt` gives "share alt"). */
function iconFontWords(el: Element): string {
  const icon = matchesSelector(el, 'i, span, svg, b, em') && !firstElementChildOf(el) ? el : queryOne(el, 'i, span[class*="icon"], [class*="fa-"]')
  if (!icon) return ''
  for (const name of Array.from(classesOf(icon))) {
    const match = ICON_CLASS.exec(name)
    // Sizes and styles of a set (`fa-2x`, `fa-fw`, `icon-large`) name no icon.
    const named = match ? iconWords(match[1]!) : ''
    if (named) return named
  }
  return ''
}

/** The control and the first elements inside it, the icon that draws it among them. */
function iconElements(el: Element): Element[] {
  return [el, ...Array.from(queryAll(el, '*')).slice(0, ICON_ELEMENTS - 1)]
}

/** The file name of the first background image drawn on the control or inside it (`url(/img/trash.png)` gives "trash"). */
function backgroundWords(el: Element): string {
  for (const icon of iconElements(el)) {
    const url = /url\(\s*["']?([^"')]*)/.exec(getComputedStyle(icon).backgroundImage)?.[1] ?? ''
    const named = words(fileName(url))
    if (named) return named
  }
  return ''
}

/** An image that draws the control: its title, else its file name. */
function imageWords(el: Element): string {
  const img = localNameOf(el) === 'img' || inputType(el) === 'image' ? el : queryOne(el, 'img')
  if (!img) return ''
  return collapse(attr(img, 'title')) || fileWords(img)
}

/** The name the icon drawing a control gives it: its SVG, image, icon font or background image, or ''. */
export function iconName(el: Element): string {
  return svgName(el) || imageWords(el) || iconFontWords(el) || backgroundWords(el)
}

/**
 * The words of the class list of a textless control, or of the empty element inside it that draws
 * its icon (`<i class="delete">`), the icon's first: the last guess, made only when nothing else,
 * the layout included, names the control.
 */
export function classIconName(el: Element): string {
  const icons = Array.from(queryAll(el, '*')).slice(0, ICON_ELEMENTS - 1).filter((icon) => childElementCountOf(icon) === 0 && !collapse(textContentOf(icon) ?? ''))
  for (const icon of [...icons, el]) {
    if (attributeOf(icon, 'class') === null) continue
    const named = Array.from(classesOf(icon)).map(iconWords).filter(Boolean).join(' ')
    if (named) return named
  }
  return ''
}
