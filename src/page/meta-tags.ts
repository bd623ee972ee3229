import { attributeOf, queryAll } from './dom-safe.ts'

// How a rule reads a `<meta>` tag: Open Graph and Twitter tags name it with `property` or `name`,
// microdata with `itemprop`. Names are compared without case, as HTML compares `name`.

const NAMING = ['property', 'name', 'itemprop']

/** The `content` of each `<meta>` inside `scope` named `name`, in document order. */
export function metaContents(scope: ParentNode, name: string): string[] {
  const wanted = name.toLowerCase()
  const contents: string[] = []
  for (const meta of queryAll(scope, 'meta')) {
    const content = attributeOf(meta, 'content')
    if (content === null) continue
    if (NAMING.some((attribute) => attributeOf(meta, attribute)?.toLowerCase() === wanted)) contents.push(content)
  }
  return contents
}
