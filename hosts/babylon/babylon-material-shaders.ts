// The WGSL sources of a weft surface as a Babylon.js ShaderMaterial, in Babylon.js's WGSL dialect (`attribute`,
// `varying`, `uniform` lines; `vertexInputs.x`, `uniforms.x`). The vertex stage is Babylon.js's own: its includes
// place the mesh (world matrix, instances, thin instances, bones, morph targets, baked vertex animation, clip planes);
// the fragment stage fills weft's FragmentInput and calls the composed library's weftFragment.
import type { StructLayout } from '../../composer/uniform-layout-types.js';

/** The Babylon.js uniform of one weft field: `weft_<binding>_<field>`. @internal */
export function babylonUniformName(binding: string, field: string): string {
  return `weft_${binding}_${field}`;
}

/** Whether a WGSL field type travels as f32 values and is converted back in the shader (integers). @internal */
export function isIntegerType(wgsl: string): boolean {
  return /^(i32|u32|vec[234][iu])$/.test(wgsl);
}

/** The type Babylon.js's uniform buffer holds for a field (integers ride as f32), in the long form its parser reads. */
function carrierType(wgsl: string): string {
  if (wgsl === 'i32' || wgsl === 'u32' || wgsl === 'f32') return 'f32';
  const vector = /^vec([234])[fiu]$/.exec(wgsl);
  if (vector) return `vec${vector[1]}<f32>`;
  return wgsl.replace(/^(mat\dx\d)f$/, '$1<f32>');
}

/** The WGSL expression that turns a Babylon.js uniform back into the field's own type. */
function readBack(wgsl: string, name: string): string {
  return isIntegerType(wgsl) ? `${wgsl}(uniforms.${name})` : `uniforms.${name}`;
}

const vertexSource = (uvs: boolean) => `attribute position : vec3<f32>;
attribute normal : vec3<f32>;
#ifdef UV1
attribute uv : vec2<f32>;
#endif
#ifdef VERTEXCOLOR
attribute color : vec4<f32>;
#endif
#include<bonesDeclaration>
#include<bakedVertexAnimationDeclaration>
#include<morphTargetsVertexGlobalDeclaration>
#include<morphTargetsVertexDeclaration>[0..maxSimultaneousMorphTargets]
#include<clipPlaneVertexDeclaration>
#include<instancesDeclaration>
uniform viewProjection : mat4x4<f32>;
varying vWeftWorldPosition : vec3<f32>;
varying vWeftWorldNormal : vec3<f32>;
${uvs ? 'varying vWeftUV : vec2<f32>;\n' : ''}
@vertex
fn main(input : VertexInputs) -> FragmentInputs {
  var positionUpdated : vec3<f32> = vertexInputs.position;
  var normalUpdated : vec3<f32> = vertexInputs.normal;
#ifdef UV1
  var uvUpdated : vec2<f32> = vertexInputs.uv;
#endif
#ifdef VERTEXCOLOR
  var colorUpdated : vec4<f32> = vertexInputs.color;
#endif
#include<morphTargetsVertexGlobal>
#include<morphTargetsVertex>[0..maxSimultaneousMorphTargets]
#include<instancesVertex>
#include<bonesVertex>
#include<bakedVertexAnimation>
  let worldPos = finalWorld * vec4<f32>(positionUpdated, 1.0);
#include<clipPlaneVertex>
  vertexOutputs.position = uniforms.viewProjection * worldPos;
  vertexOutputs.vWeftWorldPosition = worldPos.xyz;
  // The inverse transpose of the world matrix's upper 3x3 (cofactors over the determinant), as weft's normalMatrix.
  let m = mat3x3<f32>(finalWorld[0].xyz, finalWorld[1].xyz, finalWorld[2].xyz);
  let cofactors = mat3x3<f32>(cross(m[1], m[2]), cross(m[2], m[0]), cross(m[0], m[1]));
  vertexOutputs.vWeftWorldNormal = (cofactors * normalUpdated) / dot(m[0], cofactors[0]);
${uvs ? '  vertexOutputs.vWeftUV = uvUpdated;\n' : ''}}
`;

/**
 * The vertex and fragment sources of a material whose fragment stage runs `library` (a composed library) with its
 * fragment-stage structs built field by field from Babylon.js uniforms. @internal
 */
export function makeBabylonMaterialSources(
  library: string,
  structs: ReadonlyMap<string, StructLayout>,
  uvs: boolean,
): { vertexSource: string; fragmentSource: string } {
  const uniformLines = [...structs]
    .flatMap(([binding, struct]) =>
      struct.fields.map((f) => `uniform ${babylonUniformName(binding, f.name)} : ${carrierType(f.type.wgsl)};\n`),
    )
    .join('');
  const fills = [...structs]
    .map(
      ([binding, struct]) =>
        `  var weftHost_${binding} : ${struct.name};\n${struct.fields
          .map(
            (f) => `  weftHost_${binding}.${f.name} = ${readBack(f.type.wgsl, babylonUniformName(binding, f.name))};\n`,
          )
          .join('')}`,
    )
    .join('');
  const args = [...structs.keys()].map((binding) => `, weftHost_${binding}`).join('');
  const fragmentSource = `varying vWeftWorldPosition : vec3<f32>;
varying vWeftWorldNormal : vec3<f32>;
${uvs ? 'varying vWeftUV : vec2<f32>;\n' : ''}${uniformLines}#include<clipPlaneFragmentDeclaration>
${library}
@fragment
fn main(input : FragmentInputs) -> FragmentOutputs {
#include<clipPlaneFragment>
  var weftInput : FragmentInput;
  weftInput.position = fragmentInputs.position;
  weftInput.worldPosition = fragmentInputs.vWeftWorldPosition;
  weftInput.worldNormal = fragmentInputs.vWeftWorldNormal;
${uvs ? '  weftInput.uv = fragmentInputs.vWeftUV;\n' : ''}${fills}  fragmentOutputs.color = weftFragment(weftInput${args}).color;
}
`;
  return { vertexSource: vertexSource(uvs), fragmentSource };
}

/** Babylon.js's WGSL includes the sources use, registered in its ShaderStore when their modules load. @internal */
export async function loadBabylonMaterialIncludesAsync(): Promise<void> {
  await Promise.all([
    import('@babylonjs/core/ShadersWGSL/ShadersInclude/bonesDeclaration.js'),
    import('@babylonjs/core/ShadersWGSL/ShadersInclude/bonesVertex.js'),
    import('@babylonjs/core/ShadersWGSL/ShadersInclude/bakedVertexAnimationDeclaration.js'),
    import('@babylonjs/core/ShadersWGSL/ShadersInclude/bakedVertexAnimation.js'),
    import('@babylonjs/core/ShadersWGSL/ShadersInclude/morphTargetsVertexGlobalDeclaration.js'),
    import('@babylonjs/core/ShadersWGSL/ShadersInclude/morphTargetsVertexDeclaration.js'),
    import('@babylonjs/core/ShadersWGSL/ShadersInclude/morphTargetsVertexGlobal.js'),
    import('@babylonjs/core/ShadersWGSL/ShadersInclude/morphTargetsVertex.js'),
    import('@babylonjs/core/ShadersWGSL/ShadersInclude/instancesDeclaration.js'),
    import('@babylonjs/core/ShadersWGSL/ShadersInclude/instancesVertex.js'),
    import('@babylonjs/core/ShadersWGSL/ShadersInclude/clipPlaneVertexDeclaration.js'),
    import('@babylonjs/core/ShadersWGSL/ShadersInclude/clipPlaneVertex.js'),
    import('@babylonjs/core/ShadersWGSL/ShadersInclude/clipPlaneFragmentDeclaration.js'),
    import('@babylonjs/core/ShadersWGSL/ShadersInclude/clipPlaneFragment.js'),
  ]);
}
