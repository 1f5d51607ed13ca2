export { makeBoxData, createBoxMesh, type BoxOptions } from './box.js';
export { makeSphereData, createSphereMesh, type SphereOptions } from './sphere.js';
export { makeTorusData, createTorusMesh, type TorusOptions } from './torus.js';
export { makePlaneData, createPlaneMesh, type PlaneOptions } from './plane.js';
export { makeCapsuleData, createCapsuleMesh, type CapsuleOptions } from './capsule.js';
export { makeBunnyDataAsync, createBunnyMeshAsync, type BunnyOptions } from './bunny.js';
export { computeSmoothNormals } from './normals.js';
export { maxPrimitiveSegments } from './options.js';
