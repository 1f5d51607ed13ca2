import type { Fragment } from './fragment-types.js';

const source = `fn lambert(albedo: vec3f, normal: vec3f, lightDirection: vec3f, lightColor: vec3f, ambientColor: vec3f) -> vec3f {
  let diffuse = max(dot(normal, lightDirection), 0.0);
  return albedo * (ambientColor + lightColor * diffuse);
}
`;

/** Lambert diffuse plus ambient: `lambert(albedo, normal, lightDirection, lightColor, ambientColor)`. */
export function makeLambertLightingFragment(): Fragment {
  return { id: 'lambert-lighting', source };
}
