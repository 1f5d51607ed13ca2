import type { ComposedSourceMap } from './compose-shader.js';
import type { MappedShaderMessage } from './errors.js';
import { generatedPath, locate, mapLinkedCompilationInfo, sourceMessage } from './link.js';

/**
 * Maps a device's `GPUCompilationInfo` for a composed shader to messages located in the fragments' own sources
 * (`fragmentId:line:column`). Without a source map (plain WGSL), positions stay in the code, under `weft:code`.
 */
export function mapCompilationInfo(
  code: string,
  sourceMap: ComposedSourceMap | undefined,
  info: GPUCompilationInfo,
): MappedShaderMessage[] {
  const firstLine = (text: string) => text.split('\n')[0].trim();
  if (!sourceMap) {
    const source = { path: generatedPath('code'), text: code };
    return info.messages.map((m) => {
      const at = locate(code, m.offset);
      return sourceMessage(source, at.line, at.column, m.type, firstLine(m.message));
    });
  }
  const mapped = mapLinkedCompilationInfo(sourceMap.linked, info);
  return mapped.messages.map((m) => {
    const source = sourceMap.sources.get(m.module.url) ?? { path: generatedPath('code'), text: m.module.text ?? code };
    return sourceMessage(source, m.lineNum, m.linePos, m.type, firstLine(m.message));
  });
}

/** @internal Creates a shader module inside its own validation scope, so a bad shader leaves no device error behind. */
export function createShaderModuleScoped(
  device: GPUDevice,
  code: string,
  label: string,
): { module: GPUShaderModule; scope: Promise<unknown> } {
  device.pushErrorScope('validation');
  const module = device.createShaderModule({ label, code });
  return { module, scope: device.popErrorScope() };
}

/** Waits for a module's compilation info and maps it (see `mapCompilationInfo`). */
export async function compilationMessagesAsync(
  module: GPUShaderModule,
  code: string,
  sourceMap: ComposedSourceMap | undefined,
  scope?: Promise<unknown>,
): Promise<MappedShaderMessage[]> {
  const info = await module.getCompilationInfo();
  await scope;
  return mapCompilationInfo(code, sourceMap, info);
}
