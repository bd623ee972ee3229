// The public API of puppeteer-agent, in one place.
import type { Page } from 'puppeteer-core'
import type { Experimental_DecisionModelV4, LanguageModelV4 } from '@ai-sdk/provider'

/** A decision model: an AI Gateway model id, `'local'` (the offline baseline), or an AI SDK decision model instance. */
export type DecisionModelSetting = string | Experimental_DecisionModelV4
/** A language model: an AI Gateway model id or an AI SDK language model instance. */
export type LanguageModelSetting = string | LanguageModelV4

export type ReasoningLevel = 'provider-default' | 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh'

/** A custom rules engine: receives the page and the rules, returns the data. */
export type Extractor = (page: Page, rules: Rules) => unknown | Promise<unknown>

export interface ModelOptions {
  /** Decision model. `false` makes the text model take the decisions. Default `'typesafe-ai/jev'`. */
  decisions?: DecisionModelSetting | false | null
  /** Language model that writes TYPE_TEXT values, extraction rules, and decides when `decisions` is `false`. Default `'openai/gpt-6-luna'`. */
  text?: LanguageModelSetting | null
  /** Decision model that `profiling()` asks whether the goal was met. Default `'typesafe-ai/jev'`. */
  evaluator?: DecisionModelSetting | null
  /** Reasoning level for the text model. Default `'none'`. */
  reasoning?: ReasoningLevel | null
  /** Milliseconds per model request, all retries included. Default 25000. */
  timeout?: number | null
  /** Retries of a model request after a network error, 408, 429 or 5xx. Default 2. */
  maxRetries?: number | null
  /** Longest `Retry-After` the agent will wait, in milliseconds; a longer one ends the request. Default 10000. */
  maxRetryAfterMs?: number | null
  /** Cancels the run: aborting it resolves the call at once with `status: 'error'` and its reason, whatever the page is doing. */
  signal?: AbortSignal | null
  /**
   * The replay cache: a directory, a store (anything with async `get`/`set`, a `keyv` instance for
   * one), or both with its settings. A goal that succeeded is replayed without decision requests on
   * later runs on pages of the same shape, and rules a model wrote are reused. Off by default, or the
   * directory in the environment variable `PUPPETEER_AGENT_CACHE`. See docs/replay-cache.md.
   */
  cache?: string | CacheStore | CacheOptions | false | null
  /**
   * Record the run: a directory, or `{ dir, typedValues }`. Each goal or extraction writes a folder in
   * it with `run.jsonl`, a screenshot per step and `report.html`. Off by default, or the directory in
   * the environment variable `PUPPETEER_AGENT_RECORD`. Recordings are private data (docs/recordings.md).
   */
  record?: string | RecordOptions | false | null
}

export interface RecordOptions {
  /** Where run folders are written. */
  dir: string
  /** Show typed values in run.jsonl and the report (default `false`: masked). A password is never shown. */
  typedValues?: boolean
}

/** Where replay entries are kept: a `keyv` instance (Redis, SQLite, Postgres…) fits, as does a Map. */
export interface CacheStore {
  get(key: string): unknown | Promise<unknown>
  set(key: string, value: any): unknown | Promise<unknown>
}

export interface CacheOptions {
  /** A directory (one JSON file per entry) or a store. */
  store: string | CacheStore
  /**
   * Keep the values a goal typed in its entry (default `true`). With `false` the text model writes
   * them again at replay. A password field's value is never kept.
   */
  typedValues?: boolean
  /**
   * After the last replayed step, one decision request confirms DONE (default `true`). `false` skips
   * it when the page verifies the whole checklist; with any item unverified it is still asked.
   */
  confirmDone?: boolean
}

/** `hit`: replayed from the cache; `miss`: no usable entry (one is written on success); `healed`: an entry did not fit the page, the model took over and a success replaced it. */
export type CacheStatus = 'hit' | 'miss' | 'healed'

export interface GoalOptions extends ModelOptions {
  /** Maximum successful input actions. Default 60. */
  maxSteps?: number | null
  /** Maximum decision requests, including discarded stale decisions. Default 120. */
  maxDecisions?: number | null
  /** Duration of WAIT in milliseconds; zero allowed. Default 100. */
  waitMs?: number | null
  /** Stop with reason `low_confidence` when the chosen operation or target is less probable than this. Off by default. */
  minConfidence?: number | null
  /**
   * The goal's checklist of sub-goals the page must prove. `true` (default): the text model writes it
   * in one request when the goal starts; `false`: none, DONE ends the run as the model says; a list:
   * yours, no request. DONE counts only once every checkable item is verified on the page.
   */
  checklist?: boolean | ChecklistItem[] | null
  /** Called before a risky action (payment, purchase, deletion, sending); resolve `true` to allow it. Without it such actions stop the run with `risk_review`. `signal` ends the run while it has not answered. */
  approve?: ((action: PendingAction) => boolean | Promise<boolean>) | null
  /**
   * Clear the page's consent banner before the goal starts, with @duckduckgo/autoconsent: `'reject'`
   * refuses, `'accept'` accepts; `false` (default) leaves it to the model. What was done is in `consent`.
   */
  consent?: ConsentChoice | false | null
  /**
   * Send the decision model a screenshot of the viewport with every offered element's action ID drawn
   * beside it, with each decision request's state (`decisions: false`: to the text model, as an image).
   * Default `false`: it costs input tokens. See docs/vision.md.
   */
  vision?: boolean | null
  /**
   * Values the goal may need typed, such as a login, by name: `{ username: 'ada', password: '…' }`.
   * Models see and write only the placeholders `%username%`, `%password%`; the real value is typed in
   * their place, and replaced by its placeholder wherever the page shows it again. Names: a letter,
   * then up to 39 letters, digits, `_` or `-`; values: non-blank strings. With secrets, a password
   * field does not stop the run with `login_wall`. See docs/secrets.md.
   */
  secrets?: Record<string, string> | null
}

export type ConsentChoice = 'reject' | 'accept'

/** What clearing the consent banner did; the goal runs on whatever it says. */
export interface ConsentReport {
  action: ConsentChoice
  /** The consent platform recognised (autoconsent's rule name), or null when none was. */
  cmp: string | null
  /**
   * `cleared`: the banner was answered (or, for a platform known only by CSS, hidden); `failed`: the
   * platform's steps did not complete; `none`: no known platform, or its banner was not open;
   * `timed_out`: an open banner not cleared in 5 s; `error`: the library could not run (see `error`);
   * `navigated`: the step started a navigation of the page (see `url`), which was stopped, and the goal
   * runs on the page it was given; `left_page`: the page changed document anyway (see `url`) and the goal
   * ends with an error; `unresponsive`: a script of the page kept it from answering at the bound (an
   * alert() loop) and the goal ends with an error.
   */
  outcome: 'cleared' | 'failed' | 'none' | 'timed_out' | 'navigated' | 'left_page' | 'unresponsive' | 'error'
  ms: number
  /** With `navigated` and `left_page`: where the page was sent (clipped to 1,000 characters). */
  url?: string
  /** How many dialogs the page raised during the step; each was dismissed. */
  dialogs?: number
  /** Set when the page did not answer at the bound and its running script was stopped. */
  scriptStopped?: true
  error?: string
}

/** An extraction takes no decisions and is not judged: of the model options it reads the text model's, and the request bounds. */
export interface ExtractOptions extends Omit<ModelOptions, 'decisions' | 'evaluator'> {
  /** A replacement rules engine. */
  extractor?: Extractor | null
}

export type AgentOptions = GoalOptions & ExtractOptions

// ---------------------------------------------------------------- rules

/**
 * What a read text becomes: `currency` the ISO code of a currency written in it where only one is
 * meant ("£" is GBP, a bare "$" is none); `availability` a schema.org availability (`InStock`,
 * `OutOfStock`, `PreOrder`…) from a schema.org value, stock words, or a buy button's state; `code`
 * the product code in a longer text ("post id: 7221815683", a URL ending in the item number).
 */
export type RuleType = 'number' | 'url' | 'image' | 'date' | 'string' | 'currency' | 'availability' | 'code'

/** How a rule makes one value of the several it found: see docs/extract.md. */
export type Reduction = 'first' | 'min' | 'max' | 'any'

export interface Rule {
  /** CSS selector for one element. */
  selector?: string
  /** CSS selector for every matching element; the field becomes a list. */
  selectorAll?: string
  /** What to read: `text`, `html` (default), `outerHTML`, `val`, `href`, `src`, any attribute, a list tried in order, or nested rules. */
  attr?: string | string[] | Rules
  type?: RuleType
  /**
   * Reads the page's JSON-LD instead of an element: the @type of the object, then a dotted path,
   * `[n]` for the nth element of a list (the first otherwise), `[]` for every one. `'Product.offers.price'`.
   */
  jsonld?: string
  /** Reads the `content` of the `<meta>` whose `property`, `name` or `itemprop` is this. `'og:title'`. */
  meta?: string
  /** A path inside the JSON of what was read (an attribute such as `data-product='{"sku": …}'`): `'sku'`, `'variants[0].sku'`, `'offers[].price'`. */
  json?: string
  /** Keeps the code that follows this label in the text read: `'Item no.'` reads `12345` out of `Item no.: 12345 (new)`. */
  after?: string
  /** One value out of the several found (`selectorAll`'s matches, a path's `[]` items, several meta tags). */
  reduce?: Reduction
}

/** Field name → a rule, or a list of rules tried in order. */
export type Rules = { [field: string]: Rule | Rule[] }

// ---------------------------------------------------------------- results

export type Operation =
  | 'CLICK'
  | 'TYPE_TEXT'
  | 'SUBMIT'
  | 'SELECT'
  | 'PRESS'
  | 'HOVER'
  | 'DRAG'
  | 'SCROLL_DOWN'
  | 'SCROLL_UP'
  | 'WAIT'
  | 'DONE'
  | 'BLOCKED'

export type BlockedReason =
  | 'captcha'
  | 'login_wall'
  | 'unsupported_surface'
  | 'step_budget'
  | 'no_change'
  | 'stale_target'
  | 'model_blocked'
  | 'low_confidence'
  | 'risk_review'
  | 'input_redirected'
  | 'unverified_done'

/**
 * Why a run that did not succeed ended, one tag per run, so a batch can be counted by cause: the
 * reason of a BlockedError, or `aborted` (the caller's signal), `page_gone` (the page closed or
 * crashed, the browser disconnected), `model_failed` (a model request failed or its reply did not
 * validate), `page_failed` (anything else thrown while observing or acting).
 */
export type FailureTag = BlockedReason | 'aborted' | 'page_gone' | 'model_failed' | 'page_failed'

// ---------------------------------------------------------------- checklist

/**
 * What a checklist item checks, without a model. Controls and fields are named as the observation
 * names them (their label or accessible name); names and values match case- and space-insensitively.
 */
export type ChecklistCheck =
  /** A text field holds this value. */
  | { kind: 'field_value'; field: string; value: string }
  /** A checkbox, radio or switch is checked (or not). */
  | { kind: 'checked'; control: string; checked: boolean }
  /** A select or listbox has this option selected. */
  | { kind: 'selected'; control: string; option: string }
  /** The agent clicked or submitted this control (Enter in a field counts for its form's button), after every item above it was done, and the page changed because of it (then or at a later input). */
  | { kind: 'activated'; control: string }
  /** The page shows this text now (the end state of the goal). */
  | { kind: 'text_visible'; text: string }
  /** The page's URL contains this now (the end state of the goal). */
  | { kind: 'url_matches'; contains: string }
  /** Nothing on the page can prove it: only the model's DONE covers it. */
  | { kind: 'judgment' }

export interface ChecklistItem {
  /** The sub-goal in words. */
  description: string
  check: ChecklistCheck
}

/**
 * `done` only on evidence the run produced; `open` until then (or again, once the evidence is gone);
 * `judgment` is not checked: a judgment item, or a checkable one the page cannot prove (`unproven`
 * says why). Only `open` holds a DONE back, and only `done` counts towards `verified`.
 */
export type ChecklistStatus = 'done' | 'open' | 'judgment'

/**
 * Why a checkable item is reported as `judgment`:
 * - `met_at_start`: the page showed it before the run acted (a value the page filled in, text or a URL
 *   it started with), so it proves nothing the run did;
 * - `unprompted`: the page came to show it with no input of the run before it (a confirmation on a
 *   timer, a box the page ticked, a URL it pushed while the agent waited);
 * - `unmatched`: no observation offered the control it names;
 * - `gone`: the page took its control away after the run's last input, and the run ended on it;
 * - `disputed`: the decision model said the item is wrong for the page (`evidence` gives its reason);
 *   it holds no DONE back, and the run is not verified.
 */
export type ChecklistUnproven = 'met_at_start' | 'unprompted' | 'unmatched' | 'gone' | 'disputed'

/** Why the decision model disputed a checklist item: one of a fixed list, never the model's own words. */
export type ChecklistDispute = 'other_wording' | 'no_such_control' | 'not_needed'

export interface ChecklistItemResult extends ChecklistItem {
  status: ChecklistStatus
  /** What the page showed for it last (a field's value, a checked state, the URL…), and when. */
  evidence?: string
  /** Why a checkable item is reported as `judgment` (see `ChecklistUnproven`). */
  unproven?: ChecklistUnproven
}

export interface ChecklistReport {
  /** Who wrote the items: the text model, the caller, or nobody (turned off, or a reply that did not validate). */
  source: 'model' | 'caller' | 'none'
  items: ChecklistItemResult[]
  /**
   * Why there is no checklist although one was asked for (a reply that did not validate, a text model
   * that failed), or why its items do not verify the run (items `met_at_start` or `unmatched`).
   */
  note?: string
}

export interface DialogRecord {
  type: 'alert' | 'confirm' | 'prompt' | 'beforeunload'
  /** Clipped at 300 characters, ending `… (N characters)` when it was longer. */
  message: string
  /** What the agent answered: accepted or dismissed. */
  accepted: boolean
}

/**
 * A change to part of a field's value, as the text model writes it beside its `text`: `replace` the
 * quoted passage with the text, `insert_after` it, or `append` the text at the end. The passage must be
 * in the value exactly once.
 */
export type TextEdit = { mode: 'replace' | 'insert_after'; quote: string } | { mode: 'append' }

export interface TraceEntry {
  /** 1-based decision request number; for a step replayed from the cache, the requests made before it. */
  request: number
  /** Successful input actions so far, this one included. */
  step: number
  operation: Operation
  /** Snapshot action ID of the target, e.g. `e4`. */
  target?: string
  /** For SELECT: the option chosen. */
  option?: string
  /** For PRESS: the key pressed (one of a fixed list, e.g. `Enter`, `Escape`, `Shift+Tab`). */
  key?: string
  /** For DRAG: where the target was dropped: the name of the control it was dropped on, or a move such as `right-25`. */
  to?: string
  /** Accessible name of the target, for reading the trace. */
  targetName?: string
  /** Probability of the chosen operation (absent when the text model decides). */
  confidence?: number
  probabilities?: Record<string, number>
  /** Probability of the chosen target (absent when the text model decides or the operation has no target). */
  targetConfidence?: number
  targetProbabilities?: Record<string, number>
  /** The decision was discarded because its target failed a freshness check. */
  stale: boolean
  /** Which freshness check failed. */
  staleReason?: string
  /** The observation after the action differs from the one before it. */
  pageChanged: boolean
  /** The value typed for TYPE_TEXT (with `edit`: the new text of the part edited). Treat traces as private data. */
  text?: string
  /** The note the text model wrote with this decision (`decisions: false`), secrets scrubbed. */
  note?: string
  /** For a TYPE_TEXT that changed part of the field's value: how, and the passage quoted. */
  edit?: TextEdit
  /** Why the executor refused the action before any input (an edit's quoted passage not in the field exactly once). */
  refused?: string
  decisionMs: number
  textMs?: number
  /** Time to observe the page this decision was made on. */
  observeMs?: number
  /** Freshness checks, input and settling of the action, without WAIT's pause; absent when nothing was attempted. */
  actMs?: number
  /** For a risky action: whether `approve` allowed it. */
  approved?: boolean
  /** Model-reported risk of the action, when a risk question was asked (from the text model 1 or 0; 1 when it did not rate it). */
  risk?: number
  /** Native dialogs the action raised: the first 5 (every one was answered). */
  dialogs?: DialogRecord[]
  /** URLs of tabs the page opened (the first 5, clipped at 1,000 characters); they are reported, never followed. */
  popups?: string[]
  /** The page's URL, clipped at 1,000 characters. */
  url: string
  /** With `vision`: the milliseconds taken to capture and badge the image the request carried, and its size in bytes. */
  imageMs?: number
  imageBytes?: number
  /** Replayed from the cache: no decision request; `match` says how the recorded target was found. */
  cached?: true
  /**
   * `exact`: the recorded identity, replayed; `scored`: the one clear best match of it (renamed, moved,
   * sharing a word of its name), which the decision model was asked about and chose (no `cached`).
   */
  match?: 'exact' | 'scored'
  /** For a DONE that did not end the run: the checklist items still open then, which the model was told. */
  openItems?: string[]
  /**
   * The `judgment` checklist item (its description) the model said this action carries out. It becomes
   * an `activated` item on the action's target only when the input landed and the page changed.
   */
  serves?: string
  /** A checklist item the model disputed with this decision, and why. */
  disputed?: { item: string; reason: ChecklistDispute }
}

export interface Cost {
  calls: number
  inputTokens: number | undefined
  outputTokens: number | undefined
  cachedInputTokens: number
  cacheWriteTokens: number
  reasoningTokens: number
  usd: number | undefined
  generationIds: string[]
}

export interface Timing {
  totalMs: number
  modelMs: number
  otherMs: number
  evaluationMs: number
}

export interface Accuracy {
  passed: boolean
  probability: number
}

export interface GoalProfiling {
  accuracy: Accuracy | undefined
  cost: Cost
  timing: Timing
  /** What the replay cache did; absent when it is off. */
  cache?: CacheStatus
  /** Why the evaluation failed, when it did; the next call tries again. */
  error?: Error
}

export interface ExtractProfiling {
  /** The rules that ran: pass them to `page.extract(rules)` to skip the model next time. */
  rules: Rules | undefined
  cost: Cost
  timing: Timing
  /** What the replay cache did, for an extraction whose rules a model writes; absent otherwise. */
  cache?: CacheStatus
}

export interface ProfilingCallOptions {
  signal?: AbortSignal
}

export interface GoalResult {
  status: 'success' | 'error'
  /** Successful input actions. */
  steps: number
  /** Decision requests, including discarded stale decisions. */
  decisions: number
  trace: TraceEntry[]
  error?: Error
  /** Why the run did not succeed; absent on success. */
  failure?: FailureTag
  /** The checklist as it stood at the end, with each item's status and evidence. */
  checklist: ChecklistReport
  /**
   * `true` when the run succeeded and the page verified the whole checklist at the end: every item
   * checkable and done. A judgment item, or no checklist, leaves it `false`.
   */
  verified: boolean
  /** Set when the `consent` option asked to clear a consent banner before the goal. */
  consent?: ConsentReport
  /** With `record`: the path of the run's report.html (run.jsonl and the screenshots are beside it); unset when it could not be written. */
  report?: string
  profiling(options?: ProfilingCallOptions): Promise<GoalProfiling>
}

export type ExtractResult<T = any> =
  | { status: 'success'; data: T; error?: undefined; report?: string; profiling(options?: ProfilingCallOptions): Promise<ExtractProfiling> }
  | { status: 'error'; data?: undefined; error: Error; report?: string; profiling(options?: ProfilingCallOptions): Promise<ExtractProfiling> }

/** The action awaiting approval. */
export interface PendingAction {
  operation: Operation
  target?: string
  targetName?: string
  option?: string
  /** For PRESS: the key. */
  key?: string
  /** For DRAG: the name of the control it would be dropped on, or the move. */
  to?: string
  text?: string
  url: string
  /** The model's probability that the action is risky. */
  risk: number
}

/** The agent stopped the run itself. */
export declare class BlockedError extends Error {
  readonly code: 'BLOCKED'
  readonly reason: BlockedReason
  readonly trace: TraceEntry[]
  constructor(reason: BlockedReason, message: string, trace: TraceEntry[])
}

/** The page closed or crashed, or the browser disconnected, while an agent call was using it (a result's `error`). */
export declare class PageGoneError extends Error {
  constructor(message: string, options?: ErrorOptions)
}

/** The API was called wrong: thrown synchronously, or as a rejection before anything runs. */
export declare class UsageError extends TypeError {
  constructor(message: string)
}

// ---------------------------------------------------------------- the agent

export interface AgentPage extends Page {
  goal(goal: string, options?: GoalOptions): Promise<GoalResult>
  extract<T = any>(rules: Rules, options?: ExtractOptions): Promise<ExtractResult<T>>
  extract<T = any>(instruction: string, rules?: Rules | null, options?: ExtractOptions): Promise<ExtractResult<T>>
  extract<T = any>(instruction: string, options?: ExtractOptions): Promise<ExtractResult<T>>
}

export interface Agent {
  /** Adds `goal()` and `extract()` to the page and returns the same page. */
  <P extends Page>(page: P, defaults?: AgentOptions): P & AgentPage
  goal(page: Page, goal: string, options?: GoalOptions): Promise<GoalResult>
  extract<T = any>(page: Page, rules: Rules, options?: ExtractOptions): Promise<ExtractResult<T>>
  extract<T = any>(page: Page, instruction: string, rules?: Rules | null, options?: ExtractOptions): Promise<ExtractResult<T>>
  extract<T = any>(page: Page, instruction: string, options?: ExtractOptions): Promise<ExtractResult<T>>
  /** Runs rules with the built-in engine in the page, without a model. Throws while another agent call runs on the page, except inside an extraction's own `extractor`. */
  applyRules<T = any>(page: Page, rules: Rules): Promise<T>
  BlockedError: typeof BlockedError
  PageGoneError: typeof PageGoneError
  UsageError: typeof UsageError
}

declare const agent: Agent
export default agent
