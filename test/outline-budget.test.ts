import test from 'ava'
import { fitLines, type OutlineLine } from '../src/page/outline-budget.ts'

// Item 1 of issue 28: over its bound, the outline keeps lines by what they are worth, with the lines
// of the elements that hold them, and says where it left lines out.

function line(text: string, depth: number, parent: number, tier: number): OutlineLine {
  return { text, depth, parent, tier }
}

const LINES = [
  line('0 div.page', 0, -1, 3),
  line('1 div.menu', 1, 0, 2),
  line('2 a "Menu entry one"', 2, 1, 2),
  line('2 a "Menu entry two"', 2, 1, 2),
  line('1 div.product', 1, 0, 3),
  line('2 span.price "€ 9"', 2, 4, 0),
  line('2 p "A description"', 2, 4, 1),
]

test('an outline within its bound is kept whole', (t) => {
  t.deepEqual(fitLines(LINES, 1_000), { lines: LINES.map((item) => item.text), leftOut: 0 })
})

test('over the bound the best lines are kept with the lines that hold them, and a run left out is one "…" line', (t) => {
  const { lines, leftOut } = fitLines(LINES, 80)
  t.deepEqual(lines, ['0 div.page', '1 …', '1 div.product', '2 span.price "€ 9"', '2 p "A description"'])
  t.is(leftOut, 3)
  t.true(lines.join('\n').length <= 80)
})

test('a line that does not fit is passed over for later ones that do', (t) => {
  const lines = [line('0 body', 0, -1, 3), line(`1 p "${'x'.repeat(200)}"`, 1, 0, 0), line('1 b "short"', 1, 0, 1)]
  t.deepEqual(fitLines(lines, 40).lines, ['0 body', '1 …', '1 b "short"'])
})
