// The side panel: mode, selection, the last pick and picking capability, frame time.
import type { EditorState } from '../editor/editor-state.js';
import { itemName } from '../editor/selection-items.js';

/** Elements of the panel the editor fills in. */
export interface Panel {
  modeButtons: Map<string, HTMLButtonElement>;
  selection: HTMLElement;
  pick: HTMLElement;
  capability: HTMLElement;
  frame: HTMLElement;
  shownVersion: number;
}

const modeLabels: [EditorState['mode'], string][] = [
  ['select', 'Q Select'],
  ['translate', 'W Move'],
  ['rotate', 'E Rotate'],
  ['scale', 'R Scale'],
];

/** Builds the mode buttons and finds the panel's slots. */
export function createPanel(root: HTMLElement, onMode: (mode: EditorState['mode']) => void): Panel {
  const bar = root.querySelector<HTMLElement>('#modes')!;
  const modeButtons = new Map<string, HTMLButtonElement>();
  for (const [mode, label] of modeLabels) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = label;
    button.dataset.mode = mode;
    button.addEventListener('click', () => onMode(mode));
    bar.append(button);
    modeButtons.set(mode, button);
  }
  const find = (id: string) => root.querySelector<HTMLElement>(`#${id}`)!;
  return {
    modeButtons,
    selection: find('selection'),
    pick: find('last-pick'),
    capability: find('capability'),
    frame: find('frame-time'),
    shownVersion: -1,
  };
}

const fmt = (v: number) => v.toFixed(3);
const vector = (v: readonly number[] | null) => (v ? v.map(fmt).join(', ') : '—');

function row(label: string, value: string): HTMLTableRowElement {
  const tr = document.createElement('tr');
  const th = document.createElement('th');
  const td = document.createElement('td');
  th.textContent = label;
  td.textContent = value;
  tr.append(th, td);
  return tr;
}

/** Refreshes the panel when the state's panel version moved. */
export function updatePanel(panel: Panel, state: EditorState): void {
  if (panel.shownVersion === state.panelVersion) return;
  panel.shownVersion = state.panelVersion;
  for (const [mode, button] of panel.modeButtons) button.classList.toggle('active', mode === state.mode);
  const names = [...state.selection.items.values()].map(itemName);
  panel.selection.textContent = names.length ? names.join('\n') : 'nothing selected';
  panel.capability.textContent = state.detailed
    ? `detailed picking: triangle, barycentrics, normal, UV (${state.picker.detailMethod ?? 'primitive-index'})`
    : 'basic picking: identity, point, distance';
  const pick = state.lastPick;
  const table = document.createElement('table');
  if (!pick) table.append(row('—', 'click an object'));
  else if (!pick.hit) table.append(row('pixel', `${pick.x.toFixed(0)}, ${pick.y.toFixed(0)}`), row('mesh', 'nothing'));
  else {
    table.append(
      row('pixel', `${pick.x.toFixed(0)}, ${pick.y.toFixed(0)}`),
      row('mesh', pick.mesh ?? '—'),
      row('instance', pick.instance >= 0 ? String(pick.instance) : '—'),
      row('face', pick.face >= 0 ? String(pick.face) : '—'),
      row('bu / bv', pick.bu !== null && pick.bv !== null ? `${fmt(pick.bu)} / ${fmt(pick.bv)}` : '—'),
      row('point', vector(pick.point)),
      row('distance', pick.distance !== null ? fmt(pick.distance) : '—'),
      row('normal', vector(pick.normal)),
      row('UV', vector(pick.uv)),
    );
  }
  panel.pick.replaceChildren(table);
}

/** Shows the latest frame's timing. */
export function showFrameTime(panel: Panel, cpuMs: number, gpuMs: number): void {
  panel.frame.textContent = `frame: ${cpuMs.toFixed(1)} ms CPU, ${gpuMs.toFixed(1)} ms GPU`;
}
