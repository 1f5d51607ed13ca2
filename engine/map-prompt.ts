// Measured in Chromium 156 on an NVIDIA H100: the first buffer map after the page presents a canvas frame resolves
// ~3–4 ms after the GPU finished (a bare 256-byte copy + map: 3.4 ms median, 0.4 ms when it follows another map), and
// waiting before the submit does not help. While the map is pending, an empty `queue.submit([])` (at most one per
// 0.1 ms, each from a task of its own) keeps the GPU process answering the page and the map resolves in ~1 ms. Node's
// Dawn polls on its own, so only pages (windows and workers) prompt.

/** How long a pending map is prompted before weft leaves it to the browser (a map that slow is waiting on the GPU). */
const promptLimitMs = 20;

interface PromptState {
  /** Maps of the device in flight. */
  pending: number;
  prompting: boolean;
}

/** At most one empty submit per this long: enough to keep the GPU process answering without flooding it. */
const promptIntervalMs = 0.1;

let promptsByDevice: WeakMap<GPUDevice, PromptState> | undefined;

function inBrowser(): boolean {
  const global = globalThis as { document?: unknown; WorkerGlobalScope?: unknown };
  return global.document !== undefined || global.WorkerGlobalScope !== undefined;
}

/**
 * Maps `buffer` for reading, prompting the browser while the map is pending (one empty submit per task on `device`,
 * shared by every map of that device in flight, for at most 20 ms).
 * @internal
 */
export function mapForReadPromptlyAsync(device: GPUDevice, buffer: GPUBuffer, byteLength: number): Promise<void> {
  const mapped = buffer.mapAsync(GPUMapMode.READ, 0, byteLength);
  if (typeof MessageChannel === 'undefined' || !inBrowser()) return mapped;
  // A submit sends what the page queued to the GPU process at once (the map request would otherwise wait for the end of
  // the task): a walk that runs while a pick is drawn (hosts/pick-ahead.ts) finds the map already asked for.
  device.queue.submit([]);
  promptsByDevice ??= new WeakMap();
  let prompt = promptsByDevice.get(device);
  if (!prompt) {
    prompt = { pending: 0, prompting: false };
    promptsByDevice.set(device, prompt);
  }
  const state = prompt;
  state.pending++;
  const settle = () => {
    state.pending--;
  };
  mapped.then(settle, settle);
  if (!state.prompting) startPrompting(device, state);
  return mapped;
}

function startPrompting(device: GPUDevice, state: PromptState): void {
  state.prompting = true;
  const started = performance.now();
  const channel = new MessageChannel();
  let last = started;
  channel.port1.onmessage = () => {
    const now = performance.now();
    if (state.pending === 0 || now - started > promptLimitMs) {
      channel.port1.close();
      state.prompting = false;
      return;
    }
    if (now - last >= promptIntervalMs) {
      last = now;
      device.queue.submit([]);
    }
    channel.port2.postMessage(null);
  };
  channel.port2.postMessage(null);
}
