// The bench's tables: every row shows the measured ratio, the target beside it and whether it is met.
import type { StageProfile } from './profile.js';
import { type GbufferRound, type HitKey, type PageInfo, type PickAnswers, type PickRound, points } from './shared.js';

export interface PickRow {
  label: string;
  /** Medians of the interleaved rounds, ms. */
  m: Record<keyof PickRound, number>;
  answers: PickAnswers;
  setup: { weftMs: number; babylonMs: number };
  /** Stage medians of weft's requests on this scene (profile.ts). */
  profile: Record<'floor' | 'drawFloor' | 'pick' | 'many' | 'rect', StageProfile>;
}

const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const x = (v: number) => `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)}×`;
const met = (ok: boolean) => (ok ? 'yes' : 'NO');

function table(title: string, notes: string[], header: string[], rows: string[][]): void {
  console.log(`\n${title}`);
  for (const note of notes) console.log(`  ${note}`);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])));
  console.log(line(header).join('  '));
  for (const row of rows) console.log(line(row).join('  '));
}

function agreement(a: PickAnswers): string[] {
  const many = a.weft.many.filter((k, i) => k === a.babylon.many[i]).length;
  const hits = a.weft.many.filter((k) => k !== '-').length;
  const babylonRect = new Set(a.babylon.rect);
  const common = a.weft.rect.filter((k) => babylonRect.has(k)).length;
  const ray = a.weft.many.filter((k, i) => k === a.babylon.ray[i]).length;
  const mirrored = a.weft.many.filter((k, i) => k === a.babylon.mirrored[i]).length;
  return [
    a.weft.centre === a.babylon.centre ? `yes (${a.weft.centre})` : `NO (${a.weft.centre} vs ${a.babylon.centre})`,
    `${many}/${a.weft.many.length} (${hits} hits)`,
    `${ray}/${a.weft.many.length}`,
    `${mirrored}/${a.weft.many.length}`,
    `${common} common, weft ${a.weft.rect.length}, Babylon ${a.babylon.rect.length}`,
    String(a.babylonFramesPerPick),
  ];
}

export function printPickTables(rows: PickRow[], pointCount: number): void {
  table(
    'weft GPU pick (pickAsync, default options) vs weft floors (medians, ms)',
    [
      'floor = submit of a 256 B copy + mapAsync of the 256 B destination, on weft’s device (target: pick ≤ 1.5× floor);',
      'draw floor = the same-shaped pick pass (attachments, clears, copies, readback) plus one raw draw of a box over the',
      'pixel by a minimal pipeline, no weft code: the cheapest pass that can answer (#33 target: pick ≤ 1.3× draw floor).',
    ],
    ['scene', 'floor', 'draw floor', 'pick', 'pick/floor', 'target', 'met', 'pick/draw floor', 'target', 'met'],
    rows.map((r) => [
      r.label,
      ms(r.m.weftFloor),
      ms(r.m.weftDrawFloor),
      ms(r.m.weftPick),
      x(r.m.weftPick / r.m.weftFloor),
      '≤ 1.5×',
      met(r.m.weftPick <= 1.5 * r.m.weftFloor),
      x(r.m.weftPick / r.m.weftDrawFloor),
      '≤ 1.3×',
      met(r.m.weftPick <= 1.3 * r.m.weftDrawFloor),
    ]),
  );
  table(
    `weft pickManyAsync (${pointCount} points) per point vs a single pick, and pickRectAsync 191×120 vs a single pick`,
    ['Targets: pickMany ≥ 20× cheaper per point; marquee ≤ 3× a single pick (the issue names 10 000 meshes).'],
    [
      'scene',
      'single',
      'many',
      'per point',
      'single/per point',
      'target',
      'met',
      'marquee',
      'marquee/single',
      'target',
      'met',
    ],
    rows.map((r) => {
      const perPoint = r.m.weftMany / pointCount;
      const rect = r.m.weftRect / r.m.weftPick;
      return [
        r.label,
        ms(r.m.weftPick),
        ms(r.m.weftMany),
        perPoint.toFixed(3),
        x(r.m.weftPick / perPoint),
        '≥ 20×',
        met(r.m.weftPick / perPoint >= 20),
        ms(r.m.weftRect),
        x(rect),
        '≤ 3×',
        met(rect <= 3),
      ];
    }),
  );
  table(
    'weft vs Babylon.js GPUPicker, speed-up = Babylon.js time / weft time (medians, ms)',
    [
      'A GPUPicker request is drawn by the next scene render: its time includes that one frame (rendered as soon as the',
      'request is queued, no requestAnimationFrame wait). "frame" is a plain Babylon.js frame of the same scene; "−frame"',
      'speed-ups count only what the request adds to a frame the app renders anyway. Targets: multi and marquee ≥ 10×.',
    ],
    [
      'scene',
      'B floor',
      'B frame',
      'B pick',
      'B multi',
      'B box',
      'single',
      'multi',
      'met',
      'marquee',
      'met',
      'single −frame',
      'multi −frame',
      'marquee −frame',
    ],
    rows.map((r) => {
      const { m } = r;
      const minus = (v: number, weft: number) => x(Math.max(v - m.babylonFrame, 0) / weft);
      return [
        r.label,
        ms(m.babylonFloor),
        ms(m.babylonFrame),
        ms(m.babylonPick),
        ms(m.babylonMulti),
        ms(m.babylonBox),
        x(m.babylonPick / m.weftPick),
        x(m.babylonMulti / m.weftMany),
        met(m.babylonMulti / m.weftMany >= 10),
        x(m.babylonBox / m.weftRect),
        met(m.babylonBox / m.weftRect >= 10),
        minus(m.babylonPick, m.weftPick),
        minus(m.babylonMulti, m.weftMany),
        minus(m.babylonBox, m.weftRect),
      ];
    }),
  );
  table(
    'Do the answers agree? (weft vs Babylon.js on the same request)',
    [
      'centre: same mesh (and thin instance) at the centre pixel; multi: same answer per point (vs GPUPicker.multiPickAsync,',
      'and vs Babylon.js’s own CPU ray pick scene.pick at the same pixels); marquee: identity sets.',
      'Babylon.js 9.35’s GPUPicker on WebGPU answers for the vertically mirrored pixel (x, 479 − y): its picks disagree',
      'with its own scene.pick wherever the view is not mirror-symmetric (centre and marquee are); weft agrees with scene.pick.',
    ],
    [
      'scene',
      'centre',
      'multi vs GPUPicker',
      'multi vs B scene.pick',
      'vs GPUPicker at (x, 479−y)',
      'marquee',
      'B frames/pick',
      'floors B/weft',
    ],
    rows.map((r) => [r.label, ...agreement(r.answers), x(r.m.babylonFloor / r.m.weftFloor)]),
  );
  const listed = (label: string, what: string, keys: HitKey[], others: HitKey[], name: string) => {
    const wrong = keys.flatMap((k, i) =>
      k === others[i] ? [] : [`(${points[i].x},${points[i].y}) weft ${k} vs ${name} ${others[i]}`],
    );
    if (wrong.length)
      console.log(
        `  ${label}: ${wrong.length} ${what}: ${wrong.slice(0, 4).join('; ')}${wrong.length > 4 ? '; …' : ''}`,
      );
  };
  for (const r of rows) {
    const { weft, babylon } = r.answers;
    listed(r.label, 'multi-pick points differ from GPUPicker', weft.many, babylon.many, 'GPUPicker');
    listed(r.label, 'differ from scene.pick', weft.many, babylon.ray, 'scene.pick');
    listed(r.label, 'differ from GPUPicker at (x, 479 − y)', weft.many, babylon.mirrored, 'GPUPicker');
  }
}

/** Where weft's time goes per request: the stages of profile.ts, medians of 15 runs each after the timed rounds. */
export function printProfileTable(rows: PickRow[]): void {
  const names = {
    floor: 'floor',
    drawFloor: 'draw floor',
    pick: 'pick',
    many: 'pickMany 64',
    rect: 'marquee',
  } as const;
  table(
    'Profile: where weft’s time goes (medians of 15 runs per request after the timed rounds, ms)',
    [
      'JS = from the call to the first queue.submit (snapshot/refit, encode); submit→map = until mapAsync is called;',
      'map wait = until the (last) mapAsync resolves (GPU work + round trip); decode = from there to the answer.',
    ],
    ['scene', 'request', 'JS', 'submit→map', 'map wait', 'decode', 'total', 'submits'],
    rows.flatMap((r) =>
      (Object.keys(names) as (keyof typeof names)[]).map((k) => {
        const p = r.profile[k];
        return [
          r.label,
          names[k],
          ms(p.js),
          ms(p.submitToMap),
          ms(p.mapWait),
          ms(p.decode),
          ms(p.total),
          String(p.submits),
        ];
      }),
    ),
  );
}

export function printGbufferTable(m: Record<keyof GbufferRound, number>, info: PageInfo, count: number): void {
  const weftAlone = m.weftGbuffer / m.weftForward;
  const weftWith = m.weftBoth / m.weftForward;
  const babylonWith = m.babylonGbuffer / m.babylonPlain;
  const babylonAlone = Math.max(m.babylonGbuffer - m.babylonPlain, 0) / m.babylonPlain;
  const weftAdded = Math.max(m.weftBoth - m.weftForward, 0) / m.weftForward;
  table(
    `G-buffer frame / the same library's forward frame, ${info.meshesInGbufferScene} lit meshes at 640×480 (medians of ${count} interleaved rounds, ms)`,
    [
      `weft: geometry renderer with ${info.weftOutputs.length} outputs (${info.weftOutputs.join(', ')}) vs its forward frame on the canvas.`,
      `Babylon.js: GeometryBufferRenderer (${info.babylonOutputs.join(', ')}) in the scene frame vs the frame without it.`,
      'A Babylon.js G-buffer renders inside a scene frame; "G-buffer alone" for it is (G-buffer frame − plain frame).',
      'Target: weft’s ratio better (lower) than Babylon.js’s.',
    ],
    ['library', 'forward', 'G-buffer alone', 'ratio', 'forward + G-buffer', 'ratio'],
    [
      ['weft', ms(m.weftForward), ms(m.weftGbuffer), x(weftAlone), ms(m.weftBoth), x(weftWith)],
      [
        'Babylon.js',
        ms(m.babylonPlain),
        ms(Math.max(m.babylonGbuffer - m.babylonPlain, 0)),
        x(babylonAlone),
        ms(m.babylonGbuffer),
        x(babylonWith),
      ],
    ],
  );
  console.log(
    `  target (forward + G-buffer ratio): weft ${x(weftWith)} vs Babylon.js ${x(babylonWith)} → ${met(weftWith < babylonWith)}; added by the G-buffer (frame with it − frame without, / frame without): weft ${x(weftAdded)} vs Babylon.js ${x(babylonAlone)} → ${met(weftAdded < babylonAlone)}`,
  );
}
