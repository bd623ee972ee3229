import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'

// Chrome's memory and CPU as Linux reports them in /proc: every process under the browser's pid.
//
// Memory: RSS and PSS from /proc/<pid>/smaps_rollup. RSS counts the pages a process shares with the
// others (Chrome's code, shared memory between the browser and its renderers) once per process, so
// the sum overstates; PSS splits each shared page among its users, so the sum is the tree's share
// of the machine's memory. Both are printed; PSS is the figure to add up.
//
// CPU: utime + stime of every live process, plus cutime + cstime: the CPU of children that exited
// and were reaped by a parent in the tree (the renderer of a closed browser context), which a
// live-process sum would lose.

let ticks: number | undefined
/** Clock ticks per second of /proc's CPU times. */
function clockTicks(): number {
  if (ticks === undefined) {
    try {
      ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
    } catch {
      ticks = 100
    }
  }
  return ticks
}

interface Stat {
  pid: number
  ppid: number
  /** utime + stime, in ms. */
  ownMs: number
  /** cutime + cstime: children that exited and were reaped by this process, in ms. */
  reapedMs: number
  cpuMs: number
}

function readStat(pid: number): Stat | undefined {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return undefined
  }
  // The command name is in parentheses and may hold spaces: the fields start after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  // fields[0] is field 3 (state): ppid is field 4, utime..cstime are fields 14..17.
  const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((index) => Number(fields[index]))
  const ms = (value: number) => (value * 1000) / clockTicks()
  const ownMs = ms(utime! + stime!)
  const reapedMs = ms(cutime! + cstime!)
  return { pid, ppid: Number(fields[1]), ownMs, reapedMs, cpuMs: ownMs + reapedMs }
}

/** The pids of `root` and every process under it. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    const stat = readStat(Number(name))
    if (!stat) continue
    const list = children.get(stat.ppid) ?? []
    list.push(stat.pid)
    children.set(stat.ppid, list)
  }
  const tree: number[] = []
  const queue = [root]
  while (queue.length > 0) {
    const pid = queue.shift()!
    tree.push(pid)
    queue.push(...(children.get(pid) ?? []))
  }
  return tree
}

function rollup(pid: number): { rssKb: number; pssKb: number } | undefined {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8')
  } catch {
    return undefined
  }
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0)
  return { rssKb: field('Rss'), pssKb: field('Pss') }
}

function kind(pid: number): string {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
    return /--type=([\w-]+)/.exec(cmdline)?.[1] ?? 'browser'
  } catch {
    return 'gone'
  }
}

export interface TreeSample {
  processes: number
  renderers: number
  /** Sums over the tree, in MB. */
  rssMb: number
  pssMb: number
  /** CPU of the tree so far, reaped children included, in ms. */
  cpuMs: number
  /** The browser process's own CPU, in ms. */
  rootCpuMs: number
  /** Live renderers' CPU plus what the zygotes reaped (renderers of closed contexts), in ms. */
  rendererCpuMs: number
}

/** Memory and CPU of the process tree under `root` now. */
export function sampleTree(root: number): TreeSample {
  let rssKb = 0
  let pssKb = 0
  let cpuMs = 0
  let rootCpuMs = 0
  let rendererCpuMs = 0
  let processes = 0
  let renderers = 0
  for (const pid of processTree(root)) {
    const memory = rollup(pid)
    const stat = readStat(pid)
    if (!memory || !stat) continue
    processes += 1
    const type = kind(pid)
    if (type === 'renderer') {
      renderers += 1
      rendererCpuMs += stat.ownMs
    }
    // The zygotes fork the renderers (and little else that exits), so what they reaped is renderers'.
    if (type === 'zygote') rendererCpuMs += stat.reapedMs
    if (pid === root) rootCpuMs = stat.ownMs
    rssKb += memory.rssKb
    pssKb += memory.pssKb
    cpuMs += stat.cpuMs
  }
  return { processes, renderers, rssMb: rssKb / 1024, pssMb: pssKb / 1024, cpuMs, rootCpuMs, rendererCpuMs }
}

/** The machine's CPU time so far, busy and in all, in ms (from /proc/stat, every core together). */
export function machineCpu(): { busyMs: number; totalMs: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!
  const values = line.trim().split(/\s+/).slice(1).map(Number)
  // user nice system idle iowait irq softirq steal (guest times are already inside user and nice).
  const [user, nice, system, idle, iowait, irq, softirq, steal] = values as [number, number, number, number, number, number, number, number]
  const busy = user + nice + system + irq + softirq + steal
  const total = busy + idle + iowait
  const toMs = (value: number) => (value * 1000) / clockTicks()
  return { busyMs: toMs(busy), totalMs: toMs(total) }
}

/**
 * Established TCP connections whose local port is `port`: with a server listening on `port` in this
 * process, the connections it accepted (Chrome keeps some open between pages, HTTP keep-alive).
 */
export function acceptedConnections(port: number): number {
  let count = 0
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string
    try {
      text = readFileSync(file, 'utf8')
    } catch {
      continue
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/)
      // fields: sl local_address rem_address st …; addresses are HEXIP:HEXPORT, st 01 is ESTABLISHED.
      if (fields.length < 4 || fields[3] !== '01') continue
      if (Number.parseInt(fields[1]!.split(':')[1]!, 16) === port) count += 1
    }
  }
  return count
}
