import type { Document } from '@gltf-transform/core';
import type { Scene } from '../scene.js';
import type { GltfLoadOptions, GltfLoadResult } from './gltf-loader.js';

/**
 * Adds a glTF/GLB's static meshes to the scene; the glTF reader loads on first use.
 * @throws {EngineError} when the bytes are not a glTF/GLB weft can load (e.g. a non-triangle mesh, a malformed animation sampler)
 */
export async function loadGltfAsync(
  scene: Scene,
  source: Uint8Array | Document,
  options?: GltfLoadOptions,
): Promise<GltfLoadResult> {
  const loader = await import('./gltf-loader.js');
  return loader.loadGltfAsync(scene, source, options);
}

export type { GltfLoadOptions, GltfLoadResult };
