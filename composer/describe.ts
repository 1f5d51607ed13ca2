import type { ComposedShader } from './compose-shader.js';

// GPUShaderStage bits, spelled out so this module needs no WebGPU global (it runs in Node and in a CLI).
const stageBits: readonly (readonly [number, string])[] = [
  [1, 'vertex'],
  [2, 'fragment'],
  [4, 'compute'],
];

/** Names the stages of a `GPUShaderStageFlags` mask: `3` → `vertex|fragment`, `0` → `none`. */
function shaderStageNames(visibility: number): string {
  return stageBits.flatMap(([bit, name]) => ((visibility & bit) !== 0 ? [name] : [])).join('|') || 'none';
}

/**
 * A readable summary of a composed shader's layouts (key, groups, vertex buffers, varyings, targets), one item per
 * line. Binding visibility shows as stage names (`"visibility":"vertex|fragment"`), not as a bit mask.
 */
export function describeComposedShader(composed: ComposedShader): string {
  const lines = [
    `key ${composed.key}`,
    `fragments ${composed.fragments.join(', ')}`,
    `conditions ${JSON.stringify(composed.conditions)}`,
  ];
  if (Object.keys(composed.constants).length) lines.push(`constants ${JSON.stringify(composed.constants)}`);
  if (composed.stageResources)
    lines.push(
      `output library: ${composed.vertexEntryPoint}(input, ${composed.stageResources.vertex.join(', ')})${composed.fragmentEntryPoint ? `, ${composed.fragmentEntryPoint}(input, ${composed.stageResources.fragment.join(', ')})` : ''}`,
    );
  lines.push(
    `features ${composed.features.map((f) => `${f.feature} (${f.fragments.join(', ')})`).join(', ') || 'none'}`,
  );
  for (const group of composed.bindGroups) {
    lines.push(`@group(${group.group}) ${group.role ?? 'kept for the host'}${group.bindings.length ? '' : ' (empty)'}`);
    group.bindings.forEach((b, i) => {
      const entry = group.entries[i]!;
      const shown = { ...entry, visibility: shaderStageNames(entry.visibility) };
      lines.push(
        `  @binding(${b.binding}) ${b.name}: ${b.wgslType} ${JSON.stringify(shown)} from ${b.fragments.join(', ')}`,
      );
    });
  }
  composed.vertexBuffers.forEach((buffer, i) => {
    const attributes = [...buffer.attributes].map(
      (a) =>
        `@location(${a.shaderLocation}) ${composed.vertexInputs.find((v) => v.location === a.shaderLocation)!.semantic} ${a.format} +${a.offset}`,
    );
    lines.push(
      `vertex buffer ${i} (caller buffer ${composed.vertexBufferSources[i]}): stride ${buffer.arrayStride} per ${buffer.stepMode ?? 'vertex'}: ${attributes.join(', ')}`,
    );
  });
  for (const v of composed.varyings)
    lines.push(
      `varying @location(${v.location}) ${v.interpolation ? `@interpolate(${v.interpolation}) ` : ''}${v.name}: ${v.wgslType}`,
    );
  for (const t of composed.targets)
    lines.push(`target @location(${t.location}) ${t.name}: ${t.wgslType} -> ${t.format ?? 'caller format'}`);
  for (const s of composed.slots)
    lines.push(`slot ${s.name} <- ${s.fillers.join(', ') || (s.usesDefault ? 'default' : 'nothing')}`);
  return lines.join('\n');
}
