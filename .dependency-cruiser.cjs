// The layers of src/, lowest first: a module may import its own folder and the layers below its own,
// never a layer above or another folder of its own layer. `npm test` checks this (pretest), so a new
// upward import fails the suite. The README's Development section says what each layer is for.
const LAYERS = [
  ['base', 'clip.ts', 'errors.ts', 'operations.ts'],
  ['page'],
  ['browser', 'call'],
  ['collector'],
  ['secrets', 'vision'],
  ['models'],
  ['decision'],
  ['executor', 'checklist', 'record'],
  ['local', 'consent'],
  ['cache'],
  ['options.ts'],
  ['profiling'],
  ['extract'],
  ['goal'],
  ['index.ts'],
  // Workers and the producer use the library as its users do, through index.ts; the CLI starts them.
  ['queue'],
  ['cli'],
]

/** A folder's modules, or a file at the root of src/. */
const pathOf = (part) => (part.endsWith('.ts') ? `^src/${part.replace('.', '\\.')}$` : `^src/${part}/`)

const layerRules = LAYERS.flatMap((layer, index) =>
  layer.flatMap((part) => {
    const above = LAYERS.slice(index + 1).flat()
    const beside = layer.filter((other) => other !== part)
    // The top layer alone may import everything: an empty list of paths would match every module.
    if (above.length + beside.length === 0) return []
    return {
      name: `layers: ${part}`,
      comment: `${part} is in layer ${index + 1} of ${LAYERS.length}: it may not import ${[...beside, ...above].join(', ')}`,
      severity: 'error',
      from: { path: pathOf(part) },
      to: { path: [...beside, ...above].map(pathOf) },
    }
  }),
)

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-cycle',
      comment: 'Modules import one way: no module reaches itself through its imports.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'every-module-in-a-layer',
      comment: 'A new folder or root file of src/ is given a layer above before it is imported.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/', pathNot: LAYERS.flat().map(pathOf) },
    },
  ],
  options: {
    // TypeScript 7 has no compiler API that dependency-cruiser can read yet; swc parses the sources,
    // type-only imports included.
    parser: 'swc',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/page/bundle\\.generated\\.ts$' },
  },
}
