// three.js's own GLTFLoader and AnimationMixer on GLB bytes: the independent reference for weft's glTF player.
// Pure (no Node API): GLTFLoader.parse takes an ArrayBuffer, so a page bundle can use it as well.
import { type AnimationClip, AnimationMixer, LoopOnce, type Object3D } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';

/** A parsed glTF scene and a mixer that poses it at a time (clamped at the clip's end, like weft's player). */
export interface ThreeGltfPlayer {
  scene: Object3D;
  clips: AnimationClip[];
  /** Poses the scene at `seconds` of clip `name` and updates world matrices. */
  poseAt(name: string, seconds: number): void;
}

/** Parses GLB bytes with three's GLTFLoader (no textures are expected). */
export async function parseGlbWithThree(bytes: Uint8Array): Promise<ThreeGltfPlayer> {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const gltf = await new Promise<{ scene: Object3D; animations: AnimationClip[] }>((resolve, reject) =>
    new GLTFLoader().parse(buffer, '', resolve, reject),
  );
  const mixer = new AnimationMixer(gltf.scene);
  return {
    scene: gltf.scene,
    clips: gltf.animations,
    poseAt(name, seconds) {
      const clip = gltf.animations.find((c) => c.name === name);
      if (!clip) throw new Error(`parseGlbWithThree: no clip ${JSON.stringify(name)}`);
      mixer.stopAllAction();
      const action = mixer.clipAction(clip);
      action.setLoop(LoopOnce, 1);
      action.clampWhenFinished = true;
      action.play();
      mixer.setTime(seconds);
      gltf.scene.updateMatrixWorld(true);
    },
  };
}
