import * as nodeModule from 'node:module'

/** Package names a script may import to get this library: ours, and the seed's, so browserless exec scripts run unchanged. */
export const PACKAGE_NAMES: readonly string[] = ['puppeteer-agent', '@browserless/agent']

const NOT_FOUND = new Set(['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND'])

/**
 * Lets `require('puppeteer-agent')` and `import 'puppeteer-agent'` work in a script that sits where the
 * package is not installed (a script next to a global install, or inside this repository's examples).
 * A copy the script can resolve itself always wins. Needs `module.registerHooks` (Node ≥ 22.15);
 * returns false where it is missing, and scripts then need the package installed next to them.
 */
export function providePackage(target: string = import.meta.resolve('puppeteer-agent'), names = PACKAGE_NAMES): boolean {
  const register = (nodeModule as { registerHooks?: typeof nodeModule.registerHooks }).registerHooks
  if (typeof register !== 'function') return false
  register({
    resolve(specifier, context, nextResolve) {
      if (!names.includes(specifier)) return nextResolve(specifier, context)
      try {
        return nextResolve(specifier, context)
      } catch (error) {
        if (!NOT_FOUND.has((error as { code?: string }).code ?? '')) throw error
        return { url: target, shortCircuit: true }
      }
    },
  })
  return true
}
