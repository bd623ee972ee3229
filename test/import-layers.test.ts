import test from 'ava'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { cruise, type ICruiseResult, type IFlattenedRuleSet } from 'dependency-cruiser'

// The layers of src/ (.dependency-cruiser.cjs) hold on the sources, and they catch what they are for:
// an import upward, one across a layer, and a folder that no layer names.

const config = createRequire(import.meta.url)('../.dependency-cruiser.cjs') as { forbidden: IFlattenedRuleSet['forbidden']; options: Record<string, unknown> }

async function cruiseIn(baseDir: string) {
  const { output } = await cruise(['src'], { ...config.options, baseDir, validate: true, ruleSet: { forbidden: config.forbidden } })
  return (output as ICruiseResult).summary.violations.map((violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`)
}

async function sources(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'layers-'))
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true })
    await writeFile(join(root, path), text)
  }
  return root
}

test('the sources import one way: no layer imports one above it, and nothing imports itself back', async (t) => {
  t.deepEqual(await cruiseIn(process.cwd()), [])
})

test('an upward import, one between folders of a layer and a folder no layer names are each refused', async (t) => {
  const root = await sources({
    'src/base/fold.ts': "import { step } from '../goal/step.ts'\nexport const fold = step\n",
    'src/goal/step.ts': 'export const step = 1\n',
    'src/browser/page-script.ts': "import { lock } from '../call/page-lock.ts'\nexport const script = lock\n",
    'src/call/page-lock.ts': 'export const lock = 1\n',
    'src/collector/observe.ts': "import { thing } from '../newfolder/thing.ts'\nexport const observe = thing\n",
    'src/newfolder/thing.ts': 'export const thing = 1\n',
  })
  t.teardown(() => rm(root, { recursive: true, force: true }))
  t.deepEqual((await cruiseIn(root)).sort(), [
    'every-module-in-a-layer: src/collector/observe.ts → src/newfolder/thing.ts',
    'layers: base: src/base/fold.ts → src/goal/step.ts',
    'layers: browser: src/browser/page-script.ts → src/call/page-lock.ts',
  ])
})
