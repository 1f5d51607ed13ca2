// Counts live GPU objects with an explicit lifetime (buffers, textures, query sets) a device creates: created minus
// destroyed, by label, until `restore()`. Bind groups, layouts, modules, samplers and pipelines have no destroy().
export interface LiveCounter {
  live: () => number;
  created: () => number;
  liveLabels: () => string[];
  restore: () => void;
}

export function countLiveObjects(device: GPUDevice): LiveCounter {
  const target = device as unknown as Record<string, (...args: unknown[]) => unknown>;
  const keys = ['createBuffer', 'createTexture', 'createQuerySet'];
  const originals = keys.map((k) => target[k]);
  const alive = new Map<object, string>();
  let created = 0;
  keys.forEach((k, i) => {
    target[k] = (...args: unknown[]) => {
      const object = originals[i].apply(device, args) as { destroy: () => void; label?: string };
      created++;
      alive.set(object, `${k.slice(6)} ${(args[0] as { label?: string })?.label ?? '(no label)'}`);
      const destroy = object.destroy.bind(object);
      object.destroy = () => {
        alive.delete(object);
        destroy();
      };
      return object;
    };
  });
  return {
    live: () => alive.size,
    created: () => created,
    liveLabels: () => [...alive.values()],
    restore: () => keys.forEach((k, i) => (target[k] = originals[i])),
  };
}
