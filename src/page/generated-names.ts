// Class names and ids that a build tool generated: hashes that change whenever the site is rebuilt,
// so a rule written with them breaks, and on large shops they are most of an outline's characters.
// The outline leaves them out; readable names (BEM, utility classes, words) stay.

// CSS-in-JS prefixes followed by a hash: emotion `css-1x2y3z`, styled-components `sc-bdfBwQ`,
// styled-jsx `jsx-2093`, Svelte `svelte-1xyz9`, Astro `astro-J7PV25F6`.
const HASH_PREFIX = /^(?:css|sc|jsx|svelte|astro|emotion)-([a-z0-9]+)/i
// CSS modules end in a hash after two underscores: `card-module__ckj4h`, `Card_title__3xYz1`.
const MODULE_SUFFIX = /__([A-Za-z0-9]{5,})$/
const VOWELS = /[aeiouy]/gi

/** A run of letters and digits that reads as a hash rather than a word or a number. */
function hashLike(part: string): boolean {
  if (part.length < 5) return false
  // Digits mixed into letters more than once ("1x2y3z", "ckj4h"), unlike "item12" or "h264".
  const switches = part.match(/[a-z](?=[0-9])|[0-9](?=[a-z])/gi)?.length ?? 0
  if (switches >= 2) return true
  // Mixed case with almost no vowels ("bdfBwQ"), unlike camelCase words ("productTitle").
  return /[a-z]/.test(part) && /[A-Z]/.test(part.slice(1)) && (part.match(VOWELS)?.length ?? 0) <= 1
}

export function isGeneratedName(name: string): boolean {
  const prefixed = HASH_PREFIX.exec(name)
  // A prefix with a short word after it is a readable name ("css-grid").
  if (prefixed && (/\d/.test(prefixed[1]) || prefixed[1].length >= 5)) return true
  // A BEM element after two underscores is a word ("product__price"), without digits.
  const suffix = MODULE_SUFFIX.exec(name)
  if (suffix && /\d/.test(suffix[1])) return true
  return name.split(/[-_]/).some(hashLike)
}
