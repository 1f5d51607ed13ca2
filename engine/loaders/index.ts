/**
 * The glTF/GLB loader. An entry of its own, left out of the root entry like weft-gpu/vite, so that a page that never
 * loads glTF never bundles @gltf-transform/core (whose Node file reader imports node:fs) nor needs its declarations.
 * @module weft-gpu/gltf
 */

// Loading: a glTF/GLB's meshes, node transforms, skins and morph targets into a scene.
export { type GltfLoadOptions, type GltfLoadResult, loadGltfAsync } from './load-gltf.js';
// Animation: poses joints, morph weights and node transforms at a time of a named or numbered animation.
export { playGltfAnimation } from './gltf-animation.js';
