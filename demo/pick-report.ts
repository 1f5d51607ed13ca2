import type { PickingInfo } from '../picking/index.js';

const palette = [
  [255, 80, 80],
  [80, 220, 120],
  [90, 160, 255],
  [255, 200, 60],
  [220, 110, 255],
  [60, 230, 230],
];

/** Copies the frame and draws a cross at each picked pixel: the mesh's palette colour on a hit, white on a miss. */
export function annotatePicks(
  pixels: Uint8Array,
  width: number,
  height: number,
  points: readonly { x: number; y: number }[],
  picks: readonly PickingInfo[],
): Uint8Array {
  const out = pixels.slice();
  points.forEach((p, i) => {
    const info = picks[i];
    const colour = info.hit ? palette[info.pickedMesh!.uniqueId % palette.length] : [255, 255, 255];
    for (let d = -5; d <= 5; d++) {
      for (const [x, y] of [
        [p.x + d, p.y],
        [p.x, p.y + d],
      ]) {
        if (x < 0 || y < 0 || x >= width || y >= height) continue;
        out.set([...colour, 255], (y * width + x) * 4);
      }
    }
  });
  return out;
}

const fixed = (v: readonly number[] | null, digits = 3) => (v ? v.map((c) => c.toFixed(digits)).join(', ') : '—');

function describeCpu(gpu: PickingInfo, cpu: PickingInfo): string {
  if (!cpu.hit) return gpu.hit ? 'miss' : 'miss ✓';
  const same =
    gpu.hit &&
    gpu.pickedMesh === cpu.pickedMesh &&
    gpu.thinInstanceIndex === cpu.thinInstanceIndex &&
    (gpu.faceId < 0 || gpu.faceId === cpu.faceId);
  return same
    ? `${cpu.pickedMesh!.name} ${cpu.faceId} ✓`
    : `${cpu.pickedMesh!.name}${cpu.thinInstanceIndex >= 0 ? `#${cpu.thinInstanceIndex}` : ''} ${cpu.faceId} ✗`;
}

/** One line per pick: pixel, identity, face, barycentrics, point, world normal, UV, and the CPU pick of the same pixel. */
export function formatPickTable(
  points: readonly { x: number; y: number }[],
  picks: readonly PickingInfo[],
  uvOf: (info: PickingInfo) => [number, number] | null,
  cpuPicks: readonly PickingInfo[],
): string {
  const rows = [['pixel', 'mesh', 'instance', 'face', 'bu, bv', 'point', 'normal (world)', 'uv', 'CPU pickSync']];
  points.forEach((p, i) => {
    const info = picks[i];
    rows.push(
      info.hit
        ? [
            `${p.x},${p.y}`,
            info.pickedMesh!.name,
            info.thinInstanceIndex >= 0 ? String(info.thinInstanceIndex) : '—',
            info.faceId >= 0 ? String(info.faceId) : '—',
            info.faceId >= 0 ? fixed([info.bu, info.bv], 2) : '—',
            fixed(info.pickedPoint, 2),
            fixed(info.pickedNormalWorld, 2),
            fixed(uvOf(info), 2),
            describeCpu(info, cpuPicks[i]),
          ]
        : [`${p.x},${p.y}`, '(miss)', '', '', '', '', '', '', describeCpu(info, cpuPicks[i])],
    );
  });
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => `  ${r.map((cell, c) => cell.padEnd(widths[c])).join('  ')}`).join('\n');
}
