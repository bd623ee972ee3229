// The `secrets` option: names the caller gives to values (a login, a password). Models see and write
// only the placeholder `%name%`; the real value is put in at the last moment, when it is typed.

/** A letter, then up to 39 letters, digits, `_` or `-`: short enough to read, plain enough to write back exactly. */
const NAME = '[A-Za-z][A-Za-z0-9_-]{0,39}'
const VALID_NAME = new RegExp(`^${NAME}$`)
const IN_TEXT = new RegExp(`%(${NAME})%`, 'g')

export interface Secret {
  name: string
  /** What the executor types; never shown to a model or written anywhere. */
  value: string
  /** `%name%`: what models read and write in its place. */
  placeholder: string
}

/**
 * The option as given: an object of names to non-empty strings. Throws an Error naming the bad key;
 * the message never holds a value, since it ends up in logs and error reports.
 */
export function parseSecrets(input: unknown): Secret[] {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new Error('expected an object of placeholder names to secret values, e.g. { password: "…" }')
  }
  return Object.entries(input).map(([name, value]): Secret => {
    const shown = JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}…` : name)
    if (!VALID_NAME.test(name)) {
      throw new Error(`the secret name ${shown} is not a placeholder name: a letter, then up to 39 letters, digits, "_" or "-"`)
    }
    if (typeof value !== 'string') throw new Error(`the value of secret ${shown} must be a string, got ${kindOf(value)}`)
    // A blank value would be replaced wherever the page shows a space.
    if (value.trim() === '') throw new Error(`the value of secret ${shown} is empty or only whitespace`)
    return { name, value, placeholder: placeholderOf(name) }
  })
}

export function placeholderOf(name: string): string {
  return `%${name}%`
}

/** The placeholders a model may write, in the caller's order. */
export function listPlaceholders(secrets: readonly Secret[]): string[] {
  return secrets.map((secret) => secret.placeholder)
}

/**
 * `text` with every placeholder of a known secret replaced by its value. A `%word%` that names no
 * secret is left as written: it may be what the page wants typed (a template, a percentage).
 */
export function fillPlaceholders(text: string, secrets: readonly Secret[]): string {
  if (secrets.length === 0) return text
  const byName = new Map(secrets.map((secret) => [secret.name, secret.value]))
  return text.replace(IN_TEXT, (written, name: string) => byName.get(name) ?? written)
}

/** Whether `text` holds the placeholder of a known secret. */
export function namesSecret(text: string, secrets: readonly Secret[]): boolean {
  return fillPlaceholders(text, secrets) !== text
}

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}
