// The extraction's page script (scripts/bundle-page.mjs): the page outline the rule writer reads,
// and the rules engine. Each export is one callable name.

export { outlinePage as outline } from './outline.ts'
export { rulesEngine } from './rules-engine.ts'
