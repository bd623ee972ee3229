import { clip } from '../clip.ts'
import type { Rect } from '../base/rect.ts'
import type { HeadOption, ResultLine, RunLine, StepLine } from './run-lines.ts'

// The report of one recorded run: a single HTML file a person opens from the run folder. It depends on
// nothing but the images beside it: inline CSS, no script, no font or network request (the CSP below
// forbids them, so a page's string that slipped past escaping could not run or fetch anything).
// Every string from the page or a model is escaped and clipped, so a hostile page can neither inject
// markup nor blow the report up. Targets are drawn over the screenshots here, not into them.

/** Characters shown of a page's or model's string; the run.jsonl keeps what the recorder kept. */
const NAME_MAX = 160
const TEXT_MAX = 400
/** The run-at-a-glance strip is for finding a card (CSS cuts its names shorter still); the card says the rest. */
const PATH_NAME_MAX = 60

/** Screenshots are files beside the report: a bare name, so nothing is fetched from elsewhere. */
const IMAGE_NAME = /^[\w.-]+\.(?:jpe?g|png)$/i

const CSP = "default-src 'none'; img-src 'self' file:; style-src 'unsafe-inline'"

export function renderReport(lines: readonly RunLine[]): string {
  const steps = lines.filter((line): line is StepLine => line.kind === 'step')
  const result = lines.find((line): line is ResultLine => line.kind === 'result')
  const subject = result ? (result.goal ?? (result.call === 'extract' ? 'Extraction with rules' : 'Goal')) : (steps[0]?.title ?? 'Run')
  const outcome = !result ? 'unfinished' : result.status === 'success' ? 'succeeded' : 'failed'
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>${text(subject, NAME_MAX)} · ${outcome}</title><style>${CSS}</style></head>
<body><main>
${header(result, steps, subject)}
${timeline(steps, result)}
${result ? finalCard(result) : ''}
</main></body></html>
`
}

function header(result: ResultLine | undefined, steps: readonly StepLine[], subject: string): string {
  return `<header class="top">
${banner(result)}
<p class="kicker">${result?.call === 'extract' ? 'Extraction' : 'Goal'}${result ? ` · ${when(result)}` : ''}</p>
<h1>${text(subject, TEXT_MAX)}</h1>
${result ? `<p class="where">Ended on ${page(result.title, result.url)}</p>${figures(result)}${checklist(result)}` : ''}
${path(steps)}
</header>`
}

/** The outcome, first thing on the page: green, or red with the failure's tag and reason. */
function banner(result: ResultLine | undefined): string {
  if (!result) {
    return '<div class="banner open" role="status"><strong>Unfinished</strong><p>run.jsonl has no result line: the run stopped before it ended.</p></div>'
  }
  if (result.status === 'error') {
    const tag = result.failure ? ` <span class="tag">${text(result.failure, NAME_MAX)}</span>` : ''
    return `<div class="banner fail" role="alert"><strong>Failed</strong>${tag}<p>${text(result.reason ?? 'No reason was recorded.', TEXT_MAX)}</p></div>`
  }
  const verdict = result.verified === undefined ? '' : result.verified ? ' <span class="tag">verified</span>' : ' <span class="tag">not verified</span>'
  return `<div class="banner ok" role="status"><strong>${result.call === 'extract' ? 'Extracted' : 'Succeeded'}</strong>${verdict}</div>`
}

function when(result: ResultLine): string {
  const started = result.startedAt.replace('T', ' ').replace(/(?:\.\d+)?Z$/, ' UTC')
  return `<time datetime="${attr(result.startedAt)}">${text(started, 40)}</time>`
}

function figures(result: ResultLine): string {
  const { cost, timing } = result
  const tokens = cost.inputTokens === undefined || cost.outputTokens === undefined ? undefined : `${count(cost.inputTokens)} in / ${count(cost.outputTokens)} out`
  // An extraction takes no steps: zeros there would only be noise.
  const goal = result.call === 'goal'
  const rows: [string, string | undefined][] = [
    ['Steps', goal ? count(result.steps) : undefined],
    ['Decisions', goal ? count(result.decisions) : undefined],
    ['Model calls', count(cost.calls)],
    ['Tokens', tokens],
    ['Cost', cost.usd === undefined ? 'unknown' : usd(cost.usd)],
    ['Total', ms(timing.totalMs)],
    ['Model', ms(timing.modelMs)],
    ['Other', ms(timing.otherMs)],
    ['Cache', result.cache ?? 'off'],
    ['Judged', result.accuracy && `${result.accuracy.passed ? 'met' : 'not met'} (p ${result.accuracy.probability.toFixed(2)})`],
  ]
  const shown = rows.filter((row): row is [string, string] => row[1] !== undefined)
  return `<dl class="figures">${shown.map(([name, value]) => `<div><dt>${name}</dt><dd>${text(value, NAME_MAX)}</dd></div>`).join('')}</dl>`
}

const CHECK_MARKS = { done: '✓', open: '○', judgment: '◇' } as const

function checklist(result: ResultLine): string {
  if (!result.checklist?.length) return ''
  const items = result.checklist.map((item) => {
    const evidence = item.evidence ? ` <span class="muted">— ${text(item.evidence, NAME_MAX)}</span>` : ''
    return `<li class="${item.status}"><span class="mark" title="${item.status}">${CHECK_MARKS[item.status]}</span>${text(item.description, TEXT_MAX)} <span class="kind">${text(item.kind, 40)}</span>${evidence}</li>`
  })
  return `<h2 class="sub">Checklist</h2><ul class="checklist">${items.join('')}</ul>`
}

/** The run at a glance: one link per card, so a long run can be skimmed and jumped into. */
function path(steps: readonly StepLine[]): string {
  if (steps.length === 0) return ''
  const links = steps.map((step, index) => `<li${step.stale ? ' class="stale"' : ''}><a href="#s${index + 1}">${action(step, PATH_NAME_MAX)}</a></li>`)
  return `<ol class="path">${links.join('')}</ol>`
}

function timeline(steps: readonly StepLine[], result: ResultLine | undefined): string {
  if (steps.length === 0) return result?.call === 'extract' ? '' : '<p class="empty">No steps were recorded.</p>'
  return `<ol class="timeline">${steps.map(card).join('\n')}</ol>`
}

function card(step: StepLine, index: number): string {
  const number = index + 1
  const typed = step.text === undefined ? '' : `<p class="typed">Typed <code>${text(step.text, NAME_MAX)}</code>${step.masked ? ' <span class="muted">(masked)</span>' : ''}</p>`
  return `<li class="step-card${step.stale ? ' stale' : ''}" id="s${number}">
${screenshot(step.screenshot, step.viewport, step.target?.box, `The page before step ${number}`)}
<div class="info">
<h2><span class="n">${number}</span>${action(step)}</h2>
<p class="meta">request ${count(step.request)} · step ${count(step.step)} · ${page(step.title, step.url)}</p>
${badges(step)}${typed}${heads(step)}${list(step.notes)}
<p class="foot">${stepFigures(step)}</p>
</div>
</li>`
}

/** `CLICK “Search”`, `SELECT “Size” → “42”`, `PRESS “Search” Enter`, `DRAG “C” → “A”`: what was done; names cut at `max`. */
function action(step: StepLine, max = NAME_MAX): string {
  const target = step.target ? ` <q>${text(step.target.name || step.target.id, max)}</q>` : ''
  const option = step.option === undefined ? '' : ` → <q>${text(step.option, max)}</q>`
  const key = step.key === undefined ? '' : ` <kbd>${text(step.key, 20)}</kbd>`
  const to = step.to === undefined ? '' : ` → <q>${text(step.to, max)}</q>`
  return `<span class="op">${text(step.operation, 20)}</span>${target}${option}${key}${to}`
}

function badges(step: StepLine): string {
  const out: string[] = []
  if (step.cached) out.push(`<span class="badge info">cache${step.match ? ` · ${text(step.match, 20)}` : ''}</span>`)
  if (step.stale) out.push(`<span class="badge warn">stale</span>`)
  if (step.approved === true) out.push('<span class="badge ok">approved</span>')
  if (step.approved === false) out.push('<span class="badge bad">declined</span>')
  if (step.risk !== undefined) out.push(`<span class="badge${step.risk >= 0.5 ? ' warn' : ''}">risk ${step.risk.toFixed(2)}</span>`)
  // Only an action that was attempted can change the page: for the others the badge would say nothing.
  const acted = !step.stale && step.approved !== false && step.operation !== 'DONE' && step.operation !== 'BLOCKED'
  if (acted) out.push(step.pageChanged ? '<span class="badge">page changed</span>' : '<span class="badge warn">no change</span>')
  return out.length ? `<p class="badges">${out.join(' ')}</p>` : ''
}

/** What the model weighed: the top options of each head, the chosen one marked. */
function heads(step: StepLine): string {
  const sections: string[] = []
  if (step.heads.operation?.length) sections.push(bars('Operation', step.heads.operation, step.operation))
  if (step.heads.target?.length) sections.push(bars('Target', step.heads.target, step.target?.id))
  return sections.length ? `<div class="heads">${sections.join('')}</div>` : ''
}

function bars(title: string, options: readonly HeadOption[], chosen: string | undefined): string {
  const rows = options.map((option) => {
    const share = fraction(option.p)
    const label = option.label === undefined ? text(option.id, NAME_MAX) : `${text(option.label, NAME_MAX)} <small>${text(option.id, 40)}</small>`
    return `<li${option.id === chosen ? ' class="on"' : ''}><span class="l">${label}</span><i style="--p:${percent(share)}"></i><b>${probability(share)}</b></li>`
  })
  return `<section><h3>${title}</h3><ul class="bars">${rows.join('')}</ul></section>`
}

function stepFigures(step: StepLine): string {
  const { timing, cost } = step
  const parts = [
    timing.observeMs !== undefined && `observe ${ms(timing.observeMs)}`,
    `decide ${ms(timing.decisionMs)}`,
    timing.textMs !== undefined && `text ${ms(timing.textMs)}`,
    timing.actMs !== undefined && `act ${ms(timing.actMs)}`,
    timing.recordMs !== undefined && `record ${ms(timing.recordMs)}`,
    `${count(cost.calls)} model call${cost.calls === 1 ? '' : 's'}`,
    cost.inputTokens !== undefined && cost.outputTokens !== undefined && `${count(cost.inputTokens)} / ${count(cost.outputTokens)} tokens`,
    cost.usd !== undefined && usd(cost.usd),
  ]
  return parts.filter((part) => part !== false).join(' · ')
}

function finalCard(result: ResultLine): string {
  const data = result.data === undefined ? '' : `<h3>Data</h3><pre>${text(pretty(result.data), Infinity)}</pre>`
  const rules = result.rules === undefined ? '' : `<h3>Rules</h3><pre>${text(pretty(result.rules), Infinity)}</pre>`
  return `<section class="final-card">
${screenshot(result.screenshot, result.viewport, undefined, 'The final page')}
<div class="info"><h2>Final page</h2><p class="meta">${page(result.title, result.url)}</p>${data}${rules}</div>
</section>`
}

/**
 * The screenshot with the target's box over it. The box is placed in percentages of the viewport the
 * image shows, inside a frame exactly the image's size, so it stays on the target at any width. Its
 * CSS pixels stay in data attributes for whoever checks it. A target outside the viewport is said in
 * words: a box clipped to nothing would point nowhere.
 */
function screenshot(file: string | undefined, viewport: StepLine['viewport'], box: Rect | undefined, alt: string): string {
  if (file === undefined || !IMAGE_NAME.test(file)) return '<figure><div class="shot none">No screenshot</div></figure>'
  const size = viewport ? ` width="${Math.round(viewport.width)}" height="${Math.round(viewport.height)}"` : ''
  const image = `<img src="${attr(file)}" alt="${attr(alt)}"${size}>`
  const { overlay, caption } = box && viewport ? mark(box, viewport) : { overlay: '', caption: '' }
  return `<figure><a class="shot" href="${attr(file)}">${image}${overlay}</a>${caption}</figure>`
}

function mark(box: Rect, viewport: NonNullable<StepLine['viewport']>): { overlay: string; caption: string } {
  const left = Math.max(0, box.x)
  const top = Math.max(0, box.y)
  const right = Math.min(viewport.width, box.x + box.width)
  const bottom = Math.min(viewport.height, box.y + box.height)
  if (right <= left || bottom <= top) {
    const where = box.y >= viewport.height ? 'below' : box.y + box.height <= 0 ? 'above' : 'beside'
    return { overlay: '', caption: `<figcaption class="off">The target is ${where} the visible part of the page.</figcaption>` }
  }
  const place = `left:${percent(left / viewport.width)};top:${percent(top / viewport.height)};width:${percent((right - left) / viewport.width)};height:${percent((bottom - top) / viewport.height)}`
  const data = `data-x="${box.x}" data-y="${box.y}" data-width="${box.width}" data-height="${box.height}"`
  return { overlay: `<span class="target-box" style="${place}" ${data}></span>`, caption: '' }
}

function page(title: string, url: string): string {
  const name = title.trim() ? `<span class="title">${text(title, NAME_MAX)}</span> ` : ''
  return `${name}<code class="url">${text(url, TEXT_MAX)}</code>`
}

function list(notes: readonly string[]): string {
  return notes.length ? `<ul class="notes">${notes.map((note) => `<li>${text(note, TEXT_MAX)}</li>`).join('')}</ul>` : ''
}

/** JSON as a person reads it; a value the recorder clipped is no longer JSON and is shown as it is. */
function pretty(json: string): string {
  try {
    return JSON.stringify(JSON.parse(json), null, 2)
  } catch {
    return json
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** A string from the page or a model, clipped and escaped for text or an attribute. */
function text(value: string, max: number): string {
  return clip(String(value), max).replace(/[&<>"']/g, (char) => ESCAPES[char]!)
}

function attr(value: string): string {
  return text(value, TEXT_MAX)
}

function fraction(p: number): number {
  return Number.isFinite(p) ? Math.min(1, Math.max(0, p)) : 0
}

function percent(share: number): string {
  return `${Number((share * 100).toFixed(3))}%`
}

function probability(share: number): string {
  return share > 0 && share < 0.005 ? '&lt;1%' : `${Math.round(share * 100)}%`
}

function count(value: number): string {
  return value.toLocaleString('en')
}

function ms(value: number): string {
  return value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(1)} s`
}

function usd(value: number): string {
  return value === 0 ? '$0' : value < 0.01 ? `$${value.toPrecision(2)}` : `$${value.toFixed(2)}`
}

// System fonts only; light and dark follow the reader's setting. Cards put the screenshot left of the
// details on wide screens and stack them on narrow ones.
const CSS = `
:root{--bg:#f6f7f9;--card:#fff;--fg:#1d2430;--muted:#5f6b7a;--line:#e2e6eb;--ok:#1a7f37;--ok-bg:#e6f4ea;--bad:#c62828;--bad-bg:#fdecea;
--warn:#9a6700;--warn-bg:#fff4d6;--info:#0b5cad;--info-bg:#e7f0fb;--bar:#7aa7e0;--bar-on:#0b5cad;--track:#edf0f3;--mark:#e5484d;
font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg)}
@media (prefers-color-scheme:dark){:root{--bg:#0f1318;--card:#181d24;--fg:#e4e8ee;--muted:#98a3b3;--line:#2a313b;--ok:#4ac26b;--ok-bg:#12301c;
--bad:#ff6b6b;--bad-bg:#3a1618;--warn:#e3b341;--warn-bg:#33290f;--info:#6cb6ff;--info-bg:#132b45;--bar:#3d6aa3;--bar-on:#6cb6ff;--track:#232a33}}
*{box-sizing:border-box}body{margin:0}main{max-width:1240px;margin:0 auto;padding:20px 16px 48px}
h1{font-size:1.6rem;line-height:1.25;margin:.1rem 0 .4rem;overflow-wrap:anywhere}h2{font-size:1.05rem;margin:0 0 .3rem;overflow-wrap:anywhere}
h3{font-size:.75rem;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);margin:.6rem 0 .2rem}
code,pre{font:12.5px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}code.url{color:var(--muted);overflow-wrap:anywhere}
.muted,.kind,.meta,.foot,.kicker{color:var(--muted)}.kind{font-size:.8em}.meta,.foot{font-size:.85rem;margin:.1rem 0;overflow-wrap:anywhere}
.kicker{margin:0;font-size:.85rem}.title{color:var(--fg)}
.banner{border-radius:10px;padding:12px 16px;margin-bottom:14px;border:1px solid}.banner strong{font-size:1.25rem}.banner p{margin:.25rem 0 0;overflow-wrap:anywhere}
.banner.ok{background:var(--ok-bg);color:var(--ok);border-color:var(--ok)}.banner.fail{background:var(--bad-bg);color:var(--bad);border-color:var(--bad)}
.banner.fail p{color:var(--fg);font-weight:500}.banner.open{background:var(--warn-bg);color:var(--warn);border-color:var(--warn)}
.tag{display:inline-block;font:600 .8rem/1.6 ui-monospace,monospace;padding:0 8px;border-radius:99px;border:1px solid currentColor;margin-left:6px;vertical-align:3px}
.figures{display:flex;flex-wrap:wrap;gap:8px;margin:12px 0}.figures div{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:4px 12px}
.figures dt{font-size:.7rem;text-transform:uppercase;letter-spacing:.06em;color:var(--muted)}.figures dd{margin:0;font-weight:600}
.sub{margin-top:14px}.checklist{list-style:none;padding:0;margin:0}.checklist li{margin:2px 0}.mark{display:inline-block;width:1.4em;font-weight:700}
.checklist .done .mark{color:var(--ok)}.checklist .open .mark{color:var(--bad)}.checklist .judgment .mark{color:var(--info)}
.path{display:flex;flex-wrap:wrap;gap:4px 6px;list-style:none;padding:0;margin:14px 0 0;font-size:.85rem}
.path li{counter-increment:p}.path li::before{content:counter(p) " ";color:var(--muted)}.path li.stale a{text-decoration:line-through}
.path a{display:inline-block;max-width:22em;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;vertical-align:top;color:var(--fg);text-decoration:none;background:var(--card);border:1px solid var(--line);border-radius:6px;padding:1px 6px}
.timeline{list-style:none;padding:0;margin:20px 0}
.step-card,.final-card{display:grid;grid-template-columns:1fr;gap:14px;background:var(--card);border:1px solid var(--line);border-radius:12px;padding:14px;margin:0 0 14px}
.step-card.stale{border-style:dashed}
@media (min-width:900px){.step-card,.final-card{grid-template-columns:minmax(0,11fr) minmax(0,9fr)}}
figure{margin:0;align-self:start}.shot{display:block;position:relative;overflow:hidden;border:1px solid var(--line);border-radius:6px;line-height:0}
.shot img{display:block;width:100%;height:auto}.shot.none{display:grid;place-items:center;min-height:120px;line-height:1.5;color:var(--muted);background:var(--track)}
.target-box{position:absolute;border:2px solid var(--mark);border-radius:3px;box-shadow:0 0 0 1px #fff,0 0 0 9999px #00000024}
.off{margin:.3rem 0 0;font-size:.85rem;color:var(--warn)}
.n{display:inline-grid;place-items:center;min-width:1.7em;height:1.7em;border-radius:99px;background:var(--fg);color:var(--card);font-size:.8rem;margin-right:8px;vertical-align:2px}
.op{font:600 .85em ui-monospace,monospace;margin-right:2px}q{quotes:"“" "”"}
.badges{margin:.3rem 0;display:flex;flex-wrap:wrap;gap:4px}.badge{font-size:.75rem;padding:1px 8px;border-radius:99px;background:var(--track)}
.badge.ok{background:var(--ok-bg);color:var(--ok)}.badge.bad{background:var(--bad-bg);color:var(--bad)}.badge.warn{background:var(--warn-bg);color:var(--warn)}
.badge.info{background:var(--info-bg);color:var(--info)}.typed{margin:.3rem 0}
.heads{display:grid;grid-template-columns:repeat(auto-fit,minmax(220px,1fr));gap:0 16px}
.bars{list-style:none;padding:0;margin:0;font-size:.82rem}.bars li{display:grid;grid-template-columns:minmax(0,1fr) 70px 3.2em;gap:6px;align-items:center}
.bars .l{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}.bars small{color:var(--muted)}.bars b{font-weight:500;text-align:right}
.bars i{height:8px;border-radius:4px;background:linear-gradient(90deg,var(--bar) var(--p),var(--track) 0)}
.bars li.on{font-weight:600}.bars li.on i{background:linear-gradient(90deg,var(--bar-on) var(--p),var(--track) 0)}
.notes{margin:.5rem 0;padding-left:1.2em;font-size:.88rem}.notes li{overflow-wrap:anywhere}
pre{background:var(--track);padding:10px;border-radius:6px;overflow:auto;max-height:420px;white-space:pre-wrap;overflow-wrap:anywhere}
.empty{color:var(--muted)}
`
